/**
 * How many site messages and notifications the signed-in user has not read (notReadMessageCount),
 * for the unread badges (the home bell, the user centre's entries). Read again at once when a
 * notification arrives over /ws (the private `notifications` topic) or when the topic may have
 * missed one, and whenever a screen marks something read (it invalidates `unreadCount`).
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { accountApi } from '@bourse/shared';
import { api } from '../api';
import { subscribe } from '../lib/realtime';
import { useUser } from './use-user';

/** The query key every reader of the count shares; invalidate it after marking something read. */
export const UNREAD_COUNT_KEY = ['unreadCount'] as const;

/** When the count on screen was asked for (`Date.now()`). */
let askedAt = Number.NEGATIVE_INFINITY;

export function useUnreadCount(): { count: number } {
  const { signedIn } = useUser();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!signedIn) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_KEY });
    return subscribe('notifications', refresh, (since) => {
      if (askedAt <= since) refresh();
    });
  }, [signedIn, queryClient]);
  const query = useQuery({
    queryKey: UNREAD_COUNT_KEY,
    queryFn: async () => {
      askedAt = Date.now();
      return (await api.call(accountApi.unreadMessageCount)).notReadMessageCount;
    },
    enabled: signedIn,
    refetchInterval: 60_000,
  });
  return { count: signedIn ? (query.data ?? 0) : 0 };
}
