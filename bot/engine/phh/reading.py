"""Reading PHH text into :class:`HandHistory` records: :func:`loads`, :func:`loads_all`,
:func:`load_path`.

A field missing or of the wrong type is a :class:`PHHError` (the text is not
PHH we can read); chip amounts with fractions only set
:attr:`HandHistory.problem`, so that one such hand fails alone when replayed.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import cast

from bot.engine.phh.records import KNOWN_FIELDS, HandHistory, PHHError, TomlValue
from bot.engine.phh.toml_text import parse_toml

__all__ = ["load_path", "loads", "loads_all"]


# ---------------------------------------------------------------------------
# Chip amounts


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


def _numbers_or_one(
    raw: Mapping[str, object], name: str, count: int, problems: list[str]
) -> tuple[int, ...]:
    """A list of amounts, or one amount for every player (as PokerKit accepts)."""
    if name not in raw:
        return ()
    value = raw[name]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (_whole(name, value, problems),) * count
    return _numbers(raw, name, problems)


def _optional_number(raw: Mapping[str, object], name: str, problems: list[str]) -> int | None:
    if name not in raw:
        return None
    return _whole(name, raw[name], problems)


def _optional_numbers(
    raw: Mapping[str, object], name: str, problems: list[str]
) -> tuple[int, ...] | None:
    return _numbers(raw, name, problems) if name in raw else None


# ---------------------------------------------------------------------------
# The other fields


def _required(raw: Mapping[str, object]) -> tuple[str, list[str]]:
    """The variant and the actions, after checking every required field is there."""
    for name in ("variant", "antes", "starting_stacks", "actions"):
        if name not in raw:
            raise PHHError(f"the required field {name!r} is missing")
    variant = raw["variant"]
    if not isinstance(variant, str):
        raise PHHError("variant must be a string")
    actions = raw["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError("actions must be a list of strings")
    return variant, actions


def _seats(raw: Mapping[str, object]) -> tuple[int, ...] | None:
    if "seats" not in raw:
        return None
    value = raw["seats"]
    if not isinstance(value, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in value
    ):
        raise PHHError("seats must be a list of integers")
    return tuple(value)


def _players(raw: Mapping[str, object]) -> tuple[str, ...] | None:
    if "players" not in raw:
        return None
    value = raw["players"]
    if not isinstance(value, list):
        raise PHHError("players must be a list of names")
    return tuple(str(p) for p in value)


def _hole_cards(raw: Mapping[str, object]) -> int | None:
    if "_hole_cards" not in raw:
        return None
    value = raw["_hole_cards"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise PHHError("_hole_cards must be an integer")
    return value


def _courchevel(raw: Mapping[str, object]) -> bool:
    """The ``_courchevel`` flag; ``ante_trimming_status`` is checked here too (and ignored)."""
    courchevel = raw.get("_courchevel", False)
    if not isinstance(courchevel, bool):
        raise PHHError("_courchevel must be true or false")
    if "ante_trimming_status" in raw and not isinstance(raw["ante_trimming_status"], bool):
        raise PHHError("ante_trimming_status must be true or false")
    return courchevel


# ---------------------------------------------------------------------------
# A record


def _record(raw: Mapping[str, object], where: str = "") -> HandHistory:
    """Build one :class:`HandHistory` from a parsed TOML table."""
    prefix = f"hand {where}: " if where else ""
    try:
        return _record_or_raise(raw)
    except PHHError as exc:
        raise PHHError(prefix + str(exc)) from None


def _record_or_raise(raw: Mapping[str, object]) -> HandHistory:
    variant, actions = _required(raw)
    problems: list[str] = []
    stacks = _numbers(raw, "starting_stacks", problems)
    antes = _numbers_or_one(raw, "antes", len(stacks), problems)
    blinds = _numbers_or_one(raw, "blinds_or_straddles", len(stacks), problems)
    finishing = _optional_numbers(raw, "finishing_stacks", problems)
    seats = _seats(raw)
    players = _players(raw)
    hole_cards = _hole_cards(raw)
    courchevel = _courchevel(raw)
    extra = tuple(
        (key, cast(TomlValue, value)) for key, value in raw.items() if key not in KNOWN_FIELDS
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


# ---------------------------------------------------------------------------
# Texts and files


def loads(text: str) -> HandHistory:
    """Read one hand (the content of a ``.phh`` file)."""
    raw = parse_toml(text)
    if "variant" not in raw:
        raise PHHError("not a PHH hand history (no variant field)")
    return _record(raw)


def loads_all(text: str) -> list[HandHistory]:
    """Read a ``.phhs`` file (hands in tables ``[1]``, ``[2]``, ...) or a single hand."""
    raw = parse_toml(text)
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
    """Read every hand of a ``.phh`` or ``.phhs`` file; errors start with the path."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as fp:
            data = fp.read()
    except OSError as exc:
        raise PHHError(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    try:
        return loads_all(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise PHHError(f"{name}: not UTF-8 text") from None
    except PHHError as exc:
        raise PHHError(f"{name}: {exc}") from None
