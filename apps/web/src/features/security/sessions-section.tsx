/**
 * Sessions and devices: every session signed in to the account, last used first, with its device
 * (read from its user agent on the server), address, and when it signed in and was last active;
 * this one is marked. Any other can be ended, or all of them at once: each is signed out at once,
 * its next call going to the sign-in screen.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { formatDateTime, type SecuritySession } from '@bourse/shared';
import { showToast, unhandledMessage } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { RecordList, useRecordPages } from '../../components/record-list';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { endOtherSessions, endSession, fetchSessions } from './api';
import { deviceText } from './device-text';
import { Badge, DeviceHeading, Line } from './parts';

const SESSIONS_KEY = ['securitySessions'];

function SessionRow({
  session,
  onEnd,
}: {
  session: SecuritySession;
  onEnd: (session: SecuritySession) => void;
}) {
  const { t } = useTranslation();
  return (
    <article
      className="card stack"
      style={{ gap: 8 }}
      data-testid="security-session"
      data-current={session.current}
    >
      <DeviceHeading device={session.device}>
        {session.current ? (
          <Badge testId="security-session-current">{t('security_thisDevice')}</Badge>
        ) : (
          <Button
            size="mini"
            fill="outline"
            color="danger"
            onClick={() => onEnd(session)}
            data-testid="security-session-end"
          >
            {t('security_endSession')}
          </Button>
        )}
      </DeviceHeading>
      <Line label={t('security_address')}>
        <bdi>{session.ip ?? '- -'}</bdi>
      </Line>
      <Line label={t('security_firstSeen')}>{formatDateTime(session.createTime)}</Line>
      <Line label={t('security_lastSeen')}>{formatDateTime(session.lastSeenTime)}</Line>
    </article>
  );
}

export function SessionsSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useRecordPages(SESSIONS_KEY, (page) => fetchSessions(page));
  const [ending, setEnding] = useState<SecuritySession | 'others' | undefined>();
  const [pending, setPending] = useState(false);
  const others = (list.records.data?.pages[0]?.total ?? 0) - 1;

  async function confirm() {
    if (!ending) return;
    setPending(true);
    try {
      if (ending === 'others') {
        const { sessionsEnded } = await endOtherSessions();
        showToast(translate('security_othersEnded', [sessionsEnded]));
      } else {
        await endSession(ending.id);
        showToast(t('security_sessionEnded'));
      }
    } catch (error) {
      const message = unhandledMessage(error);
      if (message) showToast(message);
    } finally {
      setPending(false);
      setEnding(undefined);
      // Ended, or gone meanwhile: the list shows what is live now.
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    }
  }

  return (
    <div className="page-body stack" data-testid="security-sessions" style={{ gap: 12 }}>
      <p className="muted" style={{ margin: 0 }}>
        {t('security_sessionsIntro')}
      </p>
      <RecordList
        list={list}
        endTestId="security-sessions-end"
        empty={{ testId: 'security-sessions-empty', title: t('security_sessionsEmpty') }}
      >
        {list.rows.map((session) => (
          <SessionRow key={session.id} session={session} onEnd={setEnding} />
        ))}
      </RecordList>
      {others > 0 && (
        <Button
          block
          color="danger"
          fill="outline"
          onClick={() => setEnding('others')}
          data-testid="security-end-others"
        >
          {t('security_endOthers')}
        </Button>
      )}
      <ConfirmDialog
        visible={ending !== undefined}
        title={t(ending === 'others' ? 'security_endOthers' : 'security_endSession')}
        content={
          ending === 'others'
            ? t('security_endOthersConfirm')
            : ending && translate('security_endSessionConfirm', [deviceText(ending.device)])
        }
        pending={pending}
        onClose={() => setEnding(undefined)}
        onConfirm={() => void confirm()}
        confirmText={t(ending === 'others' ? 'security_endOthers' : 'security_endSession')}
      />
    </div>
  );
}
