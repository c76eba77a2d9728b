"""Who is dealt in, the button and the blinds: the table's pure seating core (RULES.md 3, 7, 8).

No asyncio, no storage, no Discord: :func:`plan_deal` reads the seats and the
button memory (:class:`Dealer`) and returns a :class:`DealPlan` (or a
:class:`Draw` when the button must be drawn); :func:`record_plan` records a plan
in the seats and the memory. The async table only calls these two.

The rules, as decided here (RULES.md section 3, "Seats, button, blinds"):

* **Ready** players could be dealt in: at a cash table they have chips and
  are neither sitting out nor leaving; in a tournament everyone with chips is
  ready, sitting out or not (the :class:`SeatRule` says which).
* **Entering** players owe a big blind: they sat down once the game had
  begun, or the big blind passed their seat while they sat out. They chose to
  post a big blind out of position (``post_big_blind``) or to wait for it.
  **Active** players are ready and owe nothing.
* **The button** moves to the next *active* seat clockwise after the last
  button. Entering players never get it: the button moves only over players
  dealt in, so a waiting player is passed over, not "skipped" (an entering
  player dealt in to this very hand was still waiting when the button moved).
* **Waiting for the big blind** is judged as if every ready player were dealt
  in: clockwise from the button over the ready seats, the seat after the
  would-be small blind is the would-be big blind; a waiting player in that
  seat enters as the big blind. Heads-up this is what lets a third player in:
  the two go on heads-up until the would-be big blind is the waiting seat.
* **Posting** players are dealt in at once, paying a live big blind out of
  position, unless their seat is the would-be small blind.
* **Never on the small blind**: when an entering player would land on the
  small blind of the hand actually dealt (because the seat before them is an
  entering player who cannot be dealt in yet), they are not dealt in this
  hand and wait their turn again. So every entering player is dealt in as the
  big blind or posting a big blind, never on the button or the small blind.
* **Heads-up transition**: when the hand to deal has two players and the last
  had more, the player who posted the big blind in the last hand, if dealt in,
  takes the button (and so posts the small blind): nobody posts the big blind
  twice in a row. Otherwise the button moves as usual.
* **A fresh start**: for the first hand, or when the table stopped for lack
  of players (:meth:`Dealer.stop`), or when fewer than two active players are
  left (entering players alone cannot make a game by these rules), the button
  is drawn among the ready players, every ready player is dealt in and
  nobody owes a blind; a player sitting out at that moment keeps what they
  owed (a big blind missed before the table stopped is still owed when they
  come back, so they never enter on the small blind). The table stops however
  it comes to have fewer than two ready players: at the end of a hand
  (:func:`ready_to_deal`) or when the deal after the pause finds them gone
  (:func:`plan_deal` stops the dealer).
* **Busting and coming back** (RULES.md 7): a cash player with no chips is sat
  out; chips added to an empty stack (:func:`rebuy`) sit them in
  again as an entering player who posts a big blind out of position from the
  next hand (the move of a player who tops up at once to play on), or, at a
  stopped table, owes nothing since the next hand draws for the button. A
  player sitting down (:func:`seat_down`) enters the same way, waiting or
  posting as they chose.
* **Missing the big blind**: a player sitting out (with chips) whose seat the
  big blind passes, from the seat after the last big blind up to and
  including the new one, owes a big blind when they come back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from bot.engine.cards import Card

__all__ = [
    "DealPlan",
    "Dealer",
    "Draw",
    "PreAction",
    "Seat",
    "SeatRule",
    "cash_ready",
    "clockwise_from",
    "drawn_plan",
    "next_clockwise",
    "plan_deal",
    "ready_to_deal",
    "rebuy",
    "record_plan",
    "seat_down",
    "strictly_between",
    "tournament_ready",
]


class PreAction(StrEnum):
    """A decision a player makes before their turn (see :mod:`bot.runtime.preactions`)."""

    CHECK_FOLD = "check/fold"
    CALL_ANY = "call any"
    FOLD_TO_BET = "fold to any bet"


@dataclass
class Seat:
    """One occupied seat between hands (the hand's own state lives in the engine's ``Hand``)."""

    number: int
    user_id: int
    name: str
    stack: int
    time_bank: float
    sitting_out: bool = False
    needs_big_blind: bool = False  # entering: owes a big blind, posts it or waits for it
    post_big_blind: bool = False  # chose to post rather than wait
    leaving: bool = False
    timeouts: int = 0  # consecutive
    clock_sat_out: bool = False  # sat out by the clock during the current hand
    pre_action: PreAction | None = None
    straddle: bool = False  # straddles when under the gun, where the table allows it (RULES 10)


#: Which seats could be dealt in (cash tables and tournaments differ).
SeatRule = Callable[[Seat], bool]


def cash_ready(seat: Seat) -> bool:
    """At a cash table: chips, not sitting out, not leaving."""
    return seat.stack > 0 and not seat.sitting_out and not seat.leaving


def tournament_ready(seat: Seat) -> bool:
    """In a tournament: everyone with chips, sitting out or not (RULES.md 8)."""
    return seat.stack > 0


@dataclass
class Dealer:
    """What the table remembers between hands to place the button and blinds."""

    button: int | None = None  # None: draw for the button before the next hand
    last_big_blind: int | None = None
    last_dealt: int = 0  # players dealt into the last hand

    def stop(self) -> None:
        """The table stopped for lack of players: the next hand draws for the button."""
        self.button = None
        self.last_big_blind = None
        self.last_dealt = 0


def seat_down(
    number: int, user_id: int, name: str, stack: int, time_bank: float, dealer: Dealer,
    *, post_big_blind: bool = False,
) -> Seat:
    """A player sitting down: once the game has begun they owe a big blind (RULES.md 3)."""
    return Seat(
        number=number,
        user_id=user_id,
        name=name,
        stack=stack,
        time_bank=time_bank,
        needs_big_blind=dealer.button is not None,
        post_big_blind=post_big_blind,
    )


def rebuy(seat: Seat, amount: int, dealer: Dealer) -> bool:
    """Add ``amount`` chips; a busted seat comes back as an entering player who posts a
    big blind from the next hand (RULES.md 7, 3). True when the seat came back."""
    came_back = seat.stack == 0
    seat.stack += amount
    if came_back:
        seat.sitting_out = False
        seat.timeouts = 0
        seat.needs_big_blind = dealer.button is not None
        seat.post_big_blind = seat.needs_big_blind
    return came_back


@dataclass(frozen=True)
class Draw:
    """The button must be drawn among ``seats`` (every one of them is dealt in)."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class DealPlan:
    """Who is dealt into the next hand and where the button and blinds are."""

    button: int
    dealt: tuple[int, ...]  # ascending seat numbers
    posts: frozenset[int] = field(default_factory=frozenset)  # big blinds out of position
    drawn: tuple[tuple[int, Card], ...] = ()  # the draw for the button: (seat, card)

    @property
    def small_blind(self) -> int:
        order = clockwise_from(self.button, self.dealt)
        return order[0] if len(order) == 2 else order[1]

    @property
    def big_blind(self) -> int:
        order = clockwise_from(self.button, self.dealt)
        return order[1] if len(order) == 2 else order[2]


# ------------------------------------------------------------------ positions


def clockwise_from(start: int, seats: Iterable[int]) -> list[int]:
    """``seats`` in clockwise order beginning with ``start`` (which must be among them)."""
    ordered = sorted(seats)
    i = ordered.index(start)
    return ordered[i:] + ordered[:i]


def next_clockwise(after: int, seats: Iterable[int]) -> int:
    """The first of ``seats`` strictly clockwise after seat ``after``."""
    ordered = sorted(seats)
    return next((n for n in ordered if n > after), ordered[0])


def strictly_between(a: int, x: int, b: int) -> bool:
    """Whether seat ``x`` lies strictly between ``a`` and ``b`` going clockwise."""
    return 0 < (x - a) % 1000 < (b - a) % 1000


def _blinds(button: int, dealt: Iterable[int]) -> tuple[int, int]:
    order = clockwise_from(button, dealt)
    return (order[0], order[1]) if len(order) == 2 else (order[1], order[2])


# ------------------------------------------------------------------ the plan


def ready_to_deal(seats: Mapping[int, Seat], dealer: Dealer, ready: SeatRule = cash_ready) -> bool:
    """Whether two players are ready; if not, the table has stopped (:meth:`Dealer.stop`)."""
    if sum(map(ready, seats.values())) >= 2:
        return True
    dealer.stop()
    return False


def plan_deal(
    seats: Mapping[int, Seat], dealer: Dealer, ready: SeatRule = cash_ready
) -> DealPlan | Draw | None:
    """The next hand's seating, a :class:`Draw` for the button, or None: fewer than two
    ready, and the table has stopped (the next hand draws for the button, RULES.md 3)."""
    ready_seats = sorted(n for n, s in seats.items() if ready(s))
    if len(ready_seats) < 2:
        dealer.stop()
        return None
    entering = {n for n in ready_seats if seats[n].needs_big_blind}
    active = [n for n in ready_seats if n not in entering]
    if dealer.button is None or len(active) < 2:
        return Draw(tuple(ready_seats))
    button = next_clockwise(dealer.button, active)
    dealt = set(active) | _entering_now(seats, ready_seats, entering, button)
    dealt = _off_the_small_blind(dealt, entering, button)
    button = _heads_up_button(dealt, dealer, entering, button)
    big_blind = _blinds(button, dealt)[1]
    coming_in = frozenset(dealt & entering)
    return DealPlan(
        button=button,
        dealt=tuple(sorted(dealt)),
        posts=frozenset(coming_in - {big_blind}),
    )


def _entering_now(
    seats: Mapping[int, Seat], ready: list[int], entering: set[int], button: int
) -> set[int]:
    """Entering players dealt in: every poster, and a waiting player on the would-be big blind."""
    would_be_big_blind = _blinds(button, ready)[1]
    posters = {n for n in entering if seats[n].post_big_blind}
    return posters | ({would_be_big_blind} & entering)


def _off_the_small_blind(dealt: set[int], entering: set[int], button: int) -> set[int]:
    """Leave out entering players who would land on the small blind (they wait a hand)."""
    dealt = set(dealt)
    while True:
        small_blind = _blinds(button, dealt)[0]
        if small_blind not in entering:
            return dealt
        dealt.discard(small_blind)


def _heads_up_button(dealt: set[int], dealer: Dealer, entering: set[int], button: int) -> int:
    """On becoming heads-up, the last big blind takes the button if still in (RULES.md 3)."""
    last = dealer.last_big_blind
    if len(dealt) == 2 and dealer.last_dealt > 2 and last in dealt and last not in entering:
        return last
    return button


def drawn_plan(cards: Mapping[int, Card], button: int) -> DealPlan:
    """The plan for a hand whose button was just drawn (``cards``: each ready seat's card)."""
    return DealPlan(button=button, dealt=tuple(sorted(cards)), drawn=tuple(sorted(cards.items())))


def record_plan(
    seats: Mapping[int, Seat], dealer: Dealer, plan: DealPlan, ready: SeatRule = cash_ready
) -> None:
    """Record a plan about to be dealt: entering players are in, missed big blinds owed."""
    big_blind = plan.big_blind
    previous = dealer.last_big_blind
    for seat in seats.values():
        if seat.number in plan.dealt:
            seat.needs_big_blind = False
            seat.post_big_blind = False
        elif plan.drawn:
            continue  # a fresh start: whoever is not dealt in keeps what they owed
        elif (
            previous is not None
            and not ready(seat)
            and seat.sitting_out
            and seat.stack > 0
            and (seat.number == big_blind or strictly_between(previous, seat.number, big_blind))
        ):
            seat.needs_big_blind = True
    dealer.button = plan.button
    dealer.last_big_blind = big_blind
    dealer.last_dealt = len(plan.dealt)
