/**
 * The app-wide listener of notifications (hooks/use-notification-toasts.ts), as a component the
 * app frame loads after the first paint: the WebSocket code stays out of the first screen.
 */
import { useNotificationToasts } from '../hooks/use-notification-toasts';

export default function NotificationToasts() {
  useNotificationToasts();
  return null;
}
