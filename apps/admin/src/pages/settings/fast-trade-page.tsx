/**
 * Fast-trade options (finance): for a product type (or one product), a duration with its payout
 * rate on a win, loss rate and stake bounds. The outcome of a fast trade is decided by the feed's
 * price at expiry, never here; orders keep the terms they were placed with.
 */
import { useState } from 'react';
import { Form, InputNumber, Select, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  fastTradeOptionSaveBody,
  operatorsApi,
  PRODUCT_TYPES,
  type FastTradeOptionConfig,
} from '@bourse/shared';
import { api } from '../../api';
import { SettingDrawer } from '../../components/settings/setting-drawer';
import { DataTable } from '../../components/data-table';
import { usePagedQuery } from '../../hooks/use-paged-query';
import {
  AddButton,
  Code,
  codeOptions,
  editColumn,
  FlagTag,
  percent,
  productTypeColumn,
  SettingsCard,
  SortItem,
  SwitchItem,
  TextItem,
  useTypeNames,
} from '../../components/settings/parts';

const FIELDS = [
  'productType',
  'productCode',
  'durationSeconds',
  'payoutRate',
  'lossRate',
  'minStake',
  'maxStake',
  'isEnabled',
  'sort',
] as const;

const DEFAULTS = { productType: 2, isEnabled: 1, sort: 0, lossRate: '1' };

export default function FastTradePage() {
  const { t } = useTranslation();
  const names = useTypeNames();
  const [editing, setEditing] = useState<Partial<FastTradeOptionConfig>>();
  // Paged on the server: options are made by operators, as many as they like.
  const { list, table } = usePagedQuery({
    key: ['fastTradeOptions'],
    load: (page) => api.call(operatorsApi.fastTradeOptions, page),
  });

  const columns: TableColumnsType<FastTradeOptionConfig> = [
    productTypeColumn(t, names),
    {
      title: t('settings.fastTrade.product'),
      dataIndex: 'productCode',
      render: (code: string | null) =>
        code ? (
          <Code>{code}</Code>
        ) : (
          <Typography.Text type="secondary">{t('settings.fastTrade.everyProduct')}</Typography.Text>
        ),
    },
    {
      title: t('settings.fastTrade.duration'),
      dataIndex: 'durationSeconds',
      render: (seconds: number) => t('settings.fastTrade.seconds', { count: seconds }),
      sorter: (a, b) => a.durationSeconds - b.durationSeconds,
    },
    {
      title: t('settings.fastTrade.payoutRate'),
      dataIndex: 'payoutRate',
      render: percent,
    },
    { title: t('settings.fastTrade.lossRate'), dataIndex: 'lossRate', render: percent },
    {
      title: t('settings.fastTrade.stake'),
      render: (_, row) => `${row.minStake} – ${row.maxStake}`,
    },
    {
      title: t('settings.common.status'),
      dataIndex: 'isEnabled',
      render: (value: number) => (
        <FlagTag
          value={value}
          on={t('settings.common.enabled')}
          off={t('settings.common.disabled')}
        />
      ),
    },
    { title: t('settings.common.sort'), dataIndex: 'sort', width: 80 },
    editColumn(t, (row) => `edit-option-${row.id}`, setEditing),
  ];

  return (
    <SettingsCard
      error={list.error}
      testId="fast-trade-page"
      help={t('settings.fastTrade.help')}
      actions={
        <AddButton
          label={t('settings.fastTrade.add')}
          onClick={() => setEditing(DEFAULTS)}
          testId="add-option"
        />
      }
    >
      <DataTable<FastTradeOptionConfig> columns={columns} {...table} testId="fast-trade-table" />
      {editing && (
        <SettingDrawer
          title={t(
            editing.id === undefined ? 'settings.fastTrade.add' : 'settings.fastTrade.editTitle',
          )}
          schema={fastTradeOptionSaveBody}
          fixed={{ id: editing.id }}
          initialValues={{ ...editing, productCode: editing.productCode ?? '' }}
          fields={FIELDS}
          save={(body) => api.send(operatorsApi.saveFastTradeOption, body)}
          refresh={['fastTradeOptions']}
          onClose={() => setEditing(undefined)}
          testId="option-drawer"
        >
          <Form.Item name="productType" label={t('settings.products.type')}>
            <Select options={codeOptions(PRODUCT_TYPES, names.productType)} />
          </Form.Item>
          <TextItem
            name="productCode"
            label={t('settings.fastTrade.product')}
            extra={t('settings.fastTrade.productHelp')}
            width={200}
          />
          <Form.Item name="durationSeconds" label={t('settings.fastTrade.durationSeconds')}>
            <InputNumber<number> precision={0} min={10} style={{ width: 200 }} />
          </Form.Item>
          <TextItem
            name="payoutRate"
            label={t('settings.fastTrade.payoutRate')}
            extra={t('settings.fastTrade.payoutHelp')}
            width={200}
          />
          <TextItem
            name="lossRate"
            label={t('settings.fastTrade.lossRate')}
            extra={t('settings.fastTrade.lossHelp')}
            width={200}
          />
          <TextItem name="minStake" label={t('settings.fastTrade.minStake')} width={200} />
          <TextItem name="maxStake" label={t('settings.fastTrade.maxStake')} width={200} />
          <SwitchItem name="isEnabled" label={t('settings.common.enabled')} />
          <SortItem width={200} />
        </SettingDrawer>
      )}
    </SettingsCard>
  );
}
