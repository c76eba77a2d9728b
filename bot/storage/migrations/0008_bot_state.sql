-- What the bot remembers about itself between restarts (issue 24): one value per
-- name. "commands:<app>:global" and "commands:<app>:guild:<id>" hold the hash of
-- the slash command tree last synced there (bot/adapter/command_sync.py), so a restart with
-- an unchanged tree costs no sync; "health" is written by each /healthz check.
CREATE TABLE bot_state (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
