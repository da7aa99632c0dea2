/** A form that validates itself (no browser bubbles) and its submit button, busy while pending. */
import { Button } from 'antd-mobile';

export function Form({
  onSubmit,
  className = 'form',
  testId,
  children,
}: {
  onSubmit: () => Promise<void>;
  className?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <form
      className={className}
      noValidate
      data-testid={testId}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

export function SubmitButton({
  pending,
  disabled = false,
  large = false,
  children,
}: {
  pending: boolean;
  disabled?: boolean;
  large?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Button
      block
      color="primary"
      size={large ? 'large' : 'middle'}
      type="submit"
      loading={pending}
      disabled={pending || disabled}
    >
      {children}
    </Button>
  );
}
