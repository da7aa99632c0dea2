/**
 * While an operator who reads a review queue is signed in, the queues' changes arrive as they
 * happen (lib/review-events.ts): the list of the queue that changed is read again at once, every
 * queue list after a reconnection.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { OperatorInfo } from '@bourse/shared';
import { mayCall } from '../lib/access';
import { CALLS, LIST_KEY } from '../lib/requests';
import { watchReviewQueues } from '../lib/review-events';
import { useToken } from '../lib/session';

export function useReviewEvents(operator: Pick<OperatorInfo, 'roles'>): void {
  const queryClient = useQueryClient();
  const token = useToken();
  const readsQueues = Object.values(CALLS).some((calls) => mayCall(operator, calls.decide));
  useEffect(() => {
    if (!token || !readsQueues) return;
    return watchReviewQueues(
      token,
      ({ queue }) => void queryClient.invalidateQueries({ queryKey: [queue] }),
      () => {
        for (const key of Object.values(LIST_KEY))
          void queryClient.invalidateQueries({ queryKey: [key] });
      },
    );
  }, [token, readsQueues, queryClient]);
}
