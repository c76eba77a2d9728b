"""Tournament blind schedules as data (RULES.md sections 3 and 7: "blinds rise on a schedule").

A :class:`BlindSchedule` is a tuple of :class:`BlindLevel` (small blind, big
blind, ante) and how long each level lasts. Decisions where RULES.md is silent:

* **Levels last minutes, not hands** (``LevelUnit.MINUTES``), as in online
  sit-and-gos: a slow player cannot hold the blinds down. The time is read from
  an injectable clock (the runtime's :class:`~bot.runtime.clock.Clock`, or a
  fake in tests). ``LevelUnit.HANDS`` is available for home games and tests.
* **A level change applies from the next hand**: a hand is played entirely at
  the level in force when it was dealt.
* **The last level repeats** once the schedule runs out (it is long enough that
  a sit-and-go is decided well before).
* **Fixed limit**: the big blind is the small bet and the small blind is
  ``big_blind // 2`` (RULES.md section 3), whatever the preset's small blind;
  :meth:`BlindLevel.for_structure` applies this, and a fixed-limit schedule
  needs every big blind to be at least 2.
* Levels never go down: from one level to the next the big blind and the ante
  do not decrease and at least one of them rises; the small blind is between 1
  and the big blind; the ante is between 0 and the big blind.
* The presets are made for a starting stack of 1,500 chips (75 big blinds at
  10/20, as in the classic online sit-and-go); :meth:`BlindSchedule.times`
  multiplies every amount for bigger stacks (3,000 chips: ``times(2)``), and
  :func:`for_stack` by the whole number nearest the stack's multiple of 1,500.
* Texas Hold'em (issue 30) plays the presets relative to its starting stack
  (:func:`for_stack`), and a no-limit Hold'em sit-and-go whose creator names no
  speed is a **turbo** (:func:`default_speed`): the online standard for the most
  played tournament there is, 5-minute levels from 50 big blinds (15/30 for
  1,500 chips, 30/60 for 3,000), antes from the fifth level, about an hour for
  six players. Omaha keeps its regular default and its presets as they are.

Presets (``PRESETS``):

========  =========  ================================================
name      minutes    levels
========  =========  ================================================
turbo     5          15/30 up to 1500/3000 ante 300, steep steps
regular   10         10/20 up to 2000/4000 ante 200
slow      15         10/20 up to 2000/4000 ante 200, more small steps
========  =========  ================================================
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.engine.variants import GameConfig, HandRule, Structure, Variant
from bot.i18n import Phrase, Wording, number, translate

__all__ = [
    "PRESETS",
    "BlindLevel",
    "BlindSchedule",
    "Blinds",
    "LevelUnit",
    "ScheduleError",
    "default_speed",
    "for_stack",
    "preset",
]

#: Upper bound for any blind or ante (keeps absurd numbers out of the settings).
MAX_BLIND = 1_000_000_000
#: The starting stack the presets are made for.
PRESET_STACK = 1_500


class ScheduleError(ValueError):
    """A blind schedule that does not make a playable tournament (readable message).

    ``phrase``: the reason as a :class:`~bot.i18n.Wording` when a player can cause it
    (``bot.adapter.polite.describe`` words it in the reader's language); ``str()`` is English."""

    def __init__(self, message: str | Wording) -> None:
        self.phrase = message if isinstance(message, Wording) else None
        super().__init__(str(message))


class LevelUnit(StrEnum):
    """What a level's duration counts."""

    MINUTES = "minutes"
    HANDS = "hands"


def _whole(value: object, what: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScheduleError(f"the {what} must be a whole number of chips")
    if not low <= value <= MAX_BLIND:
        raise ScheduleError(f"the {what} must be between {low:,} and {MAX_BLIND:,}")
    return value


@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One level's forced bets: ``small_blind``/``big_blind`` and an ``ante`` per player."""

    small_blind: int
    big_blind: int
    ante: int = 0

    def __post_init__(self) -> None:
        _whole(self.big_blind, "big blind", 1)
        _whole(self.small_blind, "small blind", 1)
        _whole(self.ante, "ante", 0)
        if self.small_blind > self.big_blind:
            raise ScheduleError(
                f"the small blind ({self.small_blind:,}) cannot be bigger than the big blind"
                f" ({self.big_blind:,})"
            )
        if self.ante > self.big_blind:
            raise ScheduleError(
                f"the ante ({self.ante:,}) cannot be bigger than the big blind"
                f" ({self.big_blind:,})"
            )

    def for_structure(self, structure: Structure) -> BlindLevel:
        """The level as played in ``structure``: fixed limit uses ``big_blind // 2``."""
        if structure is Structure.FIXED_LIMIT:
            if self.big_blind < 2:
                raise ScheduleError("in fixed limit the big blind (small bet) must be at least 2")
            return BlindLevel(self.big_blind // 2, self.big_blind, self.ante)
        return self

    def game(self, variant: Variant, structure: Structure) -> GameConfig:
        """The engine's :class:`GameConfig` for a hand dealt at this level."""
        level = self.for_structure(structure)
        return GameConfig(variant, structure, level.small_blind, level.big_blind, level.ante)

    def __str__(self) -> str:
        text = f"{self.small_blind:,}/{self.big_blind:,}"
        return text + (f" ante {self.ante:,}" if self.ante else "")


class Blinds(Wording):
    """A level's blinds in a reader's language: ``1,500/3,000 ante 300`` in English (as
    ``str(level)``), ``1.500/3.000 ante 300`` in Portuguese, Spanish and Italian."""

    __slots__ = ("level",)

    def __init__(self, level: BlindLevel) -> None:
        self.level = level

    def to(self, locale: object) -> str:
        lv = self.level
        if lv.ante:
            return translate(locale, "table.stakes_ante", small=lv.small_blind,
                             big=lv.big_blind, ante=lv.ante)
        return f"{number(locale, lv.small_blind)}/{number(locale, lv.big_blind)}"


@dataclass(frozen=True, slots=True)
class BlindSchedule:
    """Levels and their duration (``duration`` minutes or hands, see ``unit``)."""

    name: str
    levels: tuple[BlindLevel, ...]
    duration: int
    unit: LevelUnit = LevelUnit.MINUTES

    def __post_init__(self) -> None:
        if not isinstance(self.unit, LevelUnit):
            try:
                object.__setattr__(self, "unit", LevelUnit(self.unit))
            except ValueError:
                raise ScheduleError("a level lasts a number of minutes or of hands") from None
        object.__setattr__(self, "levels", tuple(self.levels))
        if not self.levels:
            raise ScheduleError("a blind schedule needs at least one level")
        if isinstance(self.duration, bool) or not isinstance(self.duration, int) or not (
            1 <= self.duration <= 24 * 60
        ):
            raise ScheduleError(f"a level lasts between 1 and 1,440 {self.unit.value}")
        for before, after in itertools.pairwise(self.levels):
            if (
                after.big_blind < before.big_blind
                or after.ante < before.ante
                or after.small_blind < before.small_blind
                or (after.big_blind, after.ante) == (before.big_blind, before.ante)
            ):
                raise ScheduleError(
                    f"the blinds must rise from level to level ({before} -> {after})"
                )

    @property
    def seconds_per_level(self) -> float:
        """Length of a level in seconds (minute levels only)."""
        if self.unit is not LevelUnit.MINUTES:
            raise ScheduleError("this schedule counts hands, not minutes")
        return 60.0 * self.duration

    def index_at(self, elapsed: float) -> int:
        """The level index (0-based) after ``elapsed`` minutes-worth of seconds or hands.

        ``elapsed`` is seconds for a minute schedule and hands played for a hand
        schedule. The last level repeats.
        """
        if elapsed < 0:
            raise ValueError("elapsed time cannot be negative")
        span = self.seconds_per_level if self.unit is LevelUnit.MINUTES else self.duration
        return min(int(elapsed // span), len(self.levels) - 1)

    def level_at(self, elapsed: float) -> BlindLevel:
        return self.levels[self.index_at(elapsed)]

    def check_structure(self, structure: Structure) -> None:
        """Raise :class:`ScheduleError` when a level cannot be played in ``structure``."""
        for level in self.levels:
            level.for_structure(structure)

    def times(self, factor: int) -> BlindSchedule:
        """Every blind and ante multiplied by ``factor`` (presets are for 1,500 chips)."""
        if isinstance(factor, bool) or not isinstance(factor, int) or factor < 1:
            raise ScheduleError("the blinds can only be multiplied by a whole number from 1")
        return BlindSchedule(
            self.name,
            tuple(
                BlindLevel(lv.small_blind * factor, lv.big_blind * factor, lv.ante * factor)
                for lv in self.levels
            ),
            self.duration,
            self.unit,
        )

    def lines(self) -> tuple[str, ...]:
        """The schedule as shown to players: ``Level 1: 10/20`` ... and how long a level lasts."""
        head = f"{self.name.title()}: {self.duration} {self.unit.value} per level"
        return (head, *(f"Level {i}: {lv}" for i, lv in enumerate(self.levels, start=1)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "duration": self.duration,
            "unit": self.unit.value,
            "levels": [[lv.small_blind, lv.big_blind, lv.ante] for lv in self.levels],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BlindSchedule:
        try:
            levels = tuple(_level(item) for item in data["levels"])
            return cls(str(data["name"]), levels, data["duration"], data.get("unit", "minutes"))
        except (KeyError, TypeError) as exc:
            raise ScheduleError(f"a blind schedule is missing or misspells {exc}") from None


def _level(item: Sequence[int]) -> BlindLevel:
    if len(item) == 2:
        return BlindLevel(item[0], item[1])
    small, big, ante = item
    return BlindLevel(small, big, ante)


def _ladder(*levels: tuple[int, int] | tuple[int, int, int]) -> tuple[BlindLevel, ...]:
    return tuple(BlindLevel(*lv) for lv in levels)


PRESETS: dict[str, BlindSchedule] = {
    s.name: s
    for s in (
        BlindSchedule(
            "turbo",
            _ladder(
                (15, 30), (25, 50), (50, 100), (75, 150), (100, 200, 25), (150, 300, 25),
                (200, 400, 50), (300, 600, 75), (400, 800, 100), (600, 1200, 125),
                (800, 1600, 200), (1000, 2000, 250), (1500, 3000, 300),
            ),
            5,
        ),
        BlindSchedule(
            "regular",
            _ladder(
                (10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200),
                (100, 200, 25), (200, 400, 25), (300, 600, 50), (400, 800, 50),
                (600, 1200, 75), (800, 1600, 100), (1000, 2000, 100), (1500, 3000, 150),
                (2000, 4000, 200),
            ),
            10,
        ),
        BlindSchedule(
            "slow",
            _ladder(
                (10, 20), (15, 30), (20, 40), (25, 50), (30, 60), (40, 80), (50, 100),
                (75, 150), (100, 200), (100, 200, 25), (150, 300, 25), (200, 400, 25),
                (250, 500, 50), (300, 600, 50), (400, 800, 50), (500, 1000, 75),
                (600, 1200, 75), (800, 1600, 100), (1000, 2000, 100), (1500, 3000, 150),
                (2000, 4000, 200),
            ),
            15,
        ),
    )
}


def preset(name: str) -> BlindSchedule:
    """A preset by name (``turbo``, ``regular``, ``slow``), or a readable :class:`ScheduleError`."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise ScheduleError(Phrase("refuse.schedule.unknown", name=repr(name),
                                   names=", ".join(PRESETS))) from None


def for_stack(schedule: BlindSchedule, stack: int) -> BlindSchedule:
    """``schedule`` (made for 1,500 chips) for a starting stack of ``stack``: every amount
    times the whole number nearest ``stack / 1,500``, at least 1 (3,000 chips play
    30/60 where 1,500 play 15/30; 4,000 chips ``times(3)``)."""
    return schedule.times(max(1, (stack + PRESET_STACK // 2) // PRESET_STACK))


def default_speed(variant: Variant, structure: Structure) -> str:
    """The preset a sit-and-go plays when its creator names none: turbo for no-limit Texas
    Hold'em, regular for everything else."""
    if variant.rule is HandRule.HOLDEM and structure is Structure.NO_LIMIT:
        return "turbo"
    return "regular"
