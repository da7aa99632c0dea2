/**
 * Toasts (spec section 9: 2000 ms, layer 10090). antd-mobile's Toast brings its animation
 * library, so it loads with the first toast instead of with the first screen.
 */
import { UI } from '@bourse/shared';

export function showToast(message: string, durationMs: number = UI.toastDurationMs): void {
  import('./antd-render')
    .then(({ Toast }) => Toast.show({ content: message, duration: durationMs }))
    .catch((error: unknown) => console.error('toast failed', error));
}
