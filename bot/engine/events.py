"""Immutable events: the hand's history (DESIGN.md, "the event list is the hand history").

Every change to a hand is one frozen event. The list of a hand's events is its
record in storage, the input for rendering and the source of hand histories.
Each event has ``to_dict()`` (JSON-able: cards as ``"As"`` strings, tuples as
lists, a ``"type"`` key) and :func:`event_from_dict` reads it back.

Privacy: :attr:`Event.private_to` is the seat that alone may see an event
(hole cards, a request to show), or ``None`` for a public event. The deck
order never appears in any event: a burn says that a card was burned, not
which one.

Run it twice (:mod:`bot.engine.run_twice`): :class:`RunTwiceVoted` records each
answer; the second run's burns, board cards and awards carry ``run=1`` (the
first run, and every hand dealt once, ``run=0``, which ``to_dict`` leaves out so
that the records of hands dealt once read as before). A double-board bomb pot
(:mod:`bot.engine.bomb_pot`) marks its second board's burns, cards and halves the same
way.

After the pots (RULES.md 10, :mod:`bot.engine.after_hand`): :class:`BountyPaid`, the
7-2 bounty of a Texas Hold'em table (``HandStarted.seven_deuce``, left out of
``to_dict`` when 0), and :class:`CardsShown`, cards of a hand shown to the table once
it is over (the winning 7-2, or what a player chose to show).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

from bot.engine.cards import Card, card

__all__ = [
    "EVENT_TYPES",
    "Action",
    "ActionKind",
    "AntePosted",
    "BetReturned",
    "BlindPosted",
    "BoardDealt",
    "BountyPaid",
    "CardBurned",
    "CardsShown",
    "Event",
    "HandEnded",
    "HandMucked",
    "HandShown",
    "HandStarted",
    "HoleCardsDealt",
    "PlayerActed",
    "PotAwarded",
    "RunTwiceVoted",
    "ShowRequested",
    "Street",
    "event_from_dict",
]


class Street(StrEnum):
    """Where a hand is. ``SHOWDOWN`` once the betting is over."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"


class ActionKind(StrEnum):
    """A player's decision. Events record ``ALL_IN`` as the call, bet or raise it was."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all in"


Pairs = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Action:
    """A player's decision, as asked for. Amounts are "raise to" totals for the street.

    Build with :meth:`fold`, :meth:`check`, :meth:`call`, :meth:`bet`,
    :meth:`raise_to` or :meth:`all_in`. ``bet`` and ``raise_to`` are accepted
    for one another: whether the move is a bet or a raise depends on the table,
    and the event records what it was.
    """

    kind: ActionKind
    amount: int | None = None

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(ActionKind.BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(ActionKind.RAISE, to)

    @classmethod
    def all_in(cls) -> Action:
        return cls(ActionKind.ALL_IN)

    def __str__(self) -> str:
        return self.kind.value if self.amount is None else f"{self.kind.value} {self.amount}"


class Event:
    """Base of all events. Subclasses are frozen, slotted dataclasses."""

    __slots__ = ()
    type: ClassVar[str] = "event"
    _card_fields: ClassVar[frozenset[str]] = frozenset()

    @property
    def private_to(self) -> int | None:
        """The only seat allowed to see this event, or ``None`` when it is public."""
        return None

    @property
    def is_private(self) -> bool:
        return self.private_to is not None

    def _items(self) -> Iterator[tuple[str, Any]]:
        for f in fields(self):  # type: ignore[arg-type]
            yield f.name, getattr(self, f.name)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict with a ``"type"`` key (and ``"private_to"`` for a private
        event); :func:`event_from_dict` reads it back."""
        out: dict[str, Any] = {"type": self.type}
        for name, value in self._items():
            if name in _LEFT_OUT_WHEN_ZERO and not value:
                continue
            out[name] = _encode(value)
        private = self.private_to
        if private is not None:
            out["private_to"] = private
        return out


#: Fields ``to_dict`` leaves out at their default (0 or False): records written before
#: them read the same (a second run's ``run``, the 7-2 bounty, a bomb pot's ante and
#: double board).
_LEFT_OUT_WHEN_ZERO = frozenset({"run", "seven_deuce", "bounty", "bomb_ante", "double_board"})


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if isinstance(value, StrEnum):
        return value.value
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand begins: the game, the button and each dealt-in seat with its starting stack.

    ``seats`` lists ``(seat, stack)`` clockwise from the first seat after the
    button (the button is last), as PHH numbers its players.
    """

    type: ClassVar[str] = "hand_started"
    variant: str
    structure: str
    small_blind: int
    big_blind: int
    ante: int
    button: int
    seats: Pairs
    posts_big_blind: tuple[int, ...] = ()
    seven_deuce: int = 0  # the 7-2 bounty in big blinds (Texas Hold'em; 0: not played)
    #: A bomb pot (:mod:`bot.engine.bomb_pot`): the ante every player posted instead of
    #: blinds (0: not a bomb pot), and whether it was dealt on two boards.
    bomb_ante: int = 0
    double_board: bool = False


@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    """A dead ante (not a bet); ``all_in`` when it took the whole stack."""

    type: ClassVar[str] = "ante_posted"
    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class BlindPosted(Event):
    """A live blind: ``blind`` is ``"small"``, ``"big"``, ``"newcomer"`` or ``"straddle"``.

    A newcomer's blind is a big blind posted out of position; a straddle is twice
    the big blind, posted under the gun (RULES.md 10)."""

    type: ClassVar[str] = "blind_posted"
    seat: int
    amount: int
    blind: str
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class HoleCardsDealt(Event):
    """A seat's hole cards. Private to that seat."""

    type: ClassVar[str] = "hole_cards_dealt"
    _card_fields: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat

    def __repr__(self) -> str:  # hole cards never appear in a repr or a log line
        return f"HoleCardsDealt(seat={self.seat}, cards=<{len(self.cards)} hidden>)"


@dataclass(frozen=True, slots=True)
class CardBurned(Event):
    """One card burned face down before the ``street``'s board cards."""

    type: ClassVar[str] = "card_burned"
    street: Street
    run: int = 0


@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """Board cards dealt face up. Courchevel's first card comes with ``street`` preflop.

    ``run`` 1: the cards of the second board when the hand is run twice."""

    type: ClassVar[str] = "board_dealt"
    _card_fields: ClassVar[frozenset[str]] = frozenset({"cards"})
    street: Street
    cards: tuple[Card, ...]
    run: int = 0


@dataclass(frozen=True, slots=True)
class PlayerActed(Event):
    """A player's action as played.

    ``kind`` is fold, check, call, bet or raise (never all in: see
    ``all_in``); ``amount`` the chips it added; ``to`` the player's bet on this
    street after it (the "raise to" total for a bet or raise).
    """

    type: ClassVar[str] = "player_acted"
    seat: int
    street: Street
    kind: ActionKind
    amount: int = 0
    to: int = 0
    all_in: bool = False

    @property
    def action(self) -> Action:
        """The action that replays this event (a bet or raise as its "raise to" total)."""
        if self.kind is ActionKind.BET or self.kind is ActionKind.RAISE:
            return Action(self.kind, self.to)
        return Action(self.kind)


@dataclass(frozen=True, slots=True)
class BetReturned(Event):
    """The part of a bet nobody matched goes back to its owner (RULES.md section 5).

    A player who was all-in has chips again afterwards: no longer all-in.
    """

    type: ClassVar[str] = "bet_returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class ShowRequested(Event):
    """The seat's owner asked to show at showdown even a hand the bot would muck."""

    type: ClassVar[str] = "show_requested"
    seat: int

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class RunTwiceVoted(Event):
    """A player of an all-in run-out answered whether to run the board twice (public)."""

    type: ClassVar[str] = "run_twice_voted"
    seat: int
    agree: bool


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A hand turned face up.

    ``all_in``: shown because the betting ended with at most one player able
    to bet (an all-in was called); such hands are shown before any remaining
    board cards and can never be mucked. Otherwise shown at the showdown.
    """

    type: ClassVar[str] = "hand_shown"
    _card_fields: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[Card, ...]
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    """A hand thrown away unseen at showdown; its cards are never revealed."""

    type: ClassVar[str] = "hand_mucked"
    seat: int


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """One pot awarded on its own (RULES.md section 6).

    ``index`` 0 is the main pot. ``high`` and ``low`` are ``(seat, chips)``
    clockwise from the first seat after the button; ``low`` is empty when the
    game is high only or nobody in this pot has a qualifying low.
    ``uncontested``: everybody else folded, nothing was shown. ``run`` 1: the
    second board's share of a pot run twice (``amount`` is that share).
    """

    type: ClassVar[str] = "pot_awarded"
    index: int
    amount: int
    eligible: tuple[int, ...]
    high: Pairs
    low: Pairs = ()
    uncontested: bool = False
    run: int = 0


@dataclass(frozen=True, slots=True)
class BountyPaid(Event):
    """The 7-2 bounty (RULES.md 10): ``seat`` won a whole pot alone holding a 7 and a 2
    of different suits and collects ``amount`` chips, paid from the stacks of every other
    player dealt in after the pots were awarded: ``payers`` are ``(seat, chips)``
    clockwise from the first seat after the button (a short stack pays what it has, an
    empty one 0)."""

    type: ClassVar[str] = "bounty_paid"
    seat: int
    amount: int
    payers: Pairs


@dataclass(frozen=True, slots=True)
class CardsShown(Event):
    """Cards of a seat's hand shown to the table after the hand (RULES.md 10): ``bounty``,
    the winning 7-2 the bot shows for the 7-2 bounty of a hand won without a showdown;
    otherwise what its player chose to show (their whole hand or some of its cards),
    after folding or after winning without a showdown. It changes nothing else."""

    type: ClassVar[str] = "cards_shown"
    _card_fields: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[Card, ...]
    bounty: bool = False


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over: each seat's final stack, clockwise from the first seat after the button."""

    type: ClassVar[str] = "hand_ended"
    stacks: Pairs


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        HandStarted,
        AntePosted,
        BlindPosted,
        HoleCardsDealt,
        CardBurned,
        BoardDealt,
        PlayerActed,
        BetReturned,
        ShowRequested,
        RunTwiceVoted,
        HandShown,
        HandMucked,
        PotAwarded,
        BountyPaid,
        CardsShown,
        HandEnded,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Read back an event written by :meth:`Event.to_dict`."""
    try:
        cls = EVENT_TYPES[data["type"]]
    except KeyError:
        raise ValueError(f"unknown event type {data.get('type')!r}") from None
    kwargs: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name in cls._card_fields:
            value = tuple(card(c) for c in value)
        elif f.name == "street":
            value = Street(value)
        elif f.name == "kind":
            value = ActionKind(value)
        else:
            value = _tuples(value)
        kwargs[f.name] = value
    return cls(**kwargs)
