/** The wallet: deposits, withdrawals, exchange and records, every amount moved by the ledger. */
import type { Database } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AssertionError } from '../../lib/errors';
import type { AccountService } from '../account/service';
import type { RateSource } from '../assets/rates';
import type { SettingsService } from '../settings/service';
import type { WalletReview } from './review';

export interface WalletDeps {
  db: Database;
  clock: Clock;
  settings: SettingsService;
  accounts: AccountService;
  rates: RateSource;
}

const notYet = (): never => {
  throw new AssertionError('wallet: not built yet');
};

export class WalletService implements WalletReview {
  constructor(readonly deps: WalletDeps) {}
  listRecharges = notYet;
  rechargeProof = notYet;
  approveRecharge = notYet;
  rejectRecharge = notYet;
  listWithdrawals = notYet;
  payWithdrawal = notYet;
  rejectWithdrawal = notYet;
}
