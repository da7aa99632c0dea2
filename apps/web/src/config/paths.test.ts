import { describe, expect, it } from 'vitest';
import { fromQueryValue, getHref, isTabPath, paths, TAB_ROUTES, toQueryString } from './paths';

describe('route table', () => {
  it("holds the seed's exact paths", () => {
    expect(paths.entry).toBe('/');
    expect(paths.entryAlias).toBe('/pages/index/index');
    expect(TAB_ROUTES.map((name) => paths[name])).toEqual([
      '/pages/tabs/home/home-k',
      '/pages/tabs/quotes/quotes',
      '/pages/quoteDetail/quoteDetail',
      '/pages/user/accountDetail',
    ]);
    expect(paths.networkError).toBe('/pages/networdError/networdError');
    expect(paths.withdraw).toBe('/pages/user/withdrawl');
    expect(paths.line).toBe('/pages/language/line');
    expect(new Set(Object.values(paths)).size).toBe(Object.values(paths).length);
  });

  it('serialises query values as name=value, objects as JSON, and reads them back', () => {
    const query = toQueryString({
      id: 5,
      name: 'a b',
      filter: { type: 1 },
      none: undefined,
      flag: false,
    });
    expect(query).toBe('?id=5&name=a+b&filter=%7B%22type%22%3A1%7D&flag=false');
    const parsed = new URLSearchParams(query);
    expect(fromQueryValue(parsed.get('filter'))).toEqual({ type: 1 });
    expect(fromQueryValue(parsed.get('name'))).toBe('a b');
    expect(fromQueryValue(parsed.get('missing'))).toBeUndefined();
    expect(fromQueryValue('{broken')).toBe('{broken');
    expect(toQueryString({})).toBe('');
  });

  it('builds hrefs by route name and knows the tabs', () => {
    expect(getHref('login', { redirect: '/pages/user/userInfo' })).toBe(
      '/pages/user/login?redirect=%2Fpages%2Fuser%2FuserInfo',
    );
    expect(isTabPath('/pages/user/accountDetail')).toBe(true);
    expect(isTabPath('/pages/tabs/me/me-k')).toBe(false);
  });
});
