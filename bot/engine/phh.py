"""Hand histories in PHH, the open Poker Hand History format (TOML).

Reading uses :mod:`tomllib`; writing is done by hand so that the output is
deterministic (same hand, same bytes) and readable by PokerKit's loader too.
A ``.phh`` file holds one hand; a ``.phhs`` file holds several, each in a
table named ``[1]``, ``[2]``, ... (:func:`load_path` tells them apart by
content, not by the file name).

Conventions (``../shared/DESIGN.md``, as PokerKit writes them):

- ``variant`` is the structure letter (``P`` pot limit, ``N`` no limit,
  ``F`` fixed limit), ``O`` for Omaha and ``/8`` for hi-lo: ``PO``, ``NO``,
  ``FO``, ``PO/8``, ``NO/8``, ``FO/8``. Five- and six-card Omaha and
  Courchevel are the user fields ``_hole_cards = 5`` and ``_courchevel = true``.
  Fixed limit carries ``small_bet`` and ``big_bet`` (= 2 x small bet), the
  others ``min_bet`` (= the big blind).
- Player 1 is the seat after the button (the small blind; heads-up the big
  blind), the last player is the button. ``antes``, ``blinds_or_straddles``,
  ``starting_stacks`` and ``finishing_stacks`` are listed in that order.
  Heads-up ``blinds_or_straddles = [small, big]`` still means that p1 (the big
  blind) posts the big one and p2 (the button) the small one. A big blind
  entry for a player after p2 is a live big blind posted out of position by a
  newcomer (our reading; PokerKit would take it for a straddle).
- ``d dh pN CARDS`` deals all of a player's hole cards at once (several
  partial deals are accepted when reading), ``d db CARDS`` deals board cards
  (Courchevel's first board card is a ``d db`` right after the hole cards),
  ``pN f`` / ``pN cc`` / ``pN cbr AMOUNT`` (raise *to*), ``pN sm CARDS``
  shows a hand (after the river, or right after an all-in closes the betting,
  before the rest of the board). ``# comments`` after an action are ignored.
- ``ante_trimming_status`` carries nothing for our rules: it is read and
  ignored, and never written.

Errors: :class:`PHHError` means the text cannot be read as PHH at all (bad
TOML, a required field missing or of the wrong type). Everything that only
makes one hand unplayable (an unknown variant, amounts in fractions of a
chip, an action that cannot be read or breaks the rules, a card dealt twice,
actions that stop before the end of the hand) is a :class:`HandError`
raised when that hand is replayed, so a ``.phhs`` file with one bad hand still
replays the others.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from bot.engine.cards import Card, CardError, card

__all__ = [
    "BoardDeal",
    "HandError",
    "HandHistory",
    "HoleDeal",
    "PHHAction",
    "PHHError",
    "PlayerAction",
    "Show",
    "dumps",
    "dumps_all",
    "load_path",
    "loads",
    "loads_all",
    "parse_action",
]


class PHHError(ValueError):
    """The text is not readable PHH (bad TOML, missing or mistyped fields)."""


class HandError(ValueError):
    """One hand cannot be replayed; the message names the action and the reason."""


# ---------------------------------------------------------------------------
# The hand history record


#: Fields in the order they are written; required ones first.
_NUMBER_LISTS = ("antes", "blinds_or_straddles", "starting_stacks")
_KNOWN_FIELDS = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
    "finishing_stacks",
    "seats",
    "players",
    "_hole_cards",
    "_courchevel",
)

TomlValue = (
    str
    | int
    | float
    | bool
    | datetime.datetime
    | datetime.date
    | datetime.time
    | list["TomlValue"]
    | dict[str, "TomlValue"]
)


@dataclass(frozen=True)
class HandHistory:
    """One hand as PHH describes it (amounts in whole chips).

    ``problem`` is set when the record was readable but cannot describe a
    hand of ours (for example chip amounts with fractions); replaying it then
    reports the problem as that hand's error.
    """

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    min_bet: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    finishing_stacks: tuple[int, ...] | None = None
    seats: tuple[int, ...] | None = None
    players: tuple[str, ...] | None = None
    hole_cards: int | None = None
    courchevel: bool = False
    #: Every other field of the record, in file order, written back unchanged.
    extra: tuple[tuple[str, TomlValue], ...] = field(default=(), compare=False)
    problem: str | None = None

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)


# ---------------------------------------------------------------------------
# Reading


def _whole(name: str, value: object, problems: list[str]) -> int:
    """A chip amount: a TOML integer, or a float with no fraction."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PHHError(f"{name} must hold numbers, not {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            problems.append(f"{name} holds {value}: this dealer plays whole chips only")
            return math.floor(value) if math.isfinite(value) else 0
        return int(value)
    return value


def _numbers(raw: Mapping[str, object], name: str, problems: list[str]) -> tuple[int, ...]:
    value = raw[name]
    if not isinstance(value, list):
        raise PHHError(f"{name} must be a list of numbers")
    return tuple(_whole(name, v, problems) for v in value)


def _optional_number(raw: Mapping[str, object], name: str, problems: list[str]) -> int | None:
    if name not in raw:
        return None
    return _whole(name, raw[name], problems)


def _record(raw: Mapping[str, object], where: str = "") -> HandHistory:
    """Build one :class:`HandHistory` from a parsed TOML table."""
    prefix = f"hand {where}: " if where else ""
    try:
        return _record_or_raise(raw)
    except PHHError as exc:
        raise PHHError(prefix + str(exc)) from None


def _record_or_raise(raw: Mapping[str, object]) -> HandHistory:
    for name in ("variant", "antes", "starting_stacks", "actions"):
        if name not in raw:
            raise PHHError(f"the required field {name!r} is missing")
    variant = raw["variant"]
    if not isinstance(variant, str):
        raise PHHError("variant must be a string")
    actions = raw["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError("actions must be a list of strings")
    problems: list[str] = []
    antes = _numbers(raw, "antes", problems)
    stacks = _numbers(raw, "starting_stacks", problems)
    blinds = _numbers(raw, "blinds_or_straddles", problems) if "blinds_or_straddles" in raw else ()
    finishing = (
        _numbers(raw, "finishing_stacks", problems) if "finishing_stacks" in raw else None
    )
    seats: tuple[int, ...] | None = None
    if "seats" in raw:
        value = raw["seats"]
        if not isinstance(value, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in value
        ):
            raise PHHError("seats must be a list of integers")
        seats = tuple(value)
    players: tuple[str, ...] | None = None
    if "players" in raw:
        value = raw["players"]
        if not isinstance(value, list):
            raise PHHError("players must be a list of names")
        players = tuple(str(p) for p in value)
    hole_cards: int | None = None
    if "_hole_cards" in raw:
        value = raw["_hole_cards"]
        if isinstance(value, bool) or not isinstance(value, int):
            raise PHHError("_hole_cards must be an integer")
        hole_cards = value
    courchevel = raw.get("_courchevel", False)
    if not isinstance(courchevel, bool):
        raise PHHError("_courchevel must be true or false")
    if "ante_trimming_status" in raw and not isinstance(raw["ante_trimming_status"], bool):
        raise PHHError("ante_trimming_status must be true or false")
    extra = tuple(
        (key, cast(TomlValue, value)) for key, value in raw.items() if key not in _KNOWN_FIELDS
    )
    return HandHistory(
        variant=variant,
        antes=antes,
        blinds_or_straddles=blinds,
        starting_stacks=stacks,
        actions=tuple(actions),
        min_bet=_optional_number(raw, "min_bet", problems),
        small_bet=_optional_number(raw, "small_bet", problems),
        big_bet=_optional_number(raw, "big_bet", problems),
        finishing_stacks=finishing,
        seats=seats,
        players=players,
        hole_cards=hole_cards,
        courchevel=courchevel,
        extra=extra,
        problem=problems[0] if problems else None,
    )


def _parse_toml(text: str) -> dict[str, object]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML ({exc})") from None


def loads(text: str) -> HandHistory:
    """Read one hand (the content of a ``.phh`` file)."""
    raw = _parse_toml(text)
    if "variant" not in raw:
        raise PHHError("not a PHH hand history (no variant field)")
    return _record(raw)


def loads_all(text: str) -> list[HandHistory]:
    """Read a ``.phhs`` file (hands in tables ``[1]``, ``[2]``, ...) or a single hand."""
    raw = _parse_toml(text)
    if "variant" in raw:
        return [_record(raw)]
    if not raw:
        raise PHHError("no hand history in this file")
    hands = []
    for key, value in raw.items():
        if not isinstance(value, dict):
            raise PHHError(f"not a PHH hand history ({key!r} is neither a field nor a hand)")
        hands.append(_record(value, key))
    return hands


def load_path(path: str | os.PathLike[str]) -> list[HandHistory]:
    """Read every hand of a ``.phh`` or ``.phhs`` file."""
    try:
        with open(path, "rb") as fp:
            data = fp.read()
    except OSError as exc:
        raise PHHError(f"cannot read {os.fspath(path)!r}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PHHError(f"{os.fspath(path)!r} is not UTF-8 text") from None
    return loads_all(text)


# ---------------------------------------------------------------------------
# Writing


def _toml_key(key: str) -> str:
    if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key):
        return key
    return json.dumps(key, ensure_ascii=False)


def _toml_value(value: TomlValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        # JSON's escapes are a subset of TOML basic-string escapes.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"cannot write {type(value).__name__} to PHH")


def _numbers_line(name: str, values: Iterable[int]) -> str:
    return f"{name} = [{', '.join(str(v) for v in values)}]"


def dumps(hh: HandHistory) -> str:
    """The hand as PHH text, one field per line, one action per line."""
    lines = [f"variant = {_toml_value(hh.variant)}"]
    lines.append(_numbers_line("antes", hh.antes))
    lines.append(_numbers_line("blinds_or_straddles", hh.blinds_or_straddles))
    for name in ("min_bet", "small_bet", "big_bet"):
        value = getattr(hh, name)
        if value is not None:
            lines.append(f"{name} = {value}")
    lines.append(_numbers_line("starting_stacks", hh.starting_stacks))
    lines.append("actions = [")
    lines.extend(f"  {_toml_value(a)}," for a in hh.actions)
    lines.append("]")
    if hh.finishing_stacks is not None:
        lines.append(_numbers_line("finishing_stacks", hh.finishing_stacks))
    if hh.seats is not None:
        lines.append(_numbers_line("seats", hh.seats))
    if hh.players is not None:
        lines.append(f"players = {_toml_value(list(hh.players))}")
    lines.extend(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in hh.extra)
    if hh.hole_cards is not None:
        lines.append(f"_hole_cards = {hh.hole_cards}")
    if hh.courchevel:
        lines.append("_courchevel = true")
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[HandHistory]) -> str:
    """Several hands as a ``.phhs`` text: tables ``[1]``, ``[2]``, ..."""
    return "\n".join(f"[{i}]\n{dumps(hh)}" for i, hh in enumerate(hands, 1))


# ---------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class HoleDeal:
    """``d dh pN CARDS``: ``player`` is 0-based; ``None`` is an unknown card (``??``)."""

    player: int
    cards: tuple[Card | None, ...]


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
            raise HandError("draws and bring-ins are not part of Omaha")
    raise HandError("this is not a PHH action")


def format_cards(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)
