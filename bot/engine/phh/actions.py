"""PHH actions: :func:`parse_action` reads one line of a record's ``actions`` into a
:data:`PHHAction`; :func:`format_cards` and :func:`label` spell cards and players back.

Players are 0-based here and ``p1``, ``p2``, ... in the text.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.engine.cards import Card, CardError, card
from bot.engine.phh.records import HandError

__all__ = [
    "BoardDeal",
    "HoleDeal",
    "PHHAction",
    "PlayerAction",
    "Show",
    "action_error",
    "format_cards",
    "label",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class HoleDeal:
    """``d dh pN CARDS``: ``player`` is 0-based; ``None`` is an unknown card (``??``)."""

    player: int
    cards: tuple[Card | None, ...]

    def __repr__(self) -> str:  # hole cards never appear in a repr
        return f"HoleDeal(player={self.player}, cards=<{len(self.cards)} hidden>)"


@dataclass(frozen=True, slots=True)
class BoardDeal:
    """``d db CARDS``."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayerAction:
    """``pN f``, ``pN cc`` or ``pN cbr AMOUNT`` (``player`` is 0-based)."""

    player: int
    kind: Literal["f", "cc", "cbr"]
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Show:
    """``pN sm CARDS`` (shown; ``None`` entries are unknown) or ``pN sm`` (mucked)."""

    player: int
    cards: tuple[Card | None, ...] | None


PHHAction = HoleDeal | BoardDeal | PlayerAction | Show


def _cards(text: str, *, unknown_ok: bool) -> tuple[Card | None, ...]:
    if len(text) % 2:
        raise HandError(f"{text!r} is not a list of cards")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i : i + 2]
        if chunk == "??":
            if not unknown_ok:
                raise HandError("board cards cannot be unknown")
            out.append(None)
            continue
        try:
            out.append(card(chunk))
        except CardError as exc:
            raise HandError(str(exc)) from None
    if not out:
        raise HandError("no cards given")
    return tuple(out)


def _player(word: str) -> int:
    if len(word) >= 2 and word[0] == "p" and word[1:].isdigit() and word[1] != "0":
        return int(word[1:]) - 1
    raise HandError(f"{word!r} is not a player (write p1, p2, ...)")


@functools.lru_cache(maxsize=8192)
def parse_action(text: str) -> PHHAction | None:
    """Read one PHH action; ``None`` for an empty one (a comment alone)."""
    words = text.split("#", 1)[0].split()
    match words:
        case []:
            return None
        case ["d", "dh", who, cards]:
            return HoleDeal(_player(who), _cards(cards, unknown_ok=True))
        case ["d", "db", cards]:
            board = _cards(cards, unknown_ok=False)
            return BoardDeal(tuple(c for c in board if c is not None))
        case [who, "f"]:
            return PlayerAction(_player(who), "f")
        case [who, "cc"]:
            return PlayerAction(_player(who), "cc")
        case [who, "cbr", amount]:
            try:
                value = int(amount.replace(",", ""))
            except ValueError:
                raise HandError(f"{amount!r} is not a whole number of chips") from None
            if value <= 0:
                raise HandError(f"{amount!r} is not a positive amount")
            return PlayerAction(_player(who), "cbr", value)
        case [who, "sm"]:
            return Show(_player(who), None)
        case [who, "sm", "-"]:
            return Show(_player(who), None)
        case [who, "sm", cards]:
            return Show(_player(who), _cards(cards, unknown_ok=True))
        case [_, "sd", *_] | [_, "pb"]:
            raise HandError("draws and bring-ins are not part of our games")
    raise HandError("this is not a PHH action")


def format_cards(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def label(player: int) -> str:
    """The PHH name of a 0-based player: ``p1``, ``p2``, ..."""
    return f"p{player + 1}"


def action_error(number: int, text: str, action: PHHAction | None, reason: str) -> HandError:
    """The error for action ``number`` (1-based), naming it without echoing hole cards."""
    if isinstance(action, HoleDeal):
        where = f"d dh {label(action.player)}"
    elif isinstance(action, Show):
        where = f"{label(action.player)} sm"
    else:
        where = text.split("#", 1)[0].strip()
    return HandError(f"action {number} ({where}): {reason}")
