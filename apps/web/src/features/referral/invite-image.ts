/** The invitation as a picture: the link's QR code on white with the invitation code under it. */
import { qrPng } from '../../components/qr-image';

const CODE_FONT_PX = 32;

export function invitePng(link: string, code: string): Promise<Blob> {
  return qrPng(link, {
    font: `600 ${CODE_FONT_PX}px ui-monospace, Menlo, Consolas, monospace`,
    lineHeight: CODE_FONT_PX + 8,
    lines: () => [code],
  });
}
