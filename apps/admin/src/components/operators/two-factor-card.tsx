/**
 * The account page's two-factor card: whether it is on, the recovery codes left and whether the
 * operator's role requires it (`auth/twoFactor/status`); off, setting it up (the set-up page's
 * steps); on, turning it off with a code of the app or a recovery code. An admin or finance
 * operator is warned first that the console then has them set it up again at once: the sign-in
 * guard reads the operator afresh after the change and takes them to the set-up page.
 */
import { useState } from 'react';
import { App, Button, Card, Descriptions, Form, Input, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleOperatorsApi, twoFactorDisableBody } from '@bourse/shared';
import { api } from '../../api';
import { errorText } from '../../i18n';
import { checkWith } from '../../lib/form';
import { FormNotice, useCallForm } from '../call-form';
import { TwoFactorSetup } from './two-factor-setup';

const STATUS_KEY = ['two-factor-status'] as const;

function TurnOff({ required, onOff }: { required: boolean; onOff(): void }) {
  const { t } = useTranslation();
  const { busy, failure, formProps } = useCallForm(['code'], (values, form) => {
    const body = checkWith(form, twoFactorDisableBody, values);
    if (!body) return;
    return async () => {
      await api.call(consoleOperatorsApi.twoFactorDisable, body);
      onOff();
    };
  });
  return (
    <Form {...formProps} data-testid="two-factor-off-form">
      {required && (
        <FormNotice
          type="warning"
          testId="two-factor-off-required"
          message={t('twoFactor.card.turnOffRequired')}
        />
      )}
      <FormNotice message={failure} />
      <Form.Item name="code" label={t('twoFactor.code')} extra={t('twoFactor.card.turnOffHelp')}>
        <Input
          autoComplete="one-time-code"
          maxLength={32}
          placeholder={t('twoFactor.codePlaceholder')}
          style={{ maxWidth: 220 }}
          data-testid="two-factor-off-code"
        />
      </Form.Item>
      <Button danger htmlType="submit" loading={busy} data-testid="two-factor-off">
        {t('twoFactor.card.turnOff')}
      </Button>
    </Form>
  );
}

export function TwoFactorCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: () => api.call(consoleOperatorsApi.twoFactorStatus),
  });
  const [settingUp, setSettingUp] = useState(false);
  const enabled = status.data?.enabled === 1;
  const required = status.data?.required === 1;

  /** Two-factor changed: its state, and the operator (the guard and the password form read it). */
  function changed() {
    void queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    void queryClient.invalidateQueries({ queryKey: ['me'] });
  }

  let body;
  if (settingUp)
    body = (
      <TwoFactorSetup
        doneLabel={t('twoFactor.setup.done')}
        onCancel={() => setSettingUp(false)}
        onDone={() => {
          setSettingUp(false);
          void message.success(t('twoFactor.setup.turnedOn'));
          changed();
        }}
      />
    );
  else if (status.isError) body = <FormNotice message={errorText(status.error)} />;
  else if (status.data)
    body = (
      <>
        <Descriptions column={1} bordered size="middle" style={{ marginBottom: 20 }}>
          <Descriptions.Item label={t('twoFactor.card.state')}>
            <Tag color={enabled ? 'green' : 'default'} data-testid="two-factor-state">
              {t(enabled ? 'twoFactor.card.on' : 'twoFactor.card.off')}
            </Tag>
          </Descriptions.Item>
          {enabled && (
            <Descriptions.Item label={t('twoFactor.card.recoveryLeft')}>
              <span data-testid="two-factor-recovery-left">{status.data.recoveryCodesLeft}</span>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('twoFactor.card.requirement')}>
            {t(required ? 'twoFactor.card.required' : 'twoFactor.card.optional')}
          </Descriptions.Item>
        </Descriptions>
        {enabled ? (
          <TurnOff
            required={required}
            onOff={() => {
              void message.success(t('twoFactor.card.turnedOff'));
              changed();
            }}
          />
        ) : (
          <>
            <Typography.Paragraph type="secondary">
              {t('twoFactor.card.offText')}
            </Typography.Paragraph>
            <Button
              type="primary"
              onClick={() => setSettingUp(true)}
              data-testid="two-factor-set-up"
            >
              {t('twoFactor.card.setUp')}
            </Button>
          </>
        )}
      </>
    );

  return (
    <Card title={t('twoFactor.title')} loading={status.isPending} data-testid="account-two-factor">
      {body}
    </Card>
  );
}
