/**
 * The white-label layouts (issue 21): the operator's site setting chooses which home the tab bar's
 * first tab opens and which user centre the "me" entries open (siteInfo's `layout`). The choice is
 * read from the site info kept on the device, synchronously, so following it costs no request
 * before the first paint; a launch that brings a new choice applies it from the next navigation.
 * Every layout keeps its own route and opens directly whatever is chosen.
 */
import type { HomeLayout, MeLayout, SiteLayout } from '@bourse/shared';
import { paths, type RouteName } from '../config/paths';
import { getItem, STORAGE_KEY } from './storage';

/** Each home layout's route (its name is the last segment of the route). */
export const HOME_LAYOUT_ROUTES = {
  'home-k': 'home',
  home: 'homeDefault',
  'home-j': 'homeJ',
  'home-g': 'homeG',
  'home-h': 'homeH',
} as const satisfies Record<HomeLayout, RouteName>;

/** Each user-centre layout's route. */
export const ME_LAYOUT_ROUTES = {
  'me-k': 'me',
  me: 'meDefault',
  'me-f': 'meF',
  'me-j': 'meJ',
  'me-g': 'meG',
  'me-h': 'meH',
  'me-e': 'meE',
} as const satisfies Record<MeLayout, RouteName>;

export type HomeRoute = (typeof HOME_LAYOUT_ROUTES)[HomeLayout];
export type MeRoute = (typeof ME_LAYOUT_ROUTES)[MeLayout];

/** The layouts chosen, as the last site info said (home-k and me-k before any). */
export function selectedLayout(): { home: HomeLayout; me: MeLayout } {
  const stored = getItem<{ layout?: Partial<SiteLayout> }>(STORAGE_KEY.siteInfo)?.layout;
  // Own keys only: `toString` is in every object.
  const home =
    stored?.home && Object.hasOwn(HOME_LAYOUT_ROUTES, stored.home) ? stored.home : 'home-k';
  const me = stored?.me && Object.hasOwn(ME_LAYOUT_ROUTES, stored.me) ? stored.me : 'me-k';
  return { home, me };
}

/**
 * The route a navigation to `name` opens: the tab bar's home (`home`) and the user centre (`me`)
 * go to the chosen layouts; every other route, and each layout's own route, is itself.
 */
export function layoutRoute(name: RouteName): RouteName {
  if (name === 'home') return HOME_LAYOUT_ROUTES[selectedLayout().home];
  if (name === 'me') return ME_LAYOUT_ROUTES[selectedLayout().me];
  return name;
}

/** Whether a path is one of the home layouts: each is tab 0 when chosen, and shows the tab bar. */
export function isHomePath(pathname: string): boolean {
  return Object.values(HOME_LAYOUT_ROUTES).some((name) => paths[name] === pathname);
}
