/**
 * A page's configuration (`appConfig/list` filtered on its path): the copy kept on the device at
 * once, then the server's. When it cannot be loaded, the line-selection page opens (spec section
 * 8), where another line can be chosen.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { loadPageConfig, storedPageConfig } from '../api/launch';
import { redirectTo } from '../lib/navigation';

export function usePageConfig(pagePath: string): (module: string) => boolean {
  const query = useQuery({
    queryKey: ['pageConfig', pagePath],
    queryFn: () => loadPageConfig(pagePath),
    initialData: () => storedPageConfig(pagePath),
    initialDataUpdatedAt: 0,
  });
  useEffect(() => {
    if (query.isError) redirectTo('line');
  }, [query.isError]);
  const items = query.data;
  // Until the configuration is known every module shows; a module the operator hid is hidden.
  return (module: string) => items?.find((item) => item.module === module)?.isVisible !== 0;
}
