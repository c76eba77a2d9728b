"""Player statistics and leaderboards.

All-time figures come from ``player_stats`` (updated by each settlement);
this week / this month are computed from the finished hands' per-seat lines
(``hand_seats``) by the hand's end time, in UTC: a week starts on Monday at
00:00, a month on the 1st at 00:00. Net chips and biggest pot count cash
hands only (tournament chips are not money); hands played and won, VPIP, PFR
and showdowns count every hand. A hand counts as won when the player took
chips from at least one pot (a share of a split pot included). The balance
leaderboard is the current balance: it has no period or variant.

Tournament figures come from ``tournament_results`` (sit-and-gos that paid
their pool out, by their end time): a win is 1st place, a cash any prize (a
share of a pool split by a cancellation included), profit is prizes minus
buy-ins, ROI is profit over buy-ins in whole percent (rounded).

A season (:mod:`.seasons`) is a window of its own instead of a period: the results that
ended from its start until its end (the next season's start), or until now while it runs.
Every ranked figure but the balance is counted within it as within a period: net won,
biggest pot and hands won from the hands settled in it, the tournament figures from the
sit-and-gos that ended in it. The balance is not seasonal (there is one balance).

Who may see a result (issue 29): every query but the balances takes ``channels``, the
channels whose results count (None: all). A hand belongs to its table's channel, or for a
tournament's table (a multi-table tournament plays in threads of its channel) to the
tournament's channel; a tournament result to its tournament's channel (:meth:`StatsRepo.
channels` lists them). The all-time figures come from ``player_stats`` only when every
channel with a hand is counted (checked in the same transaction: a hand dealt meanwhile in
another channel cannot slip in); otherwise from the hands themselves.

Each hand counts under its own game (``hands.variant``): a mixed table's hands under the
game each was dealt (RULES.md 11); a sit-and-go that rotated its games counts under every
game together only, as no one game's.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.storage.dialect import Conn
from bot.storage.models import (
    HandNet,
    LeaderboardPage,
    LeaderboardRecord,
    Metric,
    Period,
    PlayerStats,
    Season,
    TournamentFinish,
    TournamentStats,
)

if TYPE_CHECKING:
    from bot.storage.db import Database

MAX_PAGE = 100


def period_start(period: Period, now: float) -> float | None:
    """Epoch seconds when the period began (None: all time)."""
    if period is Period.ALL_TIME:
        return None
    day = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period is Period.WEEK:
        return (day - timedelta(days=day.weekday())).timestamp()
    return day.replace(day=1).timestamp()


def window(period: Period, season: Season | None, now: float) -> tuple[float | None, float | None]:
    """``(since, until)`` of a figure: the season's when one is given, else the period's
    (None: unbounded on that side)."""
    if season is not None:
        return season.started_at, season.ended_at
    return period_start(period, now), None


def _until(column: str, until: float | None) -> tuple[str, tuple[object, ...]]:
    """`` AND column < ?`` and its value; nothing when ``until`` is None."""
    return ("", ()) if until is None else (f" AND {column} < ?", (until,))


_SUMS = (
    "COUNT(*), SUM(CASE WHEN s.won > 0 THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN h.money <> 0 THEN s.net ELSE 0 END),"
    " MAX(CASE WHEN h.money <> 0 THEN s.won ELSE 0 END), SUM(s.vpip), SUM(s.pfr), SUM(s.showdown),"
    " SUM(s.won_showdown)"
)


#: Joined to ``hands h``: the hand's table ``t`` and its tournament ``tn`` (if any).
_HAND_SCOPE = (" JOIN poker_tables t ON t.id = h.table_id"
               " LEFT JOIN tournaments tn ON tn.id = t.tournament_id")
#: The channel a hand belongs to (``_HAND_SCOPE`` joined).
_SCOPE = "COALESCE(tn.channel_id, t.channel_id)"


def _among(column: str, channels: Collection[int] | None) -> tuple[str, tuple[object, ...]]:
    """`` AND column IN (...)`` and its values; nothing when ``channels`` is None."""
    if channels is None:
        return "", ()
    if not channels:
        return " AND 1 = 0", ()
    return f" AND {column} IN ({', '.join('?' * len(channels))})", tuple(channels)


def _counts_all(conn: Conn, guild_id: int, channels: Collection[int] | None) -> bool:
    """Are the hands of every channel of the server counted (``channels`` None, or every
    channel where a table of the server dealt a hand among them)?"""
    if channels is None:
        return True
    sql = ("SELECT 1 FROM poker_tables t LEFT JOIN tournaments tn ON tn.id = t.tournament_id"
           " WHERE t.guild_id = ? AND EXISTS (SELECT 1 FROM hands h WHERE h.table_id = t.id)")
    if channels:
        sql += f" AND {_SCOPE} NOT IN ({', '.join('?' * len(channels))})"
    return conn.execute(sql + " LIMIT 1", (guild_id, *channels)).fetchone() is None


_TOURNAMENT_EXPR = {
    Metric.TOURNAMENT_WINS: "SUM(CASE WHEN r.place = 1 THEN 1 ELSE 0 END)",
    Metric.TOURNAMENT_CASHES: "SUM(CASE WHEN r.prize > 0 THEN 1 ELSE 0 END)",
    Metric.TOURNAMENT_PROFIT: "SUM(r.prize - r.buy_in)",
    Metric.TOURNAMENT_ROI: "CAST(ROUND(100.0 * SUM(r.prize - r.buy_in) / SUM(r.buy_in))"
                           " AS INTEGER)",
}


def _tournament_inner(
    metric: Metric, guild_id: int, since: float | None, until: float | None,
    variant: str | None, channels: Collection[int] | None,
) -> tuple[str, tuple[object, ...]]:
    """``SELECT user_id, value`` over the tournament results of a guild."""
    inner = (
        f"SELECT r.user_id AS user_id, {_TOURNAMENT_EXPR[metric]} AS value"
        " FROM tournament_results r JOIN tournaments t ON t.id = r.tournament_id"
        " WHERE r.guild_id = ?"
    )
    args: tuple[object, ...] = (guild_id,)
    if since is not None:
        inner += " AND r.ended_at >= ?"
        args += (since,)
    before, more = _until("r.ended_at", until)
    inner += before
    args += more
    if variant is not None:  # a rotation of games (RULES.md 11) is no one game's
        inner += (" AND json_extract(t.settings, '$.variant') = ?"
                  " AND json_extract(t.settings, '$.games') IS NULL")
        args += (variant,)
    among, more = _among("t.channel_id", channels)
    return inner + among + " GROUP BY r.user_id", args + more


_ALL_TIME_EXPR = {
    Metric.NET_WON: "SUM(net)",
    Metric.BIGGEST_POT: "MAX(biggest_pot)",
    Metric.HANDS_WON: "SUM(hands_won)",
}
_HAND_EXPR = {
    Metric.NET_WON: "SUM(CASE WHEN h.money <> 0 THEN s.net ELSE 0 END)",
    Metric.BIGGEST_POT: "MAX(CASE WHEN h.money <> 0 THEN s.won ELSE 0 END)",
    Metric.HANDS_WON: "SUM(CASE WHEN s.won > 0 THEN 1 ELSE 0 END)",
}


def _ranked_inner(
    conn: Conn, metric: Metric, guild_id: int, since: float | None, until: float | None,
    variant: str | None, channels: Collection[int] | None,
) -> tuple[str, tuple[object, ...]]:
    """``SELECT user_id, value`` of a ranking: balances, tournament results, the all-time
    figures (when every channel counts) or the hands themselves."""
    args: tuple[object, ...]
    if metric is Metric.BALANCE:  # one wallet per server: never filtered
        return "SELECT user_id, balance AS value FROM wallets WHERE guild_id = ?", (guild_id,)
    if metric in _TOURNAMENT_EXPR:
        return _tournament_inner(metric, guild_id, since, until, variant, channels)
    if since is None and until is None and _counts_all(conn, guild_id, channels):
        inner = (f"SELECT user_id, {_ALL_TIME_EXPR[metric]} AS value FROM player_stats"
                 " WHERE guild_id = ?")
        args = (guild_id,)
        if variant is not None:
            inner += " AND variant = ?"
            args += (variant,)
        return inner + " GROUP BY user_id", args
    inner = (
        f"SELECT s.user_id AS user_id, {_HAND_EXPR[metric]} AS value FROM hand_seats s"
        f" JOIN hands h ON h.id = s.hand_id{_HAND_SCOPE} WHERE h.guild_id = ?"
        " AND h.status = 'finished' AND h.ended_at >= ?"
    )
    args = (guild_id, since or 0.0)
    before, more = _until("h.ended_at", until)
    inner += before
    args += more
    if variant is not None:
        inner += " AND h.variant = ?"
        args += (variant,)
    among, more = _among(_SCOPE, channels)
    return inner + among + " GROUP BY s.user_id", args + more


class StatsRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def channels(self, guild_id: int) -> list[int]:
        """The channels the server's results belong to: where its hands were dealt (a
        tournament's channel for its tables) and its tournaments held."""

        def q(conn: Conn) -> list[int]:
            rows = conn.execute(
                f"SELECT {_SCOPE} AS channel_id FROM poker_tables t"
                " LEFT JOIN tournaments tn ON tn.id = t.tournament_id WHERE t.guild_id = ?"
                " AND EXISTS (SELECT 1 FROM hands h WHERE h.table_id = t.id)"
                " UNION SELECT tn.channel_id AS channel_id FROM tournament_results r"
                " JOIN tournaments tn ON tn.id = r.tournament_id WHERE r.guild_id = ?"
                " ORDER BY channel_id",
                (guild_id, guild_id),
            ).fetchall()
            return [int(r[0]) for r in rows]

        return await self._db.read(q)

    async def tournaments(
        self, guild_id: int, user_id: int, *, period: Period = Period.ALL_TIME,
        channels: Collection[int] | None = None,
    ) -> TournamentStats:
        """One player's sit-and-go results (of tournaments in ``channels``)."""
        since = period_start(period, self._db.clock()) or 0.0
        among, more = _among("tn.channel_id", channels)

        def q(conn: Conn) -> TournamentStats:
            row = conn.execute(
                "SELECT COUNT(*), SUM(CASE WHEN r.place = 1 THEN 1 ELSE 0 END),"
                " SUM(CASE WHEN r.prize > 0 THEN 1 ELSE 0 END), SUM(r.buy_in), SUM(r.prize)"
                " FROM tournament_results r JOIN tournaments tn ON tn.id = r.tournament_id"
                f" WHERE r.guild_id = ? AND r.user_id = ? AND r.ended_at >= ?{among}",
                (guild_id, user_id, since, *more),
            ).fetchone()
            return TournamentStats(*(int(v or 0) for v in row))

        return await self._db.read(q)

    async def hand_nets(
        self, guild_id: int, user_id: int, *, variant: str | None = None,
        period: Period = Period.ALL_TIME, channels: Collection[int] | None = None,
        season: Season | None = None,
    ) -> list[HandNet]:
        """One player's finished cash hands in order (by end time), each with its net and
        whether the player saw a showdown: the points of ``/stats``'s graph (only the
        hands in ``channels``; of ``season`` when given, else of ``period``)."""
        since, until = window(period, season, self._db.clock())
        before, later = _until("h.ended_at", until)

        def q(conn: Conn) -> list[HandNet]:
            sql = (
                "SELECT h.id, h.ended_at, s.net, s.showdown FROM hand_seats s"
                f" JOIN hands h ON h.id = s.hand_id{_HAND_SCOPE} WHERE h.guild_id = ?"
                " AND s.user_id = ? AND h.status = 'finished' AND h.money <> 0"
                f" AND h.ended_at >= ?{before}"
            )
            args: tuple[object, ...] = (guild_id, user_id, since or 0.0, *later)
            if variant is not None:
                sql += " AND h.variant = ?"
                args += (variant,)
            among, more = _among(_SCOPE, channels)
            rows = conn.execute(sql + among + " ORDER BY h.ended_at, h.id",
                                args + more).fetchall()
            return [HandNet(int(r[0]), float(r[1]), int(r[2] or 0), bool(r[3])) for r in rows]

        return await self._db.read(q)

    async def finishes(
        self, guild_id: int, user_id: int, *, period: Period = Period.ALL_TIME,
        channels: Collection[int] | None = None, season: Season | None = None,
    ) -> list[TournamentFinish]:
        """One player's sit-and-go finishes in order (by end time; of tournaments in
        ``channels``; of ``season`` when given, else of ``period``)."""
        since, until = window(period, season, self._db.clock())
        before, later = _until("r.ended_at", until)
        among, more = _among("tn.channel_id", channels)

        def q(conn: Conn) -> list[TournamentFinish]:
            rows = conn.execute(
                "SELECT r.tournament_id, r.ended_at, r.place, r.entrants, r.buy_in, r.prize"
                " FROM tournament_results r JOIN tournaments tn ON tn.id = r.tournament_id"
                f" WHERE r.guild_id = ? AND r.user_id = ? AND r.ended_at >= ?{before}{among}"
                " ORDER BY r.ended_at, r.tournament_id",
                (guild_id, user_id, since or 0.0, *later, *more),
            ).fetchall()
            return [TournamentFinish(int(r[0]), float(r[1]), None if r[2] is None else int(r[2]),
                                     int(r[3]), int(r[4]), int(r[5])) for r in rows]

        return await self._db.read(q)

    async def player(
        self, guild_id: int, user_id: int, *, variant: str | None = None,
        period: Period = Period.ALL_TIME, channels: Collection[int] | None = None,
    ) -> PlayerStats:
        """One player's figures (every variant together when ``variant`` is None; only the
        hands in ``channels``)."""
        since = period_start(period, self._db.clock())

        def q(conn: Conn) -> PlayerStats:
            conn.execute("BEGIN")
            try:
                row = _player_row(conn, guild_id, user_id, variant, since, channels)
            finally:
                conn.execute("COMMIT")
            return PlayerStats(guild_id, user_id, variant, *(int(v or 0) for v in row))

        return await self._db.read(q)

    async def leaderboard(
        self, guild_id: int, metric: Metric, *, period: Period = Period.ALL_TIME,
        variant: str | None = None, offset: int = 0, limit: int = 10,
        channels: Collection[int] | None = None, season: Season | None = None,
    ) -> LeaderboardPage:
        """One page of a ranking (rank 1 is the best; equal values share a rank), over
        the results in ``channels`` (balances: always the whole server's), of ``season``
        when given (balances: never seasonal), else of ``period``."""
        metric, period = Metric(metric), Period(period)
        offset = max(0, int(offset))
        limit = max(1, min(int(limit), MAX_PAGE))
        since, until = window(period, season, self._db.clock())

        def q(conn: Conn) -> LeaderboardPage:
            conn.execute("BEGIN")
            try:
                inner, args = _ranked_inner(conn, metric, guild_id, since, until, variant,
                                            channels)
                total = conn.execute(
                    f"SELECT COUNT(*) FROM ({inner}) AS ranked", args
                ).fetchone()[0]
                rows = conn.execute(
                    "SELECT RANK() OVER (ORDER BY value DESC), user_id, value"
                    f" FROM ({inner}) AS ranked ORDER BY value DESC, user_id LIMIT ? OFFSET ?",
                    (*args, limit, offset),
                ).fetchall()
            finally:
                conn.execute("COMMIT")
            return LeaderboardPage(
                metric, period, None if metric is Metric.BALANCE else variant, offset, limit,
                int(total), tuple(LeaderboardRecord(r[0], r[1], int(r[2] or 0)) for r in rows),
            )

        return await self._db.read(q)


def _player_row(
    conn: Conn, guild_id: int, user_id: int, variant: str | None, since: float | None,
    channels: Collection[int] | None,
) -> Any:
    """One player's sums: the all-time figures when every channel counts, else the hands."""
    if since is None and _counts_all(conn, guild_id, channels):
        sql = (
            "SELECT SUM(hands_played), SUM(hands_won), SUM(net), MAX(biggest_pot),"
            " SUM(vpip_hands), SUM(pfr_hands), SUM(showdowns), SUM(showdowns_won)"
            " FROM player_stats WHERE guild_id = ? AND user_id = ?"
        )
        args: tuple[object, ...] = (guild_id, user_id)
        if variant is not None:
            sql += " AND variant = ?"
            args += (variant,)
        return conn.execute(sql, args).fetchone()
    sql = (
        f"SELECT {_SUMS} FROM hand_seats s JOIN hands h ON h.id = s.hand_id{_HAND_SCOPE}"
        " WHERE h.guild_id = ? AND s.user_id = ? AND h.status = 'finished'"
        " AND h.ended_at >= ?"
    )
    args = (guild_id, user_id, since or 0.0)
    if variant is not None:
        sql += " AND h.variant = ?"
        args += (variant,)
    among, more = _among(_SCOPE, channels)
    return conn.execute(sql + among, args + more).fetchone()
