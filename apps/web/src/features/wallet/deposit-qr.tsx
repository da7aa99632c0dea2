/**
 * The deposit address as a QR code, for paying from a phone wallet by scanning. Drawn as one SVG
 * path (dark modules on white, with the quiet zone scanners need), error correction level M.
 * "Save image" downloads it as a PNG with the address (and what it is for) printed under it, so a
 * saved picture still says where it pays to; when that fails, the spec's image-error toast (2 s).
 */
import {
  QR_QUIET_ZONE as QUIET_ZONE,
  QrCode,
  qrModules as modules,
} from '../../components/qr-code';
import { useTranslation } from '../../i18n/react';
import { showImageSaveFailure, showImageToast } from '../../lib/toast';

/** Pixels per module in the saved image: large enough to print or scan from another screen. */
const MODULE_PX = 8;
const CAPTION_FONT_PX = 22;
const CAPTION_LINE_PX = 30;

/** `text` cut into lines that fit `width` on the canvas (addresses have no spaces: by character). */
function wrapLines(context: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const character of text) {
    if (line && context.measureText(line + character).width > width) {
      lines.push(line);
      line = '';
    }
    line += character;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The QR code of `value` as a PNG, on white, with `caption` (e.g. "USDT · TRC20") and the value
 * itself under it, wrapped to the code's width.
 */
export async function depositQrPng(value: string, caption: string): Promise<Blob> {
  const { count, isDark } = modules(value);
  const side = (count + QUIET_ZONE * 2) * MODULE_PX;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  const font = `${CAPTION_FONT_PX}px ui-monospace, Menlo, Consolas, monospace`;
  context.font = font;
  const textWidth = side - QUIET_ZONE * MODULE_PX;
  const lines = [...(caption ? [caption] : []), ...wrapLines(context, value, textWidth)];
  canvas.width = side;
  canvas.height = side + lines.length * CAPTION_LINE_PX + QUIET_ZONE * MODULE_PX;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000';
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (isDark(row, col))
        context.fillRect(
          (col + QUIET_ZONE) * MODULE_PX,
          (row + QUIET_ZONE) * MODULE_PX,
          MODULE_PX,
          MODULE_PX,
        );
    }
  }
  // Setting the canvas size reset the context: the font again, the text centred under the code.
  context.font = font;
  context.textAlign = 'center';
  context.textBaseline = 'top';
  context.direction = 'ltr';
  lines.forEach((line, index) =>
    context.fillText(line, side / 2, side + index * CAPTION_LINE_PX, textWidth),
  );
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no image'))),
      'image/png',
    ),
  );
}

/** Hands `blob` to the browser as a download named `name`. */
function download(blob: Blob, name: string): void {
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

/** A file name from the currency and network: `USDT-TRC20-deposit-address.png`. */
function fileName(caption: string): string {
  const stem = caption.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `${stem ? `${stem}-` : ''}deposit-address.png`;
}

export function DepositQr({
  value,
  label,
  caption = '',
}: {
  value: string;
  label: string;
  /** What the address is for, printed above it in the saved image ("USDT · TRC20"). */
  caption?: string;
}) {
  const { t } = useTranslation();

  async function save() {
    try {
      download(await depositQrPng(value, caption), fileName(caption));
      // SEED-SPEC section 9: the image toast stays 700 ms.
      showImageToast(t('recharge_imageSaved'));
    } catch {
      // SEED-SPEC section 8: an image that cannot be saved is told in a toast for 2 s.
      showImageSaveFailure();
    }
  }

  return (
    <div className="rc-qr-block">
      <QrCode className="rc-qr" value={value} label={label} testId="recharge-deposit-qr" />
      <button
        type="button"
        className="field-addon rc-qr-save"
        data-testid="recharge-qr-save"
        onClick={() => void save()}
      >
        {t('recharge_saveImage')}
      </button>
    </div>
  );
}
