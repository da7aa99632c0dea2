/**
 * Controls of a list's toolbar: a refresh button that reads the list again (spinning while it
 * does), and a search by a user's account that sends what is typed (trimmed; nothing when empty)
 * on Enter or its button.
 */
import { useState } from 'react';
import { Button, Input } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export function RefreshButton({
  list,
}: {
  list: { isFetching: boolean; refetch(): Promise<unknown> };
}) {
  const { t } = useTranslation();
  return (
    <Button
      icon={<ReloadOutlined />}
      loading={list.isFetching}
      onClick={() => void list.refetch()}
      aria-label={t('common.refresh')}
    />
  );
}

export function AccountSearch({
  placeholder,
  onSearch,
  width = 240,
  testId,
}: {
  placeholder: string;
  /** The account typed, or undefined when the field is empty. */
  onSearch(account: string | undefined): void;
  width?: number;
  testId?: string;
}) {
  const [account, setAccount] = useState('');
  return (
    <Input.Search
      allowClear
      style={{ width }}
      placeholder={placeholder}
      value={account}
      onChange={(event) => setAccount(event.target.value)}
      onSearch={(value) => onSearch(value.trim() || undefined)}
      data-testid={testId}
    />
  );
}
