/**
 * Several feeds as one: each product goes to the first feed that takes it. With MARKET_FEED
 * `binance`, crypto pairs come from Binance and every other product from the simulated feed,
 * which stays labelled as simulated product by product. A product listed while they run goes to
 * the first feed that takes it and can add it.
 */
import type { BookSides, FeedHandlers, FeedProduct, FeedProvider, ListingStart } from '../types';

export interface Route {
  provider: FeedProvider;
  takes(product: FeedProduct): boolean;
}

export class CompositeFeed implements FeedProvider {
  readonly name: string;
  private assigned = new Map<string, FeedProvider>();

  constructor(private readonly routes: readonly Route[]) {
    this.name = routes.map((route) => route.provider.name).join('+');
  }

  /** True only when every product's prices are made up. */
  get simulated(): boolean {
    return this.routes.every((route) => route.provider.simulated);
  }

  isSimulated(product: FeedProduct): boolean {
    const provider = this.assigned.get(`${product.productType}:${product.productCode}`);
    return provider?.isSimulated?.(product) ?? provider?.simulated ?? true;
  }

  sourceOf(product: FeedProduct): string {
    return this.assigned.get(`${product.productType}:${product.productCode}`)?.name ?? this.name;
  }

  orderBook(product: FeedProduct, levels: number): Promise<BookSides | undefined> {
    const provider = this.assigned.get(`${product.productType}:${product.productCode}`);
    return provider?.orderBook?.(product, levels) ?? Promise.resolve(undefined);
  }

  /** Whether the feed that takes this product knows its symbol. */
  knows(product: FeedProduct): boolean {
    const route = this.routes.find((candidate) => candidate.takes(product));
    if (!route) return false;
    return route.provider.knows?.(product) ?? route.provider.simulated;
  }

  watchSymbols(): void {
    for (const route of this.routes) route.provider.watchSymbols?.();
  }

  addProduct(product: FeedProduct, listing: ListingStart): boolean {
    const key = `${product.productType}:${product.productCode}`;
    if (this.assigned.has(key)) return true;
    for (const route of this.routes) {
      if (!route.takes(product) || !route.provider.addProduct?.(product, listing)) continue;
      this.assigned.set(key, route.provider);
      return true;
    }
    return false;
  }

  /** Starts every feed, those without products too (a product listed later may go to them). */
  async start(products: readonly FeedProduct[], handlers: FeedHandlers): Promise<void> {
    const groups = new Map<Route, FeedProduct[]>(this.routes.map((route) => [route, []]));
    for (const product of products) {
      const route = this.routes.find((candidate) => candidate.takes(product));
      if (!route) continue;
      groups.set(route, [...(groups.get(route) ?? []), product]);
      this.assigned.set(`${product.productType}:${product.productCode}`, route.provider);
    }
    await Promise.all([...groups].map(([route, group]) => route.provider.start(group, handlers)));
  }

  async stop(): Promise<void> {
    await Promise.all(this.routes.map((route) => route.provider.stop()));
  }
}
