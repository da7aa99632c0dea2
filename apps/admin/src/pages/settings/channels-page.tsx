/**
 * Deposit and withdrawal channels (finance). A deposit channel is the platform's own account,
 * address or payment page. A withdrawal channel's terms only get worse with notice (PRODUCT 1.9):
 * before a withdrawal channel is saved, the drawer shows which changes apply at once and which
 * after the notice period and from when (the server's preview, from the rules the save applies),
 * and the table lists each channel's changes to come. Names and remarks kept by language keep their
 * other languages; the English text is the one edited here.
 */
import { useState } from 'react';
import { Button, Form, Input, InputNumber, Select, Table, Tabs, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleSettingsApi,
  DEFAULT_LANGUAGE,
  normalize,
  operatorsApi,
  rechargeChannelSaveBody,
  withdrawChannelSaveBody,
  type RechargeChannelConfig,
  type WithdrawChannelConfig,
  type WithdrawChannelPreview,
} from '@bourse/shared';
import { api } from '../../api';
import { SettingDrawer } from '../../components/settings/setting-drawer';
import {
  FlagSwitch,
  FlagTag,
  LanguageName,
  localName,
  percent,
  SettingsCard,
  useListPagination,
  useCurrencies,
} from '../../components/settings/parts';
import { PendingChanges, WithdrawPreview } from '../../components/settings/withdraw-preview';

const RECHARGE_FIELDS = [
  'channelType',
  'channelName',
  'currencyId',
  'network',
  'depositAddress',
  'bankName',
  'accountName',
  'accountNumber',
  'payUrl',
  'minAmount',
  'maxAmount',
  'remark',
  'sort',
  'isVisible',
] as const;

const WITHDRAW_FIELDS = [
  'channelType',
  'channelName',
  'currencyId',
  'network',
  'feeRate',
  'fixedFee',
  'minAmount',
  'maxAmount',
  'dailyLimit',
  'remark',
  'sort',
  'isVisible',
] as const;

type Texts = Record<string, string>;

/** A text kept by language, its English one replaced by what was typed (none kept: none sent). */
function withEnglish(stored: Texts | undefined, english: string): Texts | undefined {
  return stored && Object.keys(stored).length > 0
    ? { ...stored, [DEFAULT_LANGUAGE]: english }
    : undefined;
}

const RECHARGE_TYPES = { bank: 1, crypto: 2, online: 3 } as const;
const WITHDRAW_TYPES = { bank: 1, crypto: 2 } as const;

/** The form's values of a stored deposit channel (column names to the save's fields). */
function rechargeValues(row: RechargeChannelConfig) {
  return {
    channelType: row.channel_type,
    channelName: row.channel_name,
    currencyId: row.currency_id,
    network: row.network ?? '',
    depositAddress: row.deposit_address ?? '',
    bankName: row.bank_name ?? '',
    accountName: row.account_name ?? '',
    accountNumber: row.account_number ?? '',
    payUrl: row.pay_url ?? '',
    minAmount: normalize(row.min_amount),
    maxAmount: normalize(row.max_amount),
    remark: row.remark,
    sort: row.sort,
    isVisible: row.is_visible,
  };
}

function withdrawValues(row: WithdrawChannelConfig) {
  return {
    channelType: row.channel_type,
    channelName: row.channel_name,
    currencyId: row.currency_id,
    network: row.network ?? '',
    feeRate: normalize(row.fee_rate),
    fixedFee: normalize(row.fixed_fee),
    minAmount: normalize(row.min_amount),
    maxAmount: normalize(row.max_amount),
    dailyLimit: normalize(row.daily_limit),
    remark: row.remark,
    sort: row.sort,
    isVisible: row.is_visible,
  };
}

function useChannelTypeOptions(types: Record<string, number>) {
  const { t } = useTranslation();
  return Object.entries(types).map(([name, value]) => ({
    value,
    label: t(`settings.channels.type.${name as 'bank'}`),
  }));
}

function RechargeChannels({ rows }: { rows: RechargeChannelConfig[] }) {
  const { t } = useTranslation();
  const pagination = useListPagination();
  const currencies = useCurrencies();
  const typeOptions = useChannelTypeOptions(RECHARGE_TYPES);
  const [editing, setEditing] = useState<RechargeChannelConfig | 'new'>();
  const stored = editing === 'new' ? undefined : editing;

  const columns: TableColumnsType<RechargeChannelConfig> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    {
      title: t('settings.channels.name'),
      render: (_, row) => (
        <LanguageName texts={row.channel_name_lang} fallback={row.channel_name} />
      ),
    },
    {
      title: t('settings.channels.kind'),
      dataIndex: 'channel_type',
      render: (type: number) => typeOptions.find((option) => option.value === type)?.label,
    },
    {
      title: t('settings.channels.currency'),
      render: (_, row) =>
        `${currencies.name(row.currency_id)}${row.network ? ` · ${row.network}` : ''}`,
    },
    {
      title: t('settings.channels.limits'),
      render: (_, row) => `${normalize(row.min_amount)} – ${normalize(row.max_amount)}`,
    },
    { title: t('settings.common.sort'), dataIndex: 'sort', width: 70 },
    {
      title: t('settings.common.visibility'),
      dataIndex: 'is_visible',
      render: (value: number) => (
        <FlagTag value={value} on={t('settings.common.shown')} off={t('settings.common.hidden')} />
      ),
    },
    {
      title: t('settings.common.actions'),
      width: 90,
      render: (_, row) => (
        <Button
          size="small"
          onClick={() => setEditing(row)}
          data-testid={`edit-recharge-${row.id}`}
        >
          {t('settings.common.edit')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('settings.channels.addRecharge')}
        </Button>
      </div>
      <Table<RechargeChannelConfig>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        pagination={pagination}
        data-testid="recharge-channels"
      />
      {editing && (
        <SettingDrawer
          title={
            stored
              ? t('settings.channels.editTitle', {
                  name: localName(stored.channel_name_lang, stored.channel_name),
                })
              : t('settings.channels.addRecharge')
          }
          width={620}
          schema={rechargeChannelSaveBody}
          initialValues={
            stored ? rechargeValues(stored) : { channelType: 1, isVisible: 1, sort: 0, remark: '' }
          }
          fixed={{ id: stored?.id }}
          fields={RECHARGE_FIELDS}
          save={(body) =>
            api.send(operatorsApi.saveRechargeChannel, {
              ...body,
              channelNameLang: withEnglish(stored?.channel_name_lang, body.channelName),
              remarkLang: withEnglish(stored?.remark_lang, body.remark),
              bankNameLang: withEnglish(stored?.bank_name_lang, body.bankName ?? ''),
              accountNameLang: withEnglish(stored?.account_name_lang, body.accountName ?? ''),
            })
          }
          refresh={['channels']}
          onClose={() => setEditing(undefined)}
          testId="recharge-drawer"
        >
          <Form.Item name="channelType" label={t('settings.channels.kind')}>
            <Select options={typeOptions} />
          </Form.Item>
          <Form.Item name="channelName" label={t('settings.channels.name')}>
            <Input />
          </Form.Item>
          <Form.Item name="currencyId" label={t('settings.channels.currency')}>
            <Select options={currencies.options} />
          </Form.Item>
          <Form.Item name="network" label={t('settings.channels.network')}>
            <Input />
          </Form.Item>
          <Form.Item name="depositAddress" label={t('settings.channels.depositAddress')}>
            <Input />
          </Form.Item>
          <Form.Item name="bankName" label={t('settings.channels.bankName')}>
            <Input />
          </Form.Item>
          <Form.Item name="accountName" label={t('settings.channels.accountName')}>
            <Input />
          </Form.Item>
          <Form.Item name="accountNumber" label={t('settings.channels.accountNumber')}>
            <Input />
          </Form.Item>
          <Form.Item name="payUrl" label={t('settings.channels.payUrl')}>
            <Input />
          </Form.Item>
          <Form.Item name="minAmount" label={t('settings.channels.terms.minAmount')}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="maxAmount" label={t('settings.channels.terms.maxAmount')}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="remark" label={t('settings.channels.remark')}>
            <Input.TextArea rows={3} />
          </Form.Item>
          <Form.Item name="sort" label={t('settings.common.sort')}>
            <InputNumber<number> precision={0} style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="isVisible" label={t('settings.common.visibility')}>
            <FlagSwitch />
          </Form.Item>
        </SettingDrawer>
      )}
    </>
  );
}

function WithdrawChannels({ rows }: { rows: WithdrawChannelConfig[] }) {
  const { t } = useTranslation();
  const pagination = useListPagination();
  const currencies = useCurrencies();
  const typeOptions = useChannelTypeOptions(WITHDRAW_TYPES);
  const [editing, setEditing] = useState<WithdrawChannelConfig | 'new'>();
  const [preview, setPreview] = useState<WithdrawChannelPreview>();
  const stored = editing === 'new' ? undefined : editing;

  const columns: TableColumnsType<WithdrawChannelConfig> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    {
      title: t('settings.channels.name'),
      render: (_, row) => (
        <LanguageName texts={row.channel_name_lang} fallback={row.channel_name} />
      ),
    },
    {
      title: t('settings.channels.currency'),
      render: (_, row) =>
        `${currencies.name(row.currency_id)}${row.network ? ` · ${row.network}` : ''}`,
    },
    {
      title: t('settings.channels.fee'),
      render: (_, row) => `${percent(row.fee_rate)} + ${normalize(row.fixed_fee)}`,
    },
    {
      title: t('settings.channels.limits'),
      render: (_, row) => (
        <div style={{ lineHeight: 1.35 }}>
          <div>{`${normalize(row.min_amount)} – ${normalize(row.max_amount)}`}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('settings.channels.dailyValue', { value: normalize(row.daily_limit) })}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: t('settings.common.visibility'),
      dataIndex: 'is_visible',
      render: (value: number) => (
        <FlagTag value={value} on={t('settings.common.shown')} off={t('settings.common.hidden')} />
      ),
    },
    {
      title: t('settings.channels.toCome'),
      width: 330,
      render: (_, row) => <PendingChanges changes={row.pendingChanges} />,
    },
    {
      title: t('settings.common.actions'),
      width: 90,
      render: (_, row) => (
        <Button
          size="small"
          onClick={() => setEditing(row)}
          data-testid={`edit-withdraw-${row.id}`}
        >
          {t('settings.common.edit')}
        </Button>
      ),
    },
  ];

  const close = () => {
    setEditing(undefined);
    setPreview(undefined);
  };

  return (
    <>
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'flex-start',
          gap: 24,
          marginBottom: 12,
        }}
      >
        <Typography.Text type="secondary">{t('settings.channels.noticeHelp')}</Typography.Text>
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('settings.channels.addWithdraw')}
        </Button>
      </div>
      <Table<WithdrawChannelConfig>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        pagination={pagination}
        data-testid="withdraw-channels"
      />
      {editing && (
        <SettingDrawer
          title={
            stored
              ? t('settings.channels.editTitle', {
                  name: localName(stored.channel_name_lang, stored.channel_name),
                })
              : t('settings.channels.addWithdraw')
          }
          width={620}
          schema={withdrawChannelSaveBody}
          initialValues={
            stored ? withdrawValues(stored) : { channelType: 1, isVisible: 1, sort: 0, remark: '' }
          }
          fixed={{ id: stored?.id }}
          fields={WITHDRAW_FIELDS}
          // A first click shows what the save will do; the next one saves it.
          submitLabel={
            preview ? t('settings.channels.confirmSave') : t('settings.channels.preview')
          }
          onValuesChange={() => setPreview(undefined)}
          footerExtra={preview && <WithdrawPreview preview={preview} />}
          save={async (body) => {
            const full = {
              ...body,
              channelNameLang: withEnglish(stored?.channel_name_lang, body.channelName),
              remarkLang: withEnglish(stored?.remark_lang, body.remark),
            };
            if (!preview) {
              setPreview(await api.call(consoleSettingsApi.previewWithdrawChannel, full));
              return 'stay';
            }
            return api.send(operatorsApi.saveWithdrawChannel, full);
          }}
          refresh={['channels']}
          onClose={close}
          testId="withdraw-drawer"
        >
          <Form.Item name="channelType" label={t('settings.channels.kind')}>
            <Select options={typeOptions} />
          </Form.Item>
          <Form.Item name="channelName" label={t('settings.channels.name')}>
            <Input />
          </Form.Item>
          <Form.Item
            name="currencyId"
            label={t('settings.channels.currency')}
            extra={stored && t('settings.channels.currencyFixed')}
          >
            <Select options={currencies.options} disabled={Boolean(stored)} />
          </Form.Item>
          <Form.Item name="network" label={t('settings.channels.network')}>
            <Input />
          </Form.Item>
          <Form.Item
            name="feeRate"
            label={t('settings.channels.terms.feeRate')}
            extra={t('settings.channels.feeRateHelp')}
          >
            <Input style={{ width: 220 }} data-testid="withdraw-fee-rate" />
          </Form.Item>
          <Form.Item name="fixedFee" label={t('settings.channels.terms.fixedFee')}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="minAmount" label={t('settings.channels.terms.minAmount')}>
            <Input style={{ width: 220 }} data-testid="withdraw-min" />
          </Form.Item>
          <Form.Item name="maxAmount" label={t('settings.channels.terms.maxAmount')}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="dailyLimit" label={t('settings.channels.terms.dailyLimit')}>
            <Input style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="remark" label={t('settings.channels.remark')}>
            <Input.TextArea rows={3} />
          </Form.Item>
          <Form.Item name="sort" label={t('settings.common.sort')}>
            <InputNumber<number> precision={0} style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="isVisible" label={t('settings.common.visibility')}>
            <FlagSwitch />
          </Form.Item>
        </SettingDrawer>
      )}
    </>
  );
}

export default function ChannelsPage() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['channels'], queryFn: () => api.call(operatorsApi.channels) });
  return (
    <SettingsCard error={list.error} testId="channels-page">
      <Tabs
        defaultActiveKey="withdraw"
        items={[
          {
            key: 'withdraw',
            label: t('settings.channels.withdrawTab'),
            children: <WithdrawChannels rows={list.data?.withdraw ?? []} />,
          },
          {
            key: 'recharge',
            label: t('settings.channels.rechargeTab'),
            children: <RechargeChannels rows={list.data?.recharge ?? []} />,
          },
        ]}
      />
    </SettingsCard>
  );
}
