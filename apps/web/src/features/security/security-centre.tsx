/**
 * The security centre (/pages/user/change): one tab per section (passwords, two-factor, sessions
 * and devices, login history, anti-phishing code), the open one named by the `tab` query so a link
 * can open it (the withdraw screen sends users to `?tab=withdraw`). The sections are given by the
 * app (app/security-centre-page.tsx), which composes them from the features that own them.
 */
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { ChoiceRow } from '../../components/choice-row';
import { PageHeader } from '../../components/page-header';
import { RequireSignIn } from '../../components/require-sign-in';
import { useTranslation } from '../../i18n/react';

export interface SecuritySection {
  /** Its `tab` value. */
  key: string;
  /** The translation key of its tab. */
  title: string;
  Component: React.ComponentType;
}

export function SecurityCentre({ sections }: { sections: readonly SecuritySection[] }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const open = sections.find((section) => section.key === search.get('tab')) ?? sections[0]!;
  // The tabs scroll sideways on a phone: the open one is brought into view (a link may open one
  // that starts off screen, on either side in right-to-left languages).
  useEffect(() => {
    document
      .querySelector(`[data-testid="security-tab-${open.key}"]`)
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [open.key]);
  return (
    <RequireSignIn>
      <div className="page" data-testid="change-page">
        <PageHeader title={t('page_security')} />
        <ChoiceRow
          tabs
          as="nav"
          className="market-tabs"
          label={t('page_security')}
          options={sections.map((section) => section.key)}
          value={open.key}
          onChange={(key) => setSearch({ tab: key }, { replace: true })}
          text={(key) => t(sections.find((section) => section.key === key)!.title)}
          testId="security-tabs"
          optionTestId="security-tab"
        />
        <open.Component key={open.key} />
      </div>
    </RequireSignIn>
  );
}
