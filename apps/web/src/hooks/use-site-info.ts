/** Site info: the copy kept on the device at once, refreshed from the server. */
import { useQuery } from '@tanstack/react-query';
import { loadSiteInfo, storedSiteInfo, type SiteInfo } from '../api/launch';

export function useSiteInfo(): SiteInfo | undefined {
  return useQuery({
    queryKey: ['siteInfo'],
    queryFn: loadSiteInfo,
    initialData: storedSiteInfo,
    initialDataUpdatedAt: 0,
  }).data;
}
