/**
 * Every setting comes from the environment, parsed once at start. Invalid settings refuse to
 * start with a message naming the variable and what to fix.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The web app's build in this checkout (apps/web/dist). */
export const DEFAULT_WEB_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../web/dist',
);

/** The operator console's build in this checkout (apps/admin/dist), served at /admin/. */
export const DEFAULT_ADMIN_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../admin/dist',
);

const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = z.coerce.number().int().positive();

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * How answers are checked against the route table: `strip` leaves out fields a route does not
   * declare; `strict` (tests) fails the call instead, so the table cannot drift from the code.
   */
  API_CONTRACT_CHECK: z.enum(['strip', 'strict']).default('strip'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Public address printed at start and used in links. */
  PUBLIC_URL: z.url().optional(),
  /** PostgreSQL connection string. When unset the embedded PGlite database in DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_MAX: positiveInt.max(200).default(20),
  DATA_DIR: z.string().default('./data'),
  /** The built web app to serve (default: apps/web/dist of this checkout). */
  WEB_DIR: z.string().optional(),
  /** The built operator console to serve at /admin/ (default: apps/admin/dist of this checkout). */
  ADMIN_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Browser origins allowed to call the API from another origin (comma-separated). */
  CORS_ORIGINS: list.default([]),
  /** Trust X-Forwarded-For from this many proxies (0: use the socket address). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Outgoing mail, e.g. smtp://user:pass@mail.example.com:587. Unset: codes go to the log. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('Bourse <no-reply@bourse.local>'),
  /**
   * When a verification code is required to register: `auto` when the channel can really deliver
   * (email with SMTP_URL), `always` (codes in the log when nothing can deliver), or `never`.
   */
  VERIFICATION_CODES: z.enum(['auto', 'always', 'never']).default('auto'),
  SESSION_TTL_HOURS: positiveInt.max(24 * 30).default(24),
  // How often each instance asks which sessions of its signed-in WebSockets ended (expiry; an end
  // announced through Redis that was lost). Ends announced at once do not wait for it.
  WS_SESSION_CHECK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** How often each instance pays pending referral commissions (0: never, for tests that run it). */
  REFERRAL_WORKER_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** The UTC time of day ('HH:MM') at which each day's earn and loan work is due. */
  SCHEDULER_UTC_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a UTC time of day as HH:MM')
    .default('00:05'),
  /** How often each instance checks for due days of the scheduler (0: never, for tests that run it). */
  SCHEDULER_CHECK_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * How often each instance moves new-share offerings through their times, allocates and lists
   * what is due (0: never, for tests that run it).
   */
  NEW_SHARES_CHECK_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  /**
   * How often each instance looks for due copy-trading tasks (copies to open, close or change);
   * tasks queued in this instance wake it at once (0: only then, and when tests run it).
   */
  COPY_TRADE_CHECK_MS: z.coerce.number().int().min(0).max(3_600_000).default(200),
  /** Failed logins per account before it is locked, and for how long. */
  LOGIN_MAX_FAILURES: positiveInt.max(100).default(5),
  LOGIN_LOCK_MINUTES: positiveInt.max(24 * 60).default(15),
  /** Requests per minute per client address on login, registration and code sending. */
  RATE_LIMIT_LOGIN_PER_MINUTE: positiveInt.default(20),
  RATE_LIMIT_REGISTER_PER_MINUTE: positiveInt.default(10),
  RATE_LIMIT_CODE_PER_MINUTE: positiveInt.default(5),
  /** Requests per minute per client address on every other call. */
  RATE_LIMIT_GLOBAL_PER_MINUTE: positiveInt.default(1200),
  /** Create the demo login printed at start (defaults to on with the embedded database). */
  SEED_DEMO_USER: boolean.optional(),
  /** Where prices come from: the embedded `simulated` feed, real crypto from `binance`, or `off`. */
  MARKET_FEED: z.enum(['simulated', 'binance', 'off']).default('simulated'),
  /** Seed of the simulated feed: the same seed gives the same prices. */
  MARKET_SEED: z.string().min(1).max(64).default('bourse'),
  /** Milliseconds between simulated ticks. */
  MARKET_TICK_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** Spread the products' ticks over each interval, as a real market does (tests tick all at once). */
  MARKET_TICK_SPREAD: boolean.default(true),
  BINANCE_WS_URL: z.url().default('wss://stream.binance.com:9443'),
  BINANCE_REST_URL: z.url().default('https://api.binance.com'),
  /**
   * The key that seals users' two-factor secrets in the database (AES-256-GCM): 32 bytes as 64 hex
   * characters or base64. When unset, one is made once and kept in DATA_DIR/two-factor.key; every
   * instance sharing one database must then be given the same key here.
   */
  TWO_FACTOR_KEY: z
    .string()
    .refine(
      (value) => /^[0-9a-fA-F]{64}$/.test(value) || Buffer.from(value, 'base64').length === 32,
      '32 bytes as 64 hex characters or base64 (openssl rand -hex 32)',
    )
    .optional(),
  /** Redis shared by several instances: ticks reach clients of every instance (e.g. redis://host:6379). */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** How long the market-feed lease of a clustered instance lasts without renewal (milliseconds). */
  MARKET_LEASE_MS: z.coerce.number().int().min(300).max(600_000).default(15_000),
  /** Prefix of this deployment's Redis channels (several deployments may share one Redis). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - only')
    .default('bourse'),
  /**
   * Hours between announcing a withdrawal-terms change that makes withdrawing harder and its taking
   * effect (PRODUCT section 1.9). Changes that make withdrawing easier apply at once.
   */
  WITHDRAW_TERMS_NOTICE_HOURS: positiveInt.max(24 * 365).default(72),
  /** API lines offered on the line-selection page: `Name|https://host,Name 2|https://host2`. */
  API_LINES: list.default([]),
  /**
   * Testing only: a file holding a whole number of milliseconds added to the server's clock (browser
   * tests move time by writing it). Refused when NODE_ENV is production.
   */
  CLOCK_OFFSET_FILE: z.string().max(4096).optional(),
});

export type Config = z.infer<typeof configSchema> & {
  dataDir: string;
  webDir: string;
  adminDir: string;
  seedDemoUser: boolean;
  apiLines: { name: string; url: string }[];
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(configSchema.shape).flatMap((key) =>
      env[key] === undefined || env[key] === '' ? [] : [[key, env[key]]],
    ),
  );
  const parsed = configSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) =>
        `  ${issue.path.join('.')}: ${issue.message} (got ${JSON.stringify(relevant[String(issue.path[0])])})`,
    );
    throw new ConfigError(
      `Invalid configuration, please fix these environment variables:\n${lines.join('\n')}`,
    );
  }
  const config = parsed.data;
  if (config.CLOCK_OFFSET_FILE && config.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration: CLOCK_OFFSET_FILE moves the server clock for tests and is refused when NODE_ENV=production; unset it',
    );
  }
  const apiLines = config.API_LINES.map((entry, index) => {
    const [name, url] = entry.includes('|') ? entry.split('|', 2) : [`Line ${index + 1}`, entry];
    if (!url || !/^https?:\/\/[^\s]+$/.test(url.trim())) {
      throw new ConfigError(
        `Invalid configuration: API_LINES entry ${JSON.stringify(entry)} needs the form Name|https://host`,
      );
    }
    return { name: (name ?? '').trim(), url: url.trim().replace(/\/$/, '') };
  });
  return {
    ...config,
    // Relative to where `npm start` was typed (npm runs the workspace script in apps/server).
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), config.DATA_DIR),
    webDir: config.WEB_DIR
      ? path.resolve(env.INIT_CWD ?? process.cwd(), config.WEB_DIR)
      : DEFAULT_WEB_DIR,
    adminDir: config.ADMIN_DIR
      ? path.resolve(env.INIT_CWD ?? process.cwd(), config.ADMIN_DIR)
      : DEFAULT_ADMIN_DIR,
    seedDemoUser: config.SEED_DEMO_USER ?? !config.DATABASE_URL,
    CLOCK_OFFSET_FILE: config.CLOCK_OFFSET_FILE
      ? path.resolve(env.INIT_CWD ?? process.cwd(), config.CLOCK_OFFSET_FILE)
      : undefined,
    apiLines,
  };
}
