/**
 * Builds the Fastify instance: plugins (body parsing, security headers, CORS, rate limits, error
 * mapping), then the modules. The database must already be migrated and seeded (see prepare.ts).
 */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import compress from '@fastify/compress';
import formBody from '@fastify/formbody';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import os from 'node:os';
import { constants as zlibConstants } from 'node:zlib';
import type { Config } from './config';
import type { Database } from './db/database';
import { registerErrorHandling } from './http/errors';
import { registerSecurityHeaders } from './http/security-headers';
import { registerWebApp } from './http/web-app';
import { registerApiDocs } from './http/openapi';
import { RequestBudgets } from './http/budgets';
import { Router } from './http/router';
import { API_KEY } from '@bourse/shared';
import { AppError } from './lib/errors';
import { serverClock, type Clock } from './lib/clock';
import {
  accountRoutes,
  AccountService,
  Avatars,
  securityRoutes,
  createCodeSender,
  DemoResets,
  profileRoutes,
  type CodeSender,
} from './modules/account';
import { assetsRoutes, AssetsService, identityRates, type RateSource } from './modules/assets';
import {
  messageConsoleRoutes,
  messageRoutes,
  MessageService,
  MessagesConsole,
  Notices,
} from './modules/messages';
import { settingsRoutes, SettingsService } from './modules/settings';
import { quotesRoutes, QuotesService } from './modules/quotes';
import { MarketEngine, type MarketEngineOptions } from './market/engine';
import { DEFAULT_CATALOGUE } from './market/catalogue';
import type { CatalogueProduct, FeedProvider } from './market/types';
import { WsHub } from './market/ws-hub';
import {
  RedisTickBus,
  instanceId,
  type InstanceRecord,
  type InstanceRegistry,
} from './market/cluster';
import type { SimulatedParams } from './market/simulated';
import { paymentMethodRoutes, WithdrawWhitelists } from './modules/payment-methods';
import { twoFactorRoutes, TwoFactorService } from './modules/two-factor';
import { walletRoutes, WalletService } from './modules/wallet';
import {
  FastTrades,
  contractRoutes,
  tradingRoutes,
  Contracts,
  SpotTrading,
  spotRoutes,
  TriggerEngine,
  TradingSettingsAdmin,
} from './modules/trading';
import { TickLog } from './market/tick-log';
import { adminRoutes, ConsoleEvents } from './modules/admin';
import { Scheduler } from './modules/scheduler';
import {
  LoanDailyJob,
  Loans,
  LoansConsole,
  loanConsoleRoutes,
  loanRoutes,
  type LoansDeps,
} from './modules/loans';
import { apiKeyRoutes, createApiKeys, type ApiKeyCalls } from './modules/api-keys';
import { BINANCE_PREFIX, binanceApi } from './modules/binance';
import { ContentService, contentConsoleRoutes, contentRoutes } from './modules/content';
import { IdentityService, identityRoutes } from './modules/identity';
import { ServiceDesk, serviceConsoleRoutes, serviceRoutes } from './modules/service';
import {
  heardBy,
  rewardConsoleRoutes,
  rewardRoutes,
  Rewards,
  RewardsConsole,
} from './modules/rewards';
import { Earn, EarnConsole, earnConsoleRoutes, EarnDailyJob, earnRoutes } from './modules/earn';
import {
  NewShares,
  NewSharesConsole,
  newSharesConsoleRoutes,
  newSharesRoutes,
  NewSharesWorker,
} from './modules/new-shares';
import {
  CopyTradeDailyJob,
  CopyTrading,
  CopyTradingConsole,
  CopyTradingHooks,
  copyTradingConsoleRoutes,
  copyTradingRoutes,
  CopyWorker,
} from './modules/copy-trading';
import {
  CommissionWorker,
  ReferralConsole,
  referralConsoleRoutes,
  referralRoutes,
  TeamService,
} from './modules/referral';

/** The largest request body accepted anywhere unless a route says otherwise. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  config: Config;
  db: Database;
  clock?: Clock;
  /** A pino logger or Fastify's logger options. */
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  codeSender?: CodeSender;
  rates?: RateSource;
  /** The product catalogue to seed (default: the built-in one). */
  catalogue?: readonly CatalogueProduct[];
  /** History generated for products without candles (default: a year of days, two of minutes). */
  history?: MarketEngineOptions['history'];
  /** A feed provider other than the configured one (tests). */
  feed?: (context: { params: SimulatedParams[] }) => FeedProvider;
}

export interface Services {
  accounts: AccountService;
  settings: SettingsService;
  assets: AssetsService;
  messages: MessageService;
  market?: QuotesService;
  marketEngine?: MarketEngine;
  wallet: WalletService;
  fastTrades?: FastTrades;
  triggers?: TriggerEngine;
  contracts?: Contracts;
  spot?: SpotTrading;
  /** Welfare tasks and deposit reward tiers (issue 22). */
  rewards: Rewards;
  /** What every call made with an API key goes through (the Binance-compatible layer's too). */
  apiKeyCalls: ApiKeyCalls;
  /** The daily work (earn and loan interest, maturities, reminders), once per job and day. */
  scheduler: Scheduler;
  /** New shares' windows, allocations and listings, as they fall due (issue 24). */
  newSharesWorker: NewSharesWorker;
  /** Copy trading's queue: copies opened, closed and changed through the contracts (issue 25). */
  copyWorker: CopyWorker;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    hub: WsHub;
  }
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  // Nothing logs request headers or bodies (the access log has method, path, status and time),
  // so tokens and passwords never reach the log and no redaction pass is needed.
  return { level: config.LOG_LEVEL };
}

/** With several instances, how often each reads the resting levels set through the others. */
const TRIGGER_REFRESH_MS = 5000;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  // The system's, or moved by CLOCK_OFFSET_FILE's milliseconds (browser tests).
  const clock =
    options.clock ??
    serverClock(config.CLOCK_OFFSET_FILE, (message) =>
      app.log.warn({ clock: message }, 'clock offset file'),
    );
  const loggerOption = options.logger ?? loggerOptions(config);
  const isLoggerInstance =
    typeof loggerOption === 'object' && loggerOption !== null && 'child' in loggerOption;
  const app = Fastify({
    ...(isLoggerInstance
      ? { loggerInstance: loggerOption as FastifyBaseLogger }
      : { logger: loggerOption }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Trust exactly as many proxies as the deployment puts in front (the nth hop's address).
    trustProxy:
      config.TRUST_PROXY_HOPS > 0 ? (_address, hop) => hop < config.TRUST_PROXY_HOPS : false,
    // Fastify's two lines per request are replaced by the one access-log line below.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });

  // One access-log line per request, after it is answered (only when info lines are kept).
  if (['trace', 'debug', 'info'].includes(app.log.level)) {
    app.addHook('onResponse', async (request, reply) => {
      request.log.info(
        {
          method: request.method,
          url: request.url.split('?')[0],
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    });
  }

  registerErrorHandling(app);
  await app.register(formBody, { bodyLimit: BODY_LIMIT_BYTES });
  // Answers over 1 KB travel compressed (Brotli at a fast quality, else gzip): the language pack
  // (41 KB of JSON, ~9 KB compressed) and the product lists are what a phone on a slow network
  // waits for at launch. The apps' files are compressed once at build time and sent as they are.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  registerSecurityHeaders(app);

  if (config.CORS_ORIGINS.length > 0) {
    await app.register(cors, {
      origin: config.CORS_ORIGINS,
      methods: ['GET', 'POST'],
      // A signed call (API key) from an allowed origin sends its own headers too.
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Accept-Language',
        'LanguageId',
        ...Object.values(API_KEY.headers),
      ],
      maxAge: 600,
    });
  }
  // One general budget per client address and per user across every call (RequestBudgets, below);
  // sign-in, registration and code sending carry tighter route limits of their own (see Router);
  // launch data answered from memory is not counted.
  await app.register(rateLimit, {
    global: false,
    max: config.RATE_LIMIT_GLOBAL_PER_MINUTE,
    timeWindow: 60_000,
    // Counters are sent only once a limit is reached (with Retry-After), not on every answer.
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    errorResponseBuilder: (_request, context) =>
      new AppError('hint_tooManyRequests', 429, [Math.max(1, Math.ceil(context.ttl / 1000))]),
  });

  const settings = new SettingsService(db);
  const codes =
    options.codeSender ??
    createCodeSender({ smtpUrl: config.SMTP_URL, mailFrom: config.MAIL_FROM, logger: app.log });
  // With several instances, the bus that carries ticks, users' private events and ended sessions
  // between them.
  const bus = config.REDIS_URL
    ? await RedisTickBus.connect(config.REDIS_URL, config.REDIS_PREFIX)
    : undefined;
  // This instance: the id it holds the market lease under and announces itself with.
  const self = { id: instanceId(), host: os.hostname(), pid: process.pid, startTime: new Date() };
  // Notifications of users' own events, written by the events and pushed on /ws `notifications`.
  const notices = new Notices({
    db,
    clock,
    logger: app.log,
    notify: (userId, topic, data) => notifyUser(userId, topic, data),
  });
  // Welfare tasks and deposit reward tiers: evaluated after the events whose notifications the
  // wallet, identity and trading write through `eventNotices` (made below, heard after the push).
  const rewards: Rewards = new Rewards({
    db,
    clock,
    settings,
    notices,
    logger: app.log,
    notify: (userId, topic, data) => notifyUser(userId, topic, data),
  });
  const eventNotices = heardBy(notices, (events) => rewards.heard(events));
  // Two-factor codes of users; setting it up confirms the login password through the accounts.
  const twoFactor: TwoFactorService = new TwoFactorService({
    notices,
    db,
    clock,
    config,
    confirmLoginPassword: (userId, password) => accounts.confirmLoginPassword(userId, password),
    issuer: async () => (await settings.siteInfo()).siteName,
  });
  const accounts: AccountService = new AccountService({
    twoFactor,
    notices,
    db,
    config,
    clock,
    settings,
    codes,
    logger: app.log,
    // Every instance's /ws signs those sessions' sockets out (the hub is made below).
    sessionsEnded: (event) => {
      if (bus) bus.publishSessionsEnded(event);
      else app.hub?.endSessions(event);
    },
  });
  const messages = new MessageService(db, clock);
  // API keys: the user's keys, and the checks of every call made with one.
  const apiKeys = createApiKeys({
    db,
    clock,
    config,
    twoFactor,
    codes,
    logger: app.log,
    notices,
  });
  let marketEngine: MarketEngine | undefined;
  let market: QuotesService | undefined;
  /** A change for a user's private /ws topics: through the bus when there is one, so the user's
   * connections on every instance hear it. */
  const notifyUser = (userId: number, topic: string, data: unknown) => {
    if (bus) bus.publishUserEvent({ userId, topic, data });
    else app.hub?.publishToUser(userId, topic, data);
  };
  if (config.MARKET_FEED !== 'off') {
    const feed = await feedFor(config, app.log, clock);
    marketEngine = new MarketEngine({
      db,
      clock,
      logger: app.log,
      catalogue: options.catalogue ?? DEFAULT_CATALOGUE,
      seed: config.MARKET_SEED,
      tickIntervalMs: config.MARKET_TICK_MS,
      spreadTicks: config.MARKET_TICK_SPREAD,
      history: options.history,
      provider: options.feed ?? feed?.provider,
      historySource: options.feed ? undefined : feed?.history,
      cluster: bus ? { bus, instance: self.id, leaseTtlMs: config.MARKET_LEASE_MS } : undefined,
    });
    await marketEngine.prepare();
    market = new QuotesService(db, marketEngine, settings);
    await market.loadCurrencies();
    app.addHook('onClose', async () => marketEngine?.stop());
  }
  const assets = new AssetsService(db, settings, options.rates ?? market ?? identityRates, clock);
  // The review queues' changes, pushed to the operators' consoles of every instance.
  const consoleEvents = new ConsoleEvents(bus);
  await consoleEvents.start();
  const queueChanged = (queue: string, id: number) => consoleEvents.publish({ queue, id });
  const identity = new IdentityService({ db, clock, queueChanged, notices: eventNotices });
  // Customer service: the person hears the desk on /ws `service`, the consoles on their stream.
  const serviceDesk = new ServiceDesk({
    db,
    clock,
    notifyPerson: (person, event) => {
      if (person.userId !== undefined) notifyUser(person.userId, 'service', event);
      else if (bus)
        bus.publishUserEvent({
          userId: 0,
          visitorId: person.visitorId,
          topic: 'service',
          data: event,
        });
      else app.hub?.publishToVisitor(person.visitorId, event);
    },
    notifyDesk: (id, data) => consoleEvents.publish({ queue: 'service', id, data }),
  });
  // The withdrawal address whitelist: its switch, and the check every withdrawal goes through.
  const whitelist = new WithdrawWhitelists({ db, clock, accounts });
  const wallet = new WalletService({
    db,
    clock,
    settings,
    accounts,
    whitelist,
    rates: options.rates ?? market ?? identityRates,
    notify: notifyUser,
    notices: eventNotices,
    queueChanged,
    identityRequired: (userId, feature) => identity.require(userId, feature),
  });
  // Copy trading's hooks into the contracts (issue 25): who leads is read before any order.
  const copyHooks = new CopyTradingHooks({ db, clock });
  await copyHooks.load();
  let fastTrades: FastTrades | undefined;
  let tickLog: TickLog | undefined;
  let triggers: TriggerEngine | undefined;
  let contracts: Contracts | undefined;
  let spot: SpotTrading | undefined;
  if (marketEngine) {
    const engine = marketEngine;
    tickLog = new TickLog(db, clock, app.log, () => engine.leader);
    engine.onTickEvent((event) => tickLog?.record(event));
    fastTrades = new FastTrades({
      db,
      clock,
      settings,
      market: engine,
      logger: app.log,
      // The hub is made below; private messages go through it once it exists.
      notify: notifyUser,
      notices: eventNotices,
    });
    const fast = fastTrades;
    assets.addRealizedResults((userId, book, since) => fast.realizedSince(userId, book, since));
    triggers = new TriggerEngine({
      db,
      market: engine,
      logger: app.log,
      refreshMs: config.REDIS_URL ? TRIGGER_REFRESH_MS : undefined,
    });
    const tradingDeps = {
      db,
      clock,
      settings,
      market: engine,
      triggers,
      logger: app.log,
      notify: notifyUser,
      notices: eventNotices,
      copyHooks,
    };
    const contractBook = new Contracts(tradingDeps);
    contracts = contractBook;
    const spotBook = new SpotTrading(tradingDeps);
    spot = spotBook;
    assets.addRealizedResults((userId, book, since) =>
      contractBook.realizedSince(userId, book, since),
    );
    assets.addOpenPositions(async (userId, book) => {
      const { pnl } = await contractBook.openExposure(userId, book);
      // The margin is in the ledger's margin balance already; the result adds to it.
      return { value: pnl, pnl };
    });
    // Holdings left the ledger for the house at their cost: they count at market value.
    assets.addRealizedResults((userId, book, since) => spotBook.realizedSince(userId, book, since));
    assets.addOpenPositions((userId, book) => spotBook.openHoldings(userId, book));
    app.addHook('onClose', async () => {
      await fastTrades?.stop();
      await triggers?.stop();
      await tickLog?.stop();
    });
  }
  // Daily work at a fixed UTC time, caught up in order after a stop (modules/scheduler).
  const scheduler = new Scheduler({
    db,
    clock,
    logger: app.log,
    utcTime: config.SCHEDULER_UTC_TIME,
    checkMs: config.SCHEDULER_CHECK_MS,
  });
  app.addHook('onClose', async () => scheduler.stop());
  // Lock mining and staking (issue 23): interest and maturities by the day, once per order and day.
  const earn = new Earn({ db, clock, notices, notify: notifyUser });
  scheduler.register(new EarnDailyJob({ db, notices, logger: app.log }));
  // A stake left the available balance, not the account: the total of assets counts it.
  assets.addOpenPositions(async (userId, book) => {
    const rates = options.rates ?? market ?? identityRates;
    const tradeCurrencyId = (await settings.otherValue()).default_trade_currency_id;
    return earn.heldValue(userId, book, tradeCurrencyId, (from, to) => rates.rate(from, to));
  });
  // Loans (issue 23): the app's and the console's calls, and the daily interest and reminders.
  const loansDeps: LoansDeps = {
    db,
    clock,
    settings,
    notices,
    notify: notifyUser,
    identityLevels: async (userId) => {
      const { authLevel, requirements } = await identity.requirements(userId);
      const loan = requirements.find((requirement) => requirement.feature === 'loan');
      return { authLevel, loanLevel: loan?.minLevel ?? -1 };
    },
  };
  scheduler.register(new LoanDailyJob(loansDeps));
  // New shares (issue 24): windows, allocations by the published rule and listings on the feed,
  // as they fall due, one instance at a time.
  const listingEngine = marketEngine;
  const newSharesWorker = new NewSharesWorker({
    db,
    clock,
    notices,
    notify: notifyUser,
    logger: app.log,
    listProduct: listingEngine ? (productId) => listingEngine.listProduct(productId) : undefined,
    checkMs: config.NEW_SHARES_CHECK_MS,
    // A coin listed is a new wallet currency: forget the cached ones.
    currenciesChanged: () => settings.invalidate(),
  });
  app.addHook('onClose', async () => newSharesWorker.stop());
  // Copy trading (issue 25): the queue's worker, the daily settlement and the app's calls.
  const copyTradingDeps = {
    db,
    clock,
    settings,
    notices,
    notify: notifyUser,
    logger: app.log,
    contracts,
    market: marketEngine,
    identityRequired: (userId: number, feature: 'copyLeader') => identity.require(userId, feature),
  };
  const copyTrading = new CopyTrading(copyTradingDeps);
  const copyWorker = new CopyWorker({
    ...copyTradingDeps,
    hooks: copyHooks,
    checkMs: config.COPY_TRADE_CHECK_MS,
  });
  scheduler.register(new CopyTradeDailyJob(copyTradingDeps));
  app.addHook('onClose', async () => copyWorker.stop());
  app.decorate('services', {
    accounts,
    settings,
    assets,
    messages,
    market,
    marketEngine,
    wallet,
    fastTrades,
    triggers,
    contracts,
    spot,
    rewards,
    apiKeyCalls: apiKeys.calls,
    scheduler,
    newSharesWorker,
    copyWorker,
  });

  app.get('/healthz', { config: { rateLimit: false } }, async (_request, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ok', database: db.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: db.kind });
    }
  });

  const budgets = new RequestBudgets(app, {
    max: config.RATE_LIMIT_GLOBAL_PER_MINUTE,
    timeWindowMs: 60_000,
  });
  const router = new Router(app, accounts, budgets, config.API_CONTRACT_CHECK).useApiKeys(
    apiKeys.signedCalls,
  );
  accountRoutes(router, accounts, settings, config);
  twoFactorRoutes(router, twoFactor);
  securityRoutes(router, accounts);
  apiKeyRoutes(router, apiKeys.service);
  // Authored content (issue 21); its banners replace the default ones in site info once written.
  const content = new ContentService({
    db,
    clock,
    bannersChanged: () => settings.invalidate(),
  });
  settingsRoutes(router, settings, config, {
    codeRequired: (channel) => accounts.codeRequired(channel),
    banners: (lang) => content.banners(lang),
  });
  assetsRoutes(router, assets, messages);
  messageRoutes(router, messages);
  if (market) quotesRoutes(router, market);
  walletRoutes(router, wallet);
  identityRoutes(router, identity);
  contentRoutes(router, content);
  serviceRoutes(router, serviceDesk);
  rewardRoutes(router, rewards);
  earnRoutes(router, earn);
  loanRoutes(router, new Loans(loansDeps));
  newSharesRoutes(router, new NewShares({ db, clock, notify: notifyUser }));
  copyTradingRoutes(router, copyTrading);
  referralRoutes(router, new TeamService(db, clock));
  if (fastTrades) tradingRoutes(router, fastTrades);
  if (contracts) contractRoutes(router, contracts);
  if (spot) spotRoutes(router, spot);
  paymentMethodRoutes(router, { db, settings, clock, whitelist });
  profileRoutes(router, {
    accounts,
    avatars: new Avatars({ db, clock }),
    // Closes the demo book through the trading books (absent without a market feed).
    demoResets: new DemoResets({ db, clock, settings, contracts, spot, fastTrades }),
  });
  const liveEngine = marketEngine;
  const trading = new TradingSettingsAdmin({
    db,
    invalidateSettings: () => settings.invalidate(),
    // Without a market feed the change is stored and applies when the engine next loads.
    reloadProducts: liveEngine ? () => liveEngine.reloadProducts() : undefined,
  });
  const adminService = adminRoutes(router, {
    db,
    config,
    clock,
    wallet,
    trading,
    settings,
    users: accounts,
    userTwoFactor: twoFactor,
    dashboard: {
      market: marketEngine,
      clustered: Boolean(bus),
      // The hub is made below, after the routes.
      wsConnections: () => app.hub?.connectionCount ?? 0,
      instanceId: self.id,
      instances: bus ? () => bus.instances() : undefined,
      tradeCurrency: async () =>
        settings.currency((await settings.otherValue()).default_trade_currency_id),
    },
    instance: { ...self, startTime: self.startTime.toISOString() },
    instances: bus ? () => bus.instances() : undefined,
    wsConnections: () => app.hub?.connectionCount ?? 0,
    scheduler,
    events: consoleEvents,
    identity,
    logger: app.log,
  });
  serviceConsoleRoutes(router.useOperators(adminService), serviceDesk, (operator) =>
    adminService.auditWriter(operator),
  );
  contentConsoleRoutes(router.useOperators(adminService), content, (operator) =>
    adminService.auditWriter(operator),
  );
  messageConsoleRoutes(
    router.useOperators(adminService),
    new MessagesConsole(db, clock),
    (operator) => adminService.auditWriter(operator),
  );
  referralConsoleRoutes(
    router.useOperators(adminService),
    new ReferralConsole({ db, clock, notices }),
    (operator) => adminService.auditWriter(operator),
  );
  // Invitees' trading fees paid to their inviters, every few seconds, in every instance.
  const commissions = new CommissionWorker({
    db,
    clock,
    logger: app.log,
    intervalMs: config.REFERRAL_WORKER_MS,
  });
  app.addHook('onClose', async () => commissions.stop());
  rewardConsoleRoutes(
    router.useOperators(adminService),
    new RewardsConsole({ db, clock, settings }),
    (operator) => adminService.auditWriter(operator),
  );
  app.addHook('onClose', async () => rewards.stop());
  earnConsoleRoutes(
    router.useOperators(adminService),
    new EarnConsole({ db, clock, notices, notify: notifyUser }),
    (operator) => adminService.auditWriter(operator),
  );
  loanConsoleRoutes(router.useOperators(adminService), new LoansConsole(loansDeps), (operator) =>
    adminService.auditWriter(operator),
  );
  newSharesConsoleRoutes(
    router.useOperators(adminService),
    new NewSharesConsole({
      db,
      clock,
      settings,
      notices,
      notify: notifyUser,
      // Without a market feed nothing is listed on one: the code is not checked.
      feedKnows: listingEngine
        ? (productType, code) => listingEngine.feedKnows(productType, code)
        : undefined,
    }),
    (operator) => adminService.auditWriter(operator),
  );
  copyTradingConsoleRoutes(
    router.useOperators(adminService),
    new CopyTradingConsole({ db, clock, hooks: copyHooks, views: copyTrading, notices }),
    (operator) => adminService.auditWriter(operator),
  );
  // The Binance-compatible API: Binance's own dialect under its prefix, not the route table's.
  await app.register(binanceApi, {
    prefix: BINANCE_PREFIX,
    db,
    clock,
    calls: apiKeys.calls,
    budgets,
    settings,
    assets,
    requestsPerMinute: config.RATE_LIMIT_GLOBAL_PER_MINUTE,
    engine: marketEngine,
    quotes: market,
    spot,
  });
  // Before the server waits for its connections to close: the streams never would.
  app.addHook('preClose', async () => consoleEvents.close());
  if (bus)
    announceInstance(app, bus, () => ({
      id: self.id,
      host: self.host,
      pid: self.pid,
      startTime: self.startTime.toISOString(),
      feedLeader: marketEngine?.leader ?? false,
      wsConnections: app.hub?.connectionCount ?? 0,
    }));
  // After the last /api and /admin-api route: the reference lists them all.
  await registerApiDocs(app);

  // The real-time channel: no compression (it costs more CPU than it saves on small messages).
  await app.register(websocket, { options: { perMessageDeflate: false, maxPayload: 4096 } });
  const hub = new WsHub({
    logger: app.log,
    productExists: (productType, productCode) =>
      Boolean(marketEngine?.product(productType, productCode)),
    endedSessions: (ids) => accounts.endedSessions(ids),
    sessionCheckMs: config.WS_SESSION_CHECK_MS,
    authenticateVisitor: (token) => serviceDesk.visitorOf(token),
  });
  const authenticate = async (token: string) => {
    const session = await accounts.resolve(token);
    return { userId: session.userId, sessionId: session.id };
  };
  app.get('/ws', { websocket: true }, (socket) => hub.accept(socket, authenticate));
  marketEngine?.onTickEvent((event) => hub.onTick(event));
  await bus?.subscribeUserEvents((event) =>
    event.visitorId
      ? hub.publishToVisitor(event.visitorId, event.data)
      : hub.publishToUser(event.userId, event.topic, event.data),
  );
  await bus?.subscribeSessionsEnded((event) => hub.endSessions(event));
  app.addHook('onClose', async () => hub.close());
  // Last: the engine and the hub publish on the bus until they stop.
  if (bus) app.addHook('onClose', async () => bus.close());
  app.decorate('hub', hub);
  await registerWebApp(app, {
    webDir: config.webDir,
    adminDir: config.adminDir,
    apiLineUrls: config.apiLines.map((line) => line.url),
  });

  await app.ready();
  await marketEngine?.start();
  tickLog?.start();
  await fastTrades?.start();
  await triggers?.start();
  rewards.start();
  commissions.start();
  scheduler.start();
  newSharesWorker.start();
  copyWorker.start();
  return app;
}

/**
 * The configured feed: the simulated one is the engine's default; with `binance`, Binance prices
 * the crypto pairs (and gives their history) while the other products stay simulated.
 */
async function feedFor(
  config: Config,
  logger: FastifyBaseLogger,
  clock: Clock,
): Promise<
  | { provider: MarketEngineOptions['provider']; history: MarketEngineOptions['historySource'] }
  | undefined
> {
  if (config.MARKET_FEED !== 'binance') return undefined;
  const { BinanceFeed, binanceHistory } = await import('./market/providers/binance');
  const { CompositeFeed } = await import('./market/providers/composite');
  const { SimulatedFeed } = await import('./market/simulated');
  const isCrypto = (product: { productType: number }) => product.productType === 2;
  return {
    provider: ({ params, startPrices }) =>
      new CompositeFeed([
        {
          provider: new BinanceFeed({
            wsUrl: config.BINANCE_WS_URL,
            restUrl: config.BINANCE_REST_URL,
            logger,
          }),
          takes: isCrypto,
        },
        {
          provider: new SimulatedFeed({
            seed: config.MARKET_SEED,
            clock,
            params,
            startPrices,
            tickIntervalMs: config.MARKET_TICK_MS,
            spreadTicks: config.MARKET_TICK_SPREAD,
          }),
          takes: () => true,
        },
      ]),
    history: (products, now) =>
      binanceHistory(config.BINANCE_REST_URL, products.filter(isCrypto), now, { logger }),
  };
}

const INSTANCE_ANNOUNCE_MS = 10_000;

/**
 * With several instances, each announces itself every 10 s under a key that expires after three
 * missed announcements, and withdraws it when it closes: the console's system page lists them.
 */
function announceInstance(
  app: FastifyInstance,
  registry: InstanceRegistry,
  record: () => InstanceRecord,
): void {
  const announce = () =>
    void registry.announce(record(), 3 * INSTANCE_ANNOUNCE_MS).catch(() => undefined);
  announce();
  const timer = setInterval(announce, INSTANCE_ANNOUNCE_MS);
  timer.unref();
  // Before the bus closes (onClose).
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await registry.withdraw(record().id).catch(() => undefined);
  });
}
