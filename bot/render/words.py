"""The pictures' words in the table's language.

Every view carries a ``locale`` (a Discord locale, ``"en"`` by default). The
``draw_*`` functions set it for the duration of one drawing (:func:`speaking`,
a context variable, so a worker thread drawing another table's picture at the
same moment keeps its own), and the helpers that draw a word ask :func:`say`.
What the caller hands over in English is worded here too: street names
(``"Flop"``), pot labels (``"Main pot"``, ``"Side pot 2"``) and the engine's
hand descriptions (:mod:`bot.i18n.hands`). Chip amounts take the locale's
thousands separator (:func:`group_symbol`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from babel.numbers import get_decimal_symbol, get_group_symbol

from bot.i18n import babel_locale, hands, resolve, translate

_locale: ContextVar[str] = ContextVar("render_locale", default="en")
_POT = re.compile(r"(main|side)(?: pot)?(?: (\d+))?", re.IGNORECASE)
_STREETS = ("preflop", "flop", "turn", "river", "showdown")


@contextlib.contextmanager
def speaking(locale: object) -> Iterator[None]:
    """Draw in ``locale`` inside the ``with`` block."""
    token = _locale.set(resolve(locale))
    try:
        yield
    finally:
        _locale.reset(token)


def current() -> str:
    return _locale.get()


def say(message_id: str, **values: Any) -> str:
    """A message of the catalogs in the locale being drawn."""
    return translate(_locale.get(), message_id, **values)


def street(english: str) -> str:
    """``"Flop"`` (any case) in the locale; another text unchanged."""
    key = english.strip().lower()
    return say(f"street.{key}") if key in _STREETS else english


def _pot_kind(text: str) -> tuple[str, str] | None:
    """``("main" | "side" | "single", number)`` of a pot label in English or in the locale."""
    m = _POT.fullmatch(text)
    if m:
        return m.group(1).lower(), m.group(2) or ""
    if text.lower() == "pot" or text == say("pot.single"):
        return "single", ""
    if text == say("pot.main"):
        return "main", ""
    side = re.escape(say("pot.side", number="NUMBER")).replace("NUMBER", r"(\d+)")
    m = re.fullmatch(side, text)
    return ("side", m.group(1)) if m else None


def pot_forms(label: str) -> tuple[str, ...]:
    """A pot's label and shorter forms of it for a narrow pill, in the locale:
    ``("Side pot 3", "Side 3", "S3")``, ``("Main pot", "Main", "M")``; ``("Pot",)``. The label
    may be English (``"side pot 3"``) or already in the locale; another text is kept."""
    kind = _pot_kind(label.strip())
    if kind is None:
        return (label,)
    if kind[0] == "single":
        return (say("pot.single"),)
    if kind[0] == "main":
        return tuple(dict.fromkeys((say("pot.main"), say("pot.main_short"),
                                    say("pot.main_letter"))))
    number = kind[1]
    return tuple(dict.fromkeys((say("pot.side", number=number),
                                say("pot.side_short", number=number),
                                say("pot.side_letter", number=number))))


def hand(english: str) -> str:
    """An engine hand description or label in the locale."""
    return hands.label(_locale.get(), english)


@lru_cache(maxsize=16)
def _symbols(locale: str) -> tuple[str, str]:
    where = babel_locale(locale)
    return get_group_symbol(where), get_decimal_symbol(where)


def group_symbol() -> str:
    return _symbols(_locale.get())[0]


def localize_number(text: str) -> str:
    """``"1,234.5"`` as written in English -> the locale's ``"1.234,5"``."""
    group, decimal = _symbols(_locale.get())
    if (group, decimal) == (",", "."):
        return text
    return text.replace(",", "\x00").replace(".", decimal).replace("\x00", group)


__all__ = ["current", "group_symbol", "hand", "localize_number", "pot_forms", "say",
           "speaking", "street"]
