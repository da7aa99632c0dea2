/** Wallet calls: channels, deposits, withdrawals, exchange and records. */
import type { Router } from '../../http/router';
import type { WalletService } from './service';

export function walletRoutes(_router: Router, _wallet: WalletService): void {}
