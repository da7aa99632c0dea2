/**
 * The home banners from site configuration (with the operator's picture when there is one):
 * swipe through them; each opens its screen. Until site
 * info arrives, the default banners show in the current language, so the first paint is complete.
 */
import { useTranslation } from '../../i18n/react';
import { DEFAULT_BANNERS } from '@bourse/shared';
import { paths, type RouteName } from '../../config/paths';
import { useSiteInfo } from '../../hooks/use-site-info';
import { baseUrl } from '../../lib/lines';
import { isBuilt, navigateTo } from '../../lib/navigation';

export function Banners() {
  const { t } = useTranslation();
  const banners =
    useSiteInfo()?.banners ??
    DEFAULT_BANNERS.map((banner) => ({
      id: banner.id,
      title: t(banner.titleKey),
      text: t(banner.textKey),
      route: banner.route,
    }));
  if (banners.length === 0) return null;
  return (
    <section className="banners" aria-roledescription="carousel" data-testid="banners">
      {banners.map((banner) => {
        const route = (banner.route in paths ? banner.route : undefined) as RouteName | undefined;
        const open = route && isBuilt(route) ? () => navigateTo(route) : undefined;
        return (
          <button key={banner.id} type="button" className="banner" onClick={open} disabled={!open}>
            {'image' in banner && banner.image && (
              <img
                className="banner-image"
                // The server answers its own images by path: on the chosen API line.
                src={banner.image.startsWith('/') ? `${baseUrl()}${banner.image}` : banner.image}
                alt=""
                loading="lazy"
                data-testid="banner-image"
              />
            )}
            <strong>{banner.title}</strong>
            <span>{banner.text}</span>
          </button>
        );
      })}
    </section>
  );
}
