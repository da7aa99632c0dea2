/**
 * A user's API keys (issue 20): creating one (its secret answered once), changing its label or
 * allow-list, revoking it, listing them and their usage.
 *
 * - Creating and changing a key ask a two-factor code once two-factor is on (refused before any
 *   other check when missing, then checked, counted towards its lock), as other security changes
 *   do; creating, changing and revoking each email the user a notice carrying their anti-phishing
 *   code, so a key made by someone else does not go unseen.
 * - At most API_KEY.maxLiveKeys keys neither revoked nor expired per user, counted under the
 *   user's lock, so two creations at once cannot pass the limit together.
 * - A key acts in the book of the session that created it: a demo key touches the demo book only.
 * - Revoking is effective at once on every instance: each call looks its key up (calls.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  API_KEY,
  type ApiKeyCreateBody,
  type ApiKeyCreated,
  type ApiKeyUpdateBody,
  type ApiKeyUsageQuery,
  type ApiKeyUse,
  type ApiKeyView,
  type LanguageKey,
  type PageQuery,
} from '@bourse/shared';
import type { Database } from '../../db/database';
import { mapRows } from '../../db/page';
import { withUserLock } from '../../db/user-lock';
import type { Actor } from '../../http/actor';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { CodeSender } from '../account';
import { notices, type NoticeWriter } from '../messages';
import type { SecretSealer, TwoFactorService } from '../two-factor';
import { sealedFor } from './calls';
import * as repo from './repo';
import type { ApiKeyRow } from './repo';
import { randomAlphanumeric } from './signing';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ApiKeyServiceDeps {
  db: Database;
  clock: Clock;
  sealer: SecretSealer;
  twoFactor: Pick<TwoFactorService, 'refuseMissingCode' | 'requireCode'>;
  codes: CodeSender;
  logger: FastifyBaseLogger;
  /** Notifications of the user's own events (a key created). */
  notices?: NoticeWriter;
}

/** The notices a change of keys sends: their subject and body keys. */
const NOTICES = {
  created: ['email_apiKeyCreatedSubject', 'email_apiKeyCreatedBody'],
  changed: ['email_apiKeyChangedSubject', 'email_apiKeyChangedBody'],
  revoked: ['email_apiKeyRevokedSubject', 'email_apiKeyRevokedBody'],
} as const;

export class ApiKeyService {
  constructor(private readonly deps: ApiKeyServiceDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  private view(row: ApiKeyRow): ApiKeyView {
    const now = this.now();
    return {
      id: row.id,
      label: row.label,
      apiKey: row.api_key,
      permissions: row.permissions,
      ipList: row.ip_list,
      accountType: row.account_type,
      status: row.revoked_at
        ? 'revoked'
        : row.expires_at && row.expires_at <= now
          ? 'expired'
          : 'active',
      expireTime: row.expires_at?.toISOString() ?? null,
      createTime: row.created_at.toISOString(),
      updateTime: row.updated_at.toISOString(),
      lastUsedTime: row.last_used_at?.toISOString() ?? null,
      revokeTime: row.revoked_at?.toISOString() ?? null,
    };
  }

  async list(userId: number, page: PageQuery) {
    return mapRows(await repo.listKeys(this.deps.db, userId, page), (row) => this.view(row));
  }

  /**
   * Creates a key acting in the actor's book; answers its secret, the only time it leaves the
   * server (only its sealed form is kept).
   */
  async create(actor: Actor, body: ApiKeyCreateBody, lang: LanguageKey): Promise<ApiKeyCreated> {
    const { userId } = actor;
    await this.deps.twoFactor.refuseMissingCode(userId, body.twoFactorCode);
    const now = this.now();
    // Refused before the code is spent when the limit is reached already (checked again below).
    if ((await repo.countLiveKeys(this.deps.db, userId, now)) >= API_KEY.maxLiveKeys)
      throw new AppError('hint_apiKeyLimit', 422, [API_KEY.maxLiveKeys]);
    await this.deps.twoFactor.requireCode(userId, body.twoFactorCode);
    const apiKey = randomAlphanumeric(API_KEY.keyLength);
    const secret = randomAlphanumeric(API_KEY.secretLength);
    const secretSealed = await this.deps.sealer.seal(secret, sealedFor(userId, apiKey));
    const told = [notices.security(userId, 'apiKeyCreated', now, [body.label])];
    const row = await this.deps.db.transaction(async (tx) => {
      await withUserLock(tx, userId);
      if ((await repo.countLiveKeys(tx, userId, now)) >= API_KEY.maxLiveKeys)
        throw new AppError('hint_apiKeyLimit', 422, [API_KEY.maxLiveKeys]);
      await this.deps.notices?.record(tx, told);
      return repo.insertKey(tx, {
        userId,
        apiKey,
        secretSealed,
        label: body.label,
        permissions: body.permissions,
        ipList: body.ipList,
        accountType: actor.book === 'demo' ? 2 : 0,
        expiresAt:
          body.expireDays === undefined ? null : new Date(now.getTime() + body.expireDays * DAY_MS),
        at: now,
      });
    });
    this.deps.notices?.push(told);
    await this.notify(userId, 'created', row, lang);
    return { ...this.view(row), secret };
  }

  /** Changes a key's label or allow-list (a revoked key is not changed: `hint_apiKeyRevoked`). */
  async update(userId: number, body: ApiKeyUpdateBody, lang: LanguageKey): Promise<ApiKeyView> {
    if (body.label === undefined && body.ipList === undefined)
      throw new AppError('hint_paramRequired', 400, ['label']);
    await this.deps.twoFactor.refuseMissingCode(userId, body.twoFactorCode);
    const found = await repo.findKeyOf(this.deps.db, userId, body.id);
    if (!found) throw new AppError('hint_notFound', 404, ['id']);
    if (found.revoked_at) throw new AppError('hint_apiKeyRevoked', 422);
    await this.deps.twoFactor.requireCode(userId, body.twoFactorCode);
    const row = await this.deps.db.transaction(async (tx) => {
      // Revoked meanwhile: a revocation is never undone by a change.
      const key = await repo.findKeyOf(tx, userId, body.id, true);
      if (!key || key.revoked_at) throw new AppError('hint_apiKeyRevoked', 422);
      return repo.updateKey(tx, body.id, {
        label: body.label ?? null,
        ipList: body.ipList ?? null,
        at: this.now(),
      });
    });
    await this.notify(userId, 'changed', row, lang);
    return this.view(row);
  }

  /** Revokes a key at once; `already` when it was revoked before (nothing changed). */
  async revoke(
    userId: number,
    id: number,
    lang: LanguageKey,
  ): Promise<{ key: ApiKeyView; already: boolean }> {
    const found = await repo.findKeyOf(this.deps.db, userId, id);
    if (!found) throw new AppError('hint_notFound', 404, ['id']);
    const revoked = await repo.revokeKey(this.deps.db, id, this.now());
    if (!revoked) {
      const again = await repo.findKeyOf(this.deps.db, userId, id);
      return { key: this.view(again ?? found), already: true };
    }
    await this.notify(userId, 'revoked', revoked, lang);
    return { key: this.view(revoked), already: false };
  }

  /** The calls made with the user's keys in the last API_KEY.usageKeepDays days, newest first. */
  async usage(userId: number, query: ApiKeyUsageQuery) {
    const since = new Date(this.now().getTime() - API_KEY.usageKeepDays * DAY_MS);
    return mapRows(
      await repo.keyUses(this.deps.db, userId, since, query.keyId, query),
      (row): ApiKeyUse => ({
        id: row.id,
        keyId: row.api_key_id,
        label: row.label,
        time: row.created_at.toISOString(),
        method: row.method,
        path: row.path,
        ip: row.ip,
        status: row.status,
        msg: row.msg,
      }),
    );
  }

  /**
   * Emails the user (when the account has an address) that a key was created, changed or
   * revoked, with their anti-phishing code. The change stands either way: a failed notice is
   * logged, not refused.
   */
  private async notify(
    userId: number,
    change: keyof typeof NOTICES,
    key: ApiKeyRow,
    lang: LanguageKey,
  ): Promise<void> {
    try {
      const target = await repo.noticeTarget(this.deps.db, userId);
      if (!target?.email) return;
      const [subjectKey, bodyKey] = NOTICES[change];
      await this.deps.codes.notify({
        target: target.email,
        lang,
        subjectKey,
        bodyKey,
        params: [key.label, key.permissions.join(', '), key.api_key.slice(0, 8)],
        antiPhishingCode: target.anti_phishing_code ?? undefined,
      });
    } catch (error) {
      this.deps.logger.error({ err: error }, 'API key notice could not be sent');
    }
  }
}
