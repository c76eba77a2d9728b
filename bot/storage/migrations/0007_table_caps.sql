-- A server's own caps on open cash tables (issue 22), set by a server manager with
-- /table limits. NULL: the operator's default (TABLES_PER_MEMBER, TABLES_PER_SERVER in
-- .env), so a server that changed one cap still follows the operator for the other.
-- A cap counts the cash tables not yet closed: per member those the member opened
-- with /table create, per server all of them (bot/runtime/caps.py).
CREATE TABLE guild_table_caps (
    guild_id    INTEGER PRIMARY KEY,
    per_member  INTEGER CHECK (per_member BETWEEN 1 AND 100),
    per_server  INTEGER CHECK (per_server BETWEEN 1 AND 1000),
    updated_at  REAL NOT NULL
);
