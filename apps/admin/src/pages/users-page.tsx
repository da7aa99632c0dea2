/**
 * Users (support, finance, admin): found by account (from its start, or exactly), id or invite
 * code, filtered by status, paged and sorted on the server (consoleUsersApi.users, its query
 * checked with userSearchQuery). A row opens the user's page.
 */
import { useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Select, Table } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  consoleUsersApi,
  USER_SEARCH_FIELDS,
  userSearchQuery,
  type ConsoleUser,
  type UserSearchField,
  type UserSortField,
} from '@bourse/shared';
import { api } from '../api';
import { errorText } from '../i18n';
import { checkWith, clearChangedErrors } from '../lib/form';
import { usePagedQuery } from '../hooks/use-paged-query';
import { SearchButtons } from '../components/search-buttons';
import { Muted, TimeCell } from '../components/cells';
import { BookTag, UserStatusTag } from '../components/users/user-cells';

interface Search {
  keyWords?: string;
  field: UserSearchField;
  exact?: boolean;
  status?: number;
}

interface Sort {
  sortField: UserSortField;
  sortOrder: 'asc' | 'desc';
}

const SORTABLE: Record<string, UserSortField> = {
  id: 'id',
  createTime: 'createTime',
  lastLoginTime: 'lastLoginTime',
};

export default function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const field: UserSearchField = Form.useWatch('field', form) ?? 'account';
  const [search, setSearch] = useState<Search>({ field: 'account' });
  const [sort, setSort] = useState<Sort>({ sortField: 'id', sortOrder: 'desc' });
  const { paging, list, table } = usePagedQuery({
    key: ['users'],
    input: { ...search, ...sort },
    load: (input) => api.call(consoleUsersApi.users, input),
  });

  function find(values: Record<string, unknown>) {
    const parsed = checkWith(form, userSearchQuery, { ...values, pageNum: 1 });
    if (!parsed) return;
    setSearch({
      field: parsed.field,
      ...(parsed.keyWords ? { keyWords: parsed.keyWords } : {}),
      ...(parsed.exact ? { exact: true } : {}),
      ...(parsed.status !== undefined ? { status: parsed.status } : {}),
    });
    paging.restart();
  }

  const order = (key: UserSortField) =>
    sort.sortField === key ? (sort.sortOrder === 'asc' ? 'ascend' : 'descend') : null;

  const onChange: TableProps<ConsoleUser>['onChange'] = (_pagination, _filters, sorter, extra) => {
    if (extra.action !== 'sort' || Array.isArray(sorter)) return;
    const key = SORTABLE[String(sorter.columnKey)];
    setSort(
      key && sorter.order
        ? { sortField: key, sortOrder: sorter.order === 'ascend' ? 'asc' : 'desc' }
        : { sortField: 'id', sortOrder: 'desc' },
    );
    paging.restart();
  };

  const columns: TableColumnsType<ConsoleUser> = [
    {
      title: t('users.id'),
      key: 'id',
      dataIndex: 'id',
      sorter: true,
      sortOrder: order('id'),
      width: 90,
    },
    {
      title: t('users.account'),
      render: (_, row) => (
        <div style={{ lineHeight: 1.35 }}>
          <Link to={`/users/${row.id}`} data-testid={`user-link-${row.id}`}>
            {row.userAccount}
          </Link>
          <div>
            <Muted small>{row.nickName}</Muted>
          </div>
        </div>
      ),
    },
    {
      title: t('users.inviteCode'),
      dataIndex: 'inviteCode',
      render: (code: string) => <span style={{ fontFamily: 'monospace' }}>{code}</span>,
    },
    {
      title: t('users.accountType'),
      dataIndex: 'accountType',
      render: (type: number) => <BookTag book={type} />,
    },
    {
      title: t('users.statusLabel'),
      dataIndex: 'status',
      render: (status: number) => <UserStatusTag status={status} />,
    },
    {
      title: t('users.registered'),
      key: 'createTime',
      dataIndex: 'createTime',
      sorter: true,
      sortOrder: order('createTime'),
      render: (iso: string) => <TimeCell iso={iso} />,
    },
    {
      title: t('users.lastLogin'),
      key: 'lastLoginTime',
      dataIndex: 'lastLoginTime',
      sorter: true,
      sortOrder: order('lastLoginTime'),
      render: (iso: string | null) => (iso ? <TimeCell iso={iso} /> : <Muted>–</Muted>),
    },
    {
      title: '',
      align: 'right',
      render: (_, row) => (
        <Button size="small" onClick={() => navigate(`/users/${row.id}`)}>
          {t('users.open')}
        </Button>
      ),
    },
  ];

  return (
    <div style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Form
        form={form}
        layout="inline"
        initialValues={{ field: 'account' }}
        onFinish={find}
        // A refusal shown on a field goes once the field changes.
        onValuesChange={(changed: Record<string, unknown>) => clearChangedErrors(form, changed)}
        style={{ marginBottom: 16, rowGap: 12 }}
        data-testid="users-search"
      >
        <Form.Item name="field">
          <Select
            style={{ width: 150 }}
            options={USER_SEARCH_FIELDS.map((value) => ({
              value,
              label: t(`users.searchBy.${value}`),
            }))}
            data-testid="users-field"
          />
        </Form.Item>
        <Form.Item name="keyWords">
          <Input
            allowClear
            style={{ width: 300 }}
            placeholder={t(`users.placeholder.${field}`)}
            data-testid="users-keywords"
          />
        </Form.Item>
        {field === 'account' && (
          <Form.Item name="exact" valuePropName="checked">
            <Checkbox data-testid="users-exact">{t('users.exact')}</Checkbox>
          </Form.Item>
        )}
        <Form.Item name="status" label={t('users.statusLabel')}>
          <Select
            allowClear
            style={{ width: 130 }}
            placeholder={t('common.all')}
            options={[
              { value: 0, label: t('users.status.active') },
              { value: 1, label: t('users.status.disabled') },
            ]}
          />
        </Form.Item>
        <SearchButtons
          testId="users-find"
          onReset={() => {
            form.resetFields();
            setSearch({ field: 'account' });
            paging.restart();
          }}
        />
      </Form>
      {list.isError && (
        <Alert type="error" showIcon message={errorText(list.error)} style={{ marginBottom: 16 }} />
      )}
      <Table<ConsoleUser>
        rowKey="id"
        columns={columns}
        {...table}
        onChange={onChange}
        scroll={{ x: 'max-content' }}
        onRow={(row) => ({ onDoubleClick: () => navigate(`/users/${row.id}`) })}
        data-testid="users-table"
      />
    </div>
  );
}
