/** The market calls: product lists, favourites, recommended products and k-lines. */
import {
  PRODUCT_TYPE,
  type Candle,
  type CandleInterval,
  type ProductType,
  type TickerInfo,
} from '@bourse/shared';
import { api } from './index';

export type { TickerInfo } from '@bourse/shared';

export interface Product {
  id: number;
  productId: number;
  productName: string;
  productCode: string;
  productDesc: string;
  productType: ProductType;
  isLock: number;
  isOption: number;
  standard: string;
  priceScale: number;
  leverages: number[];
  marketOpen: boolean;
  source: string;
  simulated: boolean;
  tickerInfo: TickerInfo | null;
}

export { CANDLE_INTERVALS, type Candle, type CandleInterval } from '@bourse/shared';

export const LIST_URL: Record<ProductType, string> = {
  [PRODUCT_TYPE.usStock]: '/api/stockProduct/list',
  [PRODUCT_TYPE.crypto]: '/api/cryptocurrencyProduct/list',
  [PRODUCT_TYPE.futures]: '/api/futuresProduct/list',
  [PRODUCT_TYPE.forex]: '/api/forexProduct/list',
};

export const PRODUCT_TYPE_LABEL: Record<ProductType, string> = {
  [PRODUCT_TYPE.usStock]: 'market_usStock',
  [PRODUCT_TYPE.crypto]: 'market_crypto',
  [PRODUCT_TYPE.futures]: 'market_futures',
  [PRODUCT_TYPE.forex]: 'market_forex',
};

export interface ProductPage {
  rows: Product[];
  total: number;
}

export function fetchProducts(
  url: string,
  pageNum: number,
  pageSize: number,
  keyWords?: string,
): Promise<ProductPage> {
  return api.page<Product>(url, { pageNum, pageSize, keyWords: keyWords || undefined });
}

export function fetchRecommended(): Promise<ProductPage> {
  return api.page<Product>('/api/homeRecommendProducts/list', { pageNum: 1, pageSize: 50 });
}

/** Finds one product by type and code (the list call with the code as keyword). */
export async function fetchProduct(productType: ProductType, productCode: string) {
  const { rows } = await fetchProducts(LIST_URL[productType], 1, 20, productCode);
  return rows.find((row) => row.productCode === productCode) ?? null;
}

export function addOption(product: Pick<Product, 'productType' | 'productCode' | 'productId'>) {
  return api.request('/api/userProductOption/addOption', {
    method: 'POST',
    json: true,
    data: {
      productCode: product.productCode,
      productType: product.productType,
      productId: product.productId,
    },
  });
}

export function delOption(product: Pick<Product, 'productType' | 'productCode' | 'productId'>) {
  return api.post('/api/userProductOption/delOption', {
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
  return api.get<Candle[]>('/api/kline/list', {
    productType,
    productCode,
    interval,
    limit,
    endTime,
  });
}
