/**
 * The calls of market quotes: the product lists of the four markets, recommended products,
 * favourites (/api/userProductOption), k-lines and the currencies' prices in USDT.
 */
import { z } from 'zod';
import {
  candle,
  exchangeInfo,
  klineQuery,
  orderBook,
  orderBookQuery,
  product,
  productListQuery,
  productOptionBody,
} from '../schemas/market';
import { route } from './route';

/** A page of a market's products, searched by code or by name in any language. */
function productList<const P extends string>(path: P, market: string) {
  return {
    method: 'GET',
    path,
    auth: 'optional',
    key: 'read',
    summary: `The visible ${market}, a page at a time; a signed-in user sees their favourites marked (isOption).`,
    query: productListQuery,
    rows: product,
  } as const;
}

export const quotesApi = {
  stockProducts: route(productList('/api/stockProduct/list', 'US stocks')),
  cryptoProducts: route(productList('/api/cryptocurrencyProduct/list', 'crypto pairs')),
  futuresProducts: route(productList('/api/futuresProduct/list', 'futures')),
  forexProducts: route(productList('/api/forexProduct/list', 'forex pairs')),
  recommendedProducts: route({
    method: 'GET',
    path: '/api/homeRecommendProducts/list',
    auth: 'optional',
    key: 'read',
    summary: 'The products the operator recommends on the home screen, in their order.',
    query: productListQuery,
    rows: product,
  }),
  favourites: route({
    method: 'GET',
    path: '/api/userProductOption/list',
    auth: 'user',
    key: 'read',
    summary: "The user's favourite products, in the order they were added.",
    query: productListQuery,
    rows: product,
  }),
  addFavourite: route({
    method: 'POST',
    path: '/api/userProductOption/addOption',
    auth: 'user',
    summary: 'Makes a product a favourite (hint_48 when it is one already).',
    body: productOptionBody,
    encoding: 'json',
    hints: ['hint_productUnknown', 'hint_tooManyFavourites'],
  }),
  removeFavourite: route({
    method: 'POST',
    path: '/api/userProductOption/delOption',
    auth: 'user',
    summary: 'Removes a product from the favourites (hint_48 when it was not one).',
    body: productOptionBody,
    hints: ['hint_productUnknown'],
  }),
  kline: route({
    method: 'GET',
    path: '/api/kline/list',
    auth: 'public',
    key: 'read',
    summary:
      'Candles of a product, newest first; without endTime the still-growing candle comes first.',
    query: klineQuery,
    data: z.array(candle),
    hints: ['hint_productUnknown'],
  }),
  orderBook: route({
    method: 'GET',
    path: '/api/kline/orderBook',
    auth: 'public',
    key: 'read',
    summary:
      'The order book of a product from its feed (read only); for the simulated feed a simulated book around its price, marked simulated. Empty sides when the feed has no book.',
    query: orderBookQuery,
    data: orderBook,
    hints: ['hint_productUnknown'],
  }),
  exchangeInfo: route({
    method: 'GET',
    path: '/api/currencyExchangeRate/getExchangeInfo',
    auth: 'public',
    key: 'read',
    summary: 'Every platform currency with its price in USDT (null where the market has none).',
    data: z.array(exchangeInfo),
  }),
};
