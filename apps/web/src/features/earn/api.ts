/**
 * The calls of earn (earnApi): lock mining and staking products, buying, orders, redemption with
 * its quote first, the analysis and the staking interest records; and their query keys. A kind's
 * calls are chosen by the kind, so the screens of both share their parts.
 */
import {
  earnApi as routes,
  type EarnKind,
  type EarnOrder,
  type EarnProduct,
  type FinancialAnalysis,
  type InterestRecord,
  type RedemptionPreview,
} from '@bourse/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { baseUrl } from '../../lib/lines';

export type { EarnKind, EarnOrder, EarnProduct, InterestRecord } from '@bourse/shared';

export const earnKeys = {
  products: (kind: EarnKind) => ['earnProducts', kind] as const,
  product: (kind: EarnKind, id: number) => ['earnProducts', kind, id] as const,
  orders: (kind: EarnKind) => ['earnOrders', kind] as const,
  analysis: ['earnOrders', 'financial', 'analysis'] as const,
  records: (orderId: number | undefined) => ['earnOrders', 'staking', 'records', orderId] as const,
};

const CALLS = {
  financial: {
    products: routes.financialProducts,
    product: routes.financialProduct,
    add: routes.financialOrderAdd,
    orders: routes.financialOrders,
    preview: routes.financialRedemptionPreview,
    redeem: routes.financialRedemption,
  },
  staking: {
    products: routes.stakingProducts,
    product: routes.stakingProduct,
    add: routes.stakingOrderAdd,
    orders: routes.stakingOrders,
    preview: routes.stakingRedemptionPreview,
    redeem: routes.stakingRedemption,
  },
} as const;

/** Products are a short list: one page holds them. */
const PRODUCTS_PAGE = 100;

export function useProducts(kind: EarnKind, signedIn: boolean) {
  return useQuery({
    queryKey: [...earnKeys.products(kind), signedIn],
    queryFn: async (): Promise<EarnProduct[]> =>
      (await api.call(CALLS[kind].products, { pageNum: 1, pageSize: PRODUCTS_PAGE })).rows,
  });
}

export function useProduct(kind: EarnKind, id: number, signedIn: boolean) {
  return useQuery({
    queryKey: [...earnKeys.product(kind, id), signedIn],
    queryFn: (): Promise<EarnProduct> => api.call(CALLS[kind].product, { id }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function buyProduct(
  kind: EarnKind,
  input: { productId: number; amount: string; requestId: string; dailyRate: string },
): Promise<EarnOrder> {
  return api.call(CALLS[kind].add, input);
}

export function fetchOrderPage(
  kind: EarnKind,
  page: { pageNum: number; pageSize: number },
  status?: number,
) {
  return api.call(CALLS[kind].orders, { ...page, status });
}

export function fetchRedemptionPreview(kind: EarnKind, id: number): Promise<RedemptionPreview> {
  return api.call(CALLS[kind].preview, { id });
}

export function redeemOrder(
  kind: EarnKind,
  input: { id: number; requestId: string; penalty: string },
): Promise<EarnOrder> {
  return api.call(CALLS[kind].redeem, input);
}

export function useFinancialAnalysis(enabled: boolean) {
  return useQuery({
    queryKey: earnKeys.analysis,
    queryFn: (): Promise<FinancialAnalysis> => api.call(routes.financialAnalysis),
    enabled,
  });
}

export function fetchInterestPage(
  page: { pageNum: number; pageSize: number },
  stakingOrderId: number | undefined,
): Promise<{ rows: InterestRecord[]; total: number }> {
  return api.call(routes.stakingInterestRecords, { ...page, stakingOrderId });
}

/** Where the browser loads a product's image from: the server answers a path on its API line. */
export function productImageSource(image: string): string {
  return image.startsWith('/') ? `${baseUrl()}${image}` : image;
}
