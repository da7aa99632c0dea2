/**
 * The calls of site messages and notifications, and their query keys. Marking something read
 * invalidates the unread count (the bell and the user centre's badges) and the lists.
 */
import {
  messagesApi as routes,
  type Notification,
  type SiteMessage,
  type SiteMessageType,
} from '@bourse/shared';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api';
import { UNREAD_COUNT_KEY } from '../../hooks/use-unread-count';

export type { Notification, SiteMessage, SiteMessageType } from '@bourse/shared';

export const messageKeys = {
  types: ['messageTypes'] as const,
  list: ['siteMessages'] as const,
  detail: (id: number) => ['siteMessage', id] as const,
  notifications: ['notifications'] as const,
};

export function useMessageTypes() {
  return useQuery({
    queryKey: messageKeys.types,
    queryFn: async (): Promise<SiteMessageType[]> => (await api.call(routes.messageTypes)).rows,
  });
}

export function fetchMessagePage(page: { pageNum: number; pageSize: number }, typeId?: number) {
  return api.call(routes.messageList, { ...page, typeId });
}

export function useMessage(id: number) {
  return useQuery({
    queryKey: messageKeys.detail(id),
    queryFn: (): Promise<SiteMessage> => api.call(routes.messageDetail, { id }),
    enabled: id > 0,
  });
}

export async function markMessageRead(queryClient: QueryClient, id: number): Promise<void> {
  await api.call(routes.markRead, { id });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_KEY }),
    queryClient.invalidateQueries({ queryKey: messageKeys.list }),
  ]);
}

export function fetchNotificationPage(page: { pageNum: number; pageSize: number }) {
  return api.call(routes.notificationList, page);
}

/** Marks one notification read, or all of them without an id. */
export async function markNotificationsRead(queryClient: QueryClient, id?: number) {
  await api.call(routes.notificationRead, id === undefined ? {} : { id });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_KEY }),
    queryClient.invalidateQueries({ queryKey: messageKeys.notifications }),
  ]);
}

export type { Notification as NotificationRow };
