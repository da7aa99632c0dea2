/**
 * Anti-phishing code: a phrase of the user's choosing that every email from the platform starts
 * with, so an email without it (or with another) is known not to be ours. Shown masked until the
 * user asks to see it; set or changed with the login password and, once two-factor is on, a code
 * of the authenticator app (or a recovery code).
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Input } from 'antd-mobile';
import { ANTI_PHISHING_CODE, isAntiPhishingCode } from '@bourse/shared';
import { showToast } from '../../api';
import { Field } from '../../components/field';
import { Form, SubmitButton } from '../../components/form';
import { TwoFactorCodeField } from '../../components/two-factor-code-field';
import { ValueSkeleton } from '../../components/status-views';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { fetchAntiPhishing, setAntiPhishing } from './api';
import { fetchTwoFactorStatus, TWO_FACTOR_STATUS_KEY } from './two-factor-api';

const QUERY_KEY = ['securityAntiPhishing'];

/** The code with all but its first and last characters hidden. */
export function maskCode(code: string): string {
  const characters = Array.from(code);
  if (characters.length <= 2) return '•'.repeat(characters.length);
  return `${characters[0]}${'•'.repeat(characters.length - 2)}${characters.at(-1)}`;
}

function CurrentCode() {
  const { t } = useTranslation();
  const current = useQuery({ queryKey: QUERY_KEY, queryFn: fetchAntiPhishing });
  const [shown, setShown] = useState(false);
  if (current.isPending) return <ValueSkeleton testId="anti-phishing-loading" />;
  const code = current.data?.code ?? null;
  return (
    <div className="card row" style={{ alignItems: 'center', gap: 12 }}>
      <span className="muted" style={{ flex: 'none' }}>
        {t('security_antiPhishingCurrent')}
      </span>
      <strong
        data-testid="anti-phishing-current"
        style={{ flex: 1, minWidth: 0, textAlign: 'end', overflowWrap: 'anywhere' }}
      >
        {code === null ? (
          t('security_antiPhishingNone')
        ) : (
          <bdi>{shown ? code : maskCode(code)}</bdi>
        )}
      </strong>
      {code !== null && (
        <button
          type="button"
          onClick={() => setShown((value) => !value)}
          data-testid="anti-phishing-reveal"
          style={{
            flex: 'none',
            background: 'none',
            border: 0,
            color: 'var(--primary)',
            font: 'inherit',
            cursor: 'pointer',
          }}
        >
          {t(shown ? 'security_hide' : 'security_show')}
        </button>
      )}
    </div>
  );
}

export function AntiPhishingSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: QUERY_KEY, queryFn: fetchAntiPhishing });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [twoFactorCode, setTwoFactorCode] = useState('');
  const [touched, setTouched] = useState(false);
  const twoFactor = useQuery({ queryKey: TWO_FACTOR_STATUS_KEY, queryFn: fetchTwoFactorStatus });
  const twoFactorOn = twoFactor.data?.enabled === 1;
  const errors = {
    code: isAntiPhishingCode(code.trim()) ? undefined : t('hint_antiPhishingInvalid'),
    password: password ? undefined : t('hint_loginPwdRequired'),
    twoFactorCode: twoFactorOn && !twoFactorCode.trim() ? t('twoFactor_codeRequired') : undefined,
  };
  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    if (errors.code || errors.password || errors.twoFactorCode) return;
    const saved = await setAntiPhishing(
      code.trim(),
      password,
      twoFactorOn ? twoFactorCode.trim() : undefined,
    );
    queryClient.setQueryData(QUERY_KEY, saved);
    showToast(t('security_antiPhishingSaved'));
    setCode('');
    setPassword('');
    setTwoFactorCode('');
    setTouched(false);
  });
  return (
    <div className="stack" data-testid="security-anti-phishing">
      <div className="page-body stack" style={{ gap: 12, paddingBottom: 0 }}>
        <p className="muted" style={{ margin: 0 }}>
          {t('security_antiPhishingIntro')}
        </p>
        <CurrentCode />
      </div>
      <Form onSubmit={submit} testId="anti-phishing-form">
        <Field
          label={t('security_antiPhishingNew')}
          htmlFor="anti-phishing-code"
          error={touched ? errors.code : undefined}
        >
          <Input
            id="anti-phishing-code"
            autoComplete="off"
            maxLength={ANTI_PHISHING_CODE.maxLength}
            placeholder={translate('security_antiPhishingRule', [
              ANTI_PHISHING_CODE.minLength,
              ANTI_PHISHING_CODE.maxLength,
            ])}
            value={code}
            onChange={setCode}
          />
        </Field>
        <Field
          label={t('field_userPwd')}
          htmlFor="anti-phishing-password"
          error={touched ? errors.password : undefined}
        >
          <Input
            id="anti-phishing-password"
            type="password"
            autoComplete="current-password"
            maxLength={64}
            placeholder={t('account_passwordPlaceholder')}
            value={password}
            onChange={setPassword}
          />
        </Field>
        {twoFactorOn && (
          <TwoFactorCodeField
            id="anti-phishing-two-factor-code"
            value={twoFactorCode}
            onChange={setTwoFactorCode}
            error={touched ? errors.twoFactorCode : undefined}
          />
        )}
        <SubmitButton pending={pending} disabled={twoFactor.isPending}>
          {t(current.data?.code ? 'security_antiPhishingChange' : 'security_antiPhishingSave')}
        </SubmitButton>
      </Form>
    </div>
  );
}
