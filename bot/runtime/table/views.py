"""Immutable snapshots of a table that the runtime hands to its observer.

They are taken under the table's lock and never change afterwards, so the
presenter can render them in a worker thread while play goes on. Nothing
here holds a player's hole cards except :attr:`SeatSnapshot.shown` (set only
once the rules reveal them at showdown).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.cards import Card
from bot.engine.evaluate import MadeHand
from bot.engine.events import ActionKind, Street
from bot.runtime.config import TableConfig
from bot.runtime.decisions import Source


@dataclass(frozen=True)
class SeatSnapshot:
    seat: int
    user_id: int
    name: str
    stack: int  # behind, right now (during a hand: after the chips put in)
    bet: int = 0  # in front of the player in this betting round
    committed: int = 0  # put in this hand (antes, blinds, bets)
    in_hand: bool = False  # dealt in and not folded
    dealt_in: bool = False
    folded: bool = False
    all_in: bool = False
    sitting_out: bool = False
    waiting_for_big_blind: bool = False
    leaving: bool = False
    time_bank: int = 0
    shown: tuple[Card, ...] = ()  # revealed at showdown only

    @property
    def status(self) -> str:
        if self.leaving:
            return "leaving"
        if self.all_in:
            return "all-in"
        if self.folded:
            return "folded"
        if self.sitting_out:
            return "sitting out"
        if self.waiting_for_big_blind:
            return "waiting for the big blind"
        return "playing" if self.dealt_in else "seated"


@dataclass(frozen=True)
class Way:
    """A step a player can take from where their seat is (:mod:`bot.runtime.table.ways`):
    ``kind`` is ``topup`` (``amount`` chips), ``sitin``, ``post`` (sit in posting a big
    blind now), ``stay`` (not leave after all) or ``leave``; or a standing choice the
    player may change: ``straddle`` / ``nostraddle`` (:mod:`bot.runtime.table.straddle`)."""

    kind: str
    amount: int = 0


@dataclass(frozen=True)
class PotSnapshot:
    amount: int
    seats: tuple[int, ...]  # who may win it


@dataclass(frozen=True)
class TableSnapshot:
    table_id: int
    guild_id: int
    channel_id: int
    creator_id: int
    config: TableConfig
    seats: tuple[SeatSnapshot, ...]
    button: int | None = None
    hand_no: int = 0
    hand_id: int | None = None
    street: Street | None = None
    board: tuple[Card, ...] = ()
    second_board: tuple[Card, ...] = ()  # a hand run twice (or a double board): its second
    pot: int = 0  # every chip in the middle, bets of this round included
    pots: tuple[PotSnapshot, ...] = ()  # as they stand, this round's bets included
    collected: tuple[PotSnapshot, ...] = ()  # main and side pots without this round's bets
    to_act: int | None = None
    closed: bool = False
    small_blind: int | None = None  # seat numbers, during a hand (none in a bomb pot)
    big_blind: int | None = None
    straddle: int | None = None  # the seat that straddled this hand (RULES.md 10)
    #: The hand is a bomb pot (RULES.md 10): the ante every player posted (0: it is not),
    #: and whether it is dealt on two boards (``second_board`` then holds board 2).
    bomb_ante: int = 0
    double_board: bool = False
    #: The hand's deck commitment (SHA-256 root, hex), from before the deal (not in reprs:
    #: its hex digits read like cards to a test that looks for cards).
    commitment: str = field(default="", repr=False)

    def seat_of(self, user_id: int) -> SeatSnapshot | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def at(self, seat: int) -> SeatSnapshot | None:
        return next((s for s in self.seats if s.seat == seat), None)


@dataclass(frozen=True)
class TurnView:
    """A decision waiting for a player, with what they may do."""

    token: str  # "<hand_no>.<action seq>": buttons carry it so stale clicks are refused
    seat: int
    user_id: int
    name: str
    can_check: bool
    to_call: int
    min_raise_to: int | None
    max_raise_to: int | None
    is_bet: bool
    all_in_to: int
    current_bet: int
    pot: int
    clock: float  # seconds of the decision clock left (in the time bank: all that is left)
    time_bank: float  # seconds of time bank left after the clock (0 once it is being spent)
    deadline: float  # on the table's clock, the decision clock plus the time bank
    presets: tuple[tuple[str, int], ...] = ()  # ("Min", 4), ("½ Pot", 6), ("Pot", 9)
    #: the clock waited while the dealer could not hear the table (RULES.md 8), and runs
    #: again: why (``bot.runtime.hearing.GATEWAY`` or ``STORAGE``); "" when it did not
    waited: str = ""

    @property
    def verb(self) -> str:
        return "Bet" if self.is_bet else "Raise to"


@dataclass(frozen=True)
class ActionView:
    seat: int
    user_id: int
    name: str
    kind: ActionKind  # what it was: fold, check, call, bet or raise (never ALL_IN)
    amount: int | None  # chips added for a call, the "to" total for a bet or raise
    text: str  # "alice raises to 12"
    source: Source = Source.PLAYER
    all_in: bool = False  # the action put the player's last chip in


@dataclass(frozen=True)
class PrivateCards:
    """A player's own hole cards with the board and what they make (for them only)."""

    cards: tuple[Card, ...] = field(repr=False)
    board: tuple[Card, ...]
    label: str  # "Two pair, kings and sevens" once the flop is out, else ""
    second_board: tuple[Card, ...] = ()  # a double board or a second run: board 2
    second_label: str = ""  # what they make on board 2


@dataclass(frozen=True)
class ShownHandView:
    seat: int
    user_id: int
    name: str
    cards: tuple[Card, ...]
    label: str  # "Flush, ace high" (hi-lo: "; Low 7-5-4-2-A" or "; no low")
    high: MadeHand | None = None  # the five cards of the best high hand
    low: MadeHand | None = None  # hi-lo: the five cards of the best low, if any


@dataclass(frozen=True)
class PotWinnerView:
    seat: int
    name: str
    amount: int
    half: str = ""  # "high", "low" or "" (the whole pot)


@dataclass(frozen=True)
class PotResultView:
    label: str  # "Main pot", "Side pot 1", "Pot"
    amount: int
    winners: tuple[PotWinnerView, ...]
    uncontested: bool = False
    board: int = 0  # a hand run twice: 1 or 2, the board this share was played on


@dataclass(frozen=True)
class BountyView:
    """A 7-2 bounty (RULES.md 10): ``name`` collects ``amount``, ``payers`` are ``(name,
    chips)`` of each player who paid something; ``shown``: the winning 7-2, when the
    bot showed it (the hand was won without a showdown), else ()."""

    seat: int
    name: str
    amount: int
    payers: tuple[tuple[str, int], ...]
    shown: tuple[Card, ...] = ()


@dataclass(frozen=True)
class HandResultView:
    hand_no: int
    board: tuple[Card, ...]
    lines: tuple[str, ...]  # "alice wins 40 with a flush, ace high (main pot)"
    payouts: dict[int, int] = field(default_factory=dict)  # seat -> chips won
    net: dict[int, int] = field(default_factory=dict)  # seat -> won minus put in
    shown: tuple[ShownHandView, ...] = ()
    mucked: tuple[int, ...] = ()
    uncontested: bool = False
    pots: tuple[PotResultView, ...] = ()
    second_board: tuple[Card, ...] = ()  # a hand run twice: its second board
    second_shown: tuple[ShownHandView, ...] = ()  # the shown hands as they play on it
    bounties: tuple[BountyView, ...] = ()  # the 7-2 bounties paid after the pots
    #: What the result offers until the next deal (RULES.md 10): a rabbit hunt, and
    #: showing cards (:mod:`bot.runtime.table.after_hand`).
    rabbit_hunt: bool = False
    showing: bool = False
    #: Posted after a restart: the bot was stopped between settling the hand and posting
    #: its result (:mod:`bot.runtime.table.late_results`).
    after_restart: bool = False
