"""What the renderer draws: small frozen views filled by the runtime.

The renderer does not know the hand state machine. The runtime copies what a
picture needs into these views: engine :class:`~bot.engine.cards.Card` objects
and plain values (chip amounts are ints, names are display names, clocks are
seconds). Every view is immutable and safe to hand to a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from bot.engine.cards import Card


class SeatStatus(StrEnum):
    """What a seat is doing in the current hand."""

    ACTIVE = "active"  # dealt in and still in the hand
    FOLDED = "folded"
    ALL_IN = "all_in"
    SITTING_OUT = "sitting_out"  # at the table but not dealt in
    WAITING = "waiting"  # sat down, waits for the big blind or the next hand


@dataclass(frozen=True, slots=True)
class SeatView:
    """One occupied seat at the table."""

    seat: int  # table seat number, 1..max_seats
    name: str
    stack: int  # chips behind (not counting the bet in front)
    bet: int = 0  # chips put in during this betting round
    status: SeatStatus = SeatStatus.ACTIVE
    blind: str = ""  # "SB", "BB", "STR" (a straddle), "SB+BB" (or "" when none posted): a
    # marker in front of the seat, in place of the bet's chip (drawn even without a bet;
    # not after the hand)
    cards: int = 0  # hole cards held (drawn face down; 0 for none)
    shown: tuple[Card, ...] = ()  # hole cards shown face up (after showdown)
    #: After the hand, the seat's net for it (collected minus put in): drawn in place of
    #: what it won ("+140", "−10"); None: the amount won is drawn, when there is one.
    net: int | None = None


@dataclass(frozen=True, slots=True)
class PotWinner:
    """A share of one pot: who took it, how much, and which half."""

    name: str
    amount: int
    half: str = ""  # "high", "low" or "" (the whole pot); a high and a low share of the
    # same pot for the same player are drawn as one "scoop"
    seat: int = 0  # the winner's seat number (0: unknown; the name is matched instead)


@dataclass(frozen=True, slots=True)
class PotView:
    """A pot in the middle: the main pot first, then the side pots in order."""

    amount: int
    label: str = ""  # "Main pot", "Side pot 1"; empty: numbered automatically
    # After the hand: who took this pot (high and low halves apart). A table view
    # with any winners is a finished hand: the picture shows each pot's winners
    # instead of the pots in play (bets are not drawn: every chip is in a pot),
    # outlines the winning seats with their net (SeatView.net; else what they won),
    # and reads "Showdown" (cards
    # were shown) or "Hand over" whatever ``TableView.street`` says.
    winners: tuple[PotWinner, ...] = ()


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything the table picture shows."""

    table_name: str
    hand_number: int
    max_seats: int  # 2..10: fixes where each seat number sits around the table
    seats: tuple[SeatView, ...]
    board: tuple[Card, ...] = ()  # 0..5 cards; Courchevel shows its first card preflop
    second_board: tuple[Card, ...] = ()  # a hand run twice: the second board, 0..5 cards
    pots: tuple[PotView, ...] = ()  # collected pots; this round's bets stay with the seats
    # (the picture's "Pot" line adds both: everything in the middle)
    button: int | None = None  # the dealer's seat number
    to_act: int | None = None  # whose turn it is
    clock: float | None = None  # seconds left for the player to act
    clock_total: float | None = None  # the full turn time (draws the clock bar)
    game: str = ""  # "Pot-limit Omaha Hi-Lo · 1/2"
    street: str = ""  # "Preflop", "Flop", "Turn", "River" (see PotView.winners after the hand)
    note: str = ""  # one line under the board when the pots leave a row free
    locale: str = "en"  # the table's language (bot.render.words): words, streets, pots, hands
    lit: tuple[Card, ...] = ()  # a pot being awarded (replays): the cards that win it (two
    # from the hand, three from the board); the other face-up cards are drawn faded


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One still of a hand's replay: the table then, a caption under it, how long it holds."""

    table: TableView
    caption: str  # what happened: "alice raises to 120", "Flop", "bob wins 450 high ..."
    hold: int  # milliseconds on screen
    kind: str  # "deal", "action", "board", "show", "vote", "award" or "end"
    actor: int = 0  # the seat that acted (outlined), 0: none
    own: tuple[Card, ...] = ()  # the reader's hole cards, drawn beside the caption (their
    # seat shows them face down like the others, so its bets stay in sight)


@dataclass(frozen=True, slots=True)
class ReplayView:
    """A finished hand as an animation (:func:`bot.render.replay.render_replay`)."""

    frames: tuple[ReplayFrame, ...]


@dataclass(frozen=True, slots=True)
class HoleCardsView:
    """A player's private cards, sent in a direct message."""

    table_name: str
    hand_number: int
    cards: tuple[Card, ...]  # 4, 5 or 6 (any order: the picture sorts them)
    board: tuple[Card, ...] = ()
    label: str = ""  # the "you have" label (evaluate.hand_label), shown when the board is out
    game: str = ""
    locale: str = "en"  # the player's language (bot.render.words)
    second_board: tuple[Card, ...] = ()  # a double board or a second run: board 2
    second_label: str = ""  # what the player has on board 2


class MadeHandLike(Protocol):
    """A made hand: :class:`bot.engine.evaluate.MadeHand` fits."""

    @property
    def cards(self) -> tuple[Card, ...]: ...  # the five cards used

    @property
    def description(self) -> str: ...


@dataclass(frozen=True, slots=True)
class BestHand:
    """A plain made hand for callers that do not have a MadeHand at hand."""

    cards: tuple[Card, ...]
    description: str


@dataclass(frozen=True, slots=True)
class ShowdownHand:
    """One hand shown down."""

    name: str
    hole: tuple[Card, ...]
    high: MadeHandLike | None = None
    low: MadeHandLike | None = None  # hi-lo only; None: no qualifying low
    won: int = 0  # chips won in this hand, all pots together
    seat: int = 0  # the player's seat (0: unknown); matches PotWinner.seat, else the name
    second_high: MadeHandLike | None = None  # two boards: the hand on board 2
    second_low: MadeHandLike | None = None
    net: int | None = None  # the hand's net (collected minus put in), drawn for ``won``


@dataclass(frozen=True, slots=True)
class PotResult:
    """Who won one pot and how much."""

    label: str  # "Main pot", "Side pot 1"
    amount: int
    winners: tuple[PotWinner, ...]


@dataclass(frozen=True, slots=True)
class ShowdownView:
    table_name: str
    hand_number: int
    board: tuple[Card, ...]
    hands: tuple[ShowdownHand, ...]
    pots: tuple[PotResult, ...] = ()
    hi_lo: bool = False
    game: str = ""
    locale: str = "en"  # the table's language (bot.render.words)
    second_board: tuple[Card, ...] = ()  # a double board: board 2 (the hands' second fives)


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    name: str
    value: int | str  # ints are drawn with thousands separators


@dataclass(frozen=True, slots=True)
class LeaderboardView:
    title: str
    rows: tuple[LeaderboardRow, ...]
    subtitle: str = ""
    value_label: str = ""  # heading of the value column ("Chips", "Won")
    highlight: str = field(default="")  # a name to pick out (the player who asked)
    locale: str = "en"  # the reader's language (bot.render.words)


@dataclass(frozen=True, slots=True)
class GraphLine:
    """One line of a results graph: the running total after each hand or tournament."""

    label: str  # the legend: "Net", "At showdown", "Without showdown", "Profit"
    points: tuple[int, ...]  # the total after step 1, 2, ... (the line starts at 0)
    kind: str = "net"  # "net" (coloured by sign), "showdown", "no_showdown": its ink


@dataclass(frozen=True, slots=True)
class GraphMark:
    """A labelled point on a graph's first line: a tournament's finish."""

    x: int  # the step (1 = the first)
    label: str  # "1st", "3º"
    good: bool = False  # a cash: drawn in the money colour


@dataclass(frozen=True, slots=True)
class GraphPanel:
    """One graph: a title, a line under it, the lines over the steps."""

    title: str
    subtitle: str
    x_label: str  # "Hands", "Tournaments"
    lines: tuple[GraphLine, ...]
    marks: tuple[GraphMark, ...] = ()


@dataclass(frozen=True, slots=True)
class GraphView:
    """Results graphs (``/stats``, ``/leaderboard graphs``): panels side by side."""

    title: str
    panels: tuple[GraphPanel, ...]
    columns: int = 1
    locale: str = "en"  # the reader's language (bot.render.words): numbers
    #: One y scale for every panel (the leaderboard's players, compared side by side).
    shared_scale: bool = False


@dataclass(frozen=True, slots=True)
class ResultRow:
    place: int | None  # None: still in when the tournament was cancelled
    name: str
    prize: int


@dataclass(frozen=True, slots=True)
class ResultsView:
    """A finished (or cancelled) tournament: places, names and prizes, best first."""

    title: str
    subtitle: str
    rows: tuple[ResultRow, ...]
    locale: str = "en"  # the table's language (bot.render.words): the "Prize" heading
