/**
 * Notifications (/pages/notifyList/notifyList): the user's own events, newest first, each in the
 * user's language with its time and an unread dot; tapping one marks it read and opens its object
 * (the deposit, the positions, the security centre…). "Mark all as read" in the header.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { RecordList, useRecordPages } from '../../components/record-list';
import { SignedInScreen } from '../../components/signed-in-screen';
import { notificationText } from '../../hooks/use-notification-toasts';
import { useUnreadCount } from '../../hooks/use-unread-count';
import { useTranslation } from '../../i18n/react';
import { isBuilt, navigateTo } from '../../lib/navigation';
import { paths, type RouteName } from '../../config/paths';
import {
  fetchNotificationPage,
  markNotificationsRead,
  messageKeys,
  type Notification,
} from './api';
import { MessageRow } from './message-row';

function isRoute(name: string): name is RouteName {
  return Object.hasOwn(paths, name);
}

export default function NotifyListPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { count } = useUnreadCount();
  const list = useRecordPages<Notification, string>(messageKeys.notifications, (page) =>
    fetchNotificationPage(page),
  );
  const anyUnread = count > 0 || list.rows.some((row) => row.readFlag === 0);

  function open(row: Notification) {
    if (row.readFlag === 0) void markNotificationsRead(queryClient, row.id).catch(() => undefined);
    const route = row.link?.route;
    if (route && isRoute(route) && isBuilt(route)) navigateTo(route, row.link!.query);
  }

  return (
    <SignedInScreen
      testId="notify-list-page"
      title={t('area_notifications')}
      right={
        anyUnread ? (
          <Button
            size="mini"
            fill="none"
            color="primary"
            data-testid="notify-read-all"
            onClick={() => void markNotificationsRead(queryClient).catch(() => undefined)}
          >
            {t('msg_markAllRead')}
          </Button>
        ) : undefined
      }
    >
      <RecordList
        list={list}
        className="msg-rows"
        testId="notify-rows"
        empty={{ title: t('notify_empty'), text: t('notify_emptyText') }}
      >
        {list.rows.map((row) => (
          <MessageRow
            key={row.id}
            testId={`notify-row-${row.id}`}
            unread={row.readFlag === 0}
            text={notificationText(row.type, row.params)}
            time={row.createTime}
            onClick={() => open(row)}
          />
        ))}
      </RecordList>
    </SignedInScreen>
  );
}
