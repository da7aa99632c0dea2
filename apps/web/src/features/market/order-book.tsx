/**
 * The order book of the quote detail, under the order panel (read only): bids and asks nearest the price with their amounts
 * and depth bars, from the feed (`orderBook`), refreshed every two seconds. The simulated feed's
 * book is made up around its price and says so.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/react';
import { formatAmount, gt, quotesApi, type ProductType } from '@bourse/shared';
import { api } from '../../api';
import './market.css';

const LEVELS = 10;

export function OrderBookView({
  productType,
  productCode,
  priceScale,
}: {
  productType: ProductType;
  productCode: string;
  priceScale: number;
}) {
  const { t } = useTranslation();
  const book = useQuery({
    queryKey: ['orderBook', productType, productCode],
    queryFn: () => api.call(quotesApi.orderBook, { productType, productCode, levels: LEVELS }),
    refetchInterval: 2000,
  });
  const data = book.data;
  const largest = [...(data?.bids ?? []), ...(data?.asks ?? [])].reduce(
    (max, level) => Math.max(max, Number(level.amount)),
    0,
  );
  const side = (kind: 'bid' | 'ask', levels: NonNullable<typeof data>['bids']) => (
    <ol className={`book-side book-${kind}s`} data-testid={`book-${kind}s`}>
      <li className="book-head muted">
        <span>{t('field_price')}</span>
        <span>{t('field_quantity')}</span>
      </li>
      {levels.map((level) => (
        <li key={level.price} className="book-row" data-testid={`book-${kind}`}>
          <span
            className="book-bar"
            aria-hidden="true"
            style={{ width: `${largest > 0 ? (Number(level.amount) / largest) * 100 : 0}%` }}
          />
          <span className={kind === 'bid' ? 'up' : 'down'}>
            {formatAmount(level.price, { decimals: priceScale })}
          </span>
          <span>{formatAmount(level.amount, { decimals: gt(level.amount, '100') ? 2 : 4 })}</span>
        </li>
      ))}
    </ol>
  );
  return (
    <section className="order-book" data-testid="order-book" aria-labelledby="order-book-title">
      <h2 id="order-book-title" className="section-title">
        {t('market_orderBook')}
      </h2>
      {data?.simulated && (
        <p className="book-simulated" role="note" data-testid="book-simulated">
          {t('market_simulatedBook')}
        </p>
      )}
      {!data ? (
        <p className="muted book-note">{t('common_loading')}</p>
      ) : data.bids.length === 0 && data.asks.length === 0 ? (
        <p className="muted book-note">{t('market_bookEmpty')}</p>
      ) : (
        <div className="book-sides">
          <div>
            <h3 className="book-title up">{t('market_bids')}</h3>
            {side('bid', data.bids)}
          </div>
          <div>
            <h3 className="book-title down">{t('market_asks')}</h3>
            {side('ask', data.asks)}
          </div>
        </div>
      )}
    </section>
  );
}
