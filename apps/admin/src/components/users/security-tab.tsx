/**
 * A user's security state on their page (support and admins): two-factor, the anti-phishing code
 * (whether it is set: the code itself is the user's alone and never reaches the console), the
 * withdrawal whitelist and saved destinations, passwords, the 24-hour withdrawal hold and the
 * change that started it, sessions and sign-ins, identity verification. For admins, the reset of a
 * lost two-factor (ResetTwoFactorDialog) while it is on.
 */
import { useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Space, Spin, Tag } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { consoleUsersApi, type ConsoleUserSecurity } from '@bourse/shared';
import { api } from '../../api';
import { useOperator } from '../../app/operator';
import { errorText } from '../../i18n';
import { mayCall } from '../../lib/access';
import { formatTime } from '../../lib/format';
import { Muted } from '../cells';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';

/** The basic verification's states (ConsoleUserSecurity.authStatus), as the texts name them. */
const AUTH_STATUSES = [0, 1, 2, 3] as const;

/** A state and, beside it, when it last changed or what explains it. */
function State({ tag, note, testId }: { tag: ReactNode; note?: ReactNode; testId: string }) {
  return (
    <Space size={8} wrap data-testid={testId}>
      {tag}
      {note && <Muted>{note}</Muted>}
    </Space>
  );
}

function OnOff({ on, onText, offText }: { on: boolean; onText: string; offText: string }) {
  return on ? <Tag color="success">{onText}</Tag> : <Tag>{offText}</Tag>;
}

function SecurityItems({ state }: { state: ConsoleUserSecurity }) {
  const { t } = useTranslation();
  const changed = (iso: string | null) =>
    iso ? t('users.security.changedAt', { time: formatTime(iso) }) : undefined;

  const twoFactor =
    state.twoFactor === 1 ? (
      <Tag color="success">{t('users.security.on')}</Tag>
    ) : state.twoFactorPending === 1 ? (
      <Tag color="warning">{t('users.security.pending')}</Tag>
    ) : (
      <Tag>{t('users.security.off')}</Tag>
    );
  const twoFactorNotes = [
    state.twoFactor === 1 &&
      t('users.security.recoveryCodesLeft', { count: state.recoveryCodesLeft }),
    state.twoFactorResetTime &&
      t('users.security.resetAt', { time: formatTime(state.twoFactorResetTime) }),
  ].filter(Boolean);

  const items = [
    {
      key: 'twoFactor',
      label: t('users.security.twoFactor'),
      children: (
        <State tag={twoFactor} note={twoFactorNotes.join(' · ')} testId="security-twoFactor" />
      ),
    },
    {
      key: 'hold',
      label: t('users.security.hold'),
      children: state.withdrawHoldUntil ? (
        <State
          testId="security-hold"
          tag={
            <Tag color="warning">
              {t('users.security.heldUntil', { time: formatTime(state.withdrawHoldUntil) })}
            </Tag>
          }
          note={state.withdrawHoldCause && t(`users.security.cause.${state.withdrawHoldCause}`)}
        />
      ) : (
        <State testId="security-hold" tag={<Tag>{t('users.security.notHeld')}</Tag>} />
      ),
    },
    {
      key: 'antiPhishing',
      label: t('users.security.antiPhishing'),
      children: (
        <State
          testId="security-antiPhishing"
          tag={
            <OnOff
              on={state.antiPhishing === 1}
              onText={t('users.security.set')}
              offText={t('users.security.notSet')}
            />
          }
          note={
            state.antiPhishing === 1
              ? [changed(state.antiPhishingChangeTime), t('users.security.antiPhishingPrivate')]
                  .filter(Boolean)
                  .join(' · ')
              : undefined
          }
        />
      ),
    },
    {
      key: 'whitelist',
      label: t('users.security.whitelist'),
      children: (
        <State
          testId="security-whitelist"
          tag={
            <OnOff
              on={state.whitelist === 1}
              onText={t('users.security.on')}
              offText={t('users.security.off')}
            />
          }
          note={
            state.whitelist === 0 && state.whitelistOffTime
              ? t('users.security.turnedOffAt', { time: formatTime(state.whitelistOffTime) })
              : undefined
          }
        />
      ),
    },
    {
      key: 'destinations',
      label: t('users.security.destinations'),
      children: (
        <State
          testId="security-destinations"
          tag={t('users.security.saved', { count: state.savedDestinations })}
          note={
            state.destinationsWaiting > 0
              ? t('users.security.waiting', { count: state.destinationsWaiting })
              : undefined
          }
        />
      ),
    },
    {
      key: 'withdrawPassword',
      label: t('users.withdrawPassword'),
      children: (
        <State
          testId="security-withdrawPassword"
          tag={
            <OnOff
              on={state.withdrawPasswordSet === 1}
              onText={t('users.withdrawPasswordSet')}
              offText={t('users.withdrawPasswordNotSet')}
            />
          }
          note={changed(state.withdrawPasswordChangeTime)}
        />
      ),
    },
    {
      key: 'password',
      label: t('users.passwordChanged'),
      children: state.passwordChangeTime ? formatTime(state.passwordChangeTime) : t('users.never'),
    },
    {
      key: 'sessions',
      label: t('users.activeSessions'),
      children: <span data-testid="security-sessions">{state.activeSessions}</span>,
    },
    {
      key: 'lastLogin',
      label: t('users.lastLogin'),
      children: formatTime(state.lastLoginTime),
    },
    {
      key: 'lastFailedLogin',
      label: t('users.security.lastFailedLogin'),
      children: state.lastFailedLoginTime ? (
        <State
          testId="security-lastFailedLogin"
          tag={formatTime(state.lastFailedLoginTime)}
          note={
            state.lastFailedLoginResult &&
            t(`users.loginHistory.results.${state.lastFailedLoginResult}`)
          }
        />
      ) : (
        <Muted>{t('users.security.noFailedLogin')}</Muted>
      ),
    },
    {
      key: 'identity',
      label: t('users.security.identity'),
      children: (
        <State
          testId="security-identity"
          tag={
            state.authLevel >= 0 ? (
              <Tag color="success">{t(`identity.level.${state.authLevel === 1 ? 1 : 0}`)}</Tag>
            ) : (
              <Tag>{t('users.security.notVerified')}</Tag>
            )
          }
          note={t(`users.security.authStatus.${AUTH_STATUSES[state.authStatus] ?? 0}`)}
        />
      ),
    },
  ];
  return (
    <Descriptions
      bordered
      size="small"
      column={2}
      items={items}
      // Fixed widths: the columns stay where they are when a state changes (after a reset).
      styles={{ label: { width: 190 }, content: { width: 'calc(50% - 190px)' } }}
      data-testid="user-security"
    />
  );
}

export function SecurityTab({ userId, account }: { userId: number; account: string }) {
  const { t } = useTranslation();
  const operator = useOperator();
  const [resetting, setResetting] = useState(false);
  const security = useQuery({
    queryKey: ['user', userId, 'security'],
    queryFn: () => api.call(consoleUsersApi.security, { id: userId }),
  });
  if (security.isPending) return <Spin style={{ display: 'block', margin: '40px auto' }} />;
  if (security.isError) return <Alert type="error" showIcon message={errorText(security.error)} />;
  const state = security.data;
  const mayReset = mayCall(operator, consoleUsersApi.resetTwoFactor) && state.twoFactor === 1;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <SecurityItems state={state} />
      {mayReset && (
        <Alert
          type="info"
          showIcon
          icon={<SafetyCertificateOutlined />}
          message={t('users.security.resetHelp')}
          action={
            <Button danger onClick={() => setResetting(true)} data-testid="resetTwoFactor">
              {t('users.security.reset.label')}
            </Button>
          }
        />
      )}
      <ResetTwoFactorDialog
        open={resetting}
        userId={userId}
        account={account}
        onClose={() => setResetting(false)}
      />
    </div>
  );
}
