/**
 * The operator's own password change (`auth/changePassword`), checked with its schema
 * (changeOwnPasswordBody: at least 12 characters) and a repetition the console compares. The
 * server refuses a wrong current password, a common or unchanged new one on their fields. A
 * change ends every session of the operator, this one included: the console goes back to the
 * sign-in page, which says so.
 */
import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { changeOwnPasswordBody, OPERATOR_PASSWORD_MIN, operatorsApi } from '@bourse/shared';
import { api } from '../api';
import { checkWith, showOnField } from '../lib/form';
import { endSession } from '../lib/session';

const FIELDS = ['oldPassword', 'newPassword'] as const;

export function ChangePasswordForm({ submitLabel }: { submitLabel: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function submit(values: Record<string, unknown>) {
    setFailure(undefined);
    const body = checkWith(form, changeOwnPasswordBody, values);
    if (!body) return;
    if (values.repeatPassword !== body.newPassword) {
      form.setFields([{ name: 'repeatPassword', errors: [t('password.mismatch')] }]);
      return;
    }
    setBusy(true);
    try {
      await api.call(operatorsApi.changePassword, body);
      // Every session of the operator ended: the guard shows the sign-in page, which says why.
      queryClient.clear();
      endSession('passwordChanged');
    } catch (error) {
      setFailure(showOnField(form, error, FIELDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values: Record<string, unknown>) => void submit(values)}
      onValuesChange={() => setFailure(undefined)}
      data-testid="change-password-form"
      style={{ maxWidth: 440 }}
    >
      {failure && (
        <Alert
          type="error"
          showIcon
          message={failure}
          style={{ marginBottom: 16 }}
          data-testid="form-error"
        />
      )}
      <Form.Item name="oldPassword" label={t('password.current')}>
        <Input.Password autoComplete="current-password" data-testid="old-password" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('password.new')}
        extra={t('password.rule', { count: OPERATOR_PASSWORD_MIN })}
      >
        <Input.Password autoComplete="new-password" data-testid="new-password" />
      </Form.Item>
      <Form.Item name="repeatPassword" label={t('password.repeat')}>
        <Input.Password autoComplete="new-password" data-testid="repeat-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="change-password-submit">
        {submitLabel}
      </Button>
    </Form>
  );
}
