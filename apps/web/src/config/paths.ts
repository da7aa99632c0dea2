/**
 * Every route of SEED-SPEC section 2, with the seed's exact paths. This is the only place a path
 * is written; screens navigate by name through `lib/navigation`. A route whose screen is not built
 * yet stays in this table but is not registered by the router, so it shows the not-found screen.
 */
export const paths = {
  entry: '/',
  entryAlias: '/pages/index/index',

  // The four tabs.
  home: '/pages/tabs/home/home-k',
  quotes: '/pages/tabs/quotes/quotes',
  quoteDetail: '/pages/quoteDetail/quoteDetail',
  accountDetail: '/pages/user/accountDetail',

  homeDefault: '/pages/tabs/home/home',
  homeJ: '/pages/tabs/home/home-j',
  homeG: '/pages/tabs/home/home-g',
  homeH: '/pages/tabs/home/home-h',

  meDefault: '/pages/tabs/me/me',
  me: '/pages/tabs/me/me-k',
  meF: '/pages/tabs/me/me-f',
  meJ: '/pages/tabs/me/me-j',
  meG: '/pages/tabs/me/me-g',
  meH: '/pages/tabs/me/me-h',
  meE: '/pages/tabs/me/me-e',

  favorite: '/pages/tabs/favorite/favorite',
  quoteSearch: '/pages/tabs/quotes/quoteSearch',

  change: '/pages/user/change',
  privacy: '/pages/user/privacy',
  welfare: '/pages/user/welfare',
  award: '/pages/user/award',
  userInfo: '/pages/user/userInfo',
  recharge: '/pages/user/recharge',
  linePay: '/pages/user/linePay',
  withdraw: '/pages/user/withdrawl',
  exchange: '/pages/user/exchange',
  authentication: '/pages/user/authentication',
  authentication1: '/pages/user/authentication1',
  login: '/pages/user/login',
  register: '/pages/user/register',
  rechargeDetail: '/pages/user/recharge-detail',
  rechargeRecord: '/pages/user/rechargeRecord',
  withdrawRecord: '/pages/user/withdrawRecord',
  share: '/pages/user/iwannashare',

  pledgeInterest: '/pages/pledge/Interest',
  pledgeBuy: '/pages/pledge/buy',
  pledgeOrders: '/pages/pledge/orders',
  pledgeList: '/pages/pledge/list',
  pledgeDetail: '/pages/pledge/detail',

  changeRecord: '/pages/record/changeRecord',
  accountRecord: '/pages/record/accountRecord',

  richText: '/pages/richText',

  activity: '/pages/activity/index',
  activityDetail: '/pages/activity/detail',

  loanDetail: '/pages/loan/detail',
  loanRepay: '/pages/loan/rePay',
  loan: '/pages/loan/loan',
  loanBuy: '/pages/loan/buy',

  bibiOrder: '/pages/position/bibiOrder',
  contractPosition: '/pages/position/contractPosition',

  line: '/pages/language/line',
  language: '/pages/language/language',

  messages: '/pages/msg/msg-list',
  messageDetail: '/pages/msg/msg-detail',

  newShareDetail: '/pages/newShares/detail',
  newShares: '/pages/newShares/newShares',
  newShareHistory: '/pages/newShares/his',
  // Not in the seed: the published allocation and its proof (issue 24).
  newShareAllocation: '/pages/newShares/allocation',

  lockMining: '/pages/lockMining/lockMining',
  lockMiningProducts: '/pages/lockMining/lockMiningProductList',
  lockMiningOrders: '/pages/lockMining/orders',
  lockMiningDetail: '/pages/lockMining/detail',

  service: '/pages/service/service',
  team: '/pages/team/team',

  bankCards: '/pages/bankCard/bankCard-list',
  bindBankCard: '/pages/bankCard/bindBankCard',

  wallets: '/pages/wallets/wallets',
  bindAddress: '/pages/wallets/bindAddress',

  bibi: '/pages/quoteDetail/bibi',
  kline: '/pages/quoteDetail/klinePage',

  notifications: '/pages/notifyList/notifyList',
  qa: '/pages/QA/QA',
  followOrder: '/pages/followOrder/followOrder',
  // Not in the seed: the rest of copy trading (issue 25).
  copyTrader: '/pages/followOrder/trader',
  copyFollow: '/pages/followOrder/follow',
  copyMine: '/pages/followOrder/mine',
  copyCopies: '/pages/followOrder/copies',
  copySettlements: '/pages/followOrder/settlements',
  copyLead: '/pages/followOrder/lead',
  copyLeadProfile: '/pages/followOrder/leadProfile',
  copyLeadDashboard: '/pages/followOrder/leadDashboard',

  networkError: '/pages/networdError/networdError',

  newsComponent: '/components/m-news/m-news',
  assetsComponent: '/components/m-zichan/m-zichan',
  quoteListComponent: '/components/m-quolist/m-quolist',

  previewImage: '/preview-image',
  chooseLocation: '/choose-location',
  openLocation: '/open-location',
} as const;

export type RouteName = keyof typeof paths;
export type RoutePath = (typeof paths)[RouteName];

/** The tab bar's routes, in the spec's order (tab 0 to 3). */
export const TAB_ROUTES = ['home', 'quotes', 'quoteDetail', 'accountDetail'] as const;
export type TabRoute = (typeof TAB_ROUTES)[number];

/** Screens that draw their own header instead of the standard navigation bar (spec section 2). */
export const CUSTOM_NAVIGATION: ReadonlySet<RoutePath> = new Set([
  paths.entry,
  paths.entryAlias,
  paths.login,
  paths.register,
  paths.networkError,
]);

export type QueryValue = string | number | boolean | null | undefined | object;
export type Query = Record<string, QueryValue>;

/**
 * Query parameters as name=value pairs; object values are serialised as JSON (spec section 2).
 * Undefined values are left out.
 */
export function toQueryString(query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    search.append(
      name,
      value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value),
    );
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Reads a query value back; JSON-looking values are parsed, others stay text. */
export function fromQueryValue(value: string | null): unknown {
  if (value === null) return undefined;
  if (/^[[{]/.test(value)) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/** The location (path plus query) of a named route, as the hash router expects it. */
export function getHref(name: RouteName, query?: Query): string {
  return `${paths[name]}${toQueryString(query)}`;
}

export function isTabPath(pathname: string): boolean {
  return TAB_ROUTES.some((name) => paths[name] === pathname);
}
