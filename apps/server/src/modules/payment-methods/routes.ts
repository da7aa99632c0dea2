/** Bank cards (userBank) and wallet addresses (userWalletAddress) of the signed-in user. */
import type { Database } from '../../db/database';
import type { Router } from '../../http/router';
import type { Clock } from '../../lib/clock';
import type { SettingsService } from '../settings/service';

export interface PaymentMethodDeps {
  db: Database;
  settings: SettingsService;
  clock: Clock;
}

export function paymentMethodRoutes(_router: Router, _deps: PaymentMethodDeps): void {}
