/** One news item in a list: headline, time and view count; opens the item. */
import { EyeOutline } from 'antd-mobile-icons';
import { formatDateTime } from '@bourse/shared';
import { translate } from '../../i18n';
import { useTranslation } from '../../i18n/react';
import { navigateTo } from '../../lib/navigation';
import { contentImageSource, type NewsRow } from './api';

export function NewsItemRow({ row, compact }: { row: NewsRow; compact?: boolean }) {
  useTranslation(); // renders again when the language changes
  return (
    <button
      type="button"
      className={compact ? 'content-news-row compact' : 'content-news-row'}
      data-testid={`news-${row.id}`}
      onClick={() => navigateTo('newsComponent', { id: row.id })}
    >
      {!compact && row.image && (
        <img className="content-news-image" src={contentImageSource(row.image)} alt="" />
      )}
      <span className="content-news-text">
        <strong className="content-news-title">{row.title}</strong>
        {!compact && row.summary && <span className="muted content-summary">{row.summary}</span>}
        <span className="muted content-news-meta">
          <time dir="ltr" dateTime={row.publishTime}>
            {formatDateTime(row.publishTime)}
          </time>
          <span className="content-views" aria-label={translate('content_views', [row.viewCount])}>
            <EyeOutline aria-hidden="true" /> {row.viewCount}
          </span>
        </span>
      </span>
    </button>
  );
}
