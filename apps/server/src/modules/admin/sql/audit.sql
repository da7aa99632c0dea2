-- after migration 0008
--
-- Operators are disabled, never deleted, and the audit log is append-only: the triggers that hold
-- it in the database, whatever the code does. Their single current definition; the server applies
-- this file after the migrations whenever its checksum changes (db/migrate.ts, ADR 0007).

CREATE OR REPLACE FUNCTION audit_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'AU001',
    MESSAGE = format('%s: %s is not allowed (operators are disabled, never deleted; the audit log is append-only)', TG_TABLE_NAME, TG_OP);
END
$$;
CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_forbid_change();
CREATE OR REPLACE TRIGGER audit_log_never_truncated BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_forbid_change();
CREATE OR REPLACE TRIGGER operator_never_deleted BEFORE DELETE ON operator
  FOR EACH ROW EXECUTE FUNCTION audit_forbid_change();
