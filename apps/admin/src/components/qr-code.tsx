/**
 * A QR code drawn as one SVG path: dark modules on white with the quiet zone scanners need, error
 * correction level M (qrcode-generator, as the user app's). Two-factor set-up shows one.
 */
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/** Modules of white around the code (the QR standard's quiet zone). */
const QUIET_ZONE = 4;

export function QrCode({
  value,
  label,
  size,
  testId,
}: {
  value: string;
  /** What the code holds, for screen readers. */
  label: string;
  /** Its side, in CSS pixels. */
  size: number;
  testId?: string;
}) {
  const { side, path } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(value);
    qr.make();
    const count = qr.getModuleCount();
    let d = '';
    for (let row = 0; row < count; row++) {
      for (let col = 0; col < count; col++) {
        if (qr.isDark(row, col)) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
      }
    }
    return { side: count + QUIET_ZONE * 2, path: d };
  }, [value]);
  return (
    <svg
      width={size}
      height={size}
      viewBox={`0 0 ${side} ${side}`}
      role="img"
      aria-label={label}
      data-testid={testId}
      shapeRendering="crispEdges"
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
