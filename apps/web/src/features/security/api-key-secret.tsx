/**
 * A new API key's secret, shown this once: the key and the secret to copy, and a QR code holding
 * both for a bot on a phone. Leaving any other way than "I have saved the secret" (another tab,
 * back, a link) asks first; closing or reloading the page asks the browser's own question.
 */
import { useEffect, useRef } from 'react';
import { Button } from 'antd-mobile';
import { useBlocker } from 'react-router';
import type { ApiKeyCreated } from '@bourse/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { QrCode } from '../../components/qr-code';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { copyText } from '../../lib/clipboard';
import { showHelperToast } from '../../lib/toast';
import { secretQrValue } from './api-key-rules';
import './two-factor.css';

function copy(value: string, what: string) {
  void copyText(value).then((ok) =>
    showHelperToast(ok ? translate('twoFactor_copied', [what]) : translate('recharge_copyFailed')),
  );
}

function Copyable({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="ak-copyable">
      <div className="ak-copyable-head">
        <span className="field-label">{label}</span>
        <Button
          size="mini"
          fill="outline"
          onClick={() => copy(value, label)}
          data-testid={`${testId}-copy`}
        >
          {t('recharge_copy')}
        </Button>
      </div>
      <div className="tf-code ak-code" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

export function ApiKeySecret({
  created,
  onDone,
  onLeave,
}: {
  created: ApiKeyCreated;
  /** The secret is saved: back to the keys. */
  onDone: () => void;
  /** The user leaves for where they were going (the secret is dropped). */
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  // Set once the user said the secret is saved: their own way out is not asked about.
  const saved = useRef(false);
  const blocker = useBlocker(() => !saved.current);
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (saved.current) return;
      event.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, []);
  return (
    <section className="card stack ak-secret" data-testid="api-key-secret">
      <h2 className="ak-title">{t('apiKeys_createdTitle')}</h2>
      <p className="ak-warning" role="alert" data-testid="api-key-secret-warning">
        {t('apiKeys_secretWarning')}
      </p>
      <Copyable label={t('apiKeys_key')} value={created.apiKey} testId="api-key-secret-key" />
      <Copyable label={t('apiKeys_secret')} value={created.secret} testId="api-key-secret-value" />
      <p className="muted ak-help">{t('apiKeys_qrText')}</p>
      <QrCode
        className="tf-qr"
        value={secretQrValue(created)}
        label={t('apiKeys_qrLabel')}
        testId="api-key-secret-qr"
      />
      <Button
        block
        color="primary"
        data-testid="api-key-secret-done"
        onClick={() => {
          saved.current = true;
          onDone();
        }}
      >
        {t('apiKeys_done')}
      </Button>
      <ConfirmDialog
        visible={blocker.state === 'blocked'}
        title={t('apiKeys_leaveTitle')}
        content={t('apiKeys_leaveConfirm')}
        pending={false}
        onClose={() => blocker.reset?.()}
        onConfirm={() => {
          saved.current = true;
          onLeave();
          blocker.proceed?.();
        }}
        confirmText={t('apiKeys_leave')}
      />
    </section>
  );
}
