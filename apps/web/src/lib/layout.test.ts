/** The layouts the tab bar and the "me" entries open, from the site info kept on the device. */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, HOME_LAYOUTS, ME_LAYOUTS } from '@bourse/shared';
import { paths } from '../config/paths';
import {
  HOME_LAYOUT_ROUTES,
  isHomePath,
  layoutRoute,
  ME_LAYOUT_ROUTES,
  selectedLayout,
} from './layout';
import { setItem, STORAGE_KEY } from './storage';

beforeEach(() => localStorage.clear());

describe('layouts', () => {
  it('names every layout of the spec by the last segment of its route', () => {
    expect(Object.keys(HOME_LAYOUT_ROUTES).sort()).toEqual([...HOME_LAYOUTS].sort());
    expect(Object.keys(ME_LAYOUT_ROUTES).sort()).toEqual([...ME_LAYOUTS].sort());
    for (const [layout, route] of Object.entries({ ...HOME_LAYOUT_ROUTES, ...ME_LAYOUT_ROUTES }))
      expect(paths[route].split('/').pop()).toBe(layout);
  });

  it('opens home-k and me-k before the site info says otherwise', () => {
    expect(selectedLayout()).toEqual(DEFAULT_LAYOUT);
    expect(layoutRoute('home')).toBe('home');
    expect(layoutRoute('me')).toBe('me');
  });

  it("follows the operator's choice for home and me only", () => {
    setItem(STORAGE_KEY.siteInfo, { siteName: 'X', layout: { home: 'home-j', me: 'me-f' } });
    expect(layoutRoute('home')).toBe('homeJ');
    expect(layoutRoute('me')).toBe('meF');
    expect(layoutRoute('quotes')).toBe('quotes');
    // Each layout's own route is itself, whatever is chosen.
    expect(layoutRoute('homeG')).toBe('homeG');
    expect(layoutRoute('meE')).toBe('meE');
  });

  it('ignores a stored layout it does not know', () => {
    setItem(STORAGE_KEY.siteInfo, { layout: { home: 'home-z', me: 'toString' } });
    expect(selectedLayout()).toEqual(DEFAULT_LAYOUT);
  });

  it('treats every home layout as the home tab', () => {
    for (const route of Object.values(HOME_LAYOUT_ROUTES))
      expect(isHomePath(paths[route])).toBe(true);
    expect(isHomePath(paths.me)).toBe(false);
    expect(isHomePath(paths.quotes)).toBe(false);
  });
});
