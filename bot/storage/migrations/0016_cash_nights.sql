-- Cash game nights on the server's calendar (issue 34): scheduled with /schedule cash in
-- a channel, listed in the server's Discord events when the bot may. A night is
-- 'scheduled' until a cash table opens in its channel around its start, then 'active'
-- until that table closes ('over'); 'cancelled' by its creator or a manager. weekly is
-- the time zone of a weekly series (its next night the same local time a week later), or
-- NULL. starts_at is in Unix seconds (UTC); about is the organiser's words (the game).
CREATE TABLE cash_nights (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    creator_id  INTEGER NOT NULL,
    starts_at   REAL NOT NULL,
    weekly      TEXT,
    about       TEXT NOT NULL,
    language    TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'scheduled'
        CHECK (status IN ('scheduled', 'active', 'over', 'cancelled')),
    created_at  REAL NOT NULL
);
CREATE INDEX cash_nights_open ON cash_nights (status);
