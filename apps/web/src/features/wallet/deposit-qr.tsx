/**
 * The deposit address as a QR code, for paying from a phone wallet by scanning. Drawn as one SVG
 * path (dark modules on white, with the quiet zone scanners need), error correction level M.
 * "Save image" downloads it as a PNG with the address (and what it is for) printed under it, so a
 * saved picture still says where it pays to; when that fails, the spec's image-error toast (2 s).
 */
import { QrCode } from '../../components/qr-code';
import { downloadBlob, qrPng } from '../../components/qr-image';
import { useTranslation } from '../../i18n/react';
import { showImageSaveFailure, showImageToast } from '../../lib/toast';

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
export function depositQrPng(value: string, caption: string): Promise<Blob> {
  return qrPng(value, {
    font: `${CAPTION_FONT_PX}px ui-monospace, Menlo, Consolas, monospace`,
    lineHeight: CAPTION_LINE_PX,
    lines: (context, width) => [...(caption ? [caption] : []), ...wrapLines(context, value, width)],
  });
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
      downloadBlob(await depositQrPng(value, caption), fileName(caption));
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
