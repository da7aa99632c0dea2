/**
 * A QR code as a picture to save: dark modules on white with the quiet zone scanners need, and
 * lines of text centred under it (a deposit address, an invitation code), so that a saved image
 * still says what it is. Used by the deposit screen's and the invite page's "Save image".
 */
import { QR_QUIET_ZONE, qrModules } from './qr-code';

/** Pixels per module: large enough to print or to scan from another screen. */
const MODULE_PX = 8;

export interface QrCaption {
  /** The canvas font of the lines (`22px ui-monospace…`). */
  font: string;
  lineHeight: number;
  /** The lines under the code, given a context set to `font` and the width they may take. */
  lines: (context: CanvasRenderingContext2D, width: number) => string[];
}

export async function qrPng(value: string, caption: QrCaption): Promise<Blob> {
  const { count, isDark } = qrModules(value);
  const side = (count + QR_QUIET_ZONE * 2) * MODULE_PX;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.font = caption.font;
  const width = side - QR_QUIET_ZONE * MODULE_PX;
  const lines = caption.lines(context, width);
  canvas.width = side;
  canvas.height = side + lines.length * caption.lineHeight + QR_QUIET_ZONE * MODULE_PX;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000';
  for (let row = 0; row < count; row++)
    for (let col = 0; col < count; col++)
      if (isDark(row, col))
        context.fillRect(
          (col + QR_QUIET_ZONE) * MODULE_PX,
          (row + QR_QUIET_ZONE) * MODULE_PX,
          MODULE_PX,
          MODULE_PX,
        );
  // Setting the canvas size reset the context: the font again, the text centred under the code.
  context.font = caption.font;
  context.textAlign = 'center';
  context.textBaseline = 'top';
  context.direction = 'ltr';
  lines.forEach((line, index) =>
    context.fillText(line, side / 2, side + index * caption.lineHeight, width),
  );
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no image'))),
      'image/png',
    ),
  );
}

/** Hands `blob` to the browser as a download named `name`. */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has started from the URL; it is released once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
