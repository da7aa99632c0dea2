-- Every trade posts its fee (and spot and contract results) to the platform's fee and house
-- accounts; one row each made every order in the system wait for the one before to commit (the
-- row lock of ledger_post). A platform account may now be split into 16 shards (owner_id 0–15),
-- picked by the user of the movement, so concurrent orders of different users rarely meet. A
-- platform account's balance is the sum of its shards; conservation is unchanged.
DO $$
DECLARE
  v_name text;
BEGIN
  SELECT conname INTO v_name FROM pg_constraint
  WHERE conrelid = 'ledger_account'::regclass AND contype = 'c'
    AND pg_get_constraintdef(oid) LIKE '%demo_faucet%';
  EXECUTE format('ALTER TABLE ledger_account DROP CONSTRAINT %I', v_name);
END $$;

ALTER TABLE ledger_account ADD CONSTRAINT ledger_account_owner CHECK (
  (owner_type = 'user' AND owner_id > 0 AND kind IN ('available', 'frozen', 'margin', 'staked', 'loan'))
  OR (owner_type = 'platform' AND owner_id BETWEEN 0 AND 15
      AND kind IN ('external', 'demo_faucet', 'fees', 'house', 'interest', 'rewards'))
);
