/**
 * `otherValue` (admin): the numeric display settings the app reads at launch (decimals shown, the
 * default trade currency, which figures and buttons it shows). Each is checked with the shared
 * schema and its bounds, a refusal shown on its field; the save writes the changed keys to the
 * audit log, and the app reads them at its next launch call. None of them moves money or prices.
 */
import { App, Button, Col, Form, InputNumber, Row, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleSettingsApi,
  NOTHING_TO_DO_MSG,
  OTHER_VALUE_KEYS,
  OTHER_VALUE_RANGES,
  otherValueSaveBody,
  type OtherValueConfig,
} from '@bourse/shared';
import { api } from '../../api';
import { checkWith } from '../../lib/form';
import { FormNotice, useCallForm } from '../../components/call-form';
import { Code, FlagSwitch, SettingsCard, useCurrencies } from '../../components/settings/parts';

type Key = (typeof OTHER_VALUE_KEYS)[number];
const isFlag = (key: Key) => OTHER_VALUE_RANGES[key][1] === 1;

function OtherValueForm({ config }: { config: OtherValueConfig }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const currencies = useCurrencies();
  const { busy, failure, formProps } = useCallForm(OTHER_VALUE_KEYS, (values, form) => {
    const body = checkWith(form, otherValueSaveBody, values);
    if (!body) return;
    return async () => {
      const answer = await api.send(consoleSettingsApi.saveOtherValue, body);
      void message.success(
        t(answer.msg === NOTHING_TO_DO_MSG ? 'settings.common.unchanged' : 'settings.common.saved'),
      );
      await queryClient.invalidateQueries({ queryKey: ['otherValue'] });
    };
  });

  const shownDefault = (key: Key) => {
    const value = config.defaults[key];
    if (key === 'default_trade_currency_id') return currencies.name(value);
    return isFlag(key) ? t(value === 1 ? 'settings.common.on' : 'settings.common.off') : value;
  };

  const item = (key: Key) => (
    <Col span={12} key={key}>
      <Form.Item
        name={key}
        label={
          <Space size={8}>
            <span>{t(`settings.otherValue.names.${key}`)}</span>
            <Code>{key}</Code>
          </Space>
        }
        extra={t('settings.otherValue.defaultValue', { value: shownDefault(key) })}
      >
        {key === 'default_trade_currency_id' ? (
          <Select options={currencies.options} style={{ width: 220 }} />
        ) : isFlag(key) ? (
          <FlagSwitch data-testid={`other-${key}`} />
        ) : (
          <InputNumber<number> precision={0} style={{ width: 220 }} data-testid={`other-${key}`} />
        )}
      </Form.Item>
    </Col>
  );

  return (
    <Form {...formProps} initialValues={config.values} data-testid="other-value-form">
      <FormNotice message={failure} />
      <Typography.Title level={5}>{t('settings.otherValue.numbers')}</Typography.Title>
      <Row gutter={24}>{OTHER_VALUE_KEYS.filter((key) => !isFlag(key)).map(item)}</Row>
      <Typography.Title level={5}>{t('settings.otherValue.display')}</Typography.Title>
      <Row gutter={24}>{OTHER_VALUE_KEYS.filter(isFlag).map(item)}</Row>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="other-value-save">
        {t('settings.common.save')}
      </Button>
    </Form>
  );
}

export default function OtherValuePage() {
  const { t } = useTranslation();
  const config = useQuery({
    queryKey: ['otherValue'],
    queryFn: () => api.call(consoleSettingsApi.otherValue),
  });
  return (
    <SettingsCard
      error={config.error}
      testId="other-value-page"
      toolbar={<Typography.Text type="secondary">{t('settings.otherValue.intro')}</Typography.Text>}
    >
      {config.data && <OtherValueForm config={config.data} />}
    </SettingsCard>
  );
}
