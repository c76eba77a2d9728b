"""Hand descriptions in the table's language: "Flush, ace high" becomes "Flush, Ás alto",
"Color al As" or "Colore all'Asso".

Decision: the engine stays standard-library only and keeps one English wording
(:func:`bot.engine.evaluate.describe_high`, :func:`~bot.engine.evaluate.describe_low`,
:func:`~bot.engine.evaluate.hand_label`), which the runtime passes on as plain
strings. This module turns such a string back into its structure (category and
the ranks that name it) by inverting the engine's own wording over every
category and rank, so the inversion is exact and follows any change of the
engine's English, then words the structure from the catalogs (``hand.*`` and
``rank.*`` messages, with the vocabulary of the seed documents of each
language). A text it does not recognise is returned unchanged.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bot.engine.eval_tables import (
    FLUSH,
    FULL_HOUSE,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)
from bot.engine.evaluate import describe_high
from bot.i18n import translate

#: The message of each category (the high card's is ``hand.high_card``).
CATEGORY = {
    STRAIGHT_FLUSH: "hand.straight_flush", QUADS: "hand.quads", FULL_HOUSE: "hand.full_house",
    FLUSH: "hand.flush", STRAIGHT: "hand.straight", TRIPS: "hand.trips",
    TWO_PAIR: "hand.two_pair", PAIR: "hand.pair", 0: "hand.high_card",
}
ROYAL = "hand.royal_flush"
_LOW = re.compile(r"Low ((?:[2-8A]-){4}[2-8A])")
NO_LOW = "no low"


@lru_cache(maxsize=1)
def _structures() -> dict[str, tuple[int, int, int]]:
    """Every English high description -> (category, first rank, second rank)."""
    found: dict[str, tuple[int, int, int]] = {}
    for category in CATEGORY:
        for first in range(2, 15):
            for second in range(2, 15):
                value = category << 20 | first << 16 | second << 12
                found.setdefault(describe_high(value), (category, first, second))
    return found


def high(locale: object, english: str) -> str:
    """A high hand's description (``describe_high``) in ``locale``."""
    found = _structures().get(english)
    if found is None:
        return english
    category, first, second = found
    if category == STRAIGHT_FLUSH and first == 14:
        return translate(locale, ROYAL)
    return translate(
        locale, CATEGORY[category],
        rank=translate(locale, f"rank.{first}"),
        ranks=translate(locale, f"rank.{first}.plural"),
        ranks2=translate(locale, f"rank.{second}.plural"),
        high=translate(locale, f"rank.{first}.high"),
    )


def low(locale: object, english: str) -> str:
    """``"Low 7-5-4-2-A"`` or ``"no low"`` in ``locale``."""
    if english.lower() == NO_LOW:
        return translate(locale, "hand.no_low")
    m = _LOW.fullmatch(english)
    return translate(locale, "hand.low", cards=m.group(1)) if m else english


def label(locale: object, english: str) -> str:
    """A hand label (``hand_label``: the high, and in hi-lo ``"; "`` and the low) in ``locale``."""
    if not english:
        return english
    first, sep, second = english.partition("; ")
    if not sep:
        return low(locale, first) if _LOW.fullmatch(first) else high(locale, first)
    return translate(locale, "hand.high_low", high=high(locale, first), low=low(locale, second))


__all__ = ["high", "label", "low"]
