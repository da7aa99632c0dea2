/**
 * Layouts (admin, white-label): which home and which user centre the app's tab bar and "me"
 * entries open. Each choice shows a live preview: the app itself in a phone-sized frame (390x844,
 * scaled down) at the layout's own route, so the operator sees the layout with the site's real
 * data before saving. The save is audited; the app reads it at its next launch call. A layout
 * changes what is shown where, never money or prices.
 */
import { useState } from 'react';
import { App, Button, Col, Form, Radio, Row, Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleSettingsApi,
  HOME_LAYOUTS,
  layoutSaveBody,
  ME_LAYOUTS,
  NOTHING_TO_DO_MSG,
  type LayoutConfig,
  type SiteLayout,
} from '@bourse/shared';
import { api } from '../../api';
import { checkWith } from '../../lib/form';
import { FormNotice, useCallForm } from '../../components/call-form';
import { SettingsCard } from '../../components/settings/parts';

/** The phone the app is designed for (the browser tests' viewport), and the preview's scale. */
const PHONE = { width: 390, height: 844 } as const;
const SCALE = 0.62;

/** The app's route of a layout: its name is the route's last segment. */
function layoutRoute(kind: 'home' | 'me', layout: string): string {
  return `/pages/tabs/${kind}/${layout}`;
}

/** The app, served beside the console, at a route. */
function appAddress(route: string): string {
  // `preview`: the app leaves its launch pop-up out of the frame.
  return new URL(`/#${route}?preview=1`, window.location.origin).toString();
}

function Preview({ kind, layout }: { kind: 'home' | 'me'; layout: string }) {
  const { t } = useTranslation();
  const route = layoutRoute(kind, layout);
  return (
    <figure style={{ margin: 0 }} data-testid={`layout-preview-${kind}`}>
      <div
        style={{
          // The frame's border is drawn outside the scaled phone.
          boxSizing: 'content-box',
          width: PHONE.width * SCALE,
          height: PHONE.height * SCALE,
          overflow: 'hidden',
          borderRadius: 18,
          border: '6px solid #1f1f1f',
          background: '#121218',
        }}
      >
        <iframe
          key={route}
          title={t('layouts.previewTitle', { layout })}
          src={appAddress(route)}
          width={PHONE.width}
          height={PHONE.height}
          style={{
            border: 0,
            transform: `scale(${SCALE})`,
            transformOrigin: '0 0',
          }}
          data-route={route}
        />
      </div>
      <figcaption style={{ marginTop: 8 }}>
        <Typography.Text type="secondary" code>
          {route}
        </Typography.Text>
      </figcaption>
    </figure>
  );
}

function LayoutChoice({
  kind,
  layouts,
  saved,
  fallback,
}: {
  kind: 'home' | 'me';
  layouts: readonly string[];
  saved: string;
  fallback: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item name={kind} label={t(`layouts.${kind}`)} extra={t(`layouts.${kind}Help`)}>
      <Radio.Group data-testid={`layout-${kind}`}>
        <Space direction="vertical" size={6}>
          {layouts.map((layout) => (
            <Radio key={layout} value={layout} data-testid={`layout-${kind}-${layout}`}>
              <Space direction="vertical" size={0}>
                <Space size={8}>
                  <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                    {layout}
                  </Typography.Text>
                  {layout === saved && <Tag color="blue">{t('layouts.current')}</Tag>}
                  {layout === fallback && <Tag>{t('layouts.default')}</Tag>}
                </Space>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t(`layouts.styles.${layout}` as 'layouts.styles.home-k')}
                </Typography.Text>
              </Space>
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Form.Item>
  );
}

function LayoutForm({ config }: { config: LayoutConfig }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<SiteLayout>(config.values);
  const { busy, failure, formProps } = useCallForm(['home', 'me'], (values, form) => {
    const body = checkWith(form, layoutSaveBody, values);
    if (!body) return;
    return async () => {
      const answer = await api.send(consoleSettingsApi.saveLayout, body);
      void message.success(
        t(answer.msg === NOTHING_TO_DO_MSG ? 'settings.common.unchanged' : 'settings.common.saved'),
      );
      await queryClient.invalidateQueries({ queryKey: ['layout'] });
    };
  });

  return (
    <Form
      {...formProps}
      initialValues={config.values}
      onValuesChange={(changed: Record<string, unknown>, values: SiteLayout) => {
        formProps.onValuesChange(changed);
        setShown(values);
      }}
      data-testid="layout-form"
    >
      <FormNotice message={failure} />
      <Row gutter={32} wrap={false}>
        <Col flex="360px">
          <LayoutChoice
            kind="home"
            layouts={HOME_LAYOUTS}
            saved={config.values.home}
            fallback={config.defaults.home}
          />
          <LayoutChoice
            kind="me"
            layouts={ME_LAYOUTS}
            saved={config.values.me}
            fallback={config.defaults.me}
          />
          <Button type="primary" htmlType="submit" loading={busy} data-testid="layout-save">
            {t('settings.common.save')}
          </Button>
        </Col>
        <Col flex="auto">
          <Space size={32} align="start">
            <Preview kind="home" layout={shown.home} />
            <Preview kind="me" layout={shown.me} />
          </Space>
        </Col>
      </Row>
    </Form>
  );
}

export default function LayoutsPage() {
  const { t } = useTranslation();
  const config = useQuery({
    queryKey: ['layout'],
    queryFn: () => api.call(consoleSettingsApi.layout),
  });
  return (
    <SettingsCard error={config.error} testId="layouts-page" help={t('layouts.intro')}>
      {config.data && <LayoutForm config={config.data} />}
    </SettingsCard>
  );
}
