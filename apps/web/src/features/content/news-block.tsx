/**
 * m-news as a block of the home layouts: the latest news (title, time, view count), each opening
 * its item, and "more" to the news list (/components/m-news/m-news).
 */
import { RightOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { ListStatus } from '../../components/status-views';
import { navigateTo } from '../../lib/navigation';
import { useNews } from './api';
import { NewsItemRow } from './news-row';
import './content.css';

export function NewsBlock({ limit = 3 }: { limit?: number }): React.JSX.Element {
  const { t } = useTranslation();
  const news = useNews(limit);
  const rows = news.rows.slice(0, limit);
  return (
    <section className="card content-news-block" data-testid="news-block">
      <header className="content-block-head">
        <h2>{t('content_news')}</h2>
        <button
          type="button"
          className="link content-more"
          data-testid="news-more"
          onClick={() => navigateTo('newsComponent')}
        >
          {t('content_more')}
          <RightOutline className="flip-rtl" aria-hidden="true" />
        </button>
      </header>
      <ListStatus
        list={{ loaded: news.loaded }}
        count={rows.length}
        empty={{ title: t('content_newsEmpty') }}
      />
      {rows.map((row) => (
        <NewsItemRow key={row.id} row={row} compact />
      ))}
    </section>
  );
}
