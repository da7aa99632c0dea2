/** A grid of shortcuts to screens: icon over a translated label. */
import { useTranslation } from '../i18n/react';
import type { RouteName } from '../config/paths';
import { isBuilt, navigateTo } from '../lib/navigation';

export interface ScreenEntry {
  route: RouteName;
  /** Translation key of the label. */
  label: string;
  icon: React.ReactNode;
}

export function EntryGrid({ entries }: { entries: readonly ScreenEntry[] }) {
  const { t } = useTranslation();
  const shown = entries.filter((entry) => isBuilt(entry.route));
  if (shown.length === 0) return null;
  return (
    <section className="card grid-entries">
      {shown.map((entry) => (
        <button
          key={entry.route}
          type="button"
          className="grid-entry"
          onClick={() => navigateTo(entry.route)}
        >
          <span className="grid-entry-icon">{entry.icon}</span>
          {t(entry.label)}
        </button>
      ))}
    </section>
  );
}
