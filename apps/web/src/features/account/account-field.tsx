/**
 * The fields of the account forms: the two ways to name an account (email, or phone with its area
 * code) as login and register ask, labelled text inputs and the password fields.
 */
import { useState } from 'react';
import { Input, type InputProps } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { isEmail, isPhoneForAreaCode } from '@bourse/shared';
import { ChoiceRow } from '../../components/choice-row';
import { Field } from '../../components/field';
import { translate } from '../../i18n';
import { AreaCodePicker } from './area-code-picker';
import { PasswordRules } from './password-rules';

export type Channel = 'email' | 'phone';

export function ChannelTabs({
  channels,
  value,
  onChange,
}: {
  channels: readonly Channel[];
  value: Channel;
  onChange: (channel: Channel) => void;
}) {
  const { t } = useTranslation();
  return (
    <ChoiceRow
      className="segmented"
      options={channels}
      value={value}
      onChange={onChange}
      text={(name) => t(name === 'email' ? 'account_byEmail' : 'account_byPhone')}
    />
  );
}

/** The account as typed (and the area code of a phone), whether it is valid and what is wrong. */
export function useAccountName(channel: Channel | undefined) {
  const { t } = useTranslation();
  const [account, setAccount] = useState('');
  const [areaCode, setAreaCode] = useState('1');
  const phone = channel === 'phone';
  const valid = phone ? isPhoneForAreaCode(areaCode, account) : isEmail(account);
  return {
    channel: phone ? 'phone' : 'email',
    account,
    setAccount,
    areaCode,
    setAreaCode,
    valid,
    error: !account
      ? translate('hint_paramRequired', [phone ? 'phone' : 'email'])
      : valid
        ? undefined
        : t(phone ? 'hint_phoneInvalid' : 'hint_emailInvalid'),
    /** The account as the sign-in and registration calls take it. */
    body: { userAccount: account.trim(), ...(phone ? { areaCode } : {}) },
  };
}

export type AccountName = ReturnType<typeof useAccountName>;

export function AccountField({
  id,
  name,
  error,
  onEdit,
}: {
  id: string;
  name: AccountName;
  error: string | undefined;
  /** Called after each change of the account. */
  onEdit?: () => void;
}) {
  const { t } = useTranslation();
  const email = name.channel === 'email';
  return (
    <Field label={t(email ? 'field_email' : 'field_phone')} error={error} htmlFor={id}>
      {!email && <AreaCodePicker value={name.areaCode} onChange={name.setAreaCode} />}
      <Input
        id={id}
        name="account"
        type={email ? 'email' : 'tel'}
        autoComplete={email ? 'email' : 'tel-national'}
        placeholder={t(email ? 'account_emailPlaceholder' : 'account_phonePlaceholder')}
        value={name.account}
        maxLength={email ? 254 : 20}
        onChange={(value) => {
          name.setAccount(value);
          onEdit?.();
        }}
        clearable
      />
    </Field>
  );
}

/** A labelled text input; what follows the input (a button) comes as `children`. */
export function TextField({
  label,
  error,
  id,
  onChange,
  children,
  ...input
}: Omit<InputProps, 'id' | 'onChange'> & {
  label: string;
  error: string | undefined;
  id: string;
  onChange: (value: string) => void;
  children?: React.ReactNode;
}) {
  return (
    <Field label={label} error={error} htmlFor={id}>
      <Input id={id} {...input} onChange={onChange} />
      {children}
    </Field>
  );
}

/** What a password field asks for: the one in use, a new one, or the new one again. */
export type PasswordRole = 'current' | 'new' | 'confirm';

const PASSWORD_PLACEHOLDER: Record<PasswordRole, string> = {
  current: 'account_passwordPlaceholder',
  new: 'account_newPasswordPlaceholder',
  confirm: 'account_confirmPasswordPlaceholder',
};

/**
 * A password field. `digits` makes it the six-digit withdrawal password; a new login password
 * shows its `rules` under it.
 */
export function PasswordField({
  role,
  digits = false,
  rules = false,
  value,
  onChange,
  ...field
}: {
  role: PasswordRole;
  digits?: boolean;
  rules?: boolean;
  label: string;
  id: string;
  name?: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        {...field}
        type="password"
        inputMode={digits ? 'numeric' : undefined}
        autoComplete={digits ? 'off' : role === 'current' ? 'current-password' : 'new-password'}
        maxLength={digits ? 6 : 64}
        placeholder={t(digits ? 'account_withdrawPasswordPlaceholder' : PASSWORD_PLACEHOLDER[role])}
        value={value}
        onChange={(text) => onChange(digits ? text.replace(/\D/g, '') : text)}
      />
      {rules && <PasswordRules value={value} />}
    </>
  );
}
