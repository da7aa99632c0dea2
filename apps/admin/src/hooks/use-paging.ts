/**
 * Server-side paging of a table: the page number and size the call asks for (the route table's
 * pageQuery: at most PAGE.maxSize rows), and antd's pagination wired to them.
 */
import { useState } from 'react';
import type { TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';
import { PAGE } from '@bourse/shared';

const SIZES = [10, 20, 50, PAGE.maxSize];

export function usePaging(initialSize = 20) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: initialSize });
  const pagination = (total: number | undefined): TablePaginationConfig => ({
    current: paging.pageNum,
    pageSize: paging.pageSize,
    total: total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: SIZES,
    showTotal: (count) => t('common.total', { count }),
    onChange: (pageNum, pageSize) =>
      setPaging({ pageNum: pageSize === paging.pageSize ? pageNum : 1, pageSize }),
  });
  /** Back to the first page (a filter changed). */
  const restart = () => setPaging((current) => ({ ...current, pageNum: 1 }));
  return { ...paging, pagination, restart };
}
