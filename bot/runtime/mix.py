"""Mixed tables as data (RULES.md 11): the games of a list, how they follow each other,
and which one a hand deals.

A :class:`Game` is a variant with a betting structure. A :class:`Mix` is what a mixed
table deals: a list of 2 to :data:`MAX_GAMES` games and a :class:`Mode` (a rotation,
each game for ``every`` hands in the list's order, or dealer's choice). Everything here
is a pure function of those values and of the hand's number: the table asks
:func:`game_for_hand` at the deal and the pictures ask :func:`upcoming` what comes next.

Decisions where RULES.md is silent:

* The rotation counts the table's hands: hand ``since + 1`` deals the first game of the
  list, and each game is dealt for ``every`` hands (``since``: the hands the table had
  dealt when this list was set, so a list changed between hands starts again from its
  first game). A hand that was not dealt (its commitment not posted) does not count.
* Dealer's choice: the menu offers every game of the list, the previous hand's game
  included (choosing it deals it again); no choice (a timeout, the chooser sitting out,
  or a button that was drawn for, so nobody was on it before the deal) repeats the
  previous hand's game, the list's first game for the table's first hand. A game the
  list no longer holds (the list was changed) gives way to the list's first game.
* "The same list of games" of the return rule (RULES.md 7) is the list in its order, the
  mode and the rotation's length left out: :attr:`bot.runtime.config.TableConfig.game_key`
  and storage's ``departure_key`` spell it with :func:`bot.engine.variants.game_key`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.engine.variants import VARIANTS, Structure, Variant, game_name, structure_name
from bot.i18n import Choice, Phrase

__all__ = [
    "MAX_EVERY", "MAX_GAMES", "MIN_GAMES", "Game", "Mix", "Mode", "game_for_hand", "named",
    "upcoming",
]

MIN_GAMES, MAX_GAMES = 2, 8
#: The longest rotation: each game for at most this many hands.
MAX_EVERY = 100


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a list: a variant (its key) and a betting structure."""

    variant_key: str
    structure: Structure

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.variant_key]

    @property
    def name(self) -> str:
        """``No Limit Texas Hold'em`` (English; :mod:`bot.runtime.table.wording` words it)."""
        return game_name(self.variant, self.structure)

    @property
    def key(self) -> str:
        """``holdem/no limit``: the game's canonical key."""
        return f"{self.variant_key}/{self.structure.value}"

    @classmethod
    def from_key(cls, key: str) -> Game:
        variant, structure = key.split("/", 1)
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        return cls(variant, Structure(structure))


class Mode(StrEnum):
    """How a mixed table's games follow each other (RULES.md 11)."""

    ROTATION = "rotation"
    DEALERS_CHOICE = "dealer's choice"


@dataclass(frozen=True, slots=True)
class Mix:
    """A mixed table's games and how they follow each other (validated by
    :meth:`bot.runtime.config.TableConfig.create`)."""

    games: tuple[Game, ...]
    mode: Mode = Mode.ROTATION
    #: Rotation: hands dealt of each game before the next.
    every: int = 6
    #: The hands the table had dealt when this list was set (the rotation counts after).
    since: int = field(default=0, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"games": [g.key for g in self.games], "mode": self.mode.value,
                "every": self.every, "since": self.since}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Mix:
        return cls(tuple(Game.from_key(str(k)) for k in data["games"]), Mode(data["mode"]),
                   int(data["every"]), int(data.get("since", 0)))


def _rotation_index(mix: Mix, hand_no: int) -> int:
    """The list index of the game hand ``hand_no`` deals in a rotation."""
    return max(0, hand_no - 1 - mix.since) // mix.every % len(mix.games)


def game_for_hand(
    mix: Mix, hand_no: int, previous: Game | None = None, chosen: Game | None = None
) -> Game:
    """The game of hand ``hand_no`` (the table's count): the rotation's, or in dealer's
    choice the ``chosen`` one, else the ``previous`` hand's, else the list's first."""
    if mix.mode is Mode.ROTATION:
        return mix.games[_rotation_index(mix, hand_no)]
    for game in (chosen, previous):
        if game is not None and game in mix.games:
            return game
    return mix.games[0]


def upcoming(mix: Mix, hand_no: int) -> tuple[Game, int] | None:
    """A rotation's next game after hand ``hand_no`` and in how many hands it comes (1:
    the next hand); None in dealer's choice (the next chooser decides)."""
    if mix.mode is not Mode.ROTATION:
        return None
    played = max(0, hand_no - 1 - mix.since) % mix.every
    index = _rotation_index(mix, hand_no)
    return mix.games[(index + 1) % len(mix.games)], mix.every - played


def named(game: Game) -> Phrase:
    """A game's name in the reader's language: ``No Limit Texas Hold'em``, ``Omaha Pot
    Limit`` in Portuguese."""
    return Phrase("table.game", game=Choice(game.variant.name),
                  structure=Choice(structure_name(game.structure)))
