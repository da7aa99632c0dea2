/**
 * An admin removes the two-factor of a user who lost their authenticator: the dialog says what
 * follows (every session ends, withdrawals wait 24 hours) and asks why, which the audit log keeps
 * (how the user proved who they are). Checked with the call's schema (userTwoFactorResetBody: 1 to
 * 500 characters, lines allowed) in the reason dialog.
 */
import { Alert, App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  consoleUsersApi,
  TWO_FACTOR_RESET_REASON_MAX,
  userTwoFactorResetBody,
} from '@bourse/shared';
import { api } from '../../api';
import { formatTime } from '../../lib/format';
import { ReasonDialog } from '../reason-dialog';

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
  async function reset(body: { id: number; reason: string }) {
    try {
      const reset = await api.call(consoleUsersApi.resetTwoFactor, body);
      void message.success(
        t('users.security.reset.done', {
          count: reset.sessionsEnded,
          time: formatTime(reset.withdrawHoldUntil),
        }),
      );
    } catch (error) {
      // Turned off meanwhile (by the user, or another admin): show the state as it is.
      await queryClient.invalidateQueries({ queryKey: ['user', userId, 'security'] });
      throw error;
    }
    // The profile's live sessions, the sessions tabs and this state.
    await queryClient.invalidateQueries({ queryKey: ['user', userId] });
  }

  return (
    <ReasonDialog
      open={open}
      title={t('users.security.reset.title', { account })}
      okText={t('users.security.reset.label')}
      testId="resetTwoFactor"
      reasonTestId="resetTwoFactor-reason"
      schema={userTwoFactorResetBody}
      body={(reason) => ({ id: userId, reason })}
      onSubmit={reset}
      onClose={onClose}
      label={t('users.security.reset.reason')}
      help={t('users.security.reset.reasonHelp')}
      maxLength={TWO_FACTOR_RESET_REASON_MAX}
      placeholder={t('users.security.reset.reasonPlaceholder')}
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
    </ReasonDialog>
  );
}
