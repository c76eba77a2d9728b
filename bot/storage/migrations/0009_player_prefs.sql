-- What each player chose about the table's notifications (issue 23), per server:
-- turn_pings  'always' (the turn message pings them), 'low' (only a short message when
--             their clock runs low), 'never';
-- hole_cards  'dm' (their cards by direct message every hand) or 'request' (only when
--             they ask: the My cards button or /cards).
-- A player without a row has the defaults ('always', 'dm').
CREATE TABLE player_prefs (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    turn_pings  TEXT NOT NULL DEFAULT 'always' CHECK (turn_pings IN ('always', 'low', 'never')),
    hole_cards  TEXT NOT NULL DEFAULT 'dm' CHECK (hole_cards IN ('dm', 'request')),
    updated_at  REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
