/**
 * The navigation types of spec section 2: navigate, redirect, switch tab, relaunch and back by a
 * number of steps. Screens and the request client call these by route name; the router registers
 * itself at start-up (`setNavigator`).
 */
import { getHref, paths, type Query, type RouteName } from '../config/paths';
import { layoutRoute } from './layout';

export interface Navigator {
  navigate(to: string | number, options?: { replace?: boolean }): Promise<void> | void;
}

let navigator: Navigator | undefined;
let built: ReadonlySet<string> = new Set();
const relaunchListeners = new Set<() => void>();

export function setNavigator(value: Navigator, builtPaths: Iterable<string> = []): void {
  navigator = value;
  built = new Set(builtPaths);
}

/** Whether a route has a screen yet: entries to screens still to come are hidden, not dead. */
export function isBuilt(name: RouteName): boolean {
  return built.has(paths[name]);
}

function go(to: string | number, replace = false): void {
  if (navigator) void navigator.navigate(to, { replace });
  else if (typeof to === 'string') window.location.hash = to;
}

// `home` and `me` open the layouts the operator chose (lib/layout.ts); other names are themselves.

/** Opens a screen on top of the current one. */
export function navigateTo(name: RouteName, query?: Query): void {
  go(getHref(layoutRoute(name), query));
}

/** Replaces the current screen. */
export function redirectTo(name: RouteName, query?: Query): void {
  go(getHref(layoutRoute(name), query), true);
}

/** Shows a tab; tabs replace each other instead of stacking. */
export function switchTab(name: 'home' | 'quotes' | 'quoteDetail' | 'accountDetail'): void {
  go(paths[layoutRoute(name)], true);
}

/** The current screen's path and query (the hash router's location). */
export function currentHref(): string {
  return window.location.hash.replace(/^#/, '') || paths.home;
}

/**
 * Where login may send the user back to: a screen of this app (never login or register, never
 * another site); anything else is home.
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !/^\/(pages|components)\/[\w/-]+(\?[^#]*)?$/.test(value)) return paths.home;
  const pathname = value.split('?')[0];
  if (pathname === paths.login || pathname === paths.register) return paths.home;
  return value;
}

/** Replaces the current screen with a path returned by `safeReturnPath`. */
export function returnTo(path: string): void {
  go(safeReturnPath(path), true);
}

/** Starts over at a screen: cached screen data is dropped (subscribers refetch). */
export function reLaunch(name: RouteName, query?: Query): void {
  for (const listener of relaunchListeners) listener();
  go(getHref(layoutRoute(name), query), true);
}

export function onRelaunch(listener: () => void): () => void {
  relaunchListeners.add(listener);
  return () => relaunchListeners.delete(listener);
}

/** How many screens of this app lie behind the current one (react-router keeps the index). */
function depth(): number {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' ? state.idx : 0;
}

/** Goes back `steps` screens; with fewer screens behind, goes home instead of leaving the app. */
export function navigateBack(steps = 1): void {
  const count = Math.max(1, Math.floor(steps));
  if (depth() >= count) go(-count);
  else go(paths[layoutRoute('home')], true);
}
