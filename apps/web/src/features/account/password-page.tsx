/**
 * The password sections of the security centre (app/security-centre-page.tsx): change the login
 * password (every session ends, so the user signs in again) and set or change the six-digit
 * withdrawal password. Withdrawals are held for 24 h after either change.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { isPassword, isWithdrawalPassword, securityApi } from '@bourse/shared';
import { api, ApiError, showToast } from '../../api';
import { Form, SubmitButton } from '../../components/form';
import { TwoFactorCodeField } from '../../components/two-factor-code-field';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { reLaunch } from '../../lib/navigation';
import { clearSession } from '../../lib/storage';
import { isSetWithPwd, updateUserPwd, updateUserWithPwd } from './api';
import { PasswordField, type PasswordRole } from './account-field';

const ROLES: readonly PasswordRole[] = ['current', 'new', 'confirm'];
const EMPTY: Record<PasswordRole, string> = { current: '', new: '', confirm: '' };

/**
 * A change of password: the one in use, the new one and the new one again, each field with its
 * error once the form was submitted (the confirmation's is checked here), the `note` and the
 * submit button. `blocked` refuses the values with no message of its own; `disabled`, the button.
 * Once the user turned two-factor on, a code of the app (or a recovery code) is asked too.
 */
function PasswordChangeForm({
  testId,
  fields,
  errors,
  blocked,
  disabled = false,
  save,
  note,
  submitText,
}: {
  testId: string;
  /** The confirmation's label is the same everywhere. */
  fields: Record<PasswordRole, { id: string; label?: string; digits?: boolean; rules?: boolean }>;
  errors: (values: Record<PasswordRole, string>) => Partial<Record<PasswordRole, string>>;
  blocked?: (values: Record<PasswordRole, string>) => boolean;
  disabled?: boolean;
  /** Saves the passwords (with the two-factor code when it is on); `reset` empties the form. */
  save: (
    values: Record<PasswordRole, string>,
    reset: () => void,
    twoFactorCode: string | undefined,
  ) => Promise<void>;
  note: string;
  submitText: string;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState(EMPTY);
  const [touched, setTouched] = useState(false);
  const twoFactor = useQuery({
    queryKey: ['twoFactorStatus'],
    queryFn: () => api.call(securityApi.twoFactorStatus),
  });
  const twoFactorOn = twoFactor.data?.enabled === 1;
  const [code, setCode] = useState('');
  const shown = {
    ...errors(values),
    confirm: values.confirm === values.new ? undefined : t('account_passwordMismatch'),
  };
  const codeError = twoFactorOn && !code.trim() ? t('twoFactor_codeRequired') : undefined;
  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    if (disabled || blocked?.(values) || Object.values(shown).some(Boolean) || codeError) return;
    try {
      await save(
        values,
        () => {
          setValues(EMPTY);
          setCode('');
          setTouched(false);
        },
        twoFactorOn ? code.trim() : undefined,
      );
    } catch (error) {
      // A code is good for one try: the next one from the app.
      if (error instanceof ApiError && error.msg.startsWith('hint_twoFactor')) setCode('');
      throw error;
    }
  });
  return (
    <Form onSubmit={submit} testId={testId}>
      {ROLES.map((role) => (
        <PasswordField
          key={role}
          role={role}
          {...fields[role]}
          label={fields[role].label ?? t('account_confirmPassword')}
          value={values[role]}
          onChange={(value) => setValues((state) => ({ ...state, [role]: value }))}
          error={touched ? shown[role] : undefined}
        />
      ))}
      {twoFactorOn && (
        <TwoFactorCodeField
          id={`${testId}-two-factor-code`}
          value={code}
          onChange={setCode}
          error={touched ? codeError : undefined}
        />
      )}
      <p className="muted">{note}</p>
      <SubmitButton pending={pending} disabled={disabled}>
        {submitText}
      </SubmitButton>
    </Form>
  );
}

export function LoginPasswordForm() {
  const { t } = useTranslation();
  return (
    <PasswordChangeForm
      testId="login-password-form"
      fields={{
        current: { id: 'old-pwd', label: t('field_oldPwd') },
        new: { id: 'new-pwd', label: t('field_newPwd'), rules: true },
        confirm: { id: 'confirm-pwd' },
      }}
      // The rules under the new password say what is wrong with it; only "same as now" needs words.
      blocked={(values) => !isPassword(values.new)}
      errors={(values) => ({
        current: values.current ? undefined : translate('hint_paramRequired', ['oldPwd']),
        new:
          isPassword(values.new) && values.new === values.current
            ? t('hint_pwdSameAsOld')
            : undefined,
      })}
      save={async (values, _reset, twoFactorCode) => {
        await updateUserPwd(values.current, values.new, twoFactorCode);
        showToast(t('hint_pwdChanged'));
        clearSession();
        reLaunch('login');
      }}
      note={t('account_passwordChangeNote')}
      submitText={t('common_confirm')}
    />
  );
}

export function WithdrawalPasswordForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isSet = useQuery({ queryKey: ['isSetWithPwd'], queryFn: isSetWithPwd });
  const already = isSet.data === true;
  return (
    <PasswordChangeForm
      testId="withdraw-password-form"
      fields={{
        current: {
          id: 'with-current',
          label: t(already ? 'account_currentWithdrawPassword' : 'field_userPwd'),
          digits: already,
        },
        new: { id: 'with-new', label: t('account_newWithdrawPassword'), digits: true },
        confirm: { id: 'with-confirm', digits: true },
      }}
      disabled={isSet.data === undefined}
      errors={(values) => ({
        current: values.current
          ? undefined
          : t(already ? 'hint_oldWithPwdRequired' : 'hint_loginPwdRequired'),
        new: isWithdrawalPassword(values.new) ? undefined : t('hint_withPwdFormat'),
      })}
      save={async ({ current, new: newPwd }, reset, twoFactorCode) => {
        await updateUserWithPwd({
          ...(already ? { newPwd, oldPwd: current } : { newPwd, userPwd: current }),
          ...(twoFactorCode ? { twoFactorCode } : {}),
        });
        showToast(t('account_withdrawPasswordSaved'));
        reset();
        await queryClient.invalidateQueries({ queryKey: ['isSetWithPwd'] });
      }}
      note={t('account_withdrawHoldNote')}
      submitText={t(already ? 'account_changeWithdrawPassword' : 'account_setWithdrawPassword')}
    />
  );
}
