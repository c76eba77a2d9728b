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

from bot.engine.cards import RANK_NAMES
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
#: The engine's kickers after a description (``describe_against``): ", kicker ace".
_KICKERS = re.compile(r"(.+), kickers? ((?:[a-z]+-)*[a-z]+)")
_RANK_OF = {name: rank for rank, name in RANK_NAMES.items()}
#: A word of a description inside a sentence (a card's one letter, "A", is not one).
_WORD = re.compile(r"[^\W\d_]{2,}")


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
    """A high hand's description (``describe_high``, or ``describe_against`` with the
    kickers that decide: "Par de Reis, kicker Ás") in ``locale``."""
    kicked = _KICKERS.fullmatch(english)
    if kicked and all(n in _RANK_OF for n in kicked.group(2).split("-")):
        ranks = [_RANK_OF[n] for n in kicked.group(2).split("-")]
        return translate(locale, "hand.kickers", count=len(ranks),
                         hand=high(locale, kicked.group(1)),
                         kickers="-".join(translate(locale, f"rank.{r}") for r in ranks))
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


def in_sentence(locale: object, english: str) -> str:
    """A hand label (or a high description) as it reads inside a sentence: "com dois pares,
    ases e cincos", "you have pair of kings, kicker ace" (its words in lower case; a
    card's letter stays). The names of the halves keep the language's one way of writing
    them in a sentence ("half.high", "half.low": Italian writes "High" and "Low"), so a
    result says "vince 2 Low" and "nessun Low" alike."""
    kept = {translate(locale, "half.high"), translate(locale, "half.low")}
    return _WORD.sub(lambda m: m.group(0) if m.group(0) in kept else m.group(0).lower(),
                     label(locale, english))


def low_cards(english: str) -> str:
    """The five cards of a low (``"6-5-4-2-A"`` of ``"Low 6-5-4-2-A"``), for a sentence
    that already says it is the low: "ganha 220 baixa com 6-5-4-2-A"."""
    m = _LOW.fullmatch(english)
    return m.group(1) if m else english


__all__ = ["high", "in_sentence", "label", "low", "low_cards"]
