/** A round icon button of a screen's own header, named for assistive technology by `label`. */
export function HeaderIconButton({
  label,
  testId,
  onClick,
  children,
  ...button
}: Omit<React.ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className' | 'aria-label'> & {
  label: string;
  testId?: string;
  onClick: () => void;
  /** The icon. */
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      data-testid={testId}
      onClick={onClick}
      {...button}
    >
      {children}
    </button>
  );
}
