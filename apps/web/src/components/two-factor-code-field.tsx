/**
 * The field of a two-factor code: the 6 digits an authenticator app shows, or one of the recovery
 * codes (letters, digits and a hyphen) when the phone is not at hand. Asked at sign-in, for a
 * withdrawal and for security changes once the user turned two-factor on.
 */
import { Input } from 'antd-mobile';
import { useTranslation } from '../i18n/react';
import { Field } from './field';

/** Longest code typed: a recovery code with its hyphen (and a space or two pasted with it). */
const MAX_LENGTH = 16;

export function TwoFactorCodeField({
  id,
  value,
  onChange,
  error,
  recovery = true,
  autoFocus = false,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  /** Whether a recovery code is taken too (turning two-factor on takes the app's code only). */
  recovery?: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Field label={t('twoFactor_codeLabel')} error={error} htmlFor={id}>
      <Input
        id={id}
        name="twoFactorCode"
        // A recovery code has letters: the numeric keyboard only where digits alone are taken.
        inputMode={recovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoCapitalize="off"
        maxLength={recovery ? MAX_LENGTH : 6}
        autoFocus={autoFocus}
        placeholder={t(
          recovery ? 'twoFactor_codeOrRecoveryPlaceholder' : 'twoFactor_codePlaceholder',
        )}
        value={value}
        onChange={(text) => onChange(recovery ? text : text.replace(/\D/g, ''))}
      />
    </Field>
  );
}
