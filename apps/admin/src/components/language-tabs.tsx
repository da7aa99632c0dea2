/**
 * The 19 languages of a text an operator writes, one tab each: English first (the fallback the
 * others use), a dot on each language written, and the tab's fields laid out right to left for
 * Arabic. The caller draws the fields of a language; the test ids are `<testId>-languages` and
 * `<testId>-tab-<key>`.
 */
import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { LANGUAGES, type Language } from '@bourse/shared';

/** English first (the fallback), then the rest in the spec's order. */
export const TAB_LANGUAGES = [
  ...LANGUAGES.filter((language) => language.key === 'en'),
  ...LANGUAGES.filter((language) => language.key !== 'en'),
];

export function LanguageTabs({
  active,
  onChange,
  testId,
  written,
  children,
}: {
  active: string;
  onChange(language: string): void;
  testId: string;
  /** Whether a language has text (its tab shows a dot). */
  written(language: string): boolean;
  /** The fields of one language, and the direction its text runs in. */
  children(language: Language, dir: 'rtl' | 'ltr'): ReactNode;
}) {
  return (
    <Tabs
      activeKey={active}
      onChange={onChange}
      size="small"
      tabPosition="left"
      data-testid={`${testId}-languages`}
      items={TAB_LANGUAGES.map((item) => {
        const dir = item.rtl ? 'rtl' : 'ltr';
        return {
          key: item.key,
          label: (
            <span data-testid={`${testId}-tab-${item.key}`}>
              {item.name}
              {written(item.key) ? ' ●' : ''}
            </span>
          ),
          children: <div dir={dir}>{children(item, dir)}</div>,
        };
      })}
    />
  );
}
