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

function render(message: string, durationMs: number): void {
  // No document, no screen to toast on (the calls' unit tests run in Node).
  if (typeof document === 'undefined') return;
  import('./antd-render')
    .then(({ Toast }) => Toast.show({ content: message, duration: durationMs }))
    .catch((error: unknown) => console.error('toast failed', error));
}

/**
 * antd-mobile shows one toast at a time: a new one replaces the one on screen. What the user just
 * did is said at once; what arrives on its own (a notification) waits for the toast on screen to
 * end, so that neither text is lost, and several arrivals are said one after another.
 */
export function toastLine(
  show: (message: string, durationMs: number) => void,
  now: () => number = Date.now,
) {
  let shownUntil = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waiting: { message: string; durationMs: number }[] = [];
  const say = (message: string, durationMs: number) => {
    shownUntil = now() + durationMs;
    show(message, durationMs);
  };
  const drain = (): void => {
    if (timer !== undefined) return;
    const wait = shownUntil - now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        drain();
      }, wait);
      return;
    }
    const next = waiting.shift();
    if (!next) return;
    say(next.message, next.durationMs);
    if (waiting.length > 0) drain();
  };
  return {
    /** Says it now, over whatever is on screen. */
    now: say,
    /** Says it once the toast on screen (and those waiting before it) have ended. */
    after(message: string, durationMs: number): void {
      waiting.push({ message, durationMs });
      drain();
    },
  };
}

const line = toastLine(render);

export function showToast(message: string, durationMs: number = TOAST_MS.standard): void {
  line.now(message, durationMs);
}

/** A toast of something that arrived on its own: it does not cut off the toast on screen. */
export function queueToast(message: string, durationMs: number = TOAST_MS.standard): void {
  line.after(message, durationMs);
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
