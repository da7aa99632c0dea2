/** The market calls: product lists, favourites, recommended products and k-lines. */
import {
  PRODUCT_TYPE,
  quotesApi as routes,
  type Candle,
  type CandleInterval,
  type Product as ListedProduct,
  type ProductType,
} from '@bourse/shared';
import { api } from './index';

export type { TickerInfo } from '@bourse/shared';

/** What the screens read of a listed product (a holding's product is made of these alone). */
export type Product = Pick<
  ListedProduct,
  | 'id'
  | 'productId'
  | 'productName'
  | 'productCode'
  | 'productDesc'
  | 'productType'
  | 'isLock'
  | 'isOption'
  | 'standard'
  | 'priceScale'
  | 'leverages'
  | 'marketOpen'
  | 'source'
  | 'simulated'
  | 'tickerInfo'
>;

export { CANDLE_INTERVALS, type Candle, type CandleInterval } from '@bourse/shared';

/** The product list of each market. */
export const PRODUCT_LISTS = {
  [PRODUCT_TYPE.usStock]: routes.stockProducts,
  [PRODUCT_TYPE.crypto]: routes.cryptoProducts,
  [PRODUCT_TYPE.futures]: routes.futuresProducts,
  [PRODUCT_TYPE.forex]: routes.forexProducts,
} as const;

/** A list call of products: a market's, the recommended ones or the user's favourites. */
export type ProductListRoute =
  | (typeof PRODUCT_LISTS)[ProductType]
  | typeof routes.recommendedProducts
  | typeof routes.favourites;

/** The user's favourites, listed like a market. */
export const FAVOURITES_LIST: ProductListRoute = routes.favourites;

export const PRODUCT_TYPE_LABEL: Record<ProductType, string> = {
  [PRODUCT_TYPE.usStock]: 'market_usStock',
  [PRODUCT_TYPE.crypto]: 'market_crypto',
  [PRODUCT_TYPE.futures]: 'market_futures',
  [PRODUCT_TYPE.forex]: 'market_forex',
};

export interface ProductPage {
  rows: ListedProduct[];
  total: number;
}

export function fetchProducts(
  list: ProductListRoute,
  pageNum: number,
  pageSize: number,
  keyWords?: string,
): Promise<ProductPage> {
  return api.call(list, { pageNum, pageSize, keyWords: keyWords || undefined });
}

export function fetchRecommended(): Promise<ProductPage> {
  return fetchProducts(routes.recommendedProducts, 1, 50);
}

/** Finds one product by type and code (the list call with the code as keyword). */
export async function fetchProduct(productType: ProductType, productCode: string) {
  const { rows } = await fetchProducts(PRODUCT_LISTS[productType], 1, 20, productCode);
  return rows.find((row) => row.productCode === productCode) ?? null;
}

type ProductRef = Pick<Product, 'productType' | 'productCode' | 'productId'>;

export function addOption(product: ProductRef) {
  return api.call(routes.addFavourite, {
    productCode: product.productCode,
    productType: product.productType,
    productId: product.productId,
  });
}

export function delOption(product: ProductRef) {
  return api.call(routes.removeFavourite, {
    productCode: product.productCode,
    productType: product.productType,
    productId: product.productId,
  });
}

export function fetchKline(
  productType: ProductType,
  productCode: string,
  interval: CandleInterval,
  endTime?: number,
  limit = 300,
): Promise<Candle[]> {
  return api.call(routes.kline, { productType, productCode, interval, limit, endTime });
}
