"""Cards, notation and the deck.

A card is written as rank then suit: ``As`` (ace of spades), ``Td`` (ten of
diamonds), ``2c``. Ranks are ``23456789TJQKA``; suits ``shdc``.

Every one of the 52 cards is a single interned :class:`Card` instance, so cards
compare by identity as well as by value and can be used as dictionary keys at
no cost. ``Card.index`` (0..51) is a dense integer for table lookups in the
evaluator: ``index = (rank - 2) * 4 + suit_index`` with suits in the order
clubs, diamonds, hearts, spades (so a higher index is a higher card in the
draw for the button, where spades > hearts > diamonds > clubs).

The deck shuffles with :class:`secrets.SystemRandom` for real play. A seeded
:class:`random.Random` is accepted only for tests and replays.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

RANK_CHARS = "23456789TJQKA"
#: Suits from the lowest to the highest in the draw for the button.
SUIT_CHARS = "cdhs"
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}
RANK_PLURALS = {r: (n + "es" if n == "six" else n + "s") for r, n in RANK_NAMES.items()}


class CardError(ValueError):
    """A card or a list of cards could not be read."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Use :func:`card` or :meth:`Card.parse`, not the constructor."""

    rank: int  # 2..14, ace is 14
    suit: str  # one of "cdhs"
    #: Stored, not computed: the evaluators read it in their hot loops.
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", (self.rank - 2) * 4 + SUIT_CHARS.index(self.suit))

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank - 2]

    @property
    def name(self) -> str:
        """``"ace of spades"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.rank_char + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Card:
        return card(text)


#: All 52 cards, ``DECK[c.index] is c``.
DECK: tuple[Card, ...] = tuple(
    Card(rank, suit) for rank in range(2, 15) for suit in SUIT_CHARS
)
_BY_TEXT = {str(c): c for c in DECK}
_BY_TEXT.update({str(c).lower(): c for c in DECK})
_BY_TEXT.update({c.rank_char.lower() + c.suit: c for c in DECK})
_BY_TEXT.update({("10" if c.rank == 10 else c.rank_char) + c.suit: c for c in DECK})


def card(text: str) -> Card:
    """Read one card such as ``"As"``, ``"td"`` or ``"10h"``."""
    found = _BY_TEXT.get(text.strip()) or _BY_TEXT.get(text.strip().lower())
    if found is None:
        raise CardError(f"{text!r} is not a card (write rank then suit, like As, Td or 2c)")
    return found


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards written together or apart: ``"AsKd"``, ``"As Kd"``, ``["As", "Kd"]``.

    ``"??"`` (an unknown card in PHH) is refused here; callers that accept it
    handle it before.
    """
    if not isinstance(text, str):
        return tuple(card(t) for t in text)
    compact = "".join(text.replace(",", " ").split())
    compact = compact.replace("10", "T")
    if len(compact) % 2:
        raise CardError(f"{text!r} is not a list of cards")
    return tuple(card(compact[i : i + 2]) for i in range(0, len(compact), 2))


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    return sep.join(str(c) for c in cards)


def draw_order_key(c: Card) -> int:
    """Key for the draw for the button: rank first, then spades > hearts > diamonds > clubs."""
    return c.index


class Deck:
    """A shuffled deck that deals from the top.

    ``Deck()`` shuffles with :class:`secrets.SystemRandom`. ``Deck(rng=...)``
    takes a seeded generator (tests and replays); ``Deck(order=cards)`` deals a
    fixed order (replays, crash recovery).
    """

    __slots__ = ("_cards", "_next")

    def __init__(
        self, *, rng: random.Random | None = None, order: Sequence[Card] | None = None
    ) -> None:
        if order is not None:
            if len(set(order)) != len(order):
                raise CardError("a deck cannot hold the same card twice")
            self._cards = list(order)
        else:
            self._cards = list(DECK)
            (rng or secrets.SystemRandom()).shuffle(self._cards)
        self._next = 0

    @property
    def order(self) -> tuple[Card, ...]:
        """The full deck order (secret until the hand is over)."""
        return tuple(self._cards)

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._next

    @property
    def position(self) -> int:
        return self._next

    def deal(self, n: int = 1) -> tuple[Card, ...]:
        if n > self.remaining:
            raise CardError("the deck has run out of cards")
        out = tuple(self._cards[self._next : self._next + n])
        self._next += n
        return out

    def __repr__(self) -> str:  # never show the order: it is secret
        return f"<Deck {self.remaining} cards left>"


def draw_for_button(
    seats: Sequence[int], *, rng: random.Random | None = None
) -> tuple[int, dict[int, Card]]:
    """Deal one face-up card to each seat; the highest card takes the button.

    Ties in rank are broken by suit (spades > hearts > diamonds > clubs), so
    the result is always unique. Returns the winning seat and each seat's card.
    """
    if not seats:
        raise ValueError("the draw for the button needs at least one player")
    deck = Deck(rng=rng)
    drawn = {seat: deck.deal()[0] for seat in seats}
    winner = max(drawn, key=lambda s: draw_order_key(drawn[s]))
    return winner, drawn
