/** The product a market screen shows: from the query (`productType`, `productCode`), else the last one viewed, else BTC. */
import { useSearchParams } from 'react-router';
import { PRODUCT_TYPE, PRODUCT_TYPES, type ProductType } from '@bourse/shared';
import { getItem, setItem } from '../../lib/storage';

const LAST_KEY = 'lastProduct';

export function useProductQuery(): { productType: ProductType; productCode: string } {
  const [search] = useSearchParams();
  const type = Number(search.get('productType'));
  const code = (search.get('productCode') ?? '').toUpperCase();
  if (PRODUCT_TYPES.includes(type as ProductType) && /^[A-Z0-9.]{1,16}$/.test(code)) {
    const chosen = { productType: type as ProductType, productCode: code };
    setItem(LAST_KEY, chosen);
    return chosen;
  }
  return (
    getItem<{ productType: ProductType; productCode: string }>(LAST_KEY) ?? {
      productType: PRODUCT_TYPE.crypto,
      productCode: 'BTCUSDT',
    }
  );
}
