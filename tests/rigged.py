"""Stacked decks for tests that need given cards at a live table (the runtime's and the
offline Discord's): :class:`Rigged` is a :class:`random.Random` whose shuffles of a whole
deck give the orders it was handed, one per shuffle, in turn (the draw for the button,
then each hand's deck); :func:`draw_order` and :func:`hand_order` build those orders."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.engine.cards import DECK, Card, parse_cards
from bot.engine.dealing import deck_order_for
from bot.engine.variants import VARIANTS

__all__ = ["Rigged", "draw_order", "hand_order"]


class Rigged(random.Random):
    """Whole-deck shuffles come out in the given orders, then at random (seeded)."""

    def __init__(self, *orders: Sequence[Card], seed: int = 5) -> None:
        super().__init__(seed)
        self.orders = [list(o) for o in orders]

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        if self.orders and len(x) == len(DECK):
            x[:] = self.orders.pop(0)
        else:
            super().shuffle(x)


def draw_order(seats: int, button: int) -> list[Card]:
    """The deck of a draw for the button among ``seats`` players (in seat order) that
    gives the button to the ``button``-th of them (0-based): the ace of diamonds."""
    top = [c for c in DECK if c.rank < 10][:seats]  # low cards, distinct
    top[button] = parse_cards("Ad")[0]
    return top + [c for c in DECK if c not in top]


def hand_order(holes: Sequence[str], board: str = "", variant: str = "holdem") -> list[Card]:
    """A deck dealing ``holes`` (written ``"7c2d"``, in deal order: from the small blind,
    heads-up from the button) and ``board`` (up to five cards); the rest in deck order."""
    return list(deck_order_for(VARIANTS[variant], [parse_cards(h) for h in holes],
                               parse_cards(board) if board else ()))
