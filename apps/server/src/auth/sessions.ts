/**
 * One session stack for users and operators, parameterised by kind (`KINDS`: the table, the
 * owners' table, what a session row carries, the expiry and idle rules, what bars an owner, the
 * keys its failed attempts are counted under). Both kinds work the same way:
 *
 * - sign-in: the password is checked under the attempt limiter (attempts.ts), a missing owner
 *   costing the same time and counting the same as a wrong password, so the lock-out reveals
 *   nothing; then the owner's state (`checkSignIn`);
 * - a session's token is 256 random bits, stored as its SHA-256 hash only (`open`);
 * - every call looks its session up with its owner in one prepared statement, shared by the calls
 *   read in the same turn of the event loop (nothing is cached between turns, so a sign-out or a
 *   disabled owner counts at once), and moves the expiry forward at most once a minute (`resolve`);
 * - sign-out ends one session; a password change or a disabled owner, all of them (`end`,
 *   `endAll`); `endedSessions` tells which of some sessions are no longer live (the /ws check).
 *
 * What follows a session's start or end (the operators' audit, the users' /ws sign-out) stays with
 * each kind's service. The tables are the migrations' (user_session, operator_session).
 */
import DataLoader from 'dataloader';
import { USER_STATUS } from '@bourse/shared';
import type { Config } from '../config';
import type { Database, Queryable } from '../db/database';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { newToken, sha256, spendPasswordCheck, verifyPassword } from '../lib/secrets';
import { AttemptLimiter } from './attempts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** A session's expiry is pushed forward at most once a minute. */
const SESSION_TOUCH_MS = MINUTE_MS;
/** An operator session ends after 8 hours without use, and 24 hours after sign-in at the latest. */
const OPERATOR_SESSION_IDLE_MS = 8 * HOUR_MS;
const OPERATOR_SESSION_MAX_MS = 24 * HOUR_MS;

/**
 * Whether an operator (`operator.id`) has two-factor on, as a select item `two_factor`: read with
 * the operator's row wherever one is (admin/repo.ts, and each operator call's session lookup).
 */
export const OPERATOR_TWO_FACTOR_ON = `EXISTS (SELECT 1 FROM operator_two_factor f
       WHERE f.operator_id = operator.id AND f.enabled_at IS NOT NULL) AS two_factor`;

/** The types that differ by kind: what a session carries, the owner's columns that can bar it. */
interface KindTypes {
  user: { carried: { account_type: 0 | 2 }; state: { status: number } };
  operator: { carried: Record<never, never>; state: { disabled: boolean } };
}
export type SessionKindName = keyof KindTypes;
type Carried<K extends SessionKindName> = KindTypes[K]['carried'];
type State<K extends SessionKindName> = KindTypes[K]['state'];

interface SessionKind<K extends SessionKindName> {
  /** The sessions' table. */
  table: string;
  /** The owners' table, and the sessions' column that names the owner. */
  owners: { table: string; column: string };
  /** Columns a session carries besides the common ones, read back as `session_<column>`. */
  carries: readonly (keyof Carried<K> & string)[];
  /** A session ends `idleMs` after its last use and, when set, `maxMs` after sign-in at the latest. */
  idleMs: number;
  maxMs?: number;
  /** What the lookup reads of the owner besides its row (`o`): SQL select items, fixed text. */
  ownerExtras?: string;
  /** The owner's columns that `disabled` reads (all that the /ws check reads of the owner). */
  state: readonly (keyof State<K> & string)[];
  /** Whether an operator barred the owner: no sign-in, every session refused. */
  disabled(owner: State<K>): boolean;
  /** What failed sign-ins (per identifier) and current-password checks (per owner) count under. */
  attemptKeys: { signIn: string; password: string };
}

/** What the kinds read of the configuration. */
export type SessionConfig = Pick<
  Config,
  'SESSION_TTL_HOURS' | 'LOGIN_MAX_FAILURES' | 'LOGIN_LOCK_MINUTES'
>;

const KINDS: { [K in SessionKindName]: (config: SessionConfig) => SessionKind<K> } = {
  // Valid SESSION_TTL_HOURS after the last use; each trades in one book (0 live, 2 demo).
  user: (config) => ({
    table: 'user_session',
    owners: { table: 'app_user', column: 'user_id' },
    carries: ['account_type'],
    idleMs: config.SESSION_TTL_HOURS * HOUR_MS,
    state: ['status'],
    disabled: (user) => user.status !== USER_STATUS.active,
    attemptKeys: { signIn: 'login:', password: 'pwd:' },
  }),
  operator: () => ({
    table: 'operator_session',
    owners: { table: 'operator', column: 'operator_id' },
    carries: [],
    // Whether the operator has two-factor on (the console guard reads it on every call).
    ownerExtras: OPERATOR_TWO_FACTOR_ON.replaceAll('operator.id', 'o.id'),
    idleMs: OPERATOR_SESSION_IDLE_MS,
    maxMs: OPERATOR_SESSION_MAX_MS,
    state: ['disabled'],
    disabled: (operator) => operator.disabled,
    attemptKeys: { signIn: 'operator-login:', password: 'operator-pwd:' },
  }),
};

/** An account that signs in: a user or an operator row. */
export interface SessionOwner {
  id: number;
  password_hash: string;
}

/** The columns every live session is read with, besides its owner's row and what it carries. */
export interface SessionColumns {
  token_hash: string;
  session_id: number;
  session_created_at: Date;
  expires_at: Date;
  last_seen_at: Date;
}

/** A live session as looked up: its owner's row, its columns, and what it carries. */
export type LiveSession<Owner, K extends SessionKindName> = Owner &
  SessionColumns & { [C in keyof Carried<K> & string as `session_${C}`]: Carried<K>[C] };

export interface SessionDeps {
  db: Database;
  clock: Clock;
  config: SessionConfig;
}

/** The sessions, sign-in and password checks of one kind, whose owners are `Owner` rows. */
export class SessionStore<K extends SessionKindName, Owner extends SessionOwner & State<K>> {
  private readonly db: Database;
  private readonly clock: Clock;
  private readonly kind: SessionKind<K>;
  /** Failed sign-ins and current-password checks: LOGIN_MAX_FAILURES per LOGIN_LOCK_MINUTES. */
  private readonly attempts: AttemptLimiter;
  private readonly sql: {
    insert: string;
    lookup: string;
    extend: string;
    end: string;
    endAll: string;
    states: string;
    lastLogin: string;
  };

  /**
   * Session lookups of the requests read in one turn of the event loop, made in one query: under
   * load most requests arrive together, and each round trip costs more than the lookup. Nothing
   * is cached; every request sees the session as the database has it.
   */
  private readonly live: DataLoader<string, LiveSession<Owner, K> | undefined>;

  constructor(deps: SessionDeps, kindName: K) {
    const kind = KINDS[kindName](deps.config);
    this.db = deps.db;
    this.clock = deps.clock;
    this.kind = kind;
    this.attempts = new AttemptLimiter(deps.db, deps.clock, {
      maxFailures: deps.config.LOGIN_MAX_FAILURES,
      lockMs: deps.config.LOGIN_LOCK_MINUTES * MINUTE_MS,
      lockedKey: 'hint_accountLocked',
    });
    const { table, owners, carries } = kind;
    const joined = `${table} s JOIN ${owners.table} o ON o.id = s.${owners.column}`;
    // $1 the token's hash, $2 the owner, $3… what the session carries, then the time (created and
    // last seen), the expiry, the ip and the user agent.
    const carried = carries.map((column, i) => ({ column, param: `$${i + 3}` }));
    const at = carries.length + 3;
    this.sql = {
      insert: `INSERT INTO ${table} (token_hash, ${owners.column}, ${carried.map((c) => `${c.column}, `).join('')}created_at, last_seen_at, expires_at, ip, user_agent)
     VALUES ($1, $2, ${carried.map((c) => `${c.param}, `).join('')}$${at}, $${at}, $${at + 1}, $${at + 2}, $${at + 3}) RETURNING id`,
      lookup: `SELECT s.token_hash, s.id AS session_id, s.created_at AS session_created_at, s.expires_at,
       s.last_seen_at, ${carries.map((column) => `s.${column} AS session_${column}, `).join('')}o.*${kind.ownerExtras ? `, ${kind.ownerExtras}` : ''}
     FROM ${joined}
     WHERE s.token_hash = ANY($1::text[]) AND s.revoked_at IS NULL`,
      extend: `UPDATE ${table} SET last_seen_at = $2, expires_at = $3 WHERE id = $1 AND revoked_at IS NULL`,
      end: `UPDATE ${table} SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`,
      endAll: `UPDATE ${table} SET revoked_at = $2 WHERE ${owners.column} = $1 AND revoked_at IS NULL RETURNING id`,
      states: `SELECT s.id, s.revoked_at, s.expires_at, ${kind.state.map((column) => `o.${column}`).join(', ')}
     FROM ${joined} WHERE s.id = ANY($1::bigint[])`,
      lastLogin: `UPDATE ${owners.table} SET last_login_at = $2 WHERE id = $1`,
    };
    this.live = new DataLoader(
      async (hashes) => {
        const { rows } = await this.db.query<LiveSession<Owner, K>>(this.sql.lookup, [hashes], {
          name: `find_live_${table}s`,
        });
        const byHash = new Map(rows.map((row) => [row.token_hash, row]));
        return hashes.map((hash) => byHash.get(hash));
      },
      { cache: false, batchScheduleFn: (run) => setImmediate(run), maxBatchSize: 200 },
    );
  }

  /** When a session opened at `createdAt` expires if used at `now`. */
  private expiresAt(createdAt: Date, now: Date): Date {
    const idle = now.getTime() + this.kind.idleMs;
    const max = this.kind.maxMs === undefined ? idle : createdAt.getTime() + this.kind.maxMs;
    return new Date(Math.min(idle, max));
  }

  /**
   * Checks a sign-in's password, counted per `identifier` (what was signed in with, whether or not
   * an owner has it), then the owner's state. The owner, or the refusal: `hint_loginFailed`,
   * `hint_accountLocked` (429), `hint_accountDisabled` (403).
   */
  async checkSignIn<O extends Owner>(
    identifier: string,
    owner: O | undefined,
    password: string,
  ): Promise<O> {
    await this.attempts.attempt(
      this.kind.attemptKeys.signIn + identifier,
      async () =>
        owner
          ? verifyPassword(owner.password_hash, password)
          : (await spendPasswordCheck(password), false),
      () => new AppError('hint_loginFailed', 422),
    );
    if (!owner) throw new AppError('hint_loginFailed', 422);
    if (this.kind.disabled(owner)) throw new AppError('hint_accountDisabled', 403);
    return owner;
  }

  /** Lifts the sign-in lock of an identifier (an operator's password was reset). */
  clearSignInLock(identifier: string): Promise<void> {
    return this.attempts.clear(this.kind.attemptKeys.signIn + identifier);
  }

  /**
   * Checks a signed-in owner's current password, counted per owner: a wrong one is
   * `hint_pwdWrong` on `field`, then `hint_accountLocked`.
   */
  async checkPassword(owner: Owner, password: string, field: string): Promise<void> {
    await this.attempts.attempt(
      this.kind.attemptKeys.password + owner.id,
      () => verifyPassword(owner.password_hash, password),
      () => new AppError('hint_pwdWrong', 422, [field]),
    );
  }

  /**
   * Opens a session for `owner` in the caller's transaction and records the sign-in as the
   * owner's last login. The token is answered once; only its hash is kept.
   */
  async open(
    tx: Queryable,
    owner: Owner,
    carried: Carried<K>,
    client: { ip: string; userAgent: string },
  ): Promise<{ token: string; sessionId: number; at: Date }> {
    const token = newToken();
    const at = this.clock.now();
    const { rows } = await tx.query<{ id: number }>(this.sql.insert, [
      sha256(token),
      owner.id,
      ...this.kind.carries.map((column) => carried[column]),
      at,
      this.expiresAt(at, at),
      client.ip,
      client.userAgent,
    ]);
    await tx.query(this.sql.lastLogin, [owner.id, at]);
    return { token, sessionId: rows[0]!.id, at };
  }

  /**
   * The live session of a token with its owner, its expiry moved forward (at most once a minute).
   * Refuses with a 401: no such session (`hint_unauthorized`), expired (`hint_sessionExpired`),
   * owner disabled (`hint_accountDisabled`).
   */
  async resolve(token: string): Promise<LiveSession<Owner, K>> {
    const row = await this.live.load(sha256(token));
    if (!row) throw new AppError('hint_unauthorized', 401);
    const now = this.clock.now();
    if (row.expires_at <= now) throw new AppError('hint_sessionExpired', 401);
    if (this.kind.disabled(row)) throw new AppError('hint_accountDisabled', 401);
    if (now.getTime() - row.last_seen_at.getTime() >= SESSION_TOUCH_MS) {
      await this.db.query(this.sql.extend, [
        row.session_id,
        now,
        this.expiresAt(row.session_created_at, now),
      ]);
    }
    return row;
  }

  /** Changes what a session carries (a user's session: the book it trades in). */
  async carry<C extends keyof Carried<K> & string>(
    q: Queryable,
    sessionId: number,
    column: C,
    value: Carried<K>[C],
  ): Promise<void> {
    if (!this.kind.carries.includes(column)) throw new Error(`${this.kind.table}: no ${column}`);
    await q.query(`UPDATE ${this.kind.table} SET ${column} = $2 WHERE id = $1`, [sessionId, value]);
  }

  /** Ends a session; false when it had already ended. */
  async end(q: Queryable, sessionId: number): Promise<boolean> {
    const { rowCount } = await q.query(this.sql.end, [sessionId, this.clock.now()]);
    return rowCount === 1;
  }

  /** Ends every live session of an owner; the ids of those it ended. */
  async endAll(q: Queryable, ownerId: number, at: Date = this.clock.now()): Promise<number[]> {
    const { rows } = await q.query<{ id: number }>(this.sql.endAll, [ownerId, at]);
    return rows.map((row) => row.id);
  }

  /**
   * Of these sessions, those no longer live, with the hint key their sockets are told: revoked,
   * expired or gone, `hint_sessionExpired`; the owner disabled, `hint_accountDisabled`.
   */
  async endedSessions(sessionIds: number[]): Promise<Map<number, string>> {
    const { rows } = await this.db.query<
      State<K> & { id: number; revoked_at: Date | null; expires_at: Date }
    >(this.sql.states, [sessionIds]);
    const now = this.clock.now();
    const ended = new Map<number, string>(sessionIds.map((id) => [id, 'hint_sessionExpired']));
    for (const row of rows) {
      if (this.kind.disabled(row)) ended.set(row.id, 'hint_accountDisabled');
      else if (row.revoked_at === null && row.expires_at > now) ended.delete(row.id);
    }
    return ended;
  }
}
