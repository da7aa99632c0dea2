/**
 * Setting up the operator's own two-factor authentication, in three steps: the password
 * (`auth/twoFactor/setup` answers a new secret and its otpauth URI), the authenticator app linked
 * by the QR code or the key typed in and confirmed by its first code (`auth/twoFactor/enable`
 * answers the 10 recovery codes), then those codes, shown this once, to copy or download, and
 * an "I saved them" confirmation before going on. Used by the set-up page an admin or finance
 * operator is sent to, and by the account page.
 */
import { useState } from 'react';
import { App, Button, Checkbox, Form, Input, Space, Steps, Typography } from 'antd';
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  consoleOperatorsApi,
  operatorTwoFactorSetupBody,
  twoFactorEnableBody,
  type TwoFactorSetup as Setup,
} from '@bourse/shared';
import { api } from '../../api';
import { useOperator } from '../../app/operator';
import { checkWith } from '../../lib/form';
import { formatTime } from '../../lib/format';
import { saveFile } from '../../lib/save-file';
import { FormNotice, useCallForm } from '../call-form';
import { Muted } from '../cells';
import { QrCode } from '../qr-code';

const MONOSPACE = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace";

/** The key in groups of four, as authenticator apps show it: easier to type. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** The name the authenticator app lists the codes under (the URI's issuer: "<site> console"). */
function issuerOf(uri: string): string {
  try {
    return new URL(uri).searchParams.get('issuer') ?? '';
  } catch {
    return '';
  }
}

function PasswordStep({ onSetup, onCancel }: { onSetup(setup: Setup): void; onCancel?(): void }) {
  const { t } = useTranslation();
  const { busy, failure, formProps } = useCallForm(['password'], (values, form) => {
    const body = checkWith(form, operatorTwoFactorSetupBody, values);
    if (!body) return;
    return async () => onSetup(await api.call(consoleOperatorsApi.twoFactorSetup, body));
  });
  return (
    <Form {...formProps} data-testid="two-factor-password-form">
      <FormNotice message={failure} />
      <Form.Item
        name="password"
        label={t('auth.password')}
        extra={t('twoFactor.setup.passwordHelp')}
      >
        <Input.Password
          autoComplete="current-password"
          autoFocus
          data-testid="two-factor-password"
        />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="two-factor-start">
          {t('twoFactor.setup.start')}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t('common.cancel')}</Button>}
      </Space>
    </Form>
  );
}

function ScanStep({
  setup,
  onEnabled,
  onRestart,
}: {
  setup: Setup;
  onEnabled(recoveryCodes: string[]): void;
  onRestart(): void;
}) {
  const { t } = useTranslation();
  const { busy, failure, formProps } = useCallForm(['code'], (values, form) => {
    const body = checkWith(form, twoFactorEnableBody, values);
    if (!body) return;
    return async () =>
      onEnabled((await api.call(consoleOperatorsApi.twoFactorEnable, body)).recoveryCodes);
  });
  return (
    <div>
      <Typography.Paragraph>{t('twoFactor.setup.scanHelp')}</Typography.Paragraph>
      <div style={{ display: 'flex', gap: 20, alignItems: 'center', marginBottom: 20 }}>
        <div style={{ border: '1px solid #f0f0f0', borderRadius: 8, lineHeight: 0, flex: 'none' }}>
          <QrCode
            value={setup.uri}
            label={t('twoFactor.setup.qrLabel')}
            size={168}
            testId="two-factor-qr"
          />
        </div>
        <div style={{ minWidth: 0 }}>
          <Muted small>{t('twoFactor.setup.secret')}</Muted>
          <Typography.Paragraph
            copyable={{
              text: setup.secret,
              tooltips: [t('operators.oneTime.copy'), t('operators.oneTime.copied')],
            }}
            style={{
              fontFamily: MONOSPACE,
              fontSize: 15,
              margin: '4px 0 0',
              wordBreak: 'break-all',
            }}
          >
            <span data-testid="two-factor-secret">{grouped(setup.secret)}</span>
          </Typography.Paragraph>
        </div>
      </div>
      <Form {...formProps} data-testid="two-factor-enable-form">
        <FormNotice message={failure} />
        <Form.Item name="code" label={t('twoFactor.code')}>
          <Input
            autoComplete="one-time-code"
            autoFocus
            inputMode="numeric"
            maxLength={32}
            placeholder={t('twoFactor.codePlaceholder')}
            style={{ maxWidth: 220 }}
            data-testid="two-factor-enable-code"
          />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="two-factor-enable">
            {t('twoFactor.setup.enable')}
          </Button>
          <Button onClick={onRestart}>{t('twoFactor.setup.restart')}</Button>
        </Space>
      </Form>
    </div>
  );
}

function CodesStep({
  codes,
  issuer,
  doneLabel,
  onDone,
}: {
  codes: string[];
  issuer: string;
  doneLabel: string;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const operator = useOperator();
  const [saved, setSaved] = useState(false);
  const listing = codes.join('\n');

  function copy() {
    const copying = navigator.clipboard?.writeText(listing) ?? Promise.reject(new Error('none'));
    copying.then(
      () => void message.success(t('twoFactor.setup.copied')),
      () => void message.error(t('twoFactor.setup.copyFailed')),
    );
  }

  function download() {
    const heading = t('twoFactor.setup.fileHeading', {
      username: operator.username,
      issuer,
      time: formatTime(new Date().toISOString()),
    });
    saveFile(
      new Blob([`${heading}\n\n${listing}\n`], { type: 'text/plain;charset=utf-8' }),
      `recovery-codes-${operator.username}.txt`,
    );
  }

  return (
    <div data-testid="two-factor-recovery">
      <FormNotice type="warning" testId="recovery-once" message={t('twoFactor.setup.codesOnce')} />
      <ol
        style={{
          display: 'grid',
          gridTemplateColumns: '1fr 1fr',
          gap: '8px 24px',
          margin: '0 0 16px',
          padding: '16px 16px 16px 40px',
          background: '#fafafa',
          border: '1px solid #f0f0f0',
          borderRadius: 8,
          fontFamily: MONOSPACE,
          fontSize: 15,
        }}
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <Space style={{ marginBottom: 16 }}>
        <Button icon={<CopyOutlined />} onClick={copy} data-testid="recovery-copy">
          {t('twoFactor.setup.copy')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download} data-testid="recovery-download">
          {t('twoFactor.setup.download')}
        </Button>
      </Space>
      <div style={{ marginBottom: 16 }}>
        <Checkbox
          checked={saved}
          onChange={(event) => setSaved(event.target.checked)}
          data-testid="recovery-saved"
        >
          {t('twoFactor.setup.saved')}
        </Checkbox>
      </div>
      <Button type="primary" disabled={!saved} onClick={onDone} data-testid="recovery-done">
        {doneLabel}
      </Button>
    </div>
  );
}

export function TwoFactorSetup({
  doneLabel,
  onDone,
  onCancel,
}: {
  /** The last button's words: where the operator goes once they saved their codes. */
  doneLabel: string;
  onDone(): void;
  /** Given: a way back before anything was set up. */
  onCancel?(): void;
}) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<Setup>();
  const [codes, setCodes] = useState<string[]>();
  const current = codes ? 2 : setup ? 1 : 0;
  return (
    <div data-testid="two-factor-setup">
      <Steps
        size="small"
        current={current}
        style={{ marginBottom: 24 }}
        items={[
          { title: t('twoFactor.setup.steps.password') },
          { title: t('twoFactor.setup.steps.scan') },
          { title: t('twoFactor.setup.steps.codes') },
        ]}
      />
      {codes ? (
        <CodesStep
          codes={codes}
          issuer={setup ? issuerOf(setup.uri) : ''}
          doneLabel={doneLabel}
          onDone={onDone}
        />
      ) : setup ? (
        <ScanStep setup={setup} onEnabled={setCodes} onRestart={() => setSetup(undefined)} />
      ) : (
        <PasswordStep onSetup={setSetup} onCancel={onCancel} />
      )}
    </div>
  );
}
