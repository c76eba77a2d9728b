-- A request id (for example the Discord interaction id) on ledger rows, so a
-- request that is retried after an unknown outcome (a timeout, a restart)
-- cannot move chips twice.
ALTER TABLE ledger ADD COLUMN request_id TEXT;
CREATE UNIQUE INDEX ledger_request ON ledger (guild_id, request_id) WHERE request_id IS NOT NULL;
