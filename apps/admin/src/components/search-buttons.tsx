/** The last item of a filter form: search (the form's submit), reset, and the page's extras. */
import type { ReactNode } from 'react';
import { Button, Form, Space } from 'antd';
import { useTranslation } from 'react-i18next';

export function SearchButtons({
  testId,
  onReset,
  children,
}: {
  /** The search button's test id. */
  testId: string;
  onReset(): void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" data-testid={testId}>
          {t('common.search')}
        </Button>
        <Button onClick={onReset}>{t('common.reset')}</Button>
        {children}
      </Space>
    </Form.Item>
  );
}
