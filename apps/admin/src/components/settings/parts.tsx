/**
 * What the settings pages share: the card a page's table sits in with its toolbar, on/off tags,
 * the names of product and position types, a multilingual name (English and the console's
 * language), the switch a 0/1 setting is edited with, the columns every settings table has
 * (visibility, product type, the edit button) and the drawer's text and sort fields.
 */
import type { ReactNode } from 'react';
import { Button, Form, Input, InputNumber, Space, Switch, Tag, Typography } from 'antd';
import type { SwitchProps, TableColumnType, TablePaginationConfig } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  consoleSettingsApi,
  DEFAULT_LANGUAGE,
  mul,
  normalize,
  PAGE,
  PRODUCT_TYPE,
  PRODUCT_TYPES,
} from '@bourse/shared';
import { api } from '../../api';
import { currentLanguage } from '../../i18n';
import { Muted, ToolbarRow } from '../cells';
import { ListError } from '../data-table';

/** A settings page: a toolbar (filters left, actions right) over its content. */
export function SettingsCard({
  help,
  toolbar = help && <Typography.Text type="secondary">{help}</Typography.Text>,
  actions,
  error,
  children,
  testId,
}: {
  /** What the page is for, as its toolbar (when it has no other). */
  help?: string;
  toolbar?: ReactNode;
  actions?: ReactNode;
  /** The failure of the page's list, if it failed. */
  error?: unknown;
  children: ReactNode;
  testId: string;
}) {
  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }} data-testid={testId}>
      {(toolbar || actions) && (
        <ToolbarRow>
          <Space wrap>{toolbar}</Space>
          <Space wrap>{actions}</Space>
        </ToolbarRow>
      )}
      <ListError error={error} />
      {children}
    </div>
  );
}

/**
 * The paging of a table whose call answers the whole list, bounded by its nature: fees, one row
 * per product type, position type and direction.
 */
export function useListPagination(): TablePaginationConfig {
  const { t } = useTranslation();
  return {
    defaultPageSize: 20,
    showSizeChanger: true,
    showTotal: (count) => t('common.total', { count }),
  };
}

/** 1 shows `on` in green, 0 `off` in grey (or red when `offDanger`). */
export function FlagTag({
  value,
  on,
  off,
  offColor = 'default',
  onColor = 'green',
}: {
  value: number;
  on: string;
  off: string;
  offColor?: string;
  onColor?: string;
}) {
  return value === 1 ? <Tag color={onColor}>{on}</Tag> : <Tag color={offColor}>{off}</Tag>;
}

export type ProductTypeName = keyof typeof PRODUCT_TYPE;
const POSITION_NAMES = ['fast', 'contract', 'spot', 'coinToCoin'] as const;

export function productTypeKey(type: number): ProductTypeName {
  const entry = Object.entries(PRODUCT_TYPE).find(([, code]) => code === type);
  return (entry?.[0] ?? 'crypto') as ProductTypeName;
}

export function useTypeNames() {
  const { t } = useTranslation();
  return {
    productType: (type: number) => t(`settings.productType.${productTypeKey(type)}`),
    positionType: (type: number) =>
      t(`settings.positionType.${POSITION_NAMES[type] ?? 'contract'}`),
    direction: (exType: number) =>
      t(exType === 1 ? 'settings.direction.buy' : 'settings.direction.sell'),
  };
}

/** The console's language key among the texts' keys (`zh` or `en`). */
export function consoleTextKey(): string {
  return currentLanguage();
}

/** A text kept by language, in the console's language (English, or `fallback`, without one). */
export function localName(texts: Record<string, string>, fallback: string): string {
  return texts[consoleTextKey()] ?? texts[DEFAULT_LANGUAGE] ?? fallback;
}

/** A name kept by language: English, and the console's language under it when it differs. */
export function LanguageName({
  texts,
  fallback,
}: {
  texts: Record<string, string>;
  fallback: string;
}) {
  const english = texts[DEFAULT_LANGUAGE] ?? fallback;
  const local = texts[consoleTextKey()];
  return (
    <div style={{ lineHeight: 1.35 }}>
      <div>{english}</div>
      {local && local !== english && <Muted small>{local}</Muted>}
    </div>
  );
}

/** A 0/1 setting edited with a switch (Form.Item with valuePropName "checked"). */
export function FlagSwitch({
  value,
  onChange,
  ...props
}: Omit<SwitchProps, 'value' | 'onChange'> & {
  value?: number | boolean;
  onChange?: (value: number) => void;
}) {
  return (
    <Switch
      {...props}
      checked={value === 1 || value === true}
      onChange={(checked) => onChange?.(checked ? 1 : 0)}
    />
  );
}

/** A code shown as code (a product, a switch, a setting's key). */
export function Code({ children }: { children: ReactNode }) {
  return (
    <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
      {children}
    </Typography.Text>
  );
}

/** A rate as a percentage (0.001 → 0.1 %). */
export function percent(rate: string): string {
  return `${normalize(mul(rate, '100'))} %`;
}

/** The platform's currencies (at most a page of 100), for names and choices. */
export function useCurrencies() {
  const list = useQuery({
    queryKey: ['currencies', { pageNum: 1, pageSize: PAGE.maxSize }],
    queryFn: () => api.call(consoleSettingsApi.currencies, { pageNum: 1, pageSize: PAGE.maxSize }),
  });
  const rows = list.data?.rows ?? [];
  return {
    rows,
    name: (id: number) => rows.find((currency) => currency.id === id)?.currencyName ?? `#${id}`,
    options: rows.map((currency) => ({ value: currency.id, label: currency.currencyName })),
  };
}

/** Choices of codes, each with its name. */
export function codeOptions(codes: readonly number[], name: (code: number) => string) {
  return codes.map((code) => ({ value: code, label: name(code) }));
}

/** A 0/1 visibility: shown in green, hidden in grey. */
export function visibilityColumn<T>(t: TFunction, dataIndex: string, width?: number) {
  return {
    title: t('settings.common.visibility'),
    dataIndex,
    ...(width === undefined ? {} : { width }),
    render: (value: number) => (
      <FlagTag value={value} on={t('settings.common.shown')} off={t('settings.common.hidden')} />
    ),
  } satisfies TableColumnType<T>;
}

/** The product type, filtered by type (lists the call answers whole). */
export function productTypeColumn<T extends { productType: number }>(
  t: TFunction,
  names: ReturnType<typeof useTypeNames>,
): TableColumnType<T> {
  return {
    title: t('settings.products.type'),
    dataIndex: 'productType',
    render: (value: number) => names.productType(value),
    filters: PRODUCT_TYPES.map((code) => ({ value: code, text: names.productType(code) })),
    onFilter: (value, row) => row.productType === value,
  };
}

/** The actions column: the row's edit button (`testId` names the row). */
export function editColumn<T>(
  t: TFunction,
  testId: (row: T) => string,
  onEdit: (row: NoInfer<T>) => void,
): TableColumnType<T> {
  return {
    title: t('settings.common.actions'),
    width: 90,
    render: (_, row) => (
      <Button size="small" onClick={() => onEdit(row)} data-testid={testId(row)}>
        {t('settings.common.edit')}
      </Button>
    ),
  };
}

/** The button that adds a setting (a row of the page's table). */
export function AddButton({
  label,
  onClick,
  testId,
}: {
  label: string;
  onClick: () => void;
  testId?: string;
}) {
  return (
    <Button icon={<PlusOutlined />} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
}

/** A 0/1 field of a setting's drawer, edited with a switch. */
export function SwitchItem({
  name,
  label,
  extra,
  testId,
  disabled,
}: {
  name: string;
  label: string;
  extra?: ReactNode;
  testId?: string;
  disabled?: boolean;
}) {
  return (
    <Form.Item name={name} label={label} extra={extra}>
      <FlagSwitch disabled={disabled} data-testid={testId} />
    </Form.Item>
  );
}

/** A text field of a setting's drawer. */
export function TextItem({
  name,
  label,
  extra,
  width,
  testId,
  disabled,
  placeholder,
}: {
  name: string;
  label: string;
  extra?: ReactNode;
  width?: number;
  testId?: string;
  disabled?: boolean;
  placeholder?: string;
}) {
  return (
    <Form.Item name={name} label={label} extra={extra}>
      <Input
        disabled={disabled}
        placeholder={placeholder}
        style={width === undefined ? undefined : { width }}
        data-testid={testId}
      />
    </Form.Item>
  );
}

/** The sort field of a setting's drawer (a whole number). */
export function SortItem({ width }: { width: number }) {
  const { t } = useTranslation();
  return (
    <Form.Item name="sort" label={t('settings.common.sort')}>
      <InputNumber<number> precision={0} style={{ width }} />
    </Form.Item>
  );
}
