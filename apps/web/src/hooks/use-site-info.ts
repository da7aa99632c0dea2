/** Site info: the copy kept on the device at once, refreshed from the server. */
import { useQuery } from '@tanstack/react-query';
import { siteInfoQuery, storedSiteInfo, type SiteInfo } from '../api/launch';

export function useSiteInfo(): SiteInfo | undefined {
  return useQuery({
    ...siteInfoQuery,
    initialData: storedSiteInfo,
    initialDataUpdatedAt: 0,
  }).data;
}
