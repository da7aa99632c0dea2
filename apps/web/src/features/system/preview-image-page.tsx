/**
 * /preview-image: one or more images full screen (antd-mobile's ImageViewer.Multi): swipe
 * between them (the position shows at the top), pinch to zoom (up to 3 times) and drag the
 * zoomed image, tap to close, which goes back to the screen that opened it. The images come in the query: `urls` (a JSON list, as object values are serialised,
 * or one address) and `current` (the index or the address to start at). Only addresses of images
 * are shown: http(s), this app's own paths, and data: or blob: images; at most 52 (the spec's
 * upload limit).
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ImageViewer } from 'antd-mobile';
import { useTranslation } from '../../i18n/react';
import { fromQueryValue } from '../../config/paths';
import { PageHeader } from '../../components/page-header';
import { EmptyState } from '../../components/status-views';
import { navigateBack } from '../../lib/navigation';

export const MAX_IMAGES = 52;

const IMAGE_ADDRESS = /^(https?:\/\/|\/(?!\/)|\.\/|data:image\/(png|jpeg|gif|webp);base64,|blob:)/i;

/** The query's images, those with an address an image may have. */
export function imagesOf(query: URLSearchParams): { urls: string[]; index: number } {
  const value = fromQueryValue(query.get('urls'));
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  const urls = list
    .filter((url): url is string => typeof url === 'string' && IMAGE_ADDRESS.test(url))
    .slice(0, MAX_IMAGES);
  const current = query.get('current') ?? '0';
  const byAddress = urls.indexOf(current);
  const byNumber = /^\d+$/.test(current) ? Number(current) : 0;
  const index = byAddress >= 0 ? byAddress : Math.min(byNumber, Math.max(urls.length - 1, 0));
  return { urls, index };
}

export default function PreviewImagePage() {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const { urls, index } = imagesOf(query);
  const [shown, setShown] = useState(index);

  if (urls.length === 0) {
    return (
      <div className="page" data-testid="preview-image-page">
        <PageHeader title={t('page_previewImage')} />
        <EmptyState testId="preview-empty" title={t('preview_none')} />
      </div>
    );
  }
  return (
    <div className="page" data-testid="preview-image-page" data-index={shown}>
      <ImageViewer.Multi
        images={urls}
        visible
        defaultIndex={index}
        onIndexChange={setShown}
        onClose={() => navigateBack(1)}
      />
    </div>
  );
}
