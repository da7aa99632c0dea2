/** The privacy notice: what this platform keeps about a user, why, and for how long. */
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';

const SECTIONS = ['Operator', 'Collect', 'Use', 'Security', 'Keep', 'Rights'] as const;

export default function PrivacyPage() {
  const { t } = useTranslation();
  return (
    <div className="page" data-testid="privacy-page">
      <PageHeader title={t('page_privacy')} />
      <article className="page-body prose">
        <p>{t('privacy_intro')}</p>
        {SECTIONS.map((section) => (
          <section key={section}>
            <h2>{t(`privacy_title${section}`)}</h2>
            <p>{t(`privacy_text${section}`)}</p>
          </section>
        ))}
      </article>
    </div>
  );
}
