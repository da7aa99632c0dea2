/**
 * An admin removes the two-factor of a user who lost their authenticator: the dialog says what
 * follows (every session ends, withdrawals wait 24 hours) and asks why, which the audit log keeps
 * (how the user proved who they are). Checked with the call's schema (userTwoFactorResetBody: 1 to
 * 500 characters, lines allowed); a refusal of the server is shown on the reason when it names it,
 * else above the form.
 */
import { useState } from 'react';
import { Alert, App, Form, Input, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleUsersApi,
  TWO_FACTOR_RESET_REASON_MAX,
  userTwoFactorResetBody,
} from '@bourse/shared';
import { api } from '../../api';
import { formatTime } from '../../lib/format';
import { checkWith, showOnField } from '../../lib/form';

export function ResetTwoFactorDialog({
  open,
  userId,
  account,
  onClose,
}: {
  open: boolean;
  userId: number;
  account: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function submit() {
    setFailure(undefined);
    const values = form.getFieldsValue() as { reason?: string };
    const body = checkWith(form, userTwoFactorResetBody, {
      id: userId,
      reason: values.reason ?? '',
    });
    if (!body) return;
    setBusy(true);
    try {
      const reset = await api.call(consoleUsersApi.resetTwoFactor, body);
      void message.success(
        t('users.security.reset.done', {
          count: reset.sessionsEnded,
          time: formatTime(reset.withdrawHoldUntil),
        }),
      );
      form.resetFields();
      onClose();
      // The profile's live sessions, the sessions tabs and this state.
      await queryClient.invalidateQueries({ queryKey: ['user', userId] });
    } catch (error) {
      setFailure(showOnField(form, error, ['reason']));
      // Turned off meanwhile (by the user, or another admin): show the state as it is.
      await queryClient.invalidateQueries({ queryKey: ['user', userId, 'security'] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title={t('users.security.reset.title', { account })}
      okText={t('users.security.reset.label')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'resetTwoFactor-confirm' }}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={() => {
        setFailure(undefined);
        onClose();
      }}
      destroyOnHidden
      width={560}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message={t('users.security.reset.warning')}
        description={
          <ul style={{ margin: '4px 0 0', paddingInlineStart: 18 }}>
            <li>{t('users.security.reset.effects.twoFactor')}</li>
            <li>{t('users.security.reset.effects.sessions')}</li>
            <li>{t('users.security.reset.effects.hold')}</li>
          </ul>
        }
      />
      {failure && (
        <Alert
          type="error"
          showIcon
          message={failure}
          style={{ marginBottom: 16 }}
          data-testid="resetTwoFactor-failure"
        />
      )}
      <Form form={form} layout="vertical" requiredMark={false} preserve={false}>
        <Form.Item
          name="reason"
          label={t('users.security.reset.reason')}
          extra={
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('users.security.reset.reasonHelp')}
            </Typography.Text>
          }
        >
          <Input.TextArea
            rows={4}
            maxLength={TWO_FACTOR_RESET_REASON_MAX}
            showCount
            placeholder={t('users.security.reset.reasonPlaceholder')}
            data-testid="resetTwoFactor-reason"
            autoFocus
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
