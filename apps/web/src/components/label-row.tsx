/**
 * A label and its value on one line, as the earn and loan screens show terms and figures: a figure
 * or a date stays one left-to-right island (Num). Each screen names its own classes.
 */
import { Num } from './status-views';

export interface LabelRowProps {
  label: string;
  value: React.ReactNode;
  testId?: string;
  strong?: boolean;
  /** The value is a figure or a date (kept left to right). */
  number?: boolean;
}

/** The classes of the row, of a strong row (added), of the value and of a figure (added). */
export interface LabelRowClasses {
  row: string;
  strong: string;
  value: string;
  figure?: string;
}

export function LabelRow({
  label,
  value,
  testId,
  strong = false,
  number = true,
  classes,
}: LabelRowProps & { classes: LabelRowClasses }) {
  return (
    <div className={strong ? `${classes.row} ${classes.strong}` : classes.row}>
      <span className="muted">{label}</span>
      <span
        className={number && classes.figure ? `${classes.value} ${classes.figure}` : classes.value}
        data-testid={testId}
      >
        {number ? <Num>{value}</Num> : value}
      </span>
    </div>
  );
}
