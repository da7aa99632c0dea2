/**
 * A picked image (a deposit's payment proof, an identity document), compressed as SEED-SPEC
 * section 5 says: drawn at width 800, sent as a base64 JPEG at quality 0.7, its long side within
 * 3264 and its short side within 2448, scaled by 0.8 again and again until it is. The numbers are
 * PAYMENT_PROOF's (packages/shared), which the server checks identity documents against too.
 *
 * Order of the rules: the width comes first (an image is made smaller, never larger), then the
 * side limits; so a very tall, narrow receipt ends within the limits too instead of 800 by
 * thousands of pixels, and whatever is sent passes the server's side check.
 */
import { PAYMENT_PROOF } from '@bourse/shared';

export interface ImageSize {
  width: number;
  height: number;
}

/** Compression failed: the image could not be read, drawn or encoded. */
export class CompressionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CompressionError';
  }
}

/** The size an image of `width` by `height` pixels is drawn at (whole pixels, at least one). */
export function compressedSize(width: number, height: number): ImageSize {
  if (!(Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0)) {
    throw new CompressionError(`not an image size: ${width} x ${height}`);
  }
  let w = width;
  let h = height;
  if (w > PAYMENT_PROOF.compressWidth) {
    h = (h * PAYMENT_PROOF.compressWidth) / w;
    w = PAYMENT_PROOF.compressWidth;
  }
  while (Math.max(w, h) > PAYMENT_PROOF.longSide || Math.min(w, h) > PAYMENT_PROOF.shortSide) {
    w *= PAYMENT_PROOF.scaleStep;
    h *= PAYMENT_PROOF.scaleStep;
  }
  return { width: Math.max(1, Math.round(w)), height: Math.max(1, Math.round(h)) };
}

/** Whether a picked file is one of the accepted types (JPEG or PNG). */
export function isAcceptedImage(file: { type: string; name: string }): boolean {
  if (file.type) return (PAYMENT_PROOF.mimeTypes as readonly string[]).includes(file.type);
  // Some phones give camera pictures no type: the name decides then.
  return /\.(jpe?g|png)$/i.test(file.name);
}

/** Bytes a base64 data URL decodes to. */
export function dataUrlBytes(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

type Drawable = ImageBitmap | HTMLImageElement;

async function decode(file: Blob): Promise<{ image: Drawable; release: () => void }> {
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    return { image: bitmap, release: () => bitmap.close() };
  }
  const url = URL.createObjectURL(file);
  const image = new Image();
  try {
    image.src = url;
    await image.decode();
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
  return { image, release: () => URL.revokeObjectURL(url) };
}

/**
 * Reads a picked image and returns the image to send: `data:image/jpeg;base64,…`. Rejects with a
 * CompressionError whatever went wrong (not an image, a broken file, no canvas, no JPEG encoder).
 */
export async function compressImage(file: Blob): Promise<string> {
  let decoded: Awaited<ReturnType<typeof decode>>;
  try {
    decoded = await decode(file);
  } catch (error) {
    throw new CompressionError('the image could not be read', { cause: error });
  }
  try {
    const { image } = decoded;
    const { width, height } = compressedSize(image.width, image.height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new CompressionError('no 2d canvas');
    // JPEG has no transparency: transparent parts of a PNG become white, not black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, width, height);
    const dataUrl = canvas.toDataURL(PAYMENT_PROOF.mimeTypes[0], PAYMENT_PROOF.compressQuality);
    if (!dataUrl.startsWith('data:image/jpeg;base64,')) {
      throw new CompressionError('no JPEG encoder');
    }
    if (dataUrlBytes(dataUrl) > PAYMENT_PROOF.maxBytes) {
      throw new CompressionError('the compressed image is still too large');
    }
    return dataUrl;
  } catch (error) {
    if (error instanceof CompressionError) throw error;
    throw new CompressionError('the image could not be drawn', { cause: error });
  } finally {
    decoded.release();
  }
}
