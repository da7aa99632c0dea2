/**
 * Currencies (finance): the platform's currencies, hidden ones included, paged on the server. A
 * currency in use (balances, ledger accounts or channels in it) keeps its code, kind, decimals and
 * visibility: the form leaves those fields read-only and the server refuses a change of them
 * (`hint_currencyInUse`), so held balances are never shown or moved at other decimals.
 */
import { useState } from 'react';
import { Alert, Form, InputNumber, Select, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { consoleSettingsApi, currencySaveBody, type CurrencyConfig } from '@bourse/shared';
import { api } from '../../api';
import { usePagedQuery } from '../../hooks/use-paged-query';
import { DataTable } from '../../components/data-table';
import { SettingDrawer } from '../../components/settings/setting-drawer';
import {
  Code,
  editColumn,
  AddButton,
  SettingsCard,
  SortItem,
  SwitchItem,
  TextItem,
  visibilityColumn,
} from '../../components/settings/parts';

const FIELDS = [
  'currencyName',
  'currencyType',
  'walletAddressType',
  'scale',
  'icon',
  'sort',
  'isVisible',
] as const;

const NEW_CURRENCY = { currencyType: 2, scale: 8, sort: 0, isVisible: 1, walletAddressType: '' };

export default function CurrenciesPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Partial<CurrencyConfig>>();
  const { list, table } = usePagedQuery({
    key: ['currencies'],
    load: (page) => api.call(consoleSettingsApi.currencies, page),
  });
  const kind = (type: number) =>
    t(type === 1 ? 'settings.currencies.fiat' : 'settings.currencies.crypto');

  const columns: TableColumnsType<CurrencyConfig> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    {
      title: t('settings.currencies.code'),
      dataIndex: 'currencyName',
      render: (name: string) => <Code>{name}</Code>,
    },
    { title: t('settings.currencies.kind'), dataIndex: 'currencyType', render: kind },
    {
      title: t('settings.currencies.networks'),
      dataIndex: 'walletAddressType',
      render: (networks: string) =>
        networks ? networks.split('/').map((network) => <Tag key={network}>{network}</Tag>) : '–',
    },
    { title: t('settings.currencies.scale'), dataIndex: 'scale', width: 110 },
    { title: t('settings.common.sort'), dataIndex: 'sort', width: 80 },
    visibilityColumn(t, 'isVisible'),
    {
      title: t('settings.currencies.inUse'),
      dataIndex: 'inUse',
      render: (inUse: boolean) =>
        inUse ? (
          <Tag color="blue">{t('settings.currencies.used')}</Tag>
        ) : (
          <Tag>{t('settings.currencies.unused')}</Tag>
        ),
    },
    editColumn(t, (row) => `edit-currency-${row.currencyName}`, setEditing),
  ];

  const locked = editing?.inUse === true;

  return (
    <SettingsCard
      error={list.error}
      testId="currencies-page"
      help={t('settings.currencies.help')}
      actions={
        <AddButton
          label={t('settings.currencies.add')}
          onClick={() => setEditing(NEW_CURRENCY)}
          testId="add-currency"
        />
      }
    >
      <DataTable<CurrencyConfig> columns={columns} {...table} testId="currencies-table" />
      {editing && (
        <SettingDrawer
          title={
            editing.id === undefined
              ? t('settings.currencies.add')
              : t('settings.currencies.editTitle', { code: editing.currencyName })
          }
          schema={currencySaveBody}
          fixed={{ id: editing.id }}
          initialValues={editing}
          fields={FIELDS}
          save={(body) => api.send(consoleSettingsApi.saveCurrency, body)}
          refresh={['currencies']}
          onClose={() => setEditing(undefined)}
          testId="currency-drawer"
        >
          {locked && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              message={t('settings.currencies.inUseNote')}
              data-testid="currency-in-use"
            />
          )}
          <TextItem
            name="currencyName"
            label={t('settings.currencies.code')}
            extra={t('settings.currencies.codeHelp')}
            disabled={locked}
            width={200}
            testId="currency-code"
          />
          <Form.Item name="currencyType" label={t('settings.currencies.kind')}>
            <Select
              disabled={locked}
              style={{ width: 200 }}
              options={[1, 2].map((type) => ({ value: type, label: kind(type) }))}
            />
          </Form.Item>
          <TextItem
            name="walletAddressType"
            label={t('settings.currencies.networks')}
            extra={t('settings.currencies.networksHelp')}
            placeholder="ERC20/TRC20"
            testId="currency-networks"
          />
          <Form.Item
            name="scale"
            label={t('settings.currencies.scale')}
            extra={t('settings.currencies.scaleHelp')}
          >
            <InputNumber<number>
              disabled={locked}
              precision={0}
              min={0}
              max={18}
              style={{ width: 200 }}
              data-testid="currency-scale"
            />
          </Form.Item>
          <TextItem name="icon" label={t('settings.currencies.icon')} placeholder="https://…" />
          <SortItem width={200} />
          <SwitchItem name="isVisible" label={t('settings.common.visibility')} disabled={locked} />
        </SettingDrawer>
      )}
    </SettingsCard>
  );
}
