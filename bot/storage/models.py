"""Dataclasses returned by the repositories (callers never see rows or SQL)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine.cards import Card

#: Amounts above this are refused as absurd.
MAX_AMOUNT = 10**15
#: No credit (a grant, a cash-out, a prize, a refund, the daily bonus) takes a balance
#: beyond this: it is refused (``refuse.balance_too_large``) and changes nothing.
MAX_BALANCE = MAX_AMOUNT * 1000


class LedgerKind(StrEnum):
    START = "start"  # starting balance on first use
    GRANT = "grant"  # a manager's grant
    DAILY = "daily"  # daily bonus
    REMOVE = "remove"  # a manager's removal
    ADJUST = "adjust"  # an administrator's correction (either direction)
    BUY_IN = "buy_in"
    TOP_UP = "top_up"
    CASH_OUT = "cash_out"
    HAND = "hand"  # chips into a hand's pot, or won from it
    TOURNAMENT_ENTRY = "tournament_entry"
    TOURNAMENT_REFUND = "tournament_refund"
    TOURNAMENT_PRIZE = "tournament_prize"
    TOURNAMENT_CHIPS = "tournament_chips"  # tournament chips issued to / taken from a seat


class Metric(StrEnum):
    BALANCE = "balance"
    NET_WON = "net_won"
    BIGGEST_POT = "biggest_pot"
    HANDS_WON = "hands_won"
    TOURNAMENT_WINS = "tournament_wins"
    TOURNAMENT_CASHES = "tournament_cashes"
    TOURNAMENT_PROFIT = "tournament_profit"
    TOURNAMENT_ROI = "tournament_roi"  # whole percent: profit / buy-ins paid


class Period(StrEnum):
    ALL_TIME = "all_time"
    WEEK = "week"  # since Monday 00:00 UTC
    MONTH = "month"  # since the 1st of the month 00:00 UTC


class TurnPings(StrEnum):
    """When the turn message's mention notifies a player (``/prefs``)."""

    ALWAYS = "always"  # every turn message
    LOW = "low"  # only a short message when their clock runs low
    NEVER = "never"


class HoleCards(StrEnum):
    """How a player gets their hole cards (``/prefs``)."""

    DM = "dm"  # a direct message every hand
    REQUEST = "request"  # "panel only": no DM; the seat panel (My seat) and /cards show them


class Reminders(StrEnum):
    """How a player is reminded of a scheduled game they are interested in (``/prefs``)."""

    PING = "ping"  # named in the one reminder message in the game's channel
    DM = "dm"  # a direct message (closed DMs: the ping instead)


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """A player's choices in one server (the defaults without a stored row)."""

    turn_pings: TurnPings = TurnPings.ALWAYS
    hole_cards: HoleCards = HoleCards.DM
    #: Their own pictures (hole cards, private replays): the deck's colours and the
    #: background, as :class:`bot.render.DeckStyle` and :class:`bot.render.Theme` name them.
    deck: str = "four_colour"
    theme: str = "dark"
    reminders: Reminders = Reminders.PING


@dataclass(frozen=True, slots=True)
class EconomySettings:
    guild_id: int
    starting_balance: int = 10_000
    daily_base: int = 1_000
    daily_step: int = 100
    daily_max_streak: int = 7


@dataclass(frozen=True, slots=True)
class Wallet:
    guild_id: int
    user_id: int
    balance: int
    daily_last_at: float | None
    daily_streak: int
    created_at: float


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    id: int
    guild_id: int
    at: float
    kind: LedgerKind
    amount: int
    src: str
    dst: str
    user_id: int | None
    actor_id: int | None
    table_id: int | None
    hand_id: int | None
    tournament_id: int | None
    reason: str | None


@dataclass(frozen=True, slots=True)
class DailyClaim:
    amount: int
    streak: int
    balance: int
    next_at: float  # when the next claim opens


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    kind: str  # "cash" or "tournament"
    tournament_id: int | None
    settings: Mapping[str, Any]
    hands_dealt: int
    created_at: float
    closed_at: float | None


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat as stored (the live table's seat is :class:`bot.runtime.seating.Seat`)."""

    table_id: int
    seat_no: int
    user_id: int
    stack: int
    sitting_out: bool
    joined_at: float
    straddle: bool = False  # the player's standing choice (RULES.md 10)
    time_bank: float | None = None  # seconds of time bank left (None: the whole bank)


@dataclass(frozen=True, slots=True)
class HandSeatIn:
    """A seat dealt into a hand: its starting stack must equal the seat's stack."""

    seat_no: int
    user_id: int
    stack: int
    posts_big_blind: bool = False
    straddle: bool = False  # chose to straddle under the gun (the engine says if they did)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line of a hand summary (what statistics and the ledger need).

    ``won``: chips taken from pots (an uncalled bet given back is not won);
    ``net``: final stack minus starting stack; ``vpip``: put chips in the pot
    voluntarily before the flop (blinds and antes do not count); ``pfr``:
    bet or raised before the flop; ``showdown``: still in the hand when it was
    decided at a showdown; ``won_showdown``: won (part of) a pot there;
    ``bounty``: the 7-2 bounty collected (positive) or paid (negative), within ``net``
    and apart from ``won`` (RULES.md 10).
    """

    seat_no: int
    user_id: int
    won: int
    net: int
    vpip: bool = False
    pfr: bool = False
    showdown: bool = False
    won_showdown: bool = False
    bounty: int = 0


@dataclass(frozen=True, slots=True)
class HandSummary:
    """What the settlement of a hand takes: its variant and one line per seat dealt in."""

    variant: str
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    id: int
    guild_id: int
    table_id: int
    number: int
    variant: str
    settings: Mapping[str, Any]
    button: int
    status: str  # "running", "finished", "cancelled"
    resumed: int
    started_at: float
    ended_at: float | None
    result: Mapping[str, Any] | None
    cancel_reason: str | None
    commitment: str | None = None  # the deck commitment's root (hex), posted before the deal
    #: The id of the message that posted ``commitment``, and where: the table's commitment
    #: thread (None: the table's channel, as for hands dealt before threads).
    commitment_message: int | None = None
    commitment_channel: int | None = None


@dataclass(frozen=True, slots=True)
class HandSeatRecord:
    hand_id: int
    seat_no: int
    user_id: int
    start_stack: int
    posts_big_blind: bool
    final_stack: int | None
    won: int | None
    net: int | None
    straddle: bool = False


@dataclass(frozen=True, slots=True)
class UnfinishedHandRecord:
    """Everything needed to rebuild a hand interrupted by a crash."""

    hand: HandRecord
    seats: tuple[HandSeatRecord, ...]
    actions: tuple[Mapping[str, Any], ...]
    deck: tuple[Card, ...] = field(repr=False)  # secret: never log
    salts: tuple[bytes, ...] = field(default=(), repr=False)  # the commitment's: as secret


@dataclass(frozen=True, slots=True)
class RevealedDeal:
    """A finished hand's deck, salts and commitment (to build its players' proofs)."""

    deck: tuple[Card, ...] = field(repr=False)
    salts: tuple[bytes, ...] = field(repr=False)
    commitment: str


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    user_id: int
    variant: str | None  # None: every variant together
    hands_played: int = 0
    hands_won: int = 0
    net: int = 0
    biggest_pot: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    showdowns: int = 0
    showdowns_won: int = 0

    @property
    def vpip(self) -> float:
        """Share of hands with chips put in voluntarily before the flop (0..1)."""
        return self.vpip_hands / self.hands_played if self.hands_played else 0.0

    @property
    def pfr(self) -> float:
        """Share of hands with a bet or raise before the flop (0..1)."""
        return self.pfr_hands / self.hands_played if self.hands_played else 0.0


@dataclass(frozen=True, slots=True)
class HandNet:
    """A player's result in one finished cash hand (``/stats``'s graph)."""

    hand_id: int
    ended_at: float
    net: int  # chips won minus chips put in
    showdown: bool  # the player was still in when a contested pot was shown down


@dataclass(frozen=True, slots=True)
class TournamentFinish:
    """A player's finish in one sit-and-go that paid out (``/stats``'s graph)."""

    tournament_id: int
    ended_at: float
    place: int | None  # None: still in when the tournament was cancelled
    entrants: int
    buy_in: int
    prize: int


@dataclass(frozen=True, slots=True)
class TournamentStats:
    """A player's sit-and-go results (tournaments that paid out; refunds do not count)."""

    played: int = 0
    wins: int = 0
    cashes: int = 0  # finished with a prize (a share of a cancelled pool included)
    buy_ins: int = 0  # chips paid in
    prizes: int = 0  # chips won

    @property
    def profit(self) -> int:
        return self.prizes - self.buy_ins

    @property
    def roi(self) -> float:
        """Return on investment: profit per chip paid in (0.25 is +25%)."""
        return self.profit / self.buy_ins if self.buy_ins else 0.0


@dataclass(frozen=True, slots=True)
class LeaderboardRecord:
    rank: int
    user_id: int
    value: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    metric: Metric
    period: Period
    variant: str | None
    offset: int
    limit: int
    total: int  # players ranked in all
    rows: tuple[LeaderboardRecord, ...]


@dataclass(frozen=True, slots=True)
class Season:
    """A server's named stretch of time: results that ended in ``[started_at, ended_at)``
    (``ended_at`` None: the season running now) are its standings."""

    id: int
    guild_id: int
    name: str
    started_at: float
    ended_at: float | None
    started_by: int

    @property
    def running(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One player's session at a cash table (the night's ledger), all from the ledger's
    rows of their seat: ``buy_ins`` counts the stack they had there when the session
    began (a session started while they sat); ``stack`` is what their seat holds now
    (0 once they left). ``net`` is what they won or lost at play."""

    user_id: int
    buy_ins: int
    top_ups: int
    cash_outs: int
    stack: int

    @property
    def net(self) -> int:
        return self.stack + self.cash_outs - self.buy_ins - self.top_ups


@dataclass(frozen=True, slots=True)
class SessionLedger:
    """A cash table's session: number ``number`` of the table (1 from its opening), from
    ``started_at`` until ``ended_at`` (the next session's start or the table's close; None
    while it runs); ``lines`` best net first."""

    table_id: int
    guild_id: int
    channel_id: int
    number: int
    started_at: float
    ended_at: float | None
    lines: tuple[SessionLine, ...]

    @property
    def total(self) -> int:
        """The nets' sum: 0, as chips only move between the players of the table."""
        return sum(line.net for line in self.lines)


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    buy_in: int
    starting_stack: int
    settings: Mapping[str, Any]
    status: str  # "registering", "running", "finished", "cancelled"
    pool: int
    created_at: float
    started_at: float | None
    ended_at: float | None
    entrants: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class AuditLine:
    guild_id: int
    balances: int
    stacks: int
    pools: int
    minted: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        held = self.balances + self.stacks + self.pools
        head = (
            f"guild {self.guild_id}: balances {self.balances} + stacks {self.stacks} + "
            f"pools {self.pools} = {held}; granted {self.minted}: "
        )
        return head + ("OK" if self.ok else "MISMATCH: " + "; ".join(self.problems))
