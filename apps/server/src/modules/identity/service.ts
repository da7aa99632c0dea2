/**
 * Identity verification in two levels (PRODUCT: identity; issue 19): a user asks for the basic
 * level (real name and document) and, once it is approved, the advanced one (the same name, and
 * the document's front, back and a photo holding it, each decoded and re-encoded before it is
 * stored). An operator of the support role approves or rejects each request through the shared
 * review flow (one decision, audited; the console's queue hears it at once). The user's
 * `authStatus` and `authLevel` follow every decision. Which features need which level is set in
 * the console and read by users before they try; `require` refuses a feature below its level.
 */
import {
  AUTH_LEVEL,
  AUTH_RECORD_STATUS,
  IDENTITY_FEATURES,
  type AuthApplyBody,
  type AuthRecord,
  type IdentityFeature,
  type IdentityListQuery,
  type IdentityRequirements,
  type ReviewedAuthRecord,
} from '@bourse/shared';
import type { Database, Queryable } from '../../db/database';
import type { Actor } from '../../http/actor';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import {
  parseProofImage,
  ReviewFlow,
  type AuditWriter,
  type OwnerView,
  type ReviewActor,
} from '../wallet';
import { notices, type NoticeWriter } from '../messages';
import {
  AUTH_TABLE,
  findDocument,
  findRequirement,
  insertDocument,
  latestRecord,
  listRequirements,
  openRecordForUpdate,
  refreshUserAuth,
  saveRequirement,
  userAuthLevel,
  type AuthRecordRow,
} from './repo';

export interface IdentityDeps {
  db: Database;
  clock: Clock;
  /** After a commit that added a request or decided one (the console's queue `identity`). */
  queueChanged?: (queue: string, id: number) => void;
  /** Notifications of the user's own events (a request decided). */
  notices?: NoticeWriter;
}

/** A decided request's notification to its owner. */
function decided(row: AuthRecordRow, approved: boolean) {
  return notices.identity(
    { userId: row.user_id, id: row.id, level: row.auth_level, reason: row.reject_reason },
    approved,
  );
}

const SIDES = { front: 'frontImage', back: 'backImage', hold: 'holdImage' } as const;

/** A document number shown to its owner: its first and last two characters, stars between. */
export function maskIdNumber(value: string): string {
  if (value.length <= 4) return '*'.repeat(value.length);
  return `${value.slice(0, 2)}${'*'.repeat(value.length - 4)}${value.slice(-2)}`;
}

/** Names compared as people type them: case, spaces and width aside. */
function sameName(a: string, b: string): boolean {
  const plain = (value: string) =>
    value.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
  return plain(a) === plain(b);
}

function toReviewed(row: AuthRecordRow): ReviewedAuthRecord {
  return {
    id: row.id,
    orderNo: row.order_no,
    authLevel: row.auth_level,
    status: row.status,
    realName: row.real_name,
    idType: row.id_type,
    idNumber: row.id_number,
    phone: row.phone,
    rejectReason: row.reject_reason,
    documents: row.documents as ReviewedAuthRecord['documents'],
    createTime: row.created_at.toISOString(),
    reviewTime: row.reviewed_at ? row.reviewed_at.toISOString() : null,
    userId: row.user_id,
    userAccount: row.user_account,
  };
}

/** The owner's view: the document number masked. */
function toOwner(record: OwnerView<ReviewedAuthRecord>): AuthRecord {
  return { ...record, idNumber: maskIdNumber(record.idNumber) };
}

const noRecord = (authLevel: number): AuthRecord => ({
  id: null,
  orderNo: null,
  authLevel,
  status: AUTH_RECORD_STATUS.none,
  realName: null,
  idType: null,
  idNumber: null,
  phone: null,
  rejectReason: null,
  documents: [],
  createTime: null,
  reviewTime: null,
});

export class IdentityService {
  readonly review: ReviewFlow<AuthRecordRow, ReviewedAuthRecord, 'approve' | 'reject'>;

  constructor(private readonly deps: IdentityDeps) {
    this.review = new ReviewFlow({
      db: deps.db,
      clock: deps.clock,
      changed: (id) => deps.queueChanged?.('identity', id),
      table: AUTH_TABLE,
      orderPrefix: 'K',
      reviewing: AUTH_RECORD_STATUS.reviewing,
      targetType: 'identity',
      notFoundKey: 'hint_authNotFound',
      closedKey: 'hint_reviewClosed',
      view: async () => toReviewed,
      decisions: {
        approve: {
          status: AUTH_RECORD_STATUS.approved,
          by: 'operator',
          action: 'identity.approve',
          written: async (tx, row) => {
            await refreshUserAuth(tx, row.user_id);
            await deps.notices?.record(tx, [decided(row, true)]);
          },
          after: (row) => deps.notices?.push([decided(row, true)]),
        },
        reject: {
          status: AUTH_RECORD_STATUS.rejected,
          by: 'operator',
          action: 'identity.reject',
          written: async (tx, row) => {
            await refreshUserAuth(tx, row.user_id);
            await deps.notices?.record(tx, [decided(row, false)]);
          },
          after: (row) => deps.notices?.push([decided(row, false)]),
        },
      },
    });
  }

  // ------------------------------------------------------------ the user's side

  /** The user's latest request of a level (status −1 when none). */
  async detail(userId: number, level: number): Promise<AuthRecord> {
    const row = await latestRecord(this.deps.db, userId, level);
    if (!row) return noRecord(level);
    const { userId: _, userAccount: __, ...owner } = toReviewed(row);
    return toOwner(owner);
  }

  /**
   * A request for a level, left for review. Refused while one of that level is under review or
   * once it is approved; the advanced level needs the basic one approved, under the same name.
   */
  async apply(actor: Actor, body: AuthApplyBody): Promise<AuthRecord> {
    const fields = {
      authLevel: body.authLevel,
      realName: body.realName,
      idType: body.idType,
      idNumber: body.idNumber,
      phone: body.phone ?? null,
      images: Object.values(SIDES).map((field) => (body[field] ? body[field].length : 0)),
    };
    const { key, earlier } = await this.review.requested(actor.userId, body.requestId, fields);
    if (earlier) return toOwner(earlier);
    const advanced = body.authLevel === AUTH_LEVEL.advanced;
    // Decoded and re-encoded before the transaction: nothing is stored unless every image is sound.
    const images = advanced
      ? await Promise.all(
          Object.entries(SIDES).map(async ([side, field]) => ({
            side,
            image: await parseProofImage(body[field]!, 'hint_imageFormat', field),
          })),
        )
      : [];
    const now = this.deps.clock.now();
    const record = await this.review.submit(key, now, async (tx, request) => {
      const open = await openRecordForUpdate(tx, actor.userId, body.authLevel);
      if (open?.status === AUTH_RECORD_STATUS.reviewing)
        throw new AppError('hint_authUnderReview', 409);
      if (open?.status === AUTH_RECORD_STATUS.approved)
        throw new AppError('hint_authApproved', 409);
      if (advanced) {
        const basic = await openRecordForUpdate(tx, actor.userId, AUTH_LEVEL.basic);
        if (basic?.status !== AUTH_RECORD_STATUS.approved)
          throw new AppError('hint_authBasicFirst', 422);
        if (!sameName(basic.real_name, body.realName))
          throw new AppError('hint_authNameMismatch', 422, ['realName']);
      }
      await request.insert({
        auth_level: body.authLevel,
        real_name: body.realName.trim(),
        id_type: body.idType,
        id_number: body.idNumber,
        phone: body.phone ?? null,
      });
      for (const { side, image } of images) await insertDocument(tx, request.id, side, image);
      await refreshUserAuth(tx, actor.userId);
    });
    return toOwner(record);
  }

  /** A document image of the user's own request (null: not theirs, or none). */
  async ownDocument(userId: number, id: number, side: string) {
    const row = await findDocument(this.deps.db, id, side);
    return row && row.user_id === userId ? row : null;
  }

  /** Which features need which level, and whether the user meets each. */
  async requirements(userId: number): Promise<IdentityRequirements> {
    const [rows, user] = await Promise.all([
      listRequirements(this.deps.db),
      userAuthLevel(this.deps.db, userId),
    ]);
    const authLevel = user?.auth_level ?? -1;
    return {
      authLevel,
      requirements: rows.map((row) => ({
        feature: row.feature,
        minLevel: row.min_level,
        met: authLevel >= row.min_level,
      })),
    };
  }

  /** Refuses a feature to a user below the level it needs (`hint_identityRequired`). */
  async require(userId: number, feature: IdentityFeature, q: Queryable = this.deps.db) {
    const [requirement, user] = await Promise.all([
      listRequirements(q).then((rows) => rows.find((row) => row.feature === feature)),
      userAuthLevel(q, userId),
    ]);
    const needed = requirement?.min_level ?? -1;
    if ((user?.auth_level ?? -1) < needed)
      throw new AppError('hint_identityRequired', 403, [needed + 1], 500);
  }

  // ------------------------------------------------------------ the console's side

  list(query: IdentityListQuery) {
    return this.review.list(query);
  }

  /** A document image for an operator; the view is audited in the same transaction. */
  async documentForOperator(id: number, side: string, audit: AuditWriter) {
    return this.deps.db.transaction(async (tx) => {
      const row = await findDocument(tx, id, side);
      if (!row) return null;
      await audit(tx, {
        action: 'identity.viewDocument',
        targetType: 'identity',
        targetId: String(id),
        before: null,
        after: { side },
      });
      return row;
    });
  }

  async decide(
    decision: 'approve' | 'reject',
    id: number,
    actor: ReviewActor,
    audit: AuditWriter,
    reason?: string,
  ) {
    return this.review.decide(decision, id, actor, audit, reason ?? null);
  }

  async listRequirements() {
    const rows = await listRequirements(this.deps.db);
    return IDENTITY_FEATURES.map((feature) => ({
      feature,
      minLevel: rows.find((row) => row.feature === feature)?.min_level ?? -1,
    }));
  }

  async saveRequirement(feature: IdentityFeature, minLevel: number, audit: AuditWriter) {
    return this.deps.db.transaction(async (tx) => {
      const before = await findRequirement(tx, feature);
      await saveRequirement(tx, feature, minLevel);
      await audit(tx, {
        action: 'identity.requirement',
        targetType: 'identityRequirement',
        targetId: feature,
        before: before ? { minLevel: before.min_level } : null,
        after: { minLevel },
      });
      return { feature, minLevel };
    });
  }
}
