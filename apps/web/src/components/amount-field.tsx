/** A labelled field to type an amount or a price in: digits and one decimal point only. */
import { Input, type InputProps } from 'antd-mobile';
import { cleanAmount } from '../lib/trade';
import { Field } from './field';

export function AmountField({
  label,
  id,
  error,
  onChange,
  children,
  ...input
}: Omit<InputProps, 'id' | 'onChange'> & {
  label: string;
  id: string;
  error?: string | undefined;
  /** The text as typed, cleaned to an amount. */
  onChange: (value: string) => void;
  /** What follows the input: its unit. */
  children?: React.ReactNode;
}) {
  return (
    <Field label={label} htmlFor={id} error={error}>
      <Input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        maxLength={40}
        {...input}
        onChange={(value) => onChange(cleanAmount(value))}
      />
      {children}
    </Field>
  );
}
