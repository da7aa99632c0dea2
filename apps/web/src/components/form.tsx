/** A form that validates itself (no browser bubbles) and its submit button, busy while pending. */
import { Button } from 'antd-mobile';

/**
 * What a form holds now: the values of its fields (and whether each box is ticked), joined. The
 * submit hook drops a repeat tap only while this is unchanged (use-submit.ts).
 */
export function formFingerprint(form: HTMLFormElement): string {
  return Array.from(form.elements, (element) => {
    if (element instanceof HTMLInputElement) {
      return element.type === 'checkbox' || element.type === 'radio'
        ? String(element.checked)
        : element.value;
    }
    if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) {
      return element.value;
    }
    return '';
  }).join('\u0000');
}

export function Form({
  onSubmit,
  className = 'form',
  testId,
  children,
}: {
  /** Called with the form's fingerprint, so a changed form is never taken for a double tap. */
  onSubmit: (fingerprint: string) => Promise<void>;
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
        void onSubmit(formFingerprint(event.currentTarget));
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
