/**
 * What the server runs with, for the console's system page (admin): the configuration in force
 * with every secret hidden, the migrations applied, the version (and the git commit when the
 * checkout has one), this instance and the market feed's lease; and the platform accounts'
 * balances for the ledger page. With several instances (REDIS_URL) each announces itself through
 * Redis every 10 s (app.ts): the page lists those announced; alone, this instance.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalize, type PlatformBalance, type SystemInfo } from '@bourse/shared';
import type { Config, configSchema } from '../../config';
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import * as repo from './system-repo';

/**
 * Every setting of config.ts, shown or secret: a new setting does not compile until it is named
 * here. A secret's value never leaves the server (the page says only whether it is set): database
 * and Redis addresses carry passwords, the mail server's address its login.
 */
export const CONFIG_VISIBILITY: Record<keyof typeof configSchema.shape, 'shown' | 'secret'> = {
  NODE_ENV: 'shown',
  API_CONTRACT_CHECK: 'shown',
  HOST: 'shown',
  PORT: 'shown',
  PUBLIC_URL: 'shown',
  DATABASE_URL: 'secret',
  DATABASE_POOL_MAX: 'shown',
  DATA_DIR: 'shown',
  WEB_DIR: 'shown',
  ADMIN_DIR: 'shown',
  LOG_LEVEL: 'shown',
  CORS_ORIGINS: 'shown',
  TRUST_PROXY_HOPS: 'shown',
  SMTP_URL: 'secret',
  MAIL_FROM: 'shown',
  VERIFICATION_CODES: 'shown',
  SESSION_TTL_HOURS: 'shown',
  WS_SESSION_CHECK_MS: 'shown',
  REFERRAL_WORKER_MS: 'shown',
  SCHEDULER_UTC_TIME: 'shown',
  SCHEDULER_CHECK_MS: 'shown',
  NEW_SHARES_CHECK_MS: 'shown',
  COPY_TRADE_CHECK_MS: 'shown',
  LOGIN_MAX_FAILURES: 'shown',
  LOGIN_LOCK_MINUTES: 'shown',
  RATE_LIMIT_LOGIN_PER_MINUTE: 'shown',
  RATE_LIMIT_REGISTER_PER_MINUTE: 'shown',
  RATE_LIMIT_CODE_PER_MINUTE: 'shown',
  RATE_LIMIT_GLOBAL_PER_MINUTE: 'shown',
  SEED_DEMO_USER: 'shown',
  MARKET_FEED: 'shown',
  MARKET_SEED: 'shown',
  MARKET_TICK_MS: 'shown',
  MARKET_TICK_SPREAD: 'shown',
  BINANCE_WS_URL: 'shown',
  BINANCE_REST_URL: 'shown',
  TWO_FACTOR_KEY: 'secret',
  REDIS_URL: 'secret',
  MARKET_LEASE_MS: 'shown',
  REDIS_PREFIX: 'shown',
  WITHDRAW_TERMS_NOTICE_HOURS: 'shown',
  API_LINES: 'shown',
  CLOCK_OFFSET_FILE: 'shown',
};

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { version: SERVER_VERSION } = createRequire(import.meta.url)(
  path.join(SERVER_DIR, 'package.json'),
) as { version: string };

/** The commit of the checkout the server runs from, read from .git once; null without one. */
function gitCommit(): string | null {
  try {
    const gitDir = path.resolve(SERVER_DIR, '../../.git');
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
    if (!ref) return null;
    try {
      return readFileSync(path.join(gitDir, ref), 'utf8').trim();
    } catch {
      const packed = readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
      return (
        packed
          .split('\n')
          .find((line) => line.endsWith(` ${ref}`))
          ?.slice(0, 40) ?? null
      );
    }
  } catch {
    return null;
  }
}

function shownValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

/** The settings in force, in config.ts's order; a secret only says whether it is set. */
export function configEntries(config: Config): SystemInfo['config'] {
  return (Object.keys(CONFIG_VISIBILITY) as (keyof typeof CONFIG_VISIBILITY)[]).map((key) => {
    const value = shownValue(config[key]);
    const secret = CONFIG_VISIBILITY[key] === 'secret';
    return { key, value: secret ? null : value, secret, set: value !== null && value !== '' };
  });
}

/** An instance as it announces itself (market/cluster.ts InstanceRecord). */
interface AnnouncedInstance {
  id: string;
  host: string;
  pid: number;
  startTime: string;
  feedLeader: boolean;
  wsConnections: number;
}

export interface SystemInfoDeps {
  db: Database;
  config: Config;
  clock: Clock;
  /** Whether this instance runs the market feed now (alone, or holding the lease). */
  feedLeader?: () => boolean;
  /** This instance (its id is the one it holds the market lease under). */
  instance: { id: string; host: string; pid: number; startTime: string };
  /** The instances announced through Redis, when there are several. */
  instances?: () => Promise<AnnouncedInstance[]>;
  /** /ws connections open on this instance. */
  wsConnections: () => number;
  /** The daily scheduler: its jobs' days. */
  scheduler: {
    status(): Promise<SystemInfo['scheduler']['jobs']>;
    nextRunAt(): Date;
  };
}

export class SystemInfoService {
  private readonly commit = gitCommit();

  constructor(private readonly deps: SystemInfoDeps) {}

  async info(): Promise<SystemInfo> {
    const { db, config, clock } = this.deps;
    const [migrations, leases] = await Promise.all([repo.listMigrations(db), repo.listLeases(db)]);
    return {
      version: SERVER_VERSION,
      commit: this.commit,
      node: process.version,
      database: db.kind,
      clustered: Boolean(config.REDIS_URL),
      time: clock.now().toISOString(),
      config: configEntries(config),
      migrations: migrations.map((row) => ({
        version: row.version,
        name: row.name,
        appliedTime: row.applied_at.toISOString(),
      })),
      instances: await this.instances(),
      leases: leases.map((row) => ({
        name: row.name,
        holder: row.holder,
        expiresTime: row.expires_at.toISOString(),
        expired: row.expired,
      })),
      scheduler: {
        utcTime: config.SCHEDULER_UTC_TIME,
        nextRunTime: this.deps.scheduler.nextRunAt().toISOString(),
        jobs: await this.deps.scheduler.status(),
      },
    };
  }

  /** The instances announced (this one first), or this one alone. */
  private async instances(): Promise<SystemInfo['instances']> {
    const self = this.deps.instance;
    const here = {
      ...self,
      current: true,
      feedLeader: this.deps.feedLeader?.() ?? false,
      wsConnections: this.deps.wsConnections(),
    };
    const announced = (await this.deps.instances?.().catch(() => [])) ?? [];
    const others = announced
      .filter((record) => record.id !== self.id)
      .sort((a, b) => a.startTime.localeCompare(b.startTime))
      .map((record) => ({ ...record, current: false }));
    return [here, ...others];
  }

  async platformBalances(query: {
    book: 'live' | 'demo';
    pageNum: number;
    pageSize: number;
  }): Promise<{ rows: PlatformBalance[]; total: number }> {
    const { rows, total } = await repo.listPlatformBalances(this.deps.db, query.book, query);
    return {
      rows: rows.map((row) => ({
        book: row.book,
        kind: row.kind as PlatformBalance['kind'],
        currencyId: row.currency_id,
        currencyName: row.currency_name,
        balance: normalize(row.balance),
        shards: row.shards,
      })),
      total,
    };
  }
}
