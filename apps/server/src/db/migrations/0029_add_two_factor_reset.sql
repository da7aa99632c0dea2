-- When an admin last removed a user's two-factor because the user lost their authenticator (the
-- console's reset, audited with its reason). Like a password change, it holds withdrawals for 24
-- hours from then (AccountService's withdrawal hold): whoever talked support into the reset cannot
-- take the money at once, and the user has a day to notice.
ALTER TABLE app_user ADD COLUMN two_factor_reset_at timestamptz;
