/** PRODUCT section 1.7: while the simulated feed runs, every quote screen says so. */
import { useTranslation } from '../i18n/react';
import { storedSiteInfo } from '../api/launch';

/**
 * `simulated` is undefined until the product is known. Meanwhile the site's feed, as the device
 * kept it, decides: with the simulated feed every product is simulated, so the label is there from
 * the first frame and what is below it does not move when the product arrives.
 */
export function SimulatedLabel({ simulated }: { simulated: boolean | undefined }) {
  const { t } = useTranslation();
  if (!(simulated ?? storedSiteInfo()?.marketFeed === 'simulated')) return null;
  return (
    <div className="simulated-label" role="note" data-testid="simulated-label">
      {t('market_simulatedData')}
    </div>
  );
}
