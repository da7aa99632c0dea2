/** PRODUCT section 1.7: while the simulated feed runs, every quote screen says so. */
import { useTranslation } from 'react-i18next';

export function SimulatedLabel({ simulated }: { simulated: boolean | undefined }) {
  const { t } = useTranslation();
  if (!simulated) return null;
  return (
    <div className="simulated-label" role="note" data-testid="simulated-label">
      {t('market_simulatedData')}
    </div>
  );
}
