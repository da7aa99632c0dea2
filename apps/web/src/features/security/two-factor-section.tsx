/**
 * Two-factor authentication in the security centre: set up (the login password, then the QR for
 * an authenticator app and its secret to type), confirm with a code, the 10 recovery codes shown
 * once (to copy), and turning it off with a code. Once on, sign-in, withdrawals and security
 * changes ask for a code.
 */
import { useState } from 'react';
import { Button, Input } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorSetup } from '@bourse/shared';
import { showToast } from '../../api';
import { Field } from '../../components/field';
import { Form, SubmitButton } from '../../components/form';
import { QrCode } from '../../components/qr-code';
import { TwoFactorCodeField } from '../../components/two-factor-code-field';
import { useSubmit } from '../../hooks/use-submit';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { copyText } from '../../lib/clipboard';
import { showHelperToast } from '../../lib/toast';
import {
  disableTwoFactor,
  enableTwoFactor,
  fetchTwoFactorStatus,
  setUpTwoFactor,
  TWO_FACTOR_STATUS_KEY,
} from './two-factor-api';
import './two-factor.css';

/** The secret in groups of four, as authenticator apps show it, easier to type. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

function copy(value: string, what: string) {
  void copyText(value).then((ok) =>
    showHelperToast(ok ? translate('twoFactor_copied', [what]) : translate('recharge_copyFailed')),
  );
}

/** The code asked: filled in, else said under the field once the form was sent. */
function useCodeForm(send: (code: string) => Promise<void>) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const submitted = useSubmit(async () => {
    setTouched(true);
    if (!code.trim()) return;
    try {
      await send(code.trim());
    } finally {
      setCode('');
      setTouched(false);
    }
  });
  const error = touched && !code.trim() ? t('twoFactor_codeRequired') : undefined;
  return { code, setCode, error, ...submitted };
}

/** Off: the login password starts the set-up. */
function StartSetup({ onSetup }: { onSetup: (setup: TwoFactorSetup) => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const { submit, pending } = useSubmit(async () => {
    setTouched(true);
    if (!password) return;
    onSetup(await setUpTwoFactor(password));
    setPassword('');
    setTouched(false);
  });
  return (
    <Form onSubmit={submit} testId="two-factor-start">
      <p className="muted">{t('twoFactor_offText')}</p>
      <Field
        label={t('field_userPwd')}
        htmlFor="two-factor-password"
        error={touched && !password ? translate('hint_paramRequired', ['userPwd']) : undefined}
      >
        <Input
          id="two-factor-password"
          type="password"
          autoComplete="current-password"
          maxLength={64}
          placeholder={t('account_passwordPlaceholder')}
          value={password}
          onChange={setPassword}
        />
      </Field>
      <SubmitButton pending={pending}>{t('twoFactor_setUp')}</SubmitButton>
    </Form>
  );
}

/** Set up: the QR and the secret, then a code of the app turns it on. */
function ConfirmSetup({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const form = useCodeForm(async (code) => {
    onEnabled((await enableTwoFactor(code)).recoveryCodes);
  });
  return (
    <Form onSubmit={form.submit} testId="two-factor-confirm">
      <p className="muted">{t('twoFactor_scanText')}</p>
      <QrCode
        className="tf-qr"
        value={setup.uri}
        label={t('twoFactor_qrLabel')}
        testId="two-factor-qr"
      />
      <div className="tf-secret">
        <span className="field-label">{t('twoFactor_secretLabel')}</span>
        <div className="tf-code" data-testid="two-factor-secret">
          {grouped(setup.secret)}
        </div>
      </div>
      <Button size="small" onClick={() => copy(setup.secret, t('twoFactor_secretLabel'))}>
        {t('twoFactor_copySecret')}
      </Button>
      <TwoFactorCodeField
        id="two-factor-enable-code"
        recovery={false}
        value={form.code}
        onChange={form.setCode}
        error={form.error}
      />
      <div className="tf-actions">
        <Button onClick={onCancel}>{t('common_cancel')}</Button>
        <SubmitButton pending={form.pending}>{t('twoFactor_turnOn')}</SubmitButton>
      </div>
    </Form>
  );
}

/** Just turned on: the recovery codes, this once. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="stack" data-testid="two-factor-recovery">
      <p className="muted">{t('twoFactor_recoveryText')}</p>
      <ul className="tf-codes" data-testid="two-factor-recovery-codes">
        {codes.map((code) => (
          <li key={code} className="tf-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="tf-actions">
        <Button onClick={() => copy(codes.join('\n'), t('twoFactor_recoveryTitle'))}>
          {t('twoFactor_copyCodes')}
        </Button>
        <Button color="primary" onClick={onDone}>
          {t('twoFactor_savedCodes')}
        </Button>
      </div>
    </div>
  );
}

/** On: a code (or a recovery code) turns it off. */
function TurnOff({ recoveryCodesLeft, onOff }: { recoveryCodesLeft: number; onOff: () => void }) {
  const { t } = useTranslation();
  const form = useCodeForm(async (code) => {
    await disableTwoFactor(code);
    onOff();
  });
  return (
    <Form onSubmit={form.submit} testId="two-factor-off">
      <p className="muted">{t('twoFactor_onText')}</p>
      <p className="muted" data-testid="two-factor-recovery-left">
        {translate('twoFactor_recoveryLeft', [recoveryCodesLeft])}
      </p>
      <TwoFactorCodeField
        id="two-factor-disable-code"
        value={form.code}
        onChange={form.setCode}
        error={form.error}
      />
      <SubmitButton pending={form.pending}>{t('twoFactor_turnOff')}</SubmitButton>
    </Form>
  );
}

export function TwoFactorSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: TWO_FACTOR_STATUS_KEY, queryFn: fetchTwoFactorStatus });
  const [setup, setSetup] = useState<TwoFactorSetup>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const enabled = status.data?.enabled === 1;
  const refresh = () => queryClient.invalidateQueries({ queryKey: TWO_FACTOR_STATUS_KEY });

  let body: React.ReactNode = null;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />;
  } else if (enabled) {
    body = (
      <TurnOff
        recoveryCodesLeft={status.data?.recoveryCodesLeft ?? 0}
        onOff={() => {
          showToast(t('twoFactor_turnedOff'));
          void refresh();
        }}
      />
    );
  } else if (setup) {
    body = (
      <ConfirmSetup
        setup={setup}
        onCancel={() => setSetup(undefined)}
        onEnabled={(codes) => {
          setSetup(undefined);
          setRecoveryCodes(codes);
          showToast(t('twoFactor_turnedOn'));
          void refresh();
        }}
      />
    );
  } else if (status.data) {
    body = <StartSetup onSetup={setSetup} />;
  }

  return (
    <section className="card stack tf-section" data-testid="two-factor-section">
      <div className="tf-head">
        <h2 className="tf-title">{t('twoFactor_title')}</h2>
        {status.data && (
          <span
            className={`tf-state${enabled ? ' tf-state-on' : ''}`}
            data-testid="two-factor-state"
          >
            {t(enabled ? 'twoFactor_stateOn' : 'twoFactor_stateOff')}
          </span>
        )}
      </div>
      {body}
    </section>
  );
}
