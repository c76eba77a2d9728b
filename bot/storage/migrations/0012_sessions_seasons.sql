-- The night's ledger (issue 32): a cash table's sessions. The first runs from the table's
-- opening; each row here starts a new one (/table session new) and ends the one before;
-- the last ends when the table closes. A row keeps the id of the table's newest ledger row
-- when it was made (0: none yet): the session's figures are the table's seat transfers
-- after it (bot/storage/sessions.py), read from the ledger, so they equal the chip audit.
CREATE TABLE table_sessions (
    id           INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL REFERENCES poker_tables (id),
    after_entry  INTEGER NOT NULL CHECK (after_entry >= 0),
    started_at   REAL NOT NULL,
    started_by   INTEGER NOT NULL
);
CREATE INDEX table_sessions_by_table ON table_sessions (table_id, id);
-- One table's ledger rows in order (the sessions' figures).
CREATE INDEX ledger_by_table ON ledger (table_id, id);

-- Seasons (issue 32): a server's named stretches of time, one after the other. Starting a
-- season ends the one running; a season's standings are the results that ended within it
-- (bot/storage/stats.py), which never change once it is over. name_key is the name
-- case-folded: one season of a name per server.
CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    started_at  REAL NOT NULL,
    ended_at    REAL,
    started_by  INTEGER NOT NULL,
    UNIQUE (guild_id, name_key)
);
-- At most one season running per server.
CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;
