-- The return rule by the game (RULES.md 7, issue 29): a player who leaves a cash table
-- with chips must bring at least that stack to any cash table of the same game and
-- blinds in the server within 60 minutes. One row per departure with chips, with the
-- game the table dealt then (bot.engine.variants.game_key, e.g. 'omaha/pot limit@1/2':
-- a table's settings may change later); sitting down at a table of that game deletes
-- the player's rows of it. Before this, the rule read the ledger and was kept per
-- table, so closing a table and opening another reset it. (No word here may read as
-- the SQL keyword for rows back: the PostgreSQL adapter looks for it.)
CREATE TABLE cash_departures (
    id        INTEGER PRIMARY KEY,
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    game      TEXT NOT NULL,
    stack     INTEGER NOT NULL CHECK (stack > 0),
    left_at   REAL NOT NULL,
    table_id  INTEGER NOT NULL
);
CREATE INDEX cash_departures_by_player ON cash_departures (guild_id, user_id, game, left_at);

-- The departures of the last hour before this migration (the newest ledger row stands for
-- "now"), each with its table's game as stored today, unless the player sat down at a
-- cash table of that game since: the rule holds across the upgrade.
INSERT INTO cash_departures (guild_id, user_id, game, stack, left_at, table_id)
SELECT l.guild_id, l.user_id,
       COALESCE(json_extract(t.settings, '$.variant_key'), '') || '/'
       || COALESCE(json_extract(t.settings, '$.structure'), '') || '@'
       || COALESCE(json_extract(t.settings, '$.small_blind'), '0') || '/'
       || COALESCE(json_extract(t.settings, '$.big_blind'), '0'),
       l.amount, l.at, l.table_id
FROM ledger l
JOIN poker_tables t ON t.id = l.table_id AND t.kind = 'cash'
WHERE l.kind = 'cash_out'
  AND l.at > (SELECT MAX(newest.at) FROM ledger newest) - 3600
  AND NOT EXISTS (
      SELECT 1 FROM ledger b
      JOIN poker_tables bt ON bt.id = b.table_id AND bt.kind = 'cash'
      WHERE b.kind = 'buy_in' AND b.guild_id = l.guild_id AND b.user_id = l.user_id
        AND (b.at > l.at OR (b.at = l.at AND b.id > l.id))
        AND COALESCE(json_extract(bt.settings, '$.variant_key'), '') || '/'
            || COALESCE(json_extract(bt.settings, '$.structure'), '') || '@'
            || COALESCE(json_extract(bt.settings, '$.small_blind'), '0') || '/'
            || COALESCE(json_extract(bt.settings, '$.big_blind'), '0')
          = COALESCE(json_extract(t.settings, '$.variant_key'), '') || '/'
            || COALESCE(json_extract(t.settings, '$.structure'), '') || '@'
            || COALESCE(json_extract(t.settings, '$.small_blind'), '0') || '/'
            || COALESCE(json_extract(t.settings, '$.big_blind'), '0'));
