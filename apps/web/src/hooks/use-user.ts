/** The signed-in user, shown at once from the device and refreshed from the server. */
import { useQuery } from '@tanstack/react-query';
import type { UserInfo } from '@bourse/shared';
import { isSignedIn, refreshSignedInUser, storedUserInfo } from '../api/session';

export function useUser(): { user: UserInfo | undefined; signedIn: boolean } {
  const signedIn = isSignedIn();
  const query = useQuery({
    queryKey: ['userInfo'],
    queryFn: async () => (await refreshSignedInUser()) ?? null,
    initialData: () => storedUserInfo() ?? null,
    initialDataUpdatedAt: 0,
    enabled: signedIn,
  });
  return { user: signedIn ? (query.data ?? undefined) : undefined, signedIn };
}
