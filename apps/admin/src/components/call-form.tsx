/**
 * A form that makes one call (sign-in, password change): `prepare` checks the values, showing
 * each refusal on its field (lib/form.ts checkWith), and answers the call to make, or nothing.
 * The form is busy while the call runs; a refusal of the server goes on the field it names, of
 * `fields`, or above the form (`FormNotice`); a change of any value clears the notice, and a
 * change of a field the refusal shown on it.
 */
import { useState } from 'react';
import { Alert, Form, type AlertProps, type FormInstance } from 'antd';
import { clearChangedErrors, showOnField } from '../lib/form';

type Values = Record<string, unknown>;

export function useCallForm(
  fields: readonly string[],
  prepare: (values: Values, form: FormInstance) => (() => Promise<void>) | undefined,
) {
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function submit(values: Values) {
    setFailure(undefined);
    const call = prepare(values, form);
    if (!call) return;
    setBusy(true);
    try {
      await call();
    } catch (error) {
      setFailure(showOnField(form, error, fields));
    } finally {
      setBusy(false);
    }
  }

  return {
    form,
    busy,
    failure,
    /** The props of the antd Form: vertical, no required marks, submitting as above. */
    formProps: {
      form,
      layout: 'vertical',
      requiredMark: false,
      onFinish: (values: Values) => void submit(values),
      onValuesChange: (changed: Values) => {
        setFailure(undefined);
        clearChangedErrors(form, changed);
      },
    } as const,
  };
}

/** A line above a form: why it cannot go on (`form-error`), or what happened before it. */
export function FormNotice({
  type = 'error',
  message,
  testId = 'form-error',
}: {
  type?: AlertProps['type'];
  message: string | undefined;
  testId?: string;
}) {
  if (!message) return null;
  return (
    <Alert
      type={type}
      showIcon
      message={message}
      style={{ marginBottom: 16 }}
      data-testid={testId}
    />
  );
}
