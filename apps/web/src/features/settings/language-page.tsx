/** The 19 interface languages; the choice is kept on the device and applies at once. */
import { useState } from 'react';
import { CheckOutline } from 'antd-mobile-icons';
import { List } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { LANGUAGES, type LanguageKey } from '@bourse/shared';
import { loadLanguagePack, loadTips } from '../../api/launch';
import { PageHeader } from '../../components/page-header';
import { changeLocale, currentLocale } from '../../i18n';
import { navigateBack } from '../../lib/navigation';

export default function LanguagePage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<LanguageKey>(currentLocale);

  async function choose(locale: LanguageKey) {
    setSelected(locale);
    await changeLocale(locale);
    // The server's pack (operator overrides over the bundled texts) and the tips follow; texts
    // the server translates in queries (pop-ups, country names) are read again too.
    await Promise.allSettled([loadLanguagePack(locale), loadTips()]);
    await queryClient.invalidateQueries();
    navigateBack(1);
  }

  return (
    <div className="page" data-testid="language-page">
      <PageHeader title={t('page_language')} />
      <List mode="card">
        {LANGUAGES.map((language) => (
          <List.Item
            key={language.key}
            data-testid={`language-${language.key}`}
            onClick={() => void choose(language.key)}
            extra={selected === language.key ? <CheckOutline color="var(--accent)" /> : null}
            arrowIcon={false}
          >
            <span lang={language.bcp47} dir={language.rtl ? 'rtl' : 'ltr'}>
              {language.name}
            </span>
          </List.Item>
        ))}
      </List>
    </div>
  );
}
