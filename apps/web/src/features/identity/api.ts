/**
 * The identity verification calls: a level's latest request, asking for a level, the document
 * images of the user's own request, and which features need which level.
 */
import {
  identityApi as routes,
  type AuthDocumentSide,
  type AuthRecord,
  type IdentityRequirements,
  type RouteInput,
} from '@bourse/shared';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api';

export type { AuthRecord, IdentityRequirements } from '@bourse/shared';

/** What a request for a level sends (the route's input). */
export type AuthApplyInput = RouteInput<typeof routes.authApply>;

export const identityKeys = {
  detail: (level: number) => ['authDetail', level] as const,
  requirements: ['identityRequirements'] as const,
};

/** The user's latest request of a level (status −1 when there is none). */
export function useAuthDetail(level: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: identityKeys.detail(level),
    queryFn: (): Promise<AuthRecord> => api.call(routes.authDetail, { authLevel: level }),
    // Read again on every visit: an operator may have decided it meanwhile.
    refetchOnMount: 'always',
    enabled,
  });
}

export function useIdentityRequirements() {
  return useQuery({
    queryKey: identityKeys.requirements,
    queryFn: (): Promise<IdentityRequirements> => api.call(routes.requirements),
    refetchOnMount: 'always',
  });
}

/** Asks for a level; sent as JSON (the route's encoding) so the images travel as strings. */
export function applyAuth(body: AuthApplyInput): Promise<AuthRecord> {
  return api.call(routes.authApply, body);
}

/** Once a request is in: its level shows the answer, and what depends on the level is read again. */
export function applied(queryClient: QueryClient, record: AuthRecord): void {
  queryClient.setQueryData(identityKeys.detail(record.authLevel), record);
  void queryClient.invalidateQueries({ queryKey: identityKeys.requirements });
  void queryClient.invalidateQueries({ queryKey: ['userInfo'] });
}

/** One document image of the user's own request, as a Blob; null when it cannot be shown. */
export async function fetchAuthDocument(
  id: number,
  side: AuthDocumentSide,
  signal?: AbortSignal,
): Promise<Blob | null> {
  try {
    return await api.call(routes.authDocument, { id, side }, { signal, catchError: true });
  } catch {
    return null;
  }
}
