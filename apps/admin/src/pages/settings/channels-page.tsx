/**
 * Deposit and withdrawal channels (finance). A deposit channel is the platform's own account,
 * address or payment page. A withdrawal channel's terms only get worse with notice (PRODUCT 1.9):
 * before a withdrawal channel is saved, the drawer shows which changes apply at once and which
 * after the notice period and from when (the server's preview, from the rules the save applies),
 * and the table lists each channel's changes to come. Names and remarks kept by language keep their
 * other languages; the English text is the one edited here.
 */
import { useState, type ReactNode } from 'react';
import { Form, Input, Select, Tabs, Typography } from 'antd';
import type { TableColumnsType, TableColumnType } from 'antd';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
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
import { DataTable, ListError } from '../../components/data-table';
import { usePagedQuery } from '../../hooks/use-paged-query';
import { SettingDrawer, type SettingDrawerProps } from '../../components/settings/setting-drawer';
import {
  AddButton,
  editColumn,
  LanguageName,
  localName,
  percent,
  SettingsCard,
  SortItem,
  SwitchItem,
  TextItem,
  useCurrencies,
  visibilityColumn,
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

/** A deposit channel's own texts, each under its name's label. */
const RECHARGE_TEXTS = [
  'depositAddress',
  'bankName',
  'accountName',
  'accountNumber',
  'payUrl',
] as const;

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

type Channel = RechargeChannelConfig | WithdrawChannelConfig;
type Currencies = ReturnType<typeof useCurrencies>;

/** The columns both kinds of channel show: id, name, currency, visibility, the edit button. */
function channelColumns<T extends Channel>(
  t: TFunction,
  currencies: Currencies,
  kind: 'recharge' | 'withdraw',
  onEdit: (row: T) => void,
) {
  return {
    id: { title: 'ID', dataIndex: 'id', width: 60 } satisfies TableColumnType<T>,
    name: {
      title: t('settings.channels.name'),
      render: (_, row) => (
        <LanguageName texts={row.channel_name_lang} fallback={row.channel_name} />
      ),
    } satisfies TableColumnType<T>,
    currency: {
      title: t('settings.channels.currency'),
      render: (_, row) =>
        `${currencies.name(row.currency_id)}${row.network ? ` · ${row.network}` : ''}`,
    } satisfies TableColumnType<T>,
    visibility: visibilityColumn<T>(t, 'is_visible'),
    edit: editColumn<T>(t, (row) => `edit-${kind}-${row.id}`, onEdit),
  };
}

/** Above a kind's table: its note (if any) and the button that adds a channel. */
function ChannelsBar({
  note,
  addLabel,
  onAdd,
}: {
  note?: ReactNode;
  addLabel: string;
  onAdd: () => void;
}) {
  return (
    <div
      style={{
        display: 'flex',
        justifyContent: note ? 'space-between' : 'flex-end',
        alignItems: 'flex-start',
        gap: 24,
        marginBottom: 12,
      }}
    >
      {note}
      <AddButton label={addLabel} onClick={onAdd} />
    </div>
  );
}

/**
 * A channel's drawer: the fields both kinds have (type, name, currency, network, then remark,
 * sort and visibility) around the kind's own (`children`).
 */
function ChannelDrawer<S extends z.ZodType>({
  stored,
  addTitle,
  typeOptions,
  currencyFixed = false,
  children,
  ...props
}: Omit<SettingDrawerProps<S>, 'title' | 'width' | 'fixed' | 'refresh'> & {
  stored: Channel | undefined;
  addTitle: string;
  typeOptions: { value: number; label: string }[];
  /** The currency of a stored channel is kept (a withdrawal channel's). */
  currencyFixed?: boolean;
}) {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  return (
    <SettingDrawer<S>
      {...props}
      title={
        stored
          ? t('settings.channels.editTitle', {
              name: localName(stored.channel_name_lang, stored.channel_name),
            })
          : addTitle
      }
      width={620}
      fixed={{ id: stored?.id }}
      refresh={['channels']}
    >
      <Form.Item name="channelType" label={t('settings.channels.kind')}>
        <Select options={typeOptions} />
      </Form.Item>
      <TextItem name="channelName" label={t('settings.channels.name')} />
      <Form.Item
        name="currencyId"
        label={t('settings.channels.currency')}
        extra={currencyFixed && stored ? t('settings.channels.currencyFixed') : undefined}
      >
        <Select options={currencies.options} disabled={currencyFixed && Boolean(stored)} />
      </Form.Item>
      <TextItem name="network" label={t('settings.channels.network')} />
      {children}
      <Form.Item name="remark" label={t('settings.channels.remark')}>
        <Input.TextArea rows={3} />
      </Form.Item>
      <SortItem width={220} />
      <SwitchItem name="isVisible" label={t('settings.common.visibility')} />
    </SettingDrawer>
  );
}

/** A term of a channel (an amount or rate), as its text. */
function TermItem({ name, extra, testId }: { name: string; extra?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <TextItem
      name={name}
      label={t(`settings.channels.terms.${name as 'minAmount'}`)}
      extra={extra}
      width={220}
      testId={testId}
    />
  );
}

const NEW_CHANNEL = { channelType: 1, isVisible: 1, sort: 0, remark: '' };

function RechargeChannels() {
  const { t } = useTranslation();
  const { list, table } = usePagedQuery({
    key: ['channels', 'recharge'],
    load: (page) => api.call(operatorsApi.rechargeChannels, page),
  });
  const currencies = useCurrencies();
  const typeOptions = useChannelTypeOptions(RECHARGE_TYPES);
  const [editing, setEditing] = useState<RechargeChannelConfig | 'new'>();
  const stored = editing === 'new' ? undefined : editing;
  const common = channelColumns<RechargeChannelConfig>(t, currencies, 'recharge', setEditing);

  const columns: TableColumnsType<RechargeChannelConfig> = [
    common.id,
    common.name,
    {
      title: t('settings.channels.kind'),
      dataIndex: 'channel_type',
      render: (type: number) => typeOptions.find((option) => option.value === type)?.label,
    },
    common.currency,
    {
      title: t('settings.channels.limits'),
      render: (_, row) => `${normalize(row.min_amount)} – ${normalize(row.max_amount)}`,
    },
    { title: t('settings.common.sort'), dataIndex: 'sort', width: 70 },
    common.visibility,
    common.edit,
  ];

  return (
    <>
      <ChannelsBar addLabel={t('settings.channels.addRecharge')} onAdd={() => setEditing('new')} />
      <ListError error={list.error} />
      <DataTable<RechargeChannelConfig> columns={columns} {...table} testId="recharge-channels" />
      {editing && (
        <ChannelDrawer
          stored={stored}
          addTitle={t('settings.channels.addRecharge')}
          typeOptions={typeOptions}
          schema={rechargeChannelSaveBody}
          initialValues={stored ? rechargeValues(stored) : NEW_CHANNEL}
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
          onClose={() => setEditing(undefined)}
          testId="recharge-drawer"
        >
          {RECHARGE_TEXTS.map((name) => (
            <TextItem key={name} name={name} label={t(`settings.channels.${name}`)} />
          ))}
          <TermItem name="minAmount" />
          <TermItem name="maxAmount" />
        </ChannelDrawer>
      )}
    </>
  );
}

function WithdrawChannels() {
  const { t } = useTranslation();
  const { list, table } = usePagedQuery({
    key: ['channels', 'withdraw'],
    load: (page) => api.call(operatorsApi.withdrawChannels, page),
  });
  const currencies = useCurrencies();
  const typeOptions = useChannelTypeOptions(WITHDRAW_TYPES);
  const [editing, setEditing] = useState<WithdrawChannelConfig | 'new'>();
  const [preview, setPreview] = useState<WithdrawChannelPreview>();
  const stored = editing === 'new' ? undefined : editing;
  const common = channelColumns<WithdrawChannelConfig>(t, currencies, 'withdraw', setEditing);

  const columns: TableColumnsType<WithdrawChannelConfig> = [
    common.id,
    common.name,
    common.currency,
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
    common.visibility,
    {
      title: t('settings.channels.toCome'),
      width: 330,
      render: (_, row) => <PendingChanges changes={row.pendingChanges} />,
    },
    common.edit,
  ];

  const close = () => {
    setEditing(undefined);
    setPreview(undefined);
  };

  return (
    <>
      <ChannelsBar
        note={
          <Typography.Text type="secondary">{t('settings.channels.noticeHelp')}</Typography.Text>
        }
        addLabel={t('settings.channels.addWithdraw')}
        onAdd={() => setEditing('new')}
      />
      <ListError error={list.error} />
      <DataTable<WithdrawChannelConfig> columns={columns} {...table} testId="withdraw-channels" />
      {editing && (
        <ChannelDrawer
          stored={stored}
          addTitle={t('settings.channels.addWithdraw')}
          typeOptions={typeOptions}
          currencyFixed
          schema={withdrawChannelSaveBody}
          initialValues={stored ? withdrawValues(stored) : NEW_CHANNEL}
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
          onClose={close}
          testId="withdraw-drawer"
        >
          <TermItem
            name="feeRate"
            extra={t('settings.channels.feeRateHelp')}
            testId="withdraw-fee-rate"
          />
          <TermItem name="fixedFee" />
          <TermItem name="minAmount" testId="withdraw-min" />
          <TermItem name="maxAmount" />
          <TermItem name="dailyLimit" />
        </ChannelDrawer>
      )}
    </>
  );
}

export default function ChannelsPage() {
  const { t } = useTranslation();
  // Each kind paged on the server: operators add channels as they like.
  return (
    <SettingsCard testId="channels-page">
      <Tabs
        defaultActiveKey="withdraw"
        items={[
          {
            key: 'withdraw',
            label: t('settings.channels.withdrawTab'),
            children: <WithdrawChannels />,
          },
          {
            key: 'recharge',
            label: t('settings.channels.rechargeTab'),
            children: <RechargeChannels />,
          },
        ]}
      />
    </SettingsCard>
  );
}
