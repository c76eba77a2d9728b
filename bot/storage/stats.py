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

Each hand counts under its own game (``hands.variant``): a mixed table's hands under the
game each was dealt (RULES.md 11); a sit-and-go that rotated its games counts under every
game together only, as no one game's.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.storage.dialect import Conn
from bot.storage.models import (
    HandNet,
    LeaderboardPage,
    LeaderboardRecord,
    Metric,
    Period,
    PlayerStats,
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


_SUMS = (
    "COUNT(*), SUM(CASE WHEN s.won > 0 THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN h.money <> 0 THEN s.net ELSE 0 END),"
    " MAX(CASE WHEN h.money <> 0 THEN s.won ELSE 0 END), SUM(s.vpip), SUM(s.pfr), SUM(s.showdown),"
    " SUM(s.won_showdown)"
)


_TOURNAMENT_EXPR = {
    Metric.TOURNAMENT_WINS: "SUM(CASE WHEN r.place = 1 THEN 1 ELSE 0 END)",
    Metric.TOURNAMENT_CASHES: "SUM(CASE WHEN r.prize > 0 THEN 1 ELSE 0 END)",
    Metric.TOURNAMENT_PROFIT: "SUM(r.prize - r.buy_in)",
    Metric.TOURNAMENT_ROI: "CAST(ROUND(100.0 * SUM(r.prize - r.buy_in) / SUM(r.buy_in))"
                           " AS INTEGER)",
}


def _tournament_inner(
    metric: Metric, guild_id: int, since: float | None, variant: str | None
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
    if variant is not None:  # a rotation of games (RULES.md 11) is no one game's
        inner += (" AND json_extract(t.settings, '$.variant') = ?"
                  " AND json_extract(t.settings, '$.games') IS NULL")
        args += (variant,)
    return inner + " GROUP BY r.user_id", args


class StatsRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def tournaments(
        self, guild_id: int, user_id: int, *, period: Period = Period.ALL_TIME,
    ) -> TournamentStats:
        """One player's sit-and-go results."""
        since = period_start(period, self._db.clock()) or 0.0

        def q(conn: Conn) -> TournamentStats:
            row = conn.execute(
                "SELECT COUNT(*), SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END),"
                " SUM(CASE WHEN prize > 0 THEN 1 ELSE 0 END), SUM(buy_in), SUM(prize)"
                " FROM tournament_results WHERE guild_id = ? AND user_id = ? AND ended_at >= ?",
                (guild_id, user_id, since),
            ).fetchone()
            return TournamentStats(*(int(v or 0) for v in row))

        return await self._db.read(q)

    async def hand_nets(
        self, guild_id: int, user_id: int, *, variant: str | None = None,
        period: Period = Period.ALL_TIME,
    ) -> list[HandNet]:
        """One player's finished cash hands in order (by end time), each with its net and
        whether the player saw a showdown: the points of ``/stats``'s graph."""
        since = period_start(period, self._db.clock()) or 0.0

        def q(conn: Conn) -> list[HandNet]:
            sql = (
                "SELECT h.id, h.ended_at, s.net, s.showdown FROM hand_seats s"
                " JOIN hands h ON h.id = s.hand_id WHERE h.guild_id = ? AND s.user_id = ?"
                " AND h.status = 'finished' AND h.money <> 0 AND h.ended_at >= ?"
            )
            args: tuple[object, ...] = (guild_id, user_id, since)
            if variant is not None:
                sql += " AND h.variant = ?"
                args += (variant,)
            rows = conn.execute(sql + " ORDER BY h.ended_at, h.id", args).fetchall()
            return [HandNet(int(r[0]), float(r[1]), int(r[2] or 0), bool(r[3])) for r in rows]

        return await self._db.read(q)

    async def finishes(
        self, guild_id: int, user_id: int, *, period: Period = Period.ALL_TIME,
    ) -> list[TournamentFinish]:
        """One player's sit-and-go finishes in order (by end time)."""
        since = period_start(period, self._db.clock()) or 0.0

        def q(conn: Conn) -> list[TournamentFinish]:
            rows = conn.execute(
                "SELECT tournament_id, ended_at, place, entrants, buy_in, prize"
                " FROM tournament_results WHERE guild_id = ? AND user_id = ? AND ended_at >= ?"
                " ORDER BY ended_at, tournament_id",
                (guild_id, user_id, since),
            ).fetchall()
            return [TournamentFinish(int(r[0]), float(r[1]), None if r[2] is None else int(r[2]),
                                     int(r[3]), int(r[4]), int(r[5])) for r in rows]

        return await self._db.read(q)

    async def player(
        self, guild_id: int, user_id: int, *, variant: str | None = None,
        period: Period = Period.ALL_TIME,
    ) -> PlayerStats:
        """One player's figures (every variant together when ``variant`` is None)."""
        since = period_start(period, self._db.clock())

        def q(conn: Conn) -> PlayerStats:
            if since is None:
                sql = (
                    "SELECT SUM(hands_played), SUM(hands_won), SUM(net), MAX(biggest_pot),"
                    " SUM(vpip_hands), SUM(pfr_hands), SUM(showdowns), SUM(showdowns_won)"
                    " FROM player_stats WHERE guild_id = ? AND user_id = ?"
                )
                args: tuple[object, ...] = (guild_id, user_id)
                if variant is not None:
                    sql += " AND variant = ?"
                    args += (variant,)
            else:
                sql = (
                    f"SELECT {_SUMS} FROM hand_seats s JOIN hands h ON h.id = s.hand_id"
                    " WHERE h.guild_id = ? AND s.user_id = ? AND h.status = 'finished'"
                    " AND h.ended_at >= ?"
                )
                args = (guild_id, user_id, since)
                if variant is not None:
                    sql += " AND h.variant = ?"
                    args += (variant,)
            row = conn.execute(sql, args).fetchone()
            values = [int(v or 0) for v in row]
            return PlayerStats(guild_id, user_id, variant, *values)

        return await self._db.read(q)

    async def leaderboard(
        self, guild_id: int, metric: Metric, *, period: Period = Period.ALL_TIME,
        variant: str | None = None, offset: int = 0, limit: int = 10,
    ) -> LeaderboardPage:
        """One page of a ranking (rank 1 is the best; equal values share a rank)."""
        metric, period = Metric(metric), Period(period)
        offset = max(0, int(offset))
        limit = max(1, min(int(limit), MAX_PAGE))
        since = period_start(period, self._db.clock())

        def q(conn: Conn) -> LeaderboardPage:
            args: tuple[object, ...]
            if metric is Metric.BALANCE:
                inner = "SELECT user_id, balance AS value FROM wallets WHERE guild_id = ?"
                args = (guild_id,)
            elif metric in _TOURNAMENT_EXPR:
                inner, args = _tournament_inner(metric, guild_id, since, variant)
            elif since is None:
                expr = {
                    Metric.NET_WON: "SUM(net)",
                    Metric.BIGGEST_POT: "MAX(biggest_pot)",
                    Metric.HANDS_WON: "SUM(hands_won)",
                }[metric]
                inner = f"SELECT user_id, {expr} AS value FROM player_stats WHERE guild_id = ?"
                args = (guild_id,)
                if variant is not None:
                    inner += " AND variant = ?"
                    args += (variant,)
                inner += " GROUP BY user_id"
            else:
                expr = {
                    Metric.NET_WON: "SUM(CASE WHEN h.money <> 0 THEN s.net ELSE 0 END)",
                    Metric.BIGGEST_POT: "MAX(CASE WHEN h.money <> 0 THEN s.won ELSE 0 END)",
                    Metric.HANDS_WON: "SUM(CASE WHEN s.won > 0 THEN 1 ELSE 0 END)",
                }[metric]
                inner = (
                    f"SELECT s.user_id AS user_id, {expr} AS value FROM hand_seats s"
                    " JOIN hands h ON h.id = s.hand_id WHERE h.guild_id = ?"
                    " AND h.status = 'finished' AND h.ended_at >= ?"
                )
                args = (guild_id, since)
                if variant is not None:
                    inner += " AND h.variant = ?"
                    args += (variant,)
                inner += " GROUP BY s.user_id"
            conn.execute("BEGIN")
            try:
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
