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
import formBody from '@fastify/formbody';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { Config } from './config';
import type { Database } from './db/database';
import { registerErrorHandling } from './http/errors';
import { registerSecurityHeaders } from './http/security-headers';
import { registerWebApp } from './http/web-app';
import { Router } from './http/router';
import { AppError } from './lib/errors';
import { systemClock, type Clock } from './lib/clock';
import { accountRoutes } from './modules/account/routes';
import { AccountService } from './modules/account/service';
import { createCodeSender, type CodeSender } from './modules/account/code-sender';
import { assetsRoutes } from './modules/assets/routes';
import { AssetsService } from './modules/assets/service';
import { identityRates, type RateSource } from './modules/assets/rates';
import { messageRoutes } from './modules/messages/routes';
import { MessageService } from './modules/messages/service';
import { settingsRoutes } from './modules/settings/routes';
import { SettingsService } from './modules/settings/service';

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
}

export interface Services {
  accounts: AccountService;
  settings: SettingsService;
  assets: AssetsService;
  messages: MessageService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  // Nothing logs request headers or bodies (the access log has method, path, status and time),
  // so tokens and passwords never reach the log and no redaction pass is needed.
  return { level: config.LOG_LEVEL };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const clock = options.clock ?? systemClock;
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
  registerSecurityHeaders(app);

  if (config.CORS_ORIGINS.length > 0) {
    await app.register(cors, {
      origin: config.CORS_ORIGINS,
      methods: ['GET', 'POST'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', 'LanguageId'],
      maxAge: 600,
    });
  }
  // Limits are set per route (see Router): sign-in, registration and code sending carry their
  // own, other calls the general one; launch data answered from memory is not counted.
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
  const accounts = new AccountService({ db, config, clock, settings, codes, logger: app.log });
  const messages = new MessageService(db);
  const assets = new AssetsService(db, settings, options.rates ?? identityRates);
  app.decorate('services', { accounts, settings, assets, messages });

  app.get('/healthz', { config: { rateLimit: false } }, async (_request, reply) => {
    try {
      await db.query('SELECT 1');
      return { status: 'ok', database: db.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: db.kind });
    }
  });

  const router = new Router(app, accounts, {
    max: config.RATE_LIMIT_GLOBAL_PER_MINUTE,
    timeWindowMs: 60_000,
  });
  accountRoutes(router, accounts, settings, config);
  settingsRoutes(router, settings, config, {
    codeRequired: (channel) => accounts.codeRequired(channel),
  });
  assetsRoutes(router, assets, messages);
  messageRoutes(router, messages);
  await registerWebApp(app, {
    webDir: config.webDir,
    apiLineUrls: config.apiLines.map((line) => line.url),
  });

  await app.ready();
  return app;
}
