/**
 * A row of buttons of which one is chosen. As `tabs`, it switches what a screen shows (a tab list,
 * `role="tab"` and `aria-selected`); otherwise it is a choice of a form (a group of toggles,
 * `aria-pressed`). The class gives the look: `market-tabs`, `segmented`, `trade-choices`.
 */
export interface ChoiceRowProps<T extends string | number> {
  options: readonly T[];
  value: T | undefined;
  onChange: (value: T) => void;
  /** The text of an option. */
  text: (value: T) => string;
  className: string;
  /** A tab list rather than a group of toggles. */
  tabs?: boolean;
  /** The element: a `nav` for the tabs that lead through a screen. */
  as?: 'div' | 'nav';
  /** What the row chooses (its accessible name). */
  label?: string;
  /** Of the row; each option's is `${optionTestId}-${value}`. */
  testId?: string;
  /** The test ids' stem of the options (the row's own when not given). */
  optionTestId?: string;
  style?: React.CSSProperties;
}

export function ChoiceRow<T extends string | number>({
  options,
  value,
  onChange,
  text,
  className,
  tabs = false,
  as: Element = 'div',
  label,
  testId,
  optionTestId = testId,
  style,
}: ChoiceRowProps<T>) {
  return (
    <Element
      className={className}
      role={tabs ? 'tablist' : 'group'}
      aria-label={label}
      data-testid={testId}
      style={style}
    >
      {options.map((option) => (
        <button
          key={String(option)}
          type="button"
          role={tabs ? 'tab' : undefined}
          aria-selected={tabs ? option === value : undefined}
          aria-pressed={tabs ? undefined : option === value}
          data-testid={optionTestId && `${optionTestId}-${option}`}
          onClick={() => onChange(option)}
        >
          {text(option)}
        </button>
      ))}
    </Element>
  );
}
