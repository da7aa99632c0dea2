/**
 * The entries of screens, as the home shortcuts and the user centre show them: one label and one
 * icon for a screen wherever it is offered. The app's general screens are here; a screen that
 * offers more (the user centre's areas) adds its own to them, so their icons load with it.
 */
import {
  GlobalOutline,
  HistogramOutline,
  LockOutline,
  SearchOutline,
  SetOutline,
  StarOutline,
  UserOutline,
} from 'antd-mobile-icons';
import type { RouteName } from '../config/paths';
import type { ScreenEntry } from './entry-grid';

/** The translation key of a screen's label and its icon, by the screen's route. */
export type EntryTable = Partial<Record<RouteName, readonly [string, React.ComponentType]>>;

/** A table of entries, checked, with the routes it has. */
export function entryTable<T extends EntryTable>(table: T): T {
  return table;
}

export const APP_ENTRIES = entryTable({
  quotes: ['tab_quotes', HistogramOutline],
  favorite: ['market_favorites', StarOutline],
  quoteSearch: ['market_search', SearchOutline],
  me: ['page_me', UserOutline],
  change: ['page_security', LockOutline],
  language: ['page_language', GlobalOutline],
  line: ['page_line', SetOutline],
  privacy: ['page_privacy', LockOutline],
});

/** The entries of these screens of a table, in this order. */
export function screenEntries<T extends EntryTable>(
  routes: readonly (keyof T & RouteName)[],
  table: T,
): ScreenEntry[] {
  return routes.map((route) => {
    const [label, Icon] = table[route]!;
    return { route, label, icon: <Icon /> };
  });
}
