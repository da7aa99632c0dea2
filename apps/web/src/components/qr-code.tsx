/**
 * A QR code drawn as one SVG path: dark modules on white with the quiet zone scanners need, error
 * correction level M (qrcode-generator). The deposit address and the two-factor set-up show one.
 */
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/** Modules of white around the code (the QR standard's quiet zone). */
export const QR_QUIET_ZONE = 4;

/** The code's modules: how many a side, and which are dark. */
export function qrModules(value: string): {
  count: number;
  isDark: (row: number, col: number) => boolean;
} {
  const qr = qrcode(0, 'M');
  qr.addData(value);
  qr.make();
  return { count: qr.getModuleCount(), isDark: (row, col) => qr.isDark(row, col) };
}

export function QrCode({
  value,
  label,
  className,
  testId,
}: {
  value: string;
  /** What the code holds, for screen readers. */
  label: string;
  className?: string;
  testId?: string;
}) {
  const { size, path } = useMemo(() => {
    const { count, isDark } = qrModules(value);
    let d = '';
    for (let row = 0; row < count; row++) {
      for (let col = 0; col < count; col++) {
        if (isDark(row, col)) d += `M${col + QR_QUIET_ZONE} ${row + QR_QUIET_ZONE}h1v1h-1z`;
      }
    }
    return { size: count + QR_QUIET_ZONE * 2, path: d };
  }, [value]);
  return (
    <svg
      className={className}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      data-testid={testId}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
