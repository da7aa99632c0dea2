/**
 * Products (admin): visibility, sort, halt, leverage choices and maintenance rate of each product,
 * never its price (operatorsApi.updateProduct has no field for one). A halt stops new buying and
 * opening only: what users hold can still be sold and closed at the feed's price (PRODUCT 1.8).
 * The list is paged and filtered on the server by type and code or name; a product is edited in a
 * drawer.
 */
import { useState } from 'react';
import { Input, Segmented, Space, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { operatorsApi, PRODUCT_TYPES, productUpdateBody, type ProductConfig } from '@bourse/shared';
import { api } from '../../api';
import { SettingDrawer } from '../../components/settings/setting-drawer';
import { usePagedQuery } from '../../hooks/use-paged-query';
import { DataTable } from '../../components/data-table';
import {
  Code,
  codeOptions,
  editColumn,
  FlagTag,
  LanguageName,
  SettingsCard,
  SortItem,
  SwitchItem,
  TextItem,
  useTypeNames,
  visibilityColumn,
} from '../../components/settings/parts';

const FIELDS = ['isVisible', 'isLock', 'sort', 'leverages', 'maintenanceRate'] as const;

export default function ProductsPage() {
  const { t } = useTranslation();
  const names = useTypeNames();
  const [type, setType] = useState<number | 'all'>('all');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<ProductConfig>();
  // Paged and filtered on the server: an installation may list thousands of products.
  const { paging, list, table } = usePagedQuery({
    key: ['products'],
    input: { productType: type === 'all' ? undefined : type, keyword: search.trim() || undefined },
    load: (input) => api.call(operatorsApi.products, input),
  });

  const columns: TableColumnsType<ProductConfig> = [
    {
      title: t('settings.products.product'),
      render: (_, row) => (
        <Space size={12} align="start">
          <Code>{row.productCode}</Code>
          <LanguageName texts={row.productNameLang} fallback={row.productName} />
        </Space>
      ),
    },
    {
      title: t('settings.products.type'),
      dataIndex: 'productType',
      width: 120,
      render: (value: number) => names.productType(value),
    },
    visibilityColumn(t, 'isVisible', 110),
    {
      title: t('settings.products.trading'),
      dataIndex: 'isLock',
      width: 120,
      render: (value: number) => (
        <FlagTag
          value={value}
          on={t('settings.products.halted')}
          off={t('settings.products.open')}
          onColor="red"
          offColor="green"
        />
      ),
    },
    {
      title: t('settings.common.sort'),
      // The server orders each page by type, then sort: sorting in the browser would sort one page.
      dataIndex: 'sort',
      width: 80,
    },
    {
      title: t('settings.products.leverages'),
      render: (_, row) =>
        row.leverages.length > 0 ? (
          <Typography.Text style={{ whiteSpace: 'nowrap' }}>
            {row.leverages.map((value) => `${value}×`).join(' · ')}
          </Typography.Text>
        ) : (
          '–'
        ),
    },
    {
      title: t('settings.products.maintenanceRate'),
      dataIndex: 'maintenanceRate',
      width: 150,
    },
    {
      title: t('settings.products.positionTypes'),
      render: (_, row) => (
        <Typography.Text style={{ whiteSpace: 'nowrap' }}>
          {row.positionTypes.map((code) => names.positionType(code)).join(' · ')}
        </Typography.Text>
      ),
    },
    editColumn(t, (row) => `edit-product-${row.productCode}`, setEditing),
  ];

  return (
    <SettingsCard
      error={list.error}
      testId="products-page"
      toolbar={
        <>
          <Segmented<string>
            value={String(type)}
            onChange={(value) => {
              setType(value === 'all' ? 'all' : Number(value));
              paging.restart();
            }}
            options={[
              { value: 'all', label: t('common.all') },
              ...codeOptions(PRODUCT_TYPES, names.productType).map((option) => ({
                ...option,
                value: String(option.value),
              })),
            ]}
          />
          <Input.Search
            allowClear
            placeholder={t('settings.products.search')}
            onChange={(event) => {
              setSearch(event.target.value);
              paging.restart();
            }}
            style={{ width: 260 }}
            data-testid="product-search"
          />
        </>
      }
      actions={<Typography.Text type="secondary">{t('settings.products.noPrice')}</Typography.Text>}
    >
      <DataTable<ProductConfig> columns={columns} {...table} testId="products-table" />
      {editing && (
        <SettingDrawer
          title={t('settings.products.editTitle', { code: editing.productCode })}
          schema={productUpdateBody}
          fixed={{ productType: editing.productType, productCode: editing.productCode }}
          initialValues={{
            isVisible: editing.isVisible,
            isLock: editing.isLock,
            sort: editing.sort,
            leverages: editing.leverages.join(', '),
            maintenanceRate: editing.maintenanceRate,
          }}
          fields={FIELDS}
          save={(body) => api.send(operatorsApi.updateProduct, body)}
          refresh={['products']}
          onClose={() => setEditing(undefined)}
          testId="product-drawer"
        >
          <Typography.Paragraph type="secondary">
            <LanguageName texts={editing.productNameLang} fallback={editing.productName} />
          </Typography.Paragraph>
          <SwitchItem
            name="isVisible"
            label={t('settings.products.visible')}
            extra={t('settings.products.visibleHelp')}
            testId="product-visible"
          />
          <SwitchItem
            name="isLock"
            label={t('settings.products.halt')}
            extra={t('settings.products.haltHelp')}
            testId="product-halt"
          />
          <SortItem width={160} />
          <TextItem
            name="leverages"
            label={t('settings.products.leverages')}
            extra={t('settings.products.leveragesHelp')}
            testId="product-leverages"
          />
          <TextItem
            name="maintenanceRate"
            label={t('settings.products.maintenanceRate')}
            extra={t('settings.products.maintenanceHelp')}
            width={200}
            testId="product-maintenance"
          />
        </SettingDrawer>
      )}
    </SettingsCard>
  );
}
