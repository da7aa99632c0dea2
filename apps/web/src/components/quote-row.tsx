/**
 * One product in a quote list: name and code, the last price (flashing green or red as it moves)
 * and the day's change rate, coloured. Prices are shown as the server sent them.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/react';
import { cmp, formatAmount } from '@bourse/shared';
import type { Product, TickerInfo } from '../api/market';

export function changeClass(changeRate: string | undefined): string {
  if (!changeRate) return 'flat';
  const sign = cmp(changeRate, '0');
  return sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
}

export function formatChangeRate(changeRate: string | undefined): string {
  if (!changeRate) return '- -';
  return `${cmp(changeRate, '0') > 0 ? '+' : ''}${changeRate}%`;
}

function QuoteRowView({
  product,
  ticker,
  onOpen,
}: {
  product: Product;
  ticker: TickerInfo | null | undefined;
  onOpen: (product: Product) => void;
}) {
  const { t } = useTranslation();
  const price = ticker?.nowPrice;
  const previous = useRef(price);
  const [flash, setFlash] = useState<'' | 'flash-up' | 'flash-down'>('');
  useEffect(() => {
    if (price && previous.current && price !== previous.current) {
      setFlash(cmp(price, previous.current) > 0 ? 'flash-up' : 'flash-down');
      const timer = setTimeout(() => setFlash(''), 600);
      previous.current = price;
      return () => clearTimeout(timer);
    }
    previous.current = price;
  }, [price]);
  const direction = changeClass(ticker?.changeRate);
  return (
    <button
      type="button"
      className="quote-row"
      data-testid={`quote-${product.productCode}`}
      onClick={() => onOpen(product)}
    >
      <span className="quote-name">
        <strong>{product.productName}</strong>
        <span className="muted">
          {product.productCode}
          {!product.marketOpen && <span className="closed-tag">{t('market_closed')}</span>}
        </span>
      </span>
      <span dir="ltr" className={`quote-price ${flash}`} data-testid="quote-price">
        {price ? formatAmount(price, { decimals: product.priceScale }) : '- -'}
      </span>
      <span dir="ltr" className={`quote-change ${direction}`}>
        {formatChangeRate(ticker?.changeRate)}
      </span>
    </button>
  );
}

export const QuoteRow = memo(QuoteRowView);
