/**
 * Security: change the login password (every session ends, so the user signs in again) and set
 * or change the six-digit withdrawal password. Withdrawals are held for 24 h after either change.
 */
import { useState } from 'react';
import { Input } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isPassword, isWithdrawalPassword } from '@bourse/shared';
import { showToast } from '../../api';
import { Field } from '../../components/field';
import { Form, SubmitButton } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { reLaunch } from '../../lib/navigation';
import { clearSession } from '../../lib/storage';
import { isSetWithPwd, updateUserPwd, updateUserWithPwd } from './api';
import { PasswordRules } from './password-rules';
import { RequireSignIn } from '../../components/require-sign-in';

type Tab = 'login' | 'withdraw';

/** A labelled password input; `digits` makes it the six-digit withdrawal password. */
function PasswordField(props: {
  label: string;
  error: string | undefined;
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  digits?: boolean;
  autoComplete: string;
}) {
  return (
    <Field label={props.label} error={props.error} htmlFor={props.id}>
      <Input
        id={props.id}
        type="password"
        inputMode={props.digits ? 'numeric' : undefined}
        autoComplete={props.autoComplete}
        maxLength={props.digits ? 6 : 64}
        placeholder={props.placeholder}
        value={props.value}
        onChange={(value) => props.onChange(props.digits ? value.replace(/\D/g, '') : value)}
      />
    </Field>
  );
}

function LoginPasswordForm() {
  const { t } = useTranslation();
  const [oldPwd, setOldPwd] = useState('');
  const [newPwd, setNewPwd] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  // The rules under the new password say what is wrong with it; only "same as now" needs words.
  const rulesBroken = !isPassword(newPwd);
  const errors = {
    oldPwd: oldPwd ? undefined : translate('hint_paramRequired', ['oldPwd']),
    newPwd: !rulesBroken && newPwd === oldPwd ? t('hint_pwdSameAsOld') : undefined,
    confirm: confirm === newPwd ? undefined : t('account_passwordMismatch'),
  };
  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    if (rulesBroken || Object.values(errors).some(Boolean)) return;
    await updateUserPwd(oldPwd, newPwd);
    showToast(t('hint_pwdChanged'));
    clearSession();
    reLaunch('login');
  });
  return (
    <Form onSubmit={submit} testId="login-password-form">
      <PasswordField
        label={t('field_oldPwd')}
        error={touched ? errors.oldPwd : undefined}
        id="old-pwd"
        value={oldPwd}
        onChange={setOldPwd}
        placeholder={t('account_passwordPlaceholder')}
        autoComplete="current-password"
      />
      <PasswordField
        label={t('field_newPwd')}
        error={touched ? errors.newPwd : undefined}
        id="new-pwd"
        value={newPwd}
        onChange={setNewPwd}
        placeholder={t('account_newPasswordPlaceholder')}
        autoComplete="new-password"
      />
      <PasswordRules value={newPwd} />
      <PasswordField
        label={t('account_confirmPassword')}
        error={touched ? errors.confirm : undefined}
        id="confirm-pwd"
        value={confirm}
        onChange={setConfirm}
        placeholder={t('account_confirmPasswordPlaceholder')}
        autoComplete="new-password"
      />
      <p className="muted">{t('account_passwordChangeNote')}</p>
      <SubmitButton pending={pending}>{t('common_confirm')}</SubmitButton>
    </Form>
  );
}

function WithdrawalPasswordForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isSet = useQuery({ queryKey: ['isSetWithPwd'], queryFn: isSetWithPwd });
  const [current, setCurrent] = useState('');
  const [newPwd, setNewPwd] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const already = isSet.data === true;
  const errors = {
    current: current
      ? undefined
      : already
        ? t('hint_oldWithPwdRequired')
        : t('hint_loginPwdRequired'),
    newPwd: isWithdrawalPassword(newPwd) ? undefined : t('hint_withPwdFormat'),
    confirm: confirm === newPwd ? undefined : t('account_passwordMismatch'),
  };
  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    if (isSet.data === undefined || Object.values(errors).some(Boolean)) return;
    await updateUserWithPwd(already ? { newPwd, oldPwd: current } : { newPwd, userPwd: current });
    showToast(t('account_withdrawPasswordSaved'));
    setCurrent('');
    setNewPwd('');
    setConfirm('');
    setTouched(false);
    await queryClient.invalidateQueries({ queryKey: ['isSetWithPwd'] });
  });
  return (
    <Form onSubmit={submit} testId="withdraw-password-form">
      <PasswordField
        label={t(already ? 'account_currentWithdrawPassword' : 'field_userPwd')}
        error={touched ? errors.current : undefined}
        id="with-current"
        value={current}
        onChange={setCurrent}
        digits={already}
        placeholder={t(
          already ? 'account_withdrawPasswordPlaceholder' : 'account_passwordPlaceholder',
        )}
        autoComplete={already ? 'off' : 'current-password'}
      />
      <PasswordField
        label={t('account_newWithdrawPassword')}
        error={touched ? errors.newPwd : undefined}
        id="with-new"
        value={newPwd}
        onChange={setNewPwd}
        digits
        placeholder={t('account_withdrawPasswordPlaceholder')}
        autoComplete="off"
      />
      <PasswordField
        label={t('account_confirmPassword')}
        error={touched ? errors.confirm : undefined}
        id="with-confirm"
        value={confirm}
        onChange={setConfirm}
        digits
        placeholder={t('account_withdrawPasswordPlaceholder')}
        autoComplete="off"
      />
      <p className="muted">{t('account_withdrawHoldNote')}</p>
      <SubmitButton pending={pending} disabled={isSet.data === undefined}>
        {t(already ? 'account_changeWithdrawPassword' : 'account_setWithdrawPassword')}
      </SubmitButton>
    </Form>
  );
}

export default function PasswordPage() {
  const { t } = useTranslation();
  // `?tab=withdraw` opens the withdrawal password (the withdraw screen sends users here).
  const [search] = useSearchParams();
  const [tab, setTab] = useState<Tab>(search.get('tab') === 'withdraw' ? 'withdraw' : 'login');
  return (
    <RequireSignIn>
      <div className="page" data-testid="change-page">
        <PageHeader title={t('page_security')} />
        <div className="segmented" role="group" style={{ paddingTop: 16 }}>
          <button type="button" aria-pressed={tab === 'login'} onClick={() => setTab('login')}>
            {t('account_loginPassword')}
          </button>
          <button
            type="button"
            aria-pressed={tab === 'withdraw'}
            onClick={() => setTab('withdraw')}
          >
            {t('account_withdrawPassword')}
          </button>
        </div>
        {tab === 'login' ? <LoginPasswordForm /> : <WithdrawalPasswordForm />}
      </div>
    </RequireSignIn>
  );
}
