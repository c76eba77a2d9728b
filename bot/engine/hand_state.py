"""What a hand holds, and the read-only views of it (:class:`HandState`).

:class:`~bot.engine.hand.Hand` adds the moves (start, act, the flow from
street to street, the showdown); the rules it follows are recorded in the
:mod:`bot.engine.hand` docstring.

Seats are table seat numbers, clockwise in ascending order (wrapping). The
players of a hand are kept in *positions* 0..n-1 clockwise from the first
seat after the button (the button is last), which is also PHH's player order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine.betting import Action, BettingRound, IllegalAction, Player
from bot.engine.bomb_pot import BombPot, fits_two_boards
from bot.engine.cards import Card, Deck
from bot.engine.events import (
    BountyPaid,
    CardsShown,
    Event,
    PlayerActed,
    PotAwarded,
    RunTwiceVoted,
    ShowRequested,
    Street,
)
from bot.engine.invariants import violations
from bot.engine.pots import Pot, build_pots
from bot.engine.results import HandResult, hand_result
from bot.engine.straddle import straddle_amount, straddler
from bot.engine.variants import GameConfig

__all__ = ["HandState", "SeatIn", "SeatState"]


@dataclass(frozen=True, slots=True)
class SeatIn:
    """A player dealt into a hand: table seat number and stack.

    ``posts_big_blind``: a newcomer (or a player back after missing their
    big blind) posts a live big blind out of position.
    ``straddle``: the player chose to straddle when under the gun (RULES.md 10;
    :func:`bot.engine.straddle.straddler` says whether this hand has one).
    """

    seat: int
    stack: int
    posts_big_blind: bool = False
    straddle: bool = False


@dataclass(frozen=True, slots=True)
class SeatState:
    """A snapshot of one seat in the hand. ``hole`` is private to the seat's owner
    (kept out of the repr so it never reaches a log line)."""

    seat: int
    starting_stack: int
    stack: int
    bet: int
    committed: int
    folded: bool
    all_in: bool
    hole: tuple[Card, ...] = field(default=(), repr=False)


class HandState:
    """The state of one hand and its read-only views (the moves: :class:`~bot.engine.hand.Hand`)."""

    __slots__ = (
        "_bb_pos",
        "_board",
        "_board2",
        "_by_seat",
        "_deal_order",
        "_double",
        "_events",
        "_mucked",
        "_n",
        "_over",
        "_paid",
        "_players",
        "_pot_results",
        "_result",
        "_returned",
        "_river_aggressor",
        "_round",
        "_sb_pos",
        "_shown",
        "_started",
        "_straddle_pos",
        "_street",
        "_to_act",
        "_voters",
        "bomb_pot",
        "button",
        "config",
        "deck",
    )

    def __init__(self, config: GameConfig, seats: Sequence[SeatIn], button: int,
                 deck: Deck, bomb_pot: BombPot | None = None) -> None:
        n = len(seats)
        #: dealt on two boards: a double-board bomb pot the deck holds (bot.engine.bomb_pot)
        self._double = (bomb_pot is not None and bomb_pot.double_board
                        and fits_two_boards(config.variant, n))
        _check_deal(config, seats, button, deck, self._double)
        ordered = sorted(seats, key=lambda s: s.seat)
        b = next(i for i, s in enumerate(ordered) if s.seat == button)
        ordered = ordered[b + 1:] + ordered[: b + 1]
        self.config = config
        self.button = button
        self.deck = deck
        self.bomb_pot = bomb_pot  # None: blinds and preflop betting as usual
        self._board: list[Card] = []
        self._board2: list[Card] = []  # the second board: run twice, or a double board
        self._voters: list[int] = []  # positions yet to answer the run-it-twice question
        self._n = n
        self._players = [Player(s.seat, i, s.stack, s.posts_big_blind)
                         for i, s in enumerate(ordered)]
        self._by_seat = {p.seat: p for p in self._players}
        if n == 2:
            self._sb_pos, self._bb_pos = 1, 0
        else:
            self._sb_pos, self._bb_pos = 0, 1
        self._deal_order = [(self._sb_pos + k) % n for k in range(n)]
        self._events: list[Event] = []
        self._street = Street.PREFLOP
        # a bomb pot has no blinds, so no straddle either (bot.engine.bomb_pot)
        self._straddle_pos = None if bomb_pot is not None else straddler(config, ordered)
        # preflop the bet to match, and the least raise: the big blind, or the straddle
        opening = config.big_blind if self._straddle_pos is None else straddle_amount(config)
        self._round = BettingRound(config.structure, opening, opening, 1)
        self._to_act: int | None = None
        self._started = False
        self._over = False
        self._river_aggressor: int | None = None
        self._paid = 0
        self._returned: dict[int, int] = {}
        self._shown: dict[int, bool] = {}
        self._mucked: list[int] = []
        self._pot_results: list[PotAwarded] = []
        self._result: HandResult | None = None

    # -- views ------------------------------------------------------------
    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def board(self) -> tuple[Card, ...]:
        """The board cards dealt so far."""
        return tuple(self._board)

    @property
    def second_board(self) -> tuple[Card, ...]:
        """The second board: all five cards of a hand run twice, a double board's as dealt
        so far; else empty."""
        return tuple(self._board2)

    @property
    def double_board(self) -> bool:
        """The hand is dealt on two boards (a double-board bomb pot that the deck holds)."""
        return self._double

    @property
    def boards(self) -> tuple[tuple[Card, ...], ...]:
        """Every board: one, or two when the hand was run twice or is a double board."""
        return (tuple(self._board), tuple(self._board2)) if self._board2 else (tuple(self._board),)

    @property
    def run_twice_voters(self) -> tuple[int, ...]:
        """Seats still to answer whether to run the board twice (empty: no question)."""
        return tuple(self._players[i].seat for i in self._voters)

    @property
    def street(self) -> Street:
        return self._street

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def started(self) -> bool:
        return self._started

    @property
    def to_act(self) -> int | None:
        """The seat number whose decision it is, or ``None``."""
        return None if self._to_act is None else self._players[self._to_act].seat

    @property
    def seat_order(self) -> tuple[int, ...]:
        """Seats clockwise from the first after the button (PHH player order: p1 ... button)."""
        return tuple(p.seat for p in self._players)

    @property
    def deal_order(self) -> tuple[int, ...]:
        """Seats in the order hole cards are dealt (from the small blind; heads-up the button)."""
        return tuple(self._players[i].seat for i in self._deal_order)

    @property
    def small_blind_seat(self) -> int:
        return self._players[self._sb_pos].seat

    @property
    def big_blind_seat(self) -> int:
        return self._players[self._bb_pos].seat

    @property
    def straddle_seat(self) -> int | None:
        """The seat that straddles in this hand (RULES.md 10), or ``None``."""
        pos = self._straddle_pos
        return None if pos is None else self._players[pos].seat

    @property
    def starting_stacks(self) -> dict[int, int]:
        return {p.seat: p.start for p in self._players}

    @property
    def players(self) -> tuple[SeatState, ...]:
        """Public snapshots of every seat, clockwise from the first after the button."""
        return tuple(self._snapshot(p) for p in self._players)

    def player(self, seat: int) -> SeatState:
        return self._snapshot(self._get(seat))

    @staticmethod
    def _snapshot(p: Player) -> SeatState:
        return SeatState(p.seat, p.start, p.stack, p.bet, p.committed, p.folded, p.all_in,
                         p.hole)

    def hole(self, seat: int) -> tuple[Card, ...]:
        """The seat's hole cards: private to its owner until the rules reveal them."""
        return self._get(seat).hole

    @property
    def shown(self) -> dict[int, tuple[Card, ...]]:
        """The hands turned face up so far (seat -> hole cards), in the order shown:
        every live hand once the betting ends with all-ins, then those shown at showdown."""
        return {self._players[i].seat: self._players[i].hole for i in self._shown}

    @property
    def shown_after(self) -> dict[int, tuple[Card, ...]]:
        """The cards shown once the hand was over (RULES.md 10), by seat, in the order of
        the seat's hole cards: the winning 7-2 of a bounty, and what players chose to
        show (:mod:`bot.engine.after_hand`)."""
        seen: dict[int, set[Card]] = {}
        for e in self._events:
            if isinstance(e, CardsShown):
                seen.setdefault(e.seat, set()).update(e.cards)
        return {seat: tuple(c for c in self._by_seat[seat].hole if c in cards)
                for seat, cards in seen.items()}

    @property
    def pot_total(self) -> int:
        """Every chip in the middle (this round's bets included), not yet awarded."""
        return sum(p.committed for p in self._players) - self._paid

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The main pot and side pots as they stand (eligible: seat numbers); once the
        hand is over, the pots as awarded."""
        if self._over:
            merged: dict[int, Pot] = {}
            for a in self._pot_results:  # a pot run twice is awarded once per board
                had = merged.get(a.index)
                merged[a.index] = Pot(a.amount + (had.amount if had else 0), a.eligible)
            return tuple(merged[k] for k in sorted(merged))
        ps = self._players
        raw = build_pots([p.committed for p in ps], [not p.folded for p in ps],
                         [p.all_in for p in ps])
        return tuple(Pot(x.amount, tuple(ps[i].seat for i in x.eligible)) for x in raw)

    @property
    def inputs(self) -> tuple[Event, ...]:
        """The players' inputs so far (actions, show requests, run-it-twice answers and
        cards shown after the hand), for :meth:`replay`."""
        return tuple(e for e in self._events
                     if isinstance(e, PlayerActed | ShowRequested | RunTwiceVoted)
                     or (isinstance(e, CardsShown) and not e.bounty))

    @property
    def actions(self) -> tuple[tuple[int, Action], ...]:
        """Each betting action as ``(seat, action)``, bets and raises as "raise to" totals."""
        return tuple((e.seat, e.action) for e in self._events if isinstance(e, PlayerActed))

    def _get(self, seat: int) -> Player:
        try:
            return self._by_seat[seat]
        except KeyError:
            raise IllegalAction("you are not in this hand") from None

    def _pot(self) -> int:
        return sum(p.committed for p in self._players)


    # -- results -----------------------------------------------------------------------
    @property
    def result(self) -> HandResult:
        """What the finished hand settled (raises ``ValueError`` before the end)."""
        if not self._over:
            raise ValueError("the hand is not over")
        if self._result is None:
            self._result = hand_result(
                self._players, self._pot_results, shown=self._shown, mucked=self._mucked,
                returned=self._returned, board=tuple(self._board),
                variant=self.config.variant, second_board=tuple(self._board2),
                bounties=tuple(e for e in self._events if isinstance(e, BountyPaid)),
            )
        return self._result

    # -- invariants ---------------------------------------------------------------------
    def invariant_violations(self) -> list[str]:
        """Broken invariants (empty when all is well); tests call it after every action."""
        return violations(
            self._players, self._board, variant=self.config.variant, street=self._street,
            started=self._started, over=self._over, paid=self._paid, to_act=self._to_act,
            betting=self._round, asking=bool(self._voters), second_board=self._board2,
            double=self._double,
        )



def _check_deal(config: GameConfig, seats: Sequence[SeatIn], button: int, deck: Deck,
                double: bool = False) -> None:
    """Raise ``ValueError`` unless these seats, button and deck can play a hand (on two
    boards when ``double``)."""
    n = len(seats)
    if n < 2:
        raise ValueError("a hand needs at least 2 players")
    if n > config.max_seats:
        raise ValueError(
            f"{config.variant.name} seats at most {config.max_seats} players"
        )
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != n:
        raise ValueError("a seat number appears twice")
    if button not in numbers:
        raise ValueError("the button must be on a seat dealt into the hand")
    for s in seats:
        if s.stack < 1:
            raise ValueError(f"seat {s.seat} has no chips")
    needed = n * config.variant.hole_cards + (16 if double else 8)
    if deck.remaining < needed:
        raise ValueError("the deck does not hold enough cards for this hand")
