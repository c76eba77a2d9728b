-- Wallets and the ledger, tables and seats, tournaments, hands, statistics.
--
-- Accounts named in ledger.src / ledger.dst (one ledger row per transfer):
--   'mint'             chips entering or leaving the server's economy
--   'wallet:U'         user U's balance (wallets.balance)
--   'seat:T:U'         user U's stack at table T (seats.stack)
--   'pool:P'           tournament P's prize pool (tournaments.pool)
--   'hand:H'           the pot of hand H (always nets to zero once settled)
--   'tchips:P'         tournament P's chips (issued to seats, not money)

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    starting_balance  INTEGER NOT NULL CHECK (starting_balance BETWEEN 0 AND 1000000000000000),
    daily_base        INTEGER NOT NULL CHECK (daily_base BETWEEN 1 AND 1000000000000000),
    daily_step        INTEGER NOT NULL CHECK (daily_step BETWEEN 0 AND 1000000000000000),
    daily_max_streak  INTEGER NOT NULL CHECK (daily_max_streak BETWEEN 1 AND 3650),
    updated_at        REAL NOT NULL
);

CREATE TABLE wallets (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    balance        INTEGER NOT NULL CHECK (balance >= 0),
    daily_last_at  REAL,
    daily_streak   INTEGER NOT NULL DEFAULT 0,
    created_at     REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX wallets_by_balance ON wallets (guild_id, balance DESC);

CREATE TABLE ledger (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    at             REAL NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN (
                       'start', 'grant', 'daily', 'remove', 'adjust',
                       'buy_in', 'top_up', 'cash_out', 'hand',
                       'tournament_entry', 'tournament_refund', 'tournament_prize',
                       'tournament_chips')),
    amount         INTEGER NOT NULL CHECK (amount > 0),
    src            TEXT NOT NULL,
    dst            TEXT NOT NULL CHECK (dst <> src),
    user_id        INTEGER,
    actor_id       INTEGER,
    table_id       INTEGER,
    hand_id        INTEGER,
    tournament_id  INTEGER,
    reason         TEXT
);
CREATE INDEX ledger_by_user ON ledger (guild_id, user_id, at);

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    creator_id      INTEGER NOT NULL,
    buy_in          INTEGER NOT NULL CHECK (buy_in > 0),
    starting_stack  INTEGER NOT NULL CHECK (starting_stack > 0),
    settings        TEXT NOT NULL CHECK (json_valid(settings)),
    status          TEXT NOT NULL DEFAULT 'registering'
                    CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    pool            INTEGER NOT NULL DEFAULT 0 CHECK (pool >= 0),
    created_at      REAL NOT NULL,
    started_at      REAL,
    ended_at        REAL
);

CREATE TABLE tournament_entries (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    user_id        INTEGER NOT NULL,
    entered_at     REAL NOT NULL,
    place          INTEGER,
    prize          INTEGER NOT NULL DEFAULT 0 CHECK (prize >= 0),
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

CREATE TABLE poker_tables (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,
    creator_id     INTEGER NOT NULL,
    kind           TEXT NOT NULL DEFAULT 'cash' CHECK (kind IN ('cash', 'tournament')),
    tournament_id  INTEGER REFERENCES tournaments (id),
    settings       TEXT NOT NULL CHECK (json_valid(settings)),
    hands_dealt    INTEGER NOT NULL DEFAULT 0,
    created_at     REAL NOT NULL,
    closed_at      REAL,
    CHECK ((kind = 'tournament') = (tournament_id IS NOT NULL))
);
-- One open table per channel.
CREATE UNIQUE INDEX poker_tables_open_channel ON poker_tables (channel_id) WHERE closed_at IS NULL;

CREATE TABLE seats (
    table_id     INTEGER NOT NULL REFERENCES poker_tables (id),
    seat_no      INTEGER NOT NULL CHECK (seat_no BETWEEN 0 AND 10),
    user_id      INTEGER NOT NULL,
    stack        INTEGER NOT NULL CHECK (stack >= 0),
    sitting_out  INTEGER NOT NULL DEFAULT 0,
    joined_at    REAL NOT NULL,
    PRIMARY KEY (table_id, seat_no),
    UNIQUE (table_id, user_id)
) WITHOUT ROWID;

CREATE TABLE hands (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    table_id      INTEGER NOT NULL REFERENCES poker_tables (id),
    number        INTEGER NOT NULL,
    variant       TEXT NOT NULL,
    settings      TEXT NOT NULL CHECK (json_valid(settings)),
    button        INTEGER NOT NULL,
    deck_sealed   BLOB NOT NULL,
    status        TEXT NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'finished', 'cancelled')),
    money         INTEGER NOT NULL DEFAULT 1,  -- 0: tournament chips, kept out of net/pots
    resumed       INTEGER NOT NULL DEFAULT 0,
    started_at    REAL NOT NULL,
    ended_at      REAL,
    result        TEXT CHECK (result IS NULL OR json_valid(result)),
    cancel_reason TEXT,
    UNIQUE (table_id, number)
);
-- At most one hand in progress per table.
CREATE UNIQUE INDEX hands_one_running ON hands (table_id) WHERE status = 'running';
CREATE INDEX hands_by_end ON hands (guild_id, ended_at);

CREATE TABLE hand_seats (
    hand_id          INTEGER NOT NULL REFERENCES hands (id),
    seat_no          INTEGER NOT NULL,
    user_id          INTEGER NOT NULL,
    start_stack      INTEGER NOT NULL CHECK (start_stack >= 0),
    posts_big_blind  INTEGER NOT NULL DEFAULT 0,
    final_stack      INTEGER CHECK (final_stack >= 0),
    won              INTEGER,
    net              INTEGER,
    vpip             INTEGER,
    pfr              INTEGER,
    showdown         INTEGER,
    won_showdown     INTEGER,
    PRIMARY KEY (hand_id, seat_no)
) WITHOUT ROWID;
CREATE INDEX hand_seats_by_user ON hand_seats (user_id, hand_id);

CREATE TABLE hand_actions (
    hand_id  INTEGER NOT NULL REFERENCES hands (id),
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    at       REAL NOT NULL,
    action   TEXT NOT NULL CHECK (json_valid(action)),
    PRIMARY KEY (hand_id, seq)
) WITHOUT ROWID;

CREATE TABLE player_stats (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    variant        TEXT NOT NULL,
    hands_played   INTEGER NOT NULL DEFAULT 0,
    hands_won      INTEGER NOT NULL DEFAULT 0,
    net            INTEGER NOT NULL DEFAULT 0,
    biggest_pot    INTEGER NOT NULL DEFAULT 0,
    vpip_hands     INTEGER NOT NULL DEFAULT 0,
    pfr_hands      INTEGER NOT NULL DEFAULT 0,
    showdowns      INTEGER NOT NULL DEFAULT 0,
    showdowns_won  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, variant)
) WITHOUT ROWID;
