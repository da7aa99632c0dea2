/**
 * Order fees (finance): the rate of each product type, position type and direction, as a fraction
 * of the amount (below 10 %). Orders keep the fee they were placed with; a change applies to new
 * orders. A rate is edited in a drawer; a missing combination is added with the same form.
 */
import { useMemo, useState } from 'react';
import { Form, Select, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  cmp,
  DIRECTIONS,
  feeSaveBody,
  operatorsApi,
  POSITION_TYPES,
  PRODUCT_TYPES,
  type FeeConfig,
} from '@bourse/shared';
import { api } from '../../api';
import { SettingDrawer } from '../../components/settings/setting-drawer';
import { DataTable } from '../../components/data-table';
import {
  AddButton,
  codeOptions,
  editColumn,
  percent,
  productTypeColumn,
  SettingsCard,
  TextItem,
  useListPagination,
  useTypeNames,
} from '../../components/settings/parts';

const FIELDS = ['productType', 'positionType', 'exType', 'feeRate'] as const;

export default function FeesPage() {
  const { t } = useTranslation();
  const pagination = useListPagination();
  const names = useTypeNames();
  const [editing, setEditing] = useState<Partial<FeeConfig>>();
  const list = useQuery({ queryKey: ['fees'], queryFn: () => api.call(operatorsApi.fees) });
  const rows = useMemo(() => list.data ?? [], [list.data]);

  const columns: TableColumnsType<FeeConfig> = [
    productTypeColumn(t, names),
    {
      title: t('settings.fees.positionType'),
      dataIndex: 'positionType',
      render: (value: number) => names.positionType(value),
      filters: POSITION_TYPES.map((code) => ({ value: code, text: names.positionType(code) })),
      onFilter: (value, row) => row.positionType === value,
    },
    {
      title: t('settings.fees.direction'),
      dataIndex: 'exType',
      render: (value: number) => names.direction(value),
    },
    {
      title: t('settings.fees.rate'),
      dataIndex: 'feeRate',
      render: (value: string) => (
        <span>
          <Typography.Text strong>{percent(value)}</Typography.Text>
          <Typography.Text type="secondary"> ({value})</Typography.Text>
        </span>
      ),
      sorter: (a, b) => cmp(a.feeRate, b.feeRate),
    },
    editColumn(
      t,
      (row) => `edit-fee-${row.productType}-${row.positionType}-${row.exType}`,
      setEditing,
    ),
  ];

  const creating = editing !== undefined && editing.id === undefined;

  return (
    <SettingsCard
      error={list.error}
      testId="fees-page"
      help={t('settings.fees.help')}
      actions={
        <AddButton label={t('settings.fees.add')} onClick={() => setEditing({})} testId="add-fee" />
      }
    >
      <DataTable<FeeConfig>
        columns={columns}
        dataSource={rows}
        loading={list.isPending}
        pagination={pagination}
        testId="fees-table"
      />
      {editing && (
        <SettingDrawer
          title={t(creating ? 'settings.fees.add' : 'settings.fees.editTitle')}
          schema={feeSaveBody}
          initialValues={editing}
          fields={FIELDS}
          save={(body) => api.send(operatorsApi.saveFee, body)}
          refresh={['fees']}
          onClose={() => setEditing(undefined)}
          testId="fee-drawer"
        >
          <Form.Item name="productType" label={t('settings.products.type')}>
            <Select disabled={!creating} options={codeOptions(PRODUCT_TYPES, names.productType)} />
          </Form.Item>
          <Form.Item name="positionType" label={t('settings.fees.positionType')}>
            <Select
              disabled={!creating}
              options={codeOptions(POSITION_TYPES, names.positionType)}
            />
          </Form.Item>
          <Form.Item name="exType" label={t('settings.fees.direction')}>
            <Select disabled={!creating} options={codeOptions(DIRECTIONS, names.direction)} />
          </Form.Item>
          <TextItem
            name="feeRate"
            label={t('settings.fees.rate')}
            extra={t('settings.fees.rateHelp')}
            width={200}
            testId="fee-rate"
          />
        </SettingDrawer>
      )}
    </SettingsCard>
  );
}
