/**
 * The console's settings beyond the trading settings of service.ts: currencies, switches and
 * `otherValue` (the settings module's SettingsAdmin, audited as the operator), the API lines (the
 * environment's, read-only), and the preview of a withdrawal channel's save.
 *
 * The preview runs the wallet's own save (the rules of PRODUCT section 1.9, planTermsSave) in a
 * transaction that is always rolled back: its audit entry, written last inside the transaction,
 * holds the channel before and after with the changes still to come, and is read instead of
 * being kept. So the console shows exactly what the save would do, from the code that will do it.
 */
import {
  normalize,
  WITHDRAW_TERMS,
  type ApiLinesConfig,
  type CurrencySaveBody,
  type LayoutSaveBody,
  type OtherValueSaveBody,
  type WithdrawChannelPreview,
  type WithdrawTerm,
} from '@bourse/shared';
import type { Config } from '../../config';
import type { SettingsAdmin } from '../settings';
import { TERM_COLUMN, type WalletReview, type WithdrawChannelInput } from '../wallet';
import type { AdminService, OperatorContext } from './service';

/** Thrown inside the preview's transaction, after its audit entry: rolls everything back. */
class PreviewOnly extends Error {
  constructor(
    readonly before: unknown,
    readonly after: unknown,
  ) {
    super('preview: rolled back');
  }
}

interface PendingChange {
  term: WithdrawTerm;
  oldValue: string;
  newValue: string;
  effectiveTime: string;
}

type ChannelState = Record<string, unknown> & { pendingChanges?: PendingChange[] };

const sameChange = (a: PendingChange, b: PendingChange) =>
  a.term === b.term && a.newValue === b.newValue && a.effectiveTime === b.effectiveTime;

/** A pending change as the preview lists it: its own fields only. */
const changeOf = ({ term, oldValue, newValue, effectiveTime }: PendingChange) => ({
  term,
  oldValue,
  newValue,
  effectiveTime,
});

/** What a save changes, from the channel before and after it (the preview's audit entry). */
export function describeSave(
  before: ChannelState | null,
  after: ChannelState,
  noticeHours: number,
): WithdrawChannelPreview {
  const pendingBefore = before?.pendingChanges ?? [];
  const pendingAfter = after.pendingChanges ?? [];
  const value = (state: ChannelState | null, term: WithdrawTerm) =>
    state === null ? '' : normalize(String(state[TERM_COLUMN[term]] ?? '0'));
  return {
    noticeHours,
    atOnce: WITHDRAW_TERMS.filter(
      (term) => before === null || value(before, term) !== value(after, term),
    ).map((term) => ({ term, oldValue: value(before, term), newValue: value(after, term) })),
    later: pendingAfter
      .filter((change) => !pendingBefore.some((old) => sameChange(old, change)))
      .map(changeOf),
    withdrawn: pendingBefore
      .filter((change) => !pendingAfter.some((kept) => sameChange(kept, change)))
      .map(changeOf),
  };
}

export class AdminSettings {
  constructor(
    private readonly deps: {
      admin: AdminService;
      settings: SettingsAdmin;
      wallet: WalletReview;
      config: Config;
    },
  ) {}

  private audit(operator: OperatorContext) {
    return this.deps.admin.auditWriter(operator);
  }

  listCurrencies(pageNum: number, pageSize: number) {
    return this.deps.settings.listCurrencies(pageNum, pageSize);
  }

  saveCurrency(operator: OperatorContext, input: CurrencySaveBody) {
    return this.deps.settings.saveCurrency(input, this.audit(operator));
  }

  listSwitches() {
    return this.deps.settings.listSwitches();
  }

  saveSwitch(operator: OperatorContext, input: { switchName: string; status: number }) {
    return this.deps.settings.saveSwitch(input, this.audit(operator));
  }

  otherValue() {
    return this.deps.settings.otherValue();
  }

  saveOtherValue(operator: OperatorContext, input: OtherValueSaveBody) {
    return this.deps.settings.saveOtherValue(input, this.audit(operator));
  }

  layout() {
    return this.deps.settings.layout();
  }

  saveLayout(operator: OperatorContext, input: LayoutSaveBody) {
    return this.deps.settings.saveLayout(input, this.audit(operator));
  }

  apiLines(): ApiLinesConfig {
    return {
      lines: this.deps.config.apiLines.map((line) => ({ ...line })),
      variable: 'API_LINES',
    };
  }

  /** What saving `input` would do now, saving nothing (see the file's comment). */
  async previewWithdrawChannel(input: WithdrawChannelInput): Promise<WithdrawChannelPreview> {
    const noticeHours = this.deps.config.WITHDRAW_TERMS_NOTICE_HOURS;
    try {
      await this.deps.wallet.saveWithdrawChannel(
        input,
        async (_tx, change) => {
          throw new PreviewOnly(change.before, change.after);
        },
        noticeHours,
      );
    } catch (error) {
      if (error instanceof PreviewOnly)
        return describeSave(
          error.before as ChannelState | null,
          error.after as ChannelState,
          noticeHours,
        );
      throw error;
    }
    throw new Error('preview: the save wrote no audit entry');
  }
}
