"""Hand histories in PHH, the open Poker Hand History format (TOML).

Reading uses :mod:`tomllib` (the plain subset our own writer produces goes
through a small exact fast path first); writing is done by hand so that the
output is deterministic (same hand, same bytes) and readable by PokerKit's
loader too. API: :func:`loads`, :func:`loads_all`, :func:`load_path`,
:func:`dumps`, :func:`dumps_all`, :func:`history_of` (a finished hand's
events to a record), :func:`replay` (a record to a finished :class:`Hand`),
:func:`setup_of` and :func:`parse_action`.
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
  newcomer (our reading; PokerKit would take it for a straddle). When the
  small blind's seat is such a newcomer it posts the big blind: its entry is
  the big blind and the user field ``_small_blind`` keeps the game's small
  blind. Other straddles are not played here.
- ``d dh pN CARDS`` deals all of a player's hole cards at once (several
  partial deals are accepted when reading), ``d db CARDS`` deals board cards
  (Courchevel's first board card is a ``d db`` right after the hole cards),
  ``pN f`` / ``pN cc`` / ``pN cbr AMOUNT`` (raise *to*), ``pN sm CARDS``
  shows a hand (after the river, or right after an all-in closes the betting,
  before the rest of the board). ``# comments`` after an action are ignored.
  A check by a player whose decision cannot matter (nobody else in the hand
  has chips to answer a bet), which PokerKit writes where it asks for one, is
  accepted and changes nothing.
- ``ante_trimming_status`` carries nothing for our rules: it is read and
  ignored, and never written.

Replaying (:func:`replay`): the deck order is rebuilt from the cards the
history deals (hole cards, board) at the places the Hand deals them
(:func:`bot.engine.hand.deal_positions`); burns and anything never dealt are
filled with cards that appear nowhere in the history, so they cannot collide.
Unknown hole cards (``??``, as in the mucked hands of published histories)
are filled the same way. That is exact as long as those cards never matter:
the player folds, or everyone else does. When a player with unknown cards
reaches a showdown their cards would decide the pots, so the hand is an
error, unless a ``pN sm`` action shows the whole hand, whose cards are then
used. A ``pN sm`` with cards asks the Hand to show that hand (the bot would
otherwise muck a hand that cannot win); a bare ``pN sm`` (muck) changes
nothing, since the bot already mucks every hand that cannot win and always
shows one that wins or ties.

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
import functools
import json
import math
import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from bot.engine.cards import DECK, Card, CardError, Deck, card
from bot.engine.evaluate import high_value, low_value
from bot.engine.events import (
    ActionKind,
    BoardDealt,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
)
from bot.engine.hand import Action, Hand, IllegalAction, SeatIn, deal_positions
from bot.engine.variants import VARIANTS, GameConfig, Structure, Variant

__all__ = [
    "BoardDeal",
    "HandError",
    "HandHistory",
    "HoleDeal",
    "PHHAction",
    "PHHError",
    "PlayerAction",
    "Replay",
    "Setup",
    "Show",
    "dumps",
    "dumps_all",
    "format_cards",
    "history_of",
    "load_path",
    "loads",
    "loads_all",
    "parse_action",
    "replay",
    "setup_of",
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

    def __repr__(self) -> str:  # the actions hold hole cards: never in a repr or a log line
        return (
            f"<HandHistory {self.variant} {self.player_count} players, "
            f"{len(self.actions)} actions>"
        )


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
    stacks = _numbers(raw, "starting_stacks", problems)
    antes = _numbers_or_one(raw, "antes", len(stacks), problems)
    blinds = _numbers_or_one(raw, "blinds_or_straddles", len(stacks), problems)
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


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_SIMPLE_STRING = re.compile(r'"([^"\\\x00-\x1f\x7f]*)"\Z')


def _simple_value(text: str) -> object:
    """A value our writer produces (integer, simple string, bool, one-line list), or raise."""
    if _INTEGER.match(text):
        return int(text)
    found = _SIMPLE_STRING.match(text)
    if found:
        return found.group(1)
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        if not inner:
            return []
        items = [_simple_value(v.strip()) for v in inner.split(",")]
        if any(isinstance(v, list) for v in items):
            raise ValueError("nested list")
        return items
    raise ValueError(text)


def _fast_toml(text: str) -> dict[str, object] | None:
    """Read the plain TOML subset that :func:`dumps` writes; ``None`` for anything else.

    Replays spend much of their time in :func:`tomllib.loads`; the files we
    write use only ``key = value`` lines (integers, strings without escapes,
    booleans, one-line lists) and one multi-line list of strings per hand
    (``actions``), under optional ``[N]`` tables. This reads exactly that and
    gives up (the caller then uses :mod:`tomllib`) on any other construct,
    including everything ambiguous: escapes, duplicate keys, comments after
    values, strings holding commas or brackets.
    """
    root: dict[str, object] = {}
    table = root
    lines = iter(text.split("\n"))
    try:
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                name = line[1:-1]
                if not line.endswith("]") or not _BARE_KEY.match(name) or name in root:
                    return None
                table = {}
                root[name] = table
                continue
            key, sep, value = line.partition(" = ")
            if not sep or not _BARE_KEY.match(key) or key in table or "#" in value:
                return None
            if value == "[":  # a multi-line list of strings, one per line
                items: list[object] = []
                for raw_item in lines:
                    item = raw_item.strip()
                    if item == "]":
                        break
                    if not item.endswith(","):
                        return None
                    found = _SIMPLE_STRING.match(item[:-1])
                    if not found or "," in found.group(1) or "]" in found.group(1):
                        return None
                    items.append(found.group(1))
                else:
                    return None
                table[key] = items
                continue
            table[key] = _simple_value(value)
    except ValueError:
        return None
    return root


def _parse_toml(text: str) -> dict[str, object]:
    fast = _fast_toml(text)
    if fast is not None:
        return fast
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
            raise HandError("draws and bring-ins are not part of Omaha")
    raise HandError("this is not a PHH action")


def format_cards(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


# ---------------------------------------------------------------------------
# From a PHH record to our game, and back


_STRUCTURES = {"P": "pot limit", "N": "no limit", "F": "fixed limit"}


def _label(player: int) -> str:
    return f"p{player + 1}"


@dataclass(frozen=True)
class Setup:
    """What a PHH record says about the game: everything but the actions."""

    config: GameConfig
    seats: tuple[SeatIn, ...]
    button: int


def setup_of(hh: HandHistory) -> Setup:
    """The game, seats and button a record describes; :class:`HandError` if none of ours."""
    if hh.problem:
        raise HandError(hh.problem)
    n = hh.player_count
    if not 2 <= n <= 10:
        raise HandError(f"a hand has 2 to 10 players, not {n}")
    code = hh.variant
    hi_lo = code.endswith("/8")
    base = code[:-2] if hi_lo else code
    if len(base) != 2 or base[1] != "O" or base[0] not in _STRUCTURES:
        raise HandError(
            f"variant {code!r} is not an Omaha game (PO, NO, FO, PO/8, NO/8 or FO/8)"
        )
    structure = Structure(_STRUCTURES[base[0]])
    hole = hh.hole_cards if hh.hole_cards is not None else (5 if hh.courchevel else 4)
    variant = next(
        (
            v
            for v in VARIANTS.values()
            if v.hole_cards == hole and v.hi_lo == hi_lo and v.courchevel == hh.courchevel
        ),
        None,
    )
    if variant is None:
        kind = "Courchevel" if hh.courchevel else "Omaha"
        split = " hi-lo" if hi_lo else ""
        raise HandError(f"there is no {hole}-card {kind}{split} game")
    antes = hh.antes + (0,) * (n - len(hh.antes))  # missing entries are 0, as in PokerKit
    if len(antes) != n or len(set(antes)) != 1:
        raise HandError("every player posts the same ante (antes must list one per player)")
    blinds = hh.blinds_or_straddles + (0,) * (n - len(hh.blinds_or_straddles))
    if len(blinds) != n or len(blinds) < 2:
        raise HandError("blinds_or_straddles lists more players than the hand has")
    big = blinds[1]
    small = blinds[0]
    newcomers = [i for i in range(2, n) if blinds[i]]
    written_small = dict(hh.extra).get("_small_blind")
    if written_small is not None:
        if isinstance(written_small, bool) or not isinstance(written_small, int):
            raise HandError("_small_blind must be a whole number of chips")
        if blinds[0] != big:
            raise HandError(
                "_small_blind is written only when the small blind's seat posts a late big blind"
            )
        small = written_small
        newcomers.insert(0, 1 if n == 2 else 0)
    if any(blinds[i] != big for i in newcomers):
        raise HandError("straddles are not played here (only a big blind may be posted late)")
    if small > big or small < 0:
        raise HandError("blinds_or_straddles must start with the small blind, then the big blind")
    if structure is Structure.FIXED_LIMIT:
        if hh.small_bet != big or hh.big_bet != 2 * big:
            raise HandError(
                "fixed limit needs small_bet equal to the big blind and big_bet twice that"
            )
    elif hh.min_bet is not None and hh.min_bet != big:
        raise HandError("min_bet must equal the big blind")
    try:
        config = GameConfig(variant, structure, small, big, antes[0])
    except ValueError as exc:
        raise HandError(str(exc)) from None
    numbers = hh.seats if hh.seats is not None else tuple(range(1, n + 1))
    if len(numbers) != n or len(set(numbers)) != n or min(numbers) < 1:
        raise HandError("seats must list one distinct seat number per player")
    button = numbers[-1]
    clockwise = sorted(numbers, key=lambda s: (s <= button, s))
    if tuple(clockwise) != numbers:
        raise HandError("seats must go clockwise from the seat after the button")
    seats = tuple(
        SeatIn(seat, stack, posts_big_blind=i in newcomers)
        for i, (seat, stack) in enumerate(zip(numbers, hh.starting_stacks, strict=True))
    )
    if min(hh.starting_stacks) <= 0:
        raise HandError("every player starts with chips")
    return Setup(config, seats, button)


@dataclass(frozen=True)
class Replay:
    """A replayed hand: the record, the finished :class:`Hand` and the final stacks (PHH order)."""

    history: HandHistory
    hand: Hand
    finishing_stacks: tuple[int, ...]


def _error(number: int, text: str, action: PHHAction | None, reason: str) -> HandError:
    return HandError(f"{_describe(number, text, action)}: {reason}")


def _idle(hand: Hand, seat: int) -> bool:
    """``seat`` is in the hand with chips, and nobody else could answer a bet.

    The Hand does not ask such a player to act; PokerKit sometimes does, and
    its histories then hold a check (``cc``) that :func:`replay` accepts as a
    no-op.
    """
    me = next((p for p in hand.players if p.seat == seat), None)
    if me is None or me.folded or me.all_in:
        return False
    return all(p.folded or p.all_in for p in hand.players if p.seat != seat)


def _turn(hand: Hand, player_of: Mapping[int, int]) -> str:
    who = hand.to_act
    if who is None or who not in player_of:
        return ""
    return f" ({_label(player_of[who])} to act)"


def _describe(number: int, text: str, action: PHHAction | None) -> str:
    if isinstance(action, HoleDeal):  # never echo hole cards
        return f"action {number} (d dh {_label(action.player)})"
    if isinstance(action, Show):
        return f"action {number} ({_label(action.player)} sm)"
    return f"action {number} ({text.split('#', 1)[0].strip()})"


def _deck_order(
    variant: Variant,
    deal_order: Sequence[int],
    holes: Sequence[Sequence[Card | None]],
    board: Sequence[Card],
    known: Iterable[Card],
) -> list[Card]:
    """The deck order that makes :class:`Hand` deal these cards.

    ``holes`` are in PHH player order; ``deal_order`` lists the players in
    the order the Hand deals to them. The places come from
    :func:`~bot.engine.hand.deal_positions` (the Hand's own dealing plan);
    burns, unknown hole cards and board cards never dealt are filled with
    cards that appear nowhere in the history, so they cannot collide.
    """
    used = set(known)
    filler = iter([c for c in DECK if c not in used])
    plan = deal_positions(len(deal_order), variant)
    slots: dict[int, Card] = {}
    for k, p in enumerate(deal_order):
        for idx, c in zip(plan[f"hole:{k}"], holes[p], strict=False):
            if c is not None:
                slots[idx] = c
    for idx, c in zip(plan["board"], board, strict=False):
        slots[idx] = c
    return [slots[i] if i in slots else next(filler) for i in range(len(DECK))]


def _weak_filler(
    dealt: Sequence[Card | None], variant: Variant, board: Sequence[Card], used: set[Card]
) -> list[Card | None]:
    """Fill a hand's unknown cards with unused cards that make as weak a hand as possible.

    A player whose cards are unknown and who reaches a showdown has mucked
    (or lost): they won nothing. If the weakest cards we can give them still
    win nothing on the recorded board, the replay settles exactly as the real
    hand did; :func:`replay` checks that afterwards. The search starts from
    low ranks (and, in hi-lo, also from nines to kings, which make no low),
    then swaps single cards while the hand gets weaker (no low first, then a
    lower high), and keeps the weakest result.
    """
    hole = list(dealt) + [None] * (variant.hole_cards - len(dealt))
    slots = [i for i, c in enumerate(hole) if c is None]
    spare = [c for c in DECK if c not in used]
    board_ranks = {c.rank for c in board}

    def start(order: list[Card]) -> list[Card | None]:
        picked: list[Card] = []
        for c in order:
            if len(picked) < len(slots) and all(c.rank != q.rank for q in picked):
                picked.append(c)
        for c in order:  # not enough distinct ranks: allow pairs
            if len(picked) < len(slots) and c not in picked:
                picked.append(c)
        out = hole.copy()
        for i, c in zip(slots, picked, strict=True):
            out[i] = c
        return out

    ascending = sorted(spare, key=lambda c: (c.rank in board_ranks, c.rank == 14, c.rank))
    starts = [start(ascending)]
    if variant.hi_lo:
        starts.append(start(sorted(spare, key=lambda c: (c.rank in board_ranks, c.rank < 9))))
    if len(board) < 3:
        return starts[0]

    def strength(cards: list[Card | None]) -> tuple[bool, int]:
        known = [c for c in cards if c is not None]
        low = low_value(known, board) if variant.hi_lo else None
        return low is not None, high_value(known, board)

    results = []
    for trial_hole in starts:
        best = strength(trial_hole)
        improved = True
        while improved:
            improved = False
            for i in slots:
                for c in spare:
                    if c in trial_hole:
                        continue
                    trial = trial_hole.copy()
                    trial[i] = c
                    score = strength(trial)
                    if score < best:
                        trial_hole, best, improved = trial, score, True
        results.append((best, trial_hole))
    return min(results, key=lambda r: r[0])[1]


def replay(hh: HandHistory) -> Replay:
    """Play the recorded actions on a :class:`Hand` dealt from the recorded cards.

    Raises :class:`HandError` naming the action number and the reason when
    the hand breaks the rules, deals a card twice, or stops before its end.
    Hole cards written ``??`` are filled with the weakest unused cards; the
    hand is an error only when such a hand would then still win or tie part
    of a pot at showdown (see the module docstring).
    """
    setup = setup_of(hh)
    n = hh.player_count
    variant = setup.config.variant
    parsed: list[PHHAction | None] = []
    for number, text in enumerate(hh.actions, 1):
        try:
            parsed.append(parse_action(text))
        except HandError as exc:
            words = text.split("#", 1)[0].split()
            if words[:2] == ["d", "dh"]:  # never echo hole cards
                raise HandError(
                    f"action {number} ({' '.join(words[:3])}): the hole cards cannot be read"
                ) from None
            raise HandError(f"action {number} ({text.strip()}): {exc}") from None
    # Every card the history deals or shows, to build the deck.
    holes: list[list[Card | None]] = [[] for _ in range(n)]
    shown: dict[int, tuple[Card | None, ...]] = {}
    board: list[Card] = []
    seen: set[Card] = set()
    for number, (text, action) in enumerate(zip(hh.actions, parsed, strict=True), 1):
        cards: tuple[Card | None, ...] = ()
        if isinstance(action, HoleDeal | Show) and action.player >= n:
            raise _error(number, text, action, f"there is no player {_label(action.player)}")
        if isinstance(action, HoleDeal):
            holes[action.player].extend(action.cards)
            if len(holes[action.player]) > variant.hole_cards:
                reason = f"{variant.name} deals {variant.hole_cards} hole cards per player"
                raise _error(number, text, action, reason)
            cards = action.cards
        elif isinstance(action, BoardDeal):
            board.extend(action.cards)
            if len(board) > 5:
                raise _error(number, text, action, "the board has only 5 cards")
            cards = action.cards
        elif isinstance(action, Show) and action.cards is not None:
            shown[action.player] = action.cards
        for c in cards:
            if c is not None and c in seen:
                raise _error(number, text, action, "a card is dealt that was already dealt")
            if c is not None:
                seen.add(c)
    for p, cards_shown in shown.items():
        if len(cards_shown) != variant.hole_cards:
            raise HandError(f"{_label(p)} shows {len(cards_shown)} cards, not their whole hand")
        dealt_known = {c for c in holes[p] if c is not None}
        shown_known = {c for c in cards_shown if c is not None}
        complete = len(dealt_known) == variant.hole_cards
        fully_shown = len(shown_known) == variant.hole_cards
        if (complete and not shown_known <= dealt_known) or (
            fully_shown and not dealt_known <= shown_known
        ):
            raise HandError(f"{_label(p)} shows cards they were not dealt")
        if not complete and fully_shown:
            if (shown_known - dealt_known) & seen:
                raise HandError(f"{_label(p)} shows a card that was dealt elsewhere")
            seen.update(shown_known)
            holes[p] = list(cards_shown)
    unknown = {p for p in range(n) if len(holes[p]) < variant.hole_cards or None in holes[p]}
    folds = {a.player for a in parsed if isinstance(a, PlayerAction) and a.kind == "f"}
    for p in sorted(unknown, key=lambda p: (p in folds, p)):  # the weakest to showdowns
        holes[p] = _weak_filler(holes[p], variant, board, seen)
        seen.update(c for c in holes[p] if c is not None)
    seat_of = [s.seat for s in setup.seats]
    player_of = {seat: p for p, seat in enumerate(seat_of)}
    try:
        # The Hand's own deal order (from the small blind; heads-up the button).
        probe = Hand(setup.config, setup.seats, setup.button, Deck(order=DECK))
        deal_order = [player_of[seat] for seat in probe.deal_order]
        order = _deck_order(variant, deal_order, holes, board, seen)
        hand = Hand(setup.config, setup.seats, setup.button, Deck(order=order))
        hand.start()
    except (IllegalAction, ValueError) as exc:
        raise HandError(f"the hand cannot start: {exc}") from None
    for p in shown:
        if shown[p] is not None:
            try:
                hand.request_show(seat_of[p])
            except (IllegalAction, ValueError):
                pass  # showing is then the bot's own decision
    board_seen = 0
    betting_started = False
    for number, (text, action) in enumerate(zip(hh.actions, parsed, strict=True), 1):
        if action is None:
            continue
        if isinstance(action, HoleDeal):
            if betting_started:
                raise _error(number, text, action, "hole cards are dealt only before the betting")
            continue
        if isinstance(action, BoardDeal):
            board_seen += len(action.cards)
            if len(hand.board) < board_seen:
                if hand.is_over:
                    raise _error(number, text, action, "the hand is over, no more board cards")
                reason = "the board is dealt while the betting is open" + _turn(hand, player_of)
                raise _error(number, text, action, reason)
            continue
        if isinstance(action, Show):
            if not hand.is_over and hand.to_act is not None:
                reason = "hands are shown only when the betting is over"
                raise _error(number, text, action, reason)
            continue
        betting_started = True
        seat = seat_of[action.player] if action.player < n else -1
        if action.kind == "cc" and hand.to_act != seat and _idle(hand, seat):
            continue  # a check whose decision cannot matter (PokerKit asks for one)
        if hand.is_over:
            raise _error(number, text, action, "the hand is already over")
        if len(hand.board) != board_seen:
            reason = "the history skips board cards the hand has dealt"
            raise _error(number, text, action, reason)
        if hand.to_act != seat:
            who = hand.to_act
            if who in player_of:
                reason = f"it is {_label(player_of[who])}'s turn"
                raise _error(number, text, action, reason)
            raise _error(number, text, action, "nobody may act now")
        if action.kind == "f":
            move = Action.fold()
        elif action.kind == "cc":
            move = Action.call()
        else:
            move = Action.raise_to(action.amount)
        try:
            hand.act(seat, move)
        except IllegalAction as exc:
            raise _error(number, text, action, str(exc)) from None
    if not hand.is_over:
        raise HandError("the actions stop before the end of the hand" + _turn(hand, player_of))
    if board_seen != len(hand.board):
        raise HandError("the actions stop before the end of the hand (board cards are missing)")
    folded = {
        player_of[e.seat]
        for e in hand.events
        if isinstance(e, PlayerActed) and e.kind is ActionKind.FOLD
    }
    if n - len(folded) >= 2 and unknown - folded:
        winners = {
            player_of[seat]
            for e in hand.events
            if isinstance(e, PotAwarded)
            for seat, chips in e.high + e.low
            if chips
        }
        for p in sorted((unknown - folded) & winners):
            raise HandError(
                f"{_label(p)}'s hole cards are unknown (??) and could win at the showdown"
            )
    ended = next(e for e in reversed(hand.events) if isinstance(e, HandEnded))
    final = dict(ended.stacks)
    return Replay(hh, hand, tuple(final[s] for s in seat_of))


def history_of(
    events: Sequence[Event],
    *,
    players: Sequence[str] | None = None,
    extra: Sequence[tuple[str, TomlValue]] = (),
    public: bool = False,
) -> HandHistory:
    """The PHH record of a finished hand, from its events (:attr:`Hand.events`).

    ``public=True`` writes the hole cards of every hand that was never shown
    (folded or mucked) as ``??``, as the rules keep them hidden from the other
    players; such a record still replays to the same final stacks (see
    :func:`replay` on unknown cards).
    """
    started = next((e for e in events if isinstance(e, HandStarted)), None)
    ended = next((e for e in events if isinstance(e, HandEnded)), None)
    if started is None or ended is None:
        raise ValueError("only a finished hand (from its start to its end) can be written")
    variant = VARIANTS[started.variant]
    structure = Structure(started.structure)
    config = GameConfig(
        variant, structure, started.small_blind, started.big_blind, started.ante
    )
    seat_order = [seat for seat, _ in started.seats]
    player_of = {seat: p for p, seat in enumerate(seat_order)}
    n = len(seat_order)
    newcomers = set(started.posts_big_blind)
    blinds = [0] * n
    blinds[0], blinds[1] = config.small_blind, config.big_blind
    small_pos, big_pos = (1, 0) if n == 2 else (0, 1)
    notes = list(extra)
    for seat in newcomers:
        pos = player_of[seat]
        if pos == small_pos:  # the small blind's seat posts a late big blind instead
            blinds[0] = config.big_blind
            notes.append(("_small_blind", config.small_blind))
        elif pos != big_pos:
            blinds[pos] = config.big_blind
    actions: list[str] = []
    shown = {e.seat for e in events if isinstance(e, HandShown)}
    dealt = sorted(
        (player_of[e.seat], e.cards if e.seat in shown or not public else (None,) * len(e.cards))
        for e in events
        if isinstance(e, HoleCardsDealt)
    )  # one deal per player: sorted by player
    actions.extend(f"d dh {_label(p)} {format_cards(cards)}" for p, cards in dealt)
    for e in events:
        if isinstance(e, HoleCardsDealt):
            continue
        if isinstance(e, BoardDealt):
            actions.append(f"d db {format_cards(e.cards)}")
        elif isinstance(e, PlayerActed):
            who = _label(player_of[e.seat])
            if e.kind is ActionKind.FOLD:
                actions.append(f"{who} f")
            elif e.kind in (ActionKind.CHECK, ActionKind.CALL):
                actions.append(f"{who} cc")
            else:
                actions.append(f"{who} cbr {e.to}")
        elif isinstance(e, HandShown):
            actions.append(f"{_label(player_of[e.seat])} sm {format_cards(e.cards)}")
    final = dict(ended.stacks)
    fixed = structure is Structure.FIXED_LIMIT
    return HandHistory(
        variant=config.phh_variant,
        antes=(config.ante,) * n,
        blinds_or_straddles=tuple(blinds),
        starting_stacks=tuple(stack for _, stack in started.seats),
        actions=tuple(actions),
        min_bet=None if fixed else config.big_blind,
        small_bet=config.small_bet if fixed else None,
        big_bet=config.big_bet if fixed else None,
        finishing_stacks=tuple(final[s] for s in seat_order),
        seats=tuple(seat_order),
        players=tuple(players) if players is not None else None,
        hole_cards=variant.hole_cards if variant.hole_cards != 4 else None,
        courchevel=variant.courchevel,
        extra=tuple(notes),
    )
