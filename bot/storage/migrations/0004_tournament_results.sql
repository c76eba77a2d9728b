-- One row per entrant of every sit-and-go that paid its prize pool out: finished,
-- or cancelled after its start and paid by the cancellation rule (a tournament
-- refunded before its start has no results). /stats and /leaderboard read the
-- tournament figures (wins, cashes, profit, ROI) from here.
CREATE TABLE tournament_results (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    place          INTEGER,  -- NULL: still in when the tournament was cancelled
    prize          INTEGER NOT NULL CHECK (prize >= 0),
    buy_in         INTEGER NOT NULL CHECK (buy_in > 0),
    entrants       INTEGER NOT NULL CHECK (entrants >= 2),
    cancelled      INTEGER NOT NULL DEFAULT 0,
    ended_at       REAL NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;
CREATE INDEX tournament_results_by_user ON tournament_results (guild_id, user_id, ended_at);
INSERT INTO tournament_results
    (tournament_id, guild_id, user_id, place, prize, buy_in, entrants, cancelled, ended_at)
SELECT e.tournament_id, t.guild_id, e.user_id, e.place, e.prize, t.buy_in,
       (SELECT COUNT(*) FROM tournament_entries x WHERE x.tournament_id = t.id), 0, t.ended_at
FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id
WHERE t.status = 'finished';
