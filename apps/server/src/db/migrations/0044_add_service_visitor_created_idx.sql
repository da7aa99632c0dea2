-- Visitor identities unused for SERVICE_VISITOR_KEEP_DAYS are forgotten as new ones come
-- (modules/service pruneVisitors): the old ones are found by their creation time, not by reading
-- the whole table on each new visitor.
CREATE INDEX service_visitor_created_idx ON service_visitor (created_at);
