/**
 * A line of the figures shown before an order or a transfer is confirmed: the label at the start,
 * the value at the end in tabular figures, `strong` (larger and bold) for the one that matters.
 */
export function PreviewLine({
  label,
  children,
  testId,
  strong = false,
  strongFontSize = 14,
}: {
  label: string;
  children: React.ReactNode;
  testId?: string;
  strong?: boolean;
  /** The font size of a strong line (13 px otherwise). */
  strongFontSize?: number;
}) {
  return (
    <div className="row" style={{ fontSize: strong ? strongFontSize : 13 }}>
      <span className="muted">{label}</span>
      <span className="spacer" />
      <span
        dir="ltr"
        data-testid={testId}
        style={{
          fontVariantNumeric: 'tabular-nums',
          fontWeight: strong ? 700 : 500,
          textAlign: 'end',
        }}
      >
        {children}
      </span>
    </div>
  );
}
