/**
 * A labelled part of a form that is not one input (a row of chips, a picture to pick), with what
 * is wrong with it under it; `Field` is the one for an input.
 */
export function FieldGroup({
  label,
  labelId,
  error,
  children,
}: {
  label: string;
  /** For the group's controls to be labelled by (`aria-labelledby`). */
  labelId?: string;
  error?: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <span className="field-label" id={labelId}>
        {label}
      </span>
      {children}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
