/**
 * The map placeholder of the location pages, drawn here and offline: no map service is asked.
 * The world on an equirectangular grid (a line every 30°, the equator and the prime meridian
 * stronger) with the place's marker on its crosshair. Geography does not mirror in Arabic: the
 * drawing is left to right.
 */
import { useTranslation } from '../../i18n/react';

const WIDTH = 360;
const HEIGHT = 180;

function worldPoint(latitude: number, longitude: number): [number, number] {
  return [longitude + 180, 90 - latitude];
}

export function LocationMap({
  latitude,
  longitude,
  onPick,
}: {
  latitude: number | undefined;
  longitude: number | undefined;
  /** Tapping the world picks that point (to 0.1°). */
  onPick?: (latitude: number, longitude: number) => void;
}) {
  const { t } = useTranslation();
  const placed = latitude !== undefined && longitude !== undefined;
  const [x, y] = placed ? worldPoint(latitude, longitude) : [0, 0];

  function pick(event: React.MouseEvent<SVGSVGElement>) {
    if (!onPick) return;
    const box = event.currentTarget.getBoundingClientRect();
    const lon = ((event.clientX - box.left) / box.width) * WIDTH - 180;
    const lat = 90 - ((event.clientY - box.top) / box.height) * HEIGHT;
    const round = (value: number) => Math.round(value * 10) / 10;
    onPick(Math.max(-90, Math.min(90, round(lat))), Math.max(-180, Math.min(180, round(lon))));
  }

  const lines = [];
  for (let lon = -150; lon < 180; lon += 30) {
    lines.push(
      <line
        key={`m${lon}`}
        x1={lon + 180}
        y1={0}
        x2={lon + 180}
        y2={HEIGHT}
        className={lon === 0 ? 'map-line map-line-main' : 'map-line'}
      />,
    );
  }
  for (let lat = -60; lat <= 60; lat += 30) {
    lines.push(
      <line
        key={`p${lat}`}
        x1={0}
        y1={90 - lat}
        x2={WIDTH}
        y2={90 - lat}
        className={lat === 0 ? 'map-line map-line-main' : 'map-line'}
      />,
    );
  }

  return (
    <figure className="location-map" dir="ltr" data-testid="location-map">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={t('location_mapLabel')}
        onClick={onPick ? pick : undefined}
        style={onPick ? { cursor: 'crosshair' } : undefined}
      >
        <rect width={WIDTH} height={HEIGHT} className="map-sea" />
        {lines}
        {placed && (
          <g data-testid="location-marker" data-x={x.toFixed(2)} data-y={y.toFixed(2)}>
            <line x1={x} y1={0} x2={x} y2={HEIGHT} className="map-crosshair" />
            <line x1={0} y1={y} x2={WIDTH} y2={y} className="map-crosshair" />
            <circle cx={x} cy={y} r={7} className="map-marker-halo" />
            <circle cx={x} cy={y} r={3.5} className="map-marker" />
          </g>
        )}
      </svg>
      <figcaption className="muted">{t('location_offlineMap')}</figcaption>
    </figure>
  );
}
