/**
 * Notifications as the app says them, and the toast that tells the signed-in user of one as it
 * arrives over /ws (the private `notifications` topic), on whatever screen is open: mounted once
 * by the app frame; the toast waits for one on screen to end (the user's own action said first).
 * The list and the unread count read again (use-unread-count.ts listens too).
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { notificationParams, NOTIFICATION_TYPES, type NotificationType } from '@bourse/shared';
import { translate } from '../i18n';
import { subscribe } from '../lib/realtime';
import { queueToast } from '../lib/toast';
import { useUser } from './use-user';

/**
 * The text of a notification in the current language, its values kept left to right. A sign-in
 * whose browser could not be told names the kind of device (`unknown`, `mobile`…): said in the
 * language too.
 */
export function notificationText(type: NotificationType, params: readonly string[]): string {
  const [first, ...rest] = params;
  const said =
    type === 'newSignIn' && first !== undefined && /^[a-z]+$/.test(first)
      ? [translate(`security_device_${first}`), ...rest]
      : params;
  return translate(`notify_${type}`, notificationParams(said));
}

function isNotification(data: unknown): data is { type: NotificationType; params: string[] } {
  if (!data || typeof data !== 'object') return false;
  const { type, params } = data as { type?: unknown; params?: unknown };
  return (
    typeof type === 'string' &&
    (NOTIFICATION_TYPES as readonly string[]).includes(type) &&
    Array.isArray(params) &&
    params.every((param) => typeof param === 'string')
  );
}

export function useNotificationToasts(): void {
  const { signedIn } = useUser();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!signedIn) return;
    return subscribe('notifications', (data) => {
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
      if (isNotification(data)) queueToast(notificationText(data.type, data.params));
    });
  }, [signedIn, queryClient]);
}
