/**
 * The copy-trading settings: the highest profit-share rate a lead trader may ask (typed in
 * percent, sent as the fraction the schema takes), the closed live contract positions a user
 * needs to apply, and how long a trader's new positions stay hidden from the public profile.
 * Checked with the call's schema before sending; a refusal shown on its field. Audited.
 */
import { useEffect, useState } from 'react';
import { App, Button, Card, Form, Input, InputNumber, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  COPY_LIMITS,
  consoleCopyTradingApi,
  copyTradeSettingsBody,
  type CopyTradeSettingsRow,
} from '@bourse/shared';
import { api } from '../../api';
import { FailureAlert } from '../../components/failure-alert';
import { ListError } from '../../components/data-table';
import { checkWith, clearChangedErrors, showOnField } from '../../lib/form';
import { COPY_KEY, fractionOf, percentInput } from './parts';

interface Values {
  maxProfitShareRate?: string;
  minClosedTrades?: number | null;
  positionDelayMinutes?: number | null;
}

const FIELDS = ['maxProfitShareRate', 'minClosedTrades', 'positionDelayMinutes'] as const;

/** The fields of whole numbers from 0, each with its bound, its unit and its test id. */
const COUNTS = [
  {
    name: 'minClosedTrades',
    max: COPY_LIMITS.minClosedTradesMax,
    unit: 'trades',
    testId: 'copy-settings-trades',
  },
  {
    name: 'positionDelayMinutes',
    max: COPY_LIMITS.positionDelayMinutesMax,
    unit: 'minutes',
    testId: 'copy-settings-delay',
  },
] as const;

/** The settings as the form shows them. */
const valuesOf = (settings: CopyTradeSettingsRow): Values => ({
  maxProfitShareRate: percentInput(settings.maxProfitShareRate),
  minClosedTrades: settings.minClosedTrades,
  positionDelayMinutes: settings.positionDelayMinutes,
});

export function useCopySettings() {
  return useQuery({
    queryKey: [COPY_KEY, 'settings'],
    queryFn: () => api.call(consoleCopyTradingApi.settings),
  });
}

export function SettingsTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useCopySettings();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    if (settings.data) form.setFieldsValue(valuesOf(settings.data));
  }, [form, settings.data]);

  async function save() {
    setFailure(undefined);
    // A refusal shown before stays on its field until this check says otherwise.
    form.setFields(FIELDS.map((name) => ({ name, errors: [] })));
    const values = form.getFieldsValue();
    const body = checkWith(form, copyTradeSettingsBody, {
      maxProfitShareRate: fractionOf(values.maxProfitShareRate),
      minClosedTrades: values.minClosedTrades ?? undefined,
      positionDelayMinutes: values.positionDelayMinutes ?? undefined,
    });
    if (!body) return;
    setBusy(true);
    try {
      const saved = await api.call(consoleCopyTradingApi.saveSettings, body);
      queryClient.setQueryData([COPY_KEY, 'settings'], saved);
      form.setFieldsValue(valuesOf(saved));
      void message.success(t('copyTrade.settings.saved'));
    } catch (error) {
      setFailure(showOnField(form, error, FIELDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card
      size="small"
      title={t('copyTrade.settings.title')}
      style={{ maxWidth: 720 }}
      data-testid="copy-settings"
    >
      <Typography.Paragraph type="secondary">{t('copyTrade.settings.help')}</Typography.Paragraph>
      <ListError error={settings.error} />
      <FailureAlert failure={failure} testId="copy-settings-failure" />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        disabled={settings.isPending}
        onFinish={() => void save()}
        onValuesChange={(changed: Record<string, unknown>) => clearChangedErrors(form, changed)}
      >
        <Form.Item
          name="maxProfitShareRate"
          label={t('copyTrade.settings.maxProfitShareRate')}
          extra={t('copyTrade.settings.maxProfitShareRateHelp')}
        >
          <Input
            inputMode="decimal"
            suffix="%"
            style={{ width: 200 }}
            data-testid="copy-settings-rate"
          />
        </Form.Item>
        {COUNTS.map(({ name, max, unit, testId }) => (
          <Form.Item
            key={name}
            name={name}
            label={t(`copyTrade.settings.${name}`)}
            extra={t(`copyTrade.settings.${name}Help`)}
          >
            <InputNumber<number>
              min={0}
              max={max}
              precision={0}
              addonAfter={t(`copyTrade.settings.${unit}`)}
              style={{ width: 200 }}
              data-testid={testId}
            />
          </Form.Item>
        ))}
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('copyTrade.settings.identityNote')}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="copy-settings-save">
          {t('copyTrade.settings.save')}
        </Button>
      </Form>
    </Card>
  );
}
