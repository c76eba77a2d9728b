"""Cards as players read them in text: rank and suit symbol, ``K♠ 10♥ 7♦ 2♣``, the same
in every language (issue 31). The engine's notation (``Ks Th``) stays for what is read
back by software: PHH exports, logs, the picture captions drawn with the subset font.

Callers keep the order of the picture beside the text: a player's own hole cards are
drawn sorted (:func:`bot.render.hole.sort_hole`), a board or a hand shown as dealt.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.engine.cards import Card

__all__ = ["SUITS", "written"]

#: The suit symbols: spades, hearts, diamonds, clubs.
SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


def written(cards: Iterable[Card]) -> str:
    """``K♠ 10♥ 7♦``: each card's rank (``10`` for a ten) and suit symbol."""
    return " ".join(f"{'10' if c.rank == 10 else c.rank_char}{SUITS[c.suit]}" for c in cards)
