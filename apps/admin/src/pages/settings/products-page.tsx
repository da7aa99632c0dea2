/**
 * Products (admin): visibility, sort, halt, leverage choices and maintenance rate of each product,
 * never its price (operatorsApi.updateProduct has no field for one). A halt stops new buying and
 * opening only: what users hold can still be sold and closed at the feed's price (PRODUCT 1.8).
 * The list is paged and filtered on the server by type and code or name; a product is edited in a
 * drawer.
 */
import { useState } from 'react';
import { Button, Form, Input, InputNumber, Segmented, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { operatorsApi, PRODUCT_TYPES, productUpdateBody, type ProductConfig } from '@bourse/shared';
import { api } from '../../api';
import { SettingDrawer } from '../../components/settings/setting-drawer';
import { usePaging } from '../../hooks/use-paging';
import {
  Code,
  FlagSwitch,
  FlagTag,
  LanguageName,
  SettingsCard,
  useTypeNames,
} from '../../components/settings/parts';

const FIELDS = ['isVisible', 'isLock', 'sort', 'leverages', 'maintenanceRate'] as const;

export default function ProductsPage() {
  const { t } = useTranslation();
  const paging = usePaging();
  const names = useTypeNames();
  const [type, setType] = useState<number | 'all'>('all');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<ProductConfig>();
  // Paged and filtered on the server: an installation may list thousands of products.
  const input = {
    pageNum: paging.pageNum,
    pageSize: paging.pageSize,
    productType: type === 'all' ? undefined : type,
    keyword: search.trim() || undefined,
  };
  const list = useQuery({
    queryKey: ['products', input],
    queryFn: () => api.call(operatorsApi.products, input),
    placeholderData: keepPreviousData,
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
    {
      title: t('settings.common.visibility'),
      dataIndex: 'isVisible',
      width: 110,
      render: (value: number) => (
        <FlagTag value={value} on={t('settings.common.shown')} off={t('settings.common.hidden')} />
      ),
    },
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
      dataIndex: 'sort',
      width: 80,
      sorter: (a, b) => a.sort - b.sort,
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
    {
      title: t('settings.common.actions'),
      width: 90,
      render: (_, row) => (
        <Button
          size="small"
          onClick={() => setEditing(row)}
          data-testid={`edit-product-${row.productCode}`}
        >
          {t('settings.common.edit')}
        </Button>
      ),
    },
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
              ...PRODUCT_TYPES.map((code) => ({
                value: String(code),
                label: names.productType(code),
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
      <Table<ProductConfig>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.rows}
        loading={list.isPending}
        pagination={paging.pagination(list.data?.total)}
        data-testid="products-table"
      />
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
          <Form.Item
            name="isVisible"
            label={t('settings.products.visible')}
            extra={t('settings.products.visibleHelp')}
          >
            <FlagSwitch data-testid="product-visible" />
          </Form.Item>
          <Form.Item
            name="isLock"
            label={t('settings.products.halt')}
            extra={t('settings.products.haltHelp')}
          >
            <FlagSwitch data-testid="product-halt" />
          </Form.Item>
          <Form.Item name="sort" label={t('settings.common.sort')}>
            <InputNumber<number> precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name="leverages"
            label={t('settings.products.leverages')}
            extra={t('settings.products.leveragesHelp')}
          >
            <Input data-testid="product-leverages" />
          </Form.Item>
          <Form.Item
            name="maintenanceRate"
            label={t('settings.products.maintenanceRate')}
            extra={t('settings.products.maintenanceHelp')}
          >
            <Input style={{ width: 200 }} data-testid="product-maintenance" />
          </Form.Item>
        </SettingDrawer>
      )}
    </SettingsCard>
  );
}
