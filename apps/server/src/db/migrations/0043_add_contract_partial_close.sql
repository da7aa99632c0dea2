-- Partial closes of contract positions (issue 25: "the leader's TP/SL and partial closes are
-- mirrored"). Closing part of an open position splits that part off as a closed row of its own:
-- `parent_id` names the position it came from, which stays open with the rest (its quantity,
-- margin, open fee and liquidation level reduced). Each closed row is then one close with its own
-- tick, result and fee, so the history, the realized results and a lead trader's statistics read
-- closed rows as before; the open fee is shared in proportion, so the sums over a position and its
-- parts are what the position paid. One part per (position, close request): a repeated request
-- finds the part it made.
ALTER TABLE contract_position ADD COLUMN parent_id bigint REFERENCES contract_position (id);
ALTER TABLE contract_position ADD CONSTRAINT contract_position_part
  CHECK (parent_id IS NULL OR (status = 2 AND close_request_id IS NOT NULL));
CREATE UNIQUE INDEX contract_position_part_idx ON contract_position (parent_id, close_request_id)
  WHERE parent_id IS NOT NULL;
