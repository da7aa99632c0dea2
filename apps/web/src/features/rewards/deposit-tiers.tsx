/**
 * The deposit reward tiers of a currency, on the deposit screen before the user pays: each range
 * with its rate, paid once per tier to the available balance after the deposit's approval, with
 * no turnover requirement; a tier the user received already says so. Nothing when there are none.
 */
import { formatMessage } from '@bourse/shared';
import { Num } from '../../components/status-views';
import { useTranslation } from '../../i18n/react';
import { useDepositTiers } from './api';
import { percent } from './task-text';
import './rewards.css';

/** "1000 USDT and more": the amount a left-to-right island inside the sentence of the language. */
function OpenRange({ template, amount }: { template: string; amount: string }) {
  const [before = '', after = ''] = template.split('{0} {1}');
  return (
    <span>
      {before}
      <Num>{amount}</Num>
      {after}
    </span>
  );
}

export function DepositTiers({ currencyId }: { currencyId: number }) {
  const { t } = useTranslation();
  const tiers = useDepositTiers(currencyId);
  const rows = tiers.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="card rw-tiers" data-testid="deposit-tiers">
      <h3>{t('tiers_title')}</h3>
      <ul>
        {rows.map((tier) => (
          <li key={tier.id} data-testid={`deposit-tier-${tier.id}`}>
            {tier.maxAmount === null ? (
              <OpenRange template={t('tiers_from')} amount={`${tier.minAmount} ${tier.currency}`} />
            ) : (
              <Num>{`${tier.minAmount} – ${tier.maxAmount} ${tier.currency}`}</Num>
            )}
            <span className="rw-reward">
              {formatMessage(t('tiers_rate'), [percent(tier.rate)])}
              {tier.earned && <span className="rw-status rw-status-paid">{t('tiers_earned')}</span>}
            </span>
          </li>
        ))}
      </ul>
      <p className="rw-muted">{t('tiers_once')}</p>
    </section>
  );
}

export default DepositTiers;
