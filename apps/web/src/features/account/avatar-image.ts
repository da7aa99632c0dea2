/**
 * The avatar to send: the square the user chose in the cropper, drawn from the picked file at
 * its own resolution (at most AVATAR.side pixels) and encoded as a JPEG. The server decodes and
 * re-encodes it anyway; drawing it here keeps the upload small (some 50 KB instead of the
 * camera's megabytes) and sends nothing outside the square.
 */
import { AVATAR } from '@bourse/shared';

/** The cropped square in the picked image's pixels (react-easy-crop's `croppedAreaPixels`). */
export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

const JPEG_QUALITY = 0.9;

/** The picked file turned upright (its EXIF orientation), as the cropper showed it. */
async function decode(file: Blob): Promise<{ image: CanvasImageSource; release: () => void }> {
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    return { image: bitmap, release: () => bitmap.close() };
  }
  const url = URL.createObjectURL(file);
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
  return { image, release: () => URL.revokeObjectURL(url) };
}

/** The side the square is sent at: its own size, at most AVATAR.side, at least 1. */
export function avatarSide(area: CropArea): number {
  return Math.max(1, Math.min(AVATAR.side, Math.round(area.width)));
}

/** Draws the chosen square of `file`; a `data:image/jpeg;base64,…` URL. */
export async function croppedAvatar(file: Blob, area: CropArea): Promise<string> {
  const { image, release } = await decode(file);
  try {
    const side = avatarSide(area);
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    // A transparent PNG lands on white, as the server would flatten it.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, side, side);
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, side, side);
    return canvas.toDataURL('image/jpeg', JPEG_QUALITY);
  } finally {
    release();
  }
}
