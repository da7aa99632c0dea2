/**
 * The privacy notice: the operator's rich-text page `privacyPolicy` (written in the console, in the
 * app's language or English), and the notice the app ships with while it loads or if it cannot be
 * read, so the screen is never empty.
 */
import { contentApi } from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { api } from '../../api';
import { PageHeader } from '../../components/page-header';

const SECTIONS = ['Operator', 'Collect', 'Use', 'Security', 'Keep', 'Rights'] as const;

function ShippedNotice() {
  const { t } = useTranslation();
  return (
    <>
      <p>{t('privacy_intro')}</p>
      {SECTIONS.map((section) => (
        <section key={section}>
          <h2>{t(`privacy_title${section}`)}</h2>
          <p>{t(`privacy_text${section}`)}</p>
        </section>
      ))}
    </>
  );
}

export default function PrivacyPage() {
  const { t, i18n } = useTranslation();
  const page = useQuery({
    queryKey: ['richText', 'privacyPolicy', i18n.language],
    queryFn: () => api.call(contentApi.richText, { key: 'privacyPolicy' }, { catchError: true }),
    retry: false,
  });
  return (
    <div className="page" data-testid="privacy-page">
      <PageHeader title={page.data?.title || t('page_privacy')} />
      <article className="page-body prose">
        {page.data ? (
          <div
            className="rich-html"
            data-testid="privacy-rich-text"
            // Sanitised on the server (lib/rich-text.ts) before it was stored.
            dangerouslySetInnerHTML={{ __html: page.data.content }}
          />
        ) : (
          <ShippedNotice />
        )}
      </article>
    </div>
  );
}
