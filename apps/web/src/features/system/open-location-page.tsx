/**
 * /open-location: a given place (`latitude`, `longitude`, `name`, `address` in the query) on the
 * drawn map, with its name, address and coordinates, which can be copied for a map application.
 * Offline: no map service is asked. A missing or invalid coordinate says so.
 */
import { useSearchParams } from 'react-router';
import { Button } from 'antd-mobile';
import { LocationOutline } from 'antd-mobile-icons';
import { useTranslation } from '../../i18n/react';
import { PageHeader } from '../../components/page-header';
import { EmptyState } from '../../components/status-views';
import { copyText } from '../../lib/clipboard';
import { showToast } from '../../lib/toast';
import { LocationMap } from './location-map';
import { coordinateText, placeFromQuery } from './location';
import './location.css';

export default function OpenLocationPage() {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const place = placeFromQuery(query);

  async function copy() {
    if (!place) return;
    const copied = await copyText(coordinateText(place));
    showToast(t(copied ? 'location_copied' : 'location_copyFailed'));
  }

  return (
    <div className="page" data-testid="open-location-page">
      <PageHeader title={t('page_openLocation')} />
      <div className="page-body stack">
        {place ? (
          <>
            <LocationMap latitude={place.latitude} longitude={place.longitude} />
            <section className="card stack" style={{ gap: 6 }}>
              <div className="row" style={{ alignItems: 'flex-start' }}>
                <LocationOutline
                  style={{ color: 'var(--accent)', fontSize: 20, flex: 'none', marginTop: 2 }}
                />
                <div className="stack" style={{ gap: 4, minWidth: 0 }}>
                  <strong data-testid="location-place-name">
                    {place.name || t('location_unnamed')}
                  </strong>
                  {place.address && (
                    <span className="muted" data-testid="location-place-address">
                      {place.address}
                    </span>
                  )}
                </div>
              </div>
              <span
                className="location-coordinates"
                dir="ltr"
                style={{ textAlign: 'start' }}
                data-testid="location-coordinates"
              >
                {coordinateText(place)}
              </span>
            </section>
            <Button block color="primary" onClick={() => void copy()} data-testid="location-copy">
              {t('location_copy')}
            </Button>
          </>
        ) : (
          <EmptyState testId="location-missing" title={t('location_missing')} />
        )}
      </div>
    </div>
  );
}
