/**
 * Toasts (spec section 9: 2000 ms, layer 10090; 1500 ms from the helpers, 700 ms for the image
 * toast; section 8: an image that cannot be saved toasts the translated image error for 2 s).
 * antd-mobile's Toast brings its animation library, so it loads with the first toast instead of
 * with the first screen.
 */
import { UI } from '@bourse/shared';
import { translate } from '../i18n';

/** How long each kind of toast stays (spec sections 8 and 9). */
export const TOAST_MS = {
  /** Every toast that says nothing else: 2000 ms. */
  standard: UI.toastDurationMs,
  /** The helpers' toasts (a copied text, or that it could not be copied): 1500 ms. */
  helper: UI.helperToastDurationMs,
  /** The image toast (a QR image saved): 700 ms. */
  image: UI.imageToastDurationMs,
  /** An image that could not be saved: 2 s. */
  imageSaveFailure: 2000,
} as const;

export function showToast(message: string, durationMs: number = TOAST_MS.standard): void {
  import('./antd-render')
    .then(({ Toast }) => Toast.show({ content: message, duration: durationMs }))
    .catch((error: unknown) => console.error('toast failed', error));
}

/** A helper's short confirmation (1500 ms). */
export function showHelperToast(message: string): void {
  showToast(message, TOAST_MS.helper);
}

/** The image toast (700 ms). */
export function showImageToast(message: string): void {
  showToast(message, TOAST_MS.image);
}

/** Saving an image failed: the translated image error for 2 s (spec section 8). */
export function showImageSaveFailure(): void {
  showToast(translate('img_error'), TOAST_MS.imageSaveFailure);
}
