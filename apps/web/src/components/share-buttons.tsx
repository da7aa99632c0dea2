/** Shortcuts to a share of what is available: 25 / 50 / 75 / 100 %. */
import { SHARES, percentText } from '../lib/trade';

export function ShareButtons({
  onPick,
  disabled = false,
  testId,
  text = percentText,
  className,
  style,
  buttonClassName,
  buttonStyle,
}: {
  /** The share picked, as a fraction ("0.25"). */
  onPick: (share: string) => void;
  disabled?: boolean;
  /** Each button's is `${testId}-25` and so on. */
  testId: string;
  /** A button's label (the percentage when not given). */
  text?: (share: string) => string;
  className?: string;
  style?: React.CSSProperties;
  buttonClassName?: string;
  buttonStyle?: React.CSSProperties;
}) {
  return (
    <div className={className} style={style}>
      {SHARES.map((share) => (
        <button
          key={share}
          type="button"
          className={buttonClassName}
          style={buttonStyle}
          disabled={disabled}
          data-testid={`${testId}-${percentText(share).replace('%', '')}`}
          onClick={() => onPick(share)}
        >
          {text(share)}
        </button>
      ))}
    </div>
  );
}
