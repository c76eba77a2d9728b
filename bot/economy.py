"""The economy: balances, the daily bonus, grants and removals, tables, rankings.

A thin service over :mod:`bot.storage` (which owns every query and keeps every
chip movement in the ledger); the cogs and the runtime call it and turn its
:class:`EconomyError` exceptions (player-readable messages) into replies.

Rules decided here:

* **Starting balance**: a server setting (default 10,000), paid as a ledger
  ``start`` row the first time a player uses the economy in that server.
* **Daily bonus**: claimable once every 24 hours. The streak counts
  consecutive claims: a claim within 48 hours of the previous one adds one to
  it, a later claim starts again at 1. The bonus is
  ``daily_base + daily_step * (min(streak, daily_max_streak) - 1)`` (defaults
  1,000 + 100 per day, at most 7 days: 1,000 on day 1 up to 1,600 from day 7).
  Like every credit it never takes a balance past ``MAX_BALANCE``: such a claim
  is refused and changes nothing (the streak included).
* **Grants and removals** by server managers need a reason (kept in the
  ledger); a removal cannot take more than the balance.
* **Amounts** are whole chips, more than zero and at most 10^15.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot.engine.events import ActionKind, PlayerActed, Street
from bot.engine.hand_state import HandState
from bot.i18n import Phrase
from bot.storage import (
    MAX_AMOUNT,
    AuditLine,
    DailyClaim,
    DailyNotReady,
    Database,
    EconomyError,
    EconomySettings,
    HandNet,
    HandSummary,
    InsufficientChips,
    InvalidAmount,
    LeaderboardPage,
    LedgerEntry,
    LedgerKind,
    Metric,
    Period,
    PlayerStats,
    Season,
    SeatRecord,
    SeatResult,
    SessionLedger,
    Tournament,
    TournamentFinish,
    TournamentStats,
    Wallet,
)

__all__ = [
    "DAY",
    "MAX_AMOUNT",
    "DailyNotReady",
    "Economy",
    "EconomyError",
    "InsufficientChips",
    "InvalidAmount",
    "daily_policy",
    "summarize_hand",
]

DAY = 24 * 3600.0
STREAK_WINDOW = 48 * 3600.0
MAX_REASON = 200


def daily_policy(
    settings: EconomySettings, last_at: float | None, streak: int, now: float
) -> tuple[int, int, float]:
    """``(bonus, new streak, next claim time)`` for a claim at ``now`` (see the module doc)."""
    if last_at is not None and now - last_at < DAY:
        next_at = last_at + DAY
        raise DailyNotReady(
            # a Discord timestamp: each reader's client words "in 5 hours" in their language
            Phrase("refuse.daily_not_ready", when=f"<t:{int(next_at)}:R>"),
            next_at=next_at,
        )
    new_streak = streak + 1 if last_at is not None and now - last_at <= STREAK_WINDOW else 1
    days = min(new_streak, settings.daily_max_streak)
    return settings.daily_base + settings.daily_step * (days - 1), new_streak, now + DAY


def _reason(reason: str) -> str:
    text = " ".join(str(reason).split())
    if not text:
        raise InvalidAmount(Phrase("refuse.reason_missing"))
    if len(text) > MAX_REASON:
        raise InvalidAmount(Phrase("refuse.reason_too_long", count=MAX_REASON))
    return text


class Economy:
    """Chips per server and player. Time comes from the database's clock."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- balances and settings ---------------------------------------------------
    async def wallet(self, guild_id: int, user_id: int) -> Wallet:
        return await self.db.wallets.open(guild_id, user_id)

    async def balance(self, guild_id: int, user_id: int) -> int:
        return (await self.wallet(guild_id, user_id)).balance

    async def settings(self, guild_id: int) -> EconomySettings:
        return await self.db.wallets.settings(guild_id)

    async def update_settings(self, guild_id: int, **changes: int) -> EconomySettings:
        return await self.db.wallets.update_settings(guild_id, **changes)

    async def history(self, guild_id: int, user_id: int, limit: int = 20) -> list[LedgerEntry]:
        return await self.db.wallets.history(guild_id, user_id, limit=limit)

    # -- daily bonus -----------------------------------------------------------------
    async def claim_daily(self, guild_id: int, user_id: int) -> DailyClaim:
        return await self.db.wallets.claim_daily(guild_id, user_id, daily_policy)

    async def next_daily_at(self, guild_id: int, user_id: int) -> float:
        """When the player can claim next (now or earlier: claimable)."""
        wallet = await self.db.wallets.get(guild_id, user_id)
        if wallet is None or wallet.daily_last_at is None:
            return self.db.clock()
        return wallet.daily_last_at + DAY

    # -- managers ----------------------------------------------------------------------
    async def grant(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, reason: str,
        request_id: str | None = None,
    ) -> int:
        """A manager gives chips; returns the new balance.

        ``request_id`` (e.g. the interaction id): a retry with the same id
        changes nothing, so a grant is never paid twice.
        """
        return await self.db.wallets.credit(
            guild_id, user_id, amount, kind=LedgerKind.GRANT, actor_id=actor_id,
            reason=_reason(reason), request_id=request_id,
        )

    async def remove(
        self, guild_id: int, user_id: int, amount: int, *, actor_id: int, reason: str,
        request_id: str | None = None,
    ) -> int:
        """A manager takes chips away (never more than the balance); returns the new balance."""
        return await self.db.wallets.debit(
            guild_id, user_id, amount, kind=LedgerKind.REMOVE, actor_id=actor_id,
            reason=_reason(reason), request_id=request_id,
        )

    async def adjust(
        self, guild_id: int, user_id: int, delta: int, *, actor_id: int, reason: str,
        request_id: str | None = None,
    ) -> int:
        """An administrator's correction, either way (``delta`` chips, not zero)."""
        if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
            raise InvalidAmount(Phrase("refuse.adjust_whole"))
        if delta > 0:
            return await self.db.wallets.credit(
                guild_id, user_id, delta, kind=LedgerKind.ADJUST, actor_id=actor_id,
                reason=_reason(reason), request_id=request_id,
            )
        return await self.db.wallets.debit(
            guild_id, user_id, -delta, kind=LedgerKind.ADJUST, actor_id=actor_id,
            reason=_reason(reason), request_id=request_id,
        )

    # -- cash tables -----------------------------------------------------------------------
    async def buy_in(
        self, table_id: int, user_id: int, seat_no: int, amount: int,
        *, min_buy_in: int | None = None, max_buy_in: int | None = None,
    ) -> SeatRecord:
        return await self.db.tables.buy_in(
            table_id, user_id, seat_no, amount, min_buy_in=min_buy_in, max_buy_in=max_buy_in
        )

    async def top_up(
        self, table_id: int, user_id: int, amount: int, *, max_buy_in: int | None = None,
        request_id: str | None = None,
    ) -> SeatRecord:
        return await self.db.tables.top_up(
            table_id, user_id, amount, max_buy_in=max_buy_in, request_id=request_id
        )

    async def cash_out(self, table_id: int, user_id: int) -> int:
        return await self.db.tables.cash_out(table_id, user_id)

    # -- the night's ledger (bot.storage.sessions) ---------------------------------------------
    async def session_ledger(self, table_id: int) -> SessionLedger:
        """The cash table's current session (its last once closed), from the chip ledger."""
        return await self.db.sessions.ledger(table_id)

    async def new_session(self, table_id: int, started_by: int) -> SessionLedger:
        """Start a new session at the open cash table; returns the one it ends."""
        return await self.db.sessions.begin(table_id, started_by)

    async def ledger_table(self, channel_id: int) -> int | None:
        """The channel's newest cash table, open or closed (whose ledger ``/table ledger``
        shows)."""
        return await self.db.sessions.newest_table(channel_id)

    # -- tournaments --------------------------------------------------------------------------
    async def enter_tournament(self, tournament_id: int, user_id: int) -> Tournament:
        return await self.db.tournaments.enter(tournament_id, user_id)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> Tournament:
        return await self.db.tournaments.leave(tournament_id, user_id)

    # -- statistics ------------------------------------------------------------------------------
    # ``channels``: only the results in those channels count (None: all; the Discord side
    # decides who may see which, bot.adapter.visibility); balances are the server's whole.
    async def result_channels(self, guild_id: int) -> list[int]:
        """The channels the server's hands and tournaments belong to."""
        return await self.db.stats.channels(guild_id)

    async def stats(
        self, guild_id: int, user_id: int, *, variant: str | None = None,
        period: Period = Period.ALL_TIME, channels: Collection[int] | None = None,
    ) -> PlayerStats:
        return await self.db.stats.player(guild_id, user_id, variant=variant, period=period,
                                          channels=channels)

    async def tournament_stats(
        self, guild_id: int, user_id: int, *, period: Period = Period.ALL_TIME,
        channels: Collection[int] | None = None,
    ) -> TournamentStats:
        """Sit-and-go wins, cashes, buy-ins and prizes (tournaments that paid out)."""
        return await self.db.stats.tournaments(guild_id, user_id, period=period,
                                               channels=channels)

    async def hand_nets(
        self, guild_id: int, user_id: int, *, variant: str | None = None,
        period: Period = Period.ALL_TIME, channels: Collection[int] | None = None,
        season: Season | None = None,
    ) -> list[HandNet]:
        """The player's cash hands in order, each with its net and showdown (graphs)."""
        return await self.db.stats.hand_nets(guild_id, user_id, variant=variant, period=period,
                                             channels=channels, season=season)

    async def finishes(
        self, guild_id: int, user_id: int, *, period: Period = Period.ALL_TIME,
        channels: Collection[int] | None = None, season: Season | None = None,
    ) -> list[TournamentFinish]:
        """The player's sit-and-go finishes in order (graphs)."""
        return await self.db.stats.finishes(guild_id, user_id, period=period, channels=channels,
                                            season=season)

    async def leaderboard(
        self, guild_id: int, metric: Metric | str = Metric.BALANCE,
        *, period: Period | str = Period.ALL_TIME, variant: str | None = None,
        page: int = 0, per_page: int = 10, channels: Collection[int] | None = None,
        season: Season | None = None,
    ) -> LeaderboardPage:
        """Page ``page`` (0-based) of ``per_page`` rows (of ``season`` when given)."""
        try:
            metric, period = Metric(metric), Period(period)
        except ValueError:
            raise EconomyError(Phrase("refuse.leaderboard_unknown")) from None
        page = max(0, int(page))
        return await self.db.stats.leaderboard(
            guild_id, metric, period=period, variant=variant, offset=page * per_page,
            limit=per_page, channels=channels, season=season,
        )

    async def audit(self) -> list[AuditLine]:
        return await self.db.audit()


# -- statistics of one finished hand ---------------------------------------------------------


def summarize_hand(
    hand: HandState, user_of_seat: Mapping[int, int], variant: str | None = None
) -> HandSummary:
    """The settlement's :class:`HandSummary` of a finished engine hand.

    VPIP: a call, bet or raise before the flop (blinds and antes are not
    voluntary); PFR: a bet or raise before the flop; showdown: the seat had
    not folded and was eligible for a pot decided by showdown (not
    uncontested); won at showdown: it took chips from such a pot. ``won``
    counts chips from pots only (an unmatched bet given back is not won).
    ``variant`` defaults to the hand's own.
    """
    result = hand.result  # raises ValueError while the hand is not over
    preflop = [
        e for e in hand.events if isinstance(e, PlayerActed) and e.street is Street.PREFLOP
    ]
    vpip = {e.seat for e in preflop if e.kind in _VOLUNTARY}
    pfr = {e.seat for e in preflop if e.kind in (ActionKind.BET, ActionKind.RAISE)}
    contested = [p for p in result.pots if not p.uncontested]
    at_showdown = {s for p in contested for s in p.eligible if not hand.player(s).folded}
    won_showdown = {s for p in contested for s, chips in (*p.high, *p.low) if chips > 0}
    bounty = dict.fromkeys(result.starting_stacks, 0)
    for paid in result.bounties:
        bounty[paid.seat] += paid.amount
        for payer, chips in paid.payers:
            bounty[payer] -= chips
    lines = tuple(
        SeatResult(
            seat_no=seat,
            user_id=user_of_seat[seat],
            won=result.payouts[seat],
            net=result.net[seat],
            vpip=seat in vpip,
            pfr=seat in pfr,
            showdown=seat in at_showdown,
            won_showdown=seat in at_showdown and seat in won_showdown,
            bounty=bounty[seat],
        )
        for seat in sorted(result.starting_stacks)
    )
    return HandSummary(variant or hand.config.variant.key, lines)


_VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)


def seat_users(seats: Sequence[SeatRecord]) -> dict[int, int]:
    """``seat number -> user id`` for :func:`summarize_hand`."""
    return {s.seat_no: s.user_id for s in seats}
