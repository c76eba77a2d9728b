"""Variants and game settings as data (RULES.md sections 2, 3, 5 and 9).

A :class:`Variant` says how many hole cards each player gets, how a hand is
made of them and the board (its :class:`HandRule`: the Omaha rule of exactly
two hole and three board cards, or Texas Hold'em's best five of all of them),
whether the pot is split high/low (8 or better) and whether it is Courchevel
(the first flop card is dealt face up before the preflop betting). A
:class:`GameConfig` adds the betting structure and the forced bets.

Decisions where RULES.md is silent:

* ``GameConfig`` holds the small blind explicitly (the contract). For fixed
  limit it must be half the small bet rounded down (RULES.md section 3), so
  ``GameConfig`` refuses any other value; :meth:`GameConfig.fixed_limit`
  builds one from the small bet. In fixed limit the big blind is the small
  bet and the big bet is twice the small bet.
* Every blind is at least one chip and the small blind is never bigger than
  the big blind; the ante may be 0.
* ``run_it_twice``: the table lets the players of an all-in run-out deal the
  rest of the board twice when they all agree (:mod:`bot.engine.run_twice`).
  Off by default; written to a dict only when on, so older records read alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "DECK_SIZE",
    "VARIANTS",
    "GameConfig",
    "HandRule",
    "Structure",
    "Variant",
    "game_key",
    "game_name",
    "structure_name",
]

DECK_SIZE = 52
BOARD_CARDS = 5
BURNS = 3
MAX_PLAYERS = 10
MIN_PLAYERS = 2


class Structure(StrEnum):
    """The betting structure (RULES.md section 5)."""

    POT_LIMIT = "pot limit"
    NO_LIMIT = "no limit"
    FIXED_LIMIT = "fixed limit"

    @property
    def letter(self) -> str:
        """The PHH structure letter: ``P``, ``N`` or ``F``."""
        return {"pot limit": "P", "no limit": "N", "fixed limit": "F"}[self.value]


class HandRule(StrEnum):
    """How a player's hand is made of their hole cards and the board."""

    #: RULES.md section 1: exactly two hole cards and exactly three board cards.
    OMAHA = "omaha"
    #: RULES.md section 9: the best five of the hole and board cards, using both hole
    #: cards, one or none (the board plays).
    HOLDEM = "holdem"

    @property
    def letter(self) -> str:
        """The game letter of a PHH variant code: ``O`` (Omaha), ``T`` (Texas Hold'em)."""
        return {"omaha": "O", "holdem": "T"}[self.value]


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant (RULES.md sections 2 and 9). Variants are data, not subclasses.

    Hi-lo and Courchevel are Omaha games only."""

    key: str
    name: str
    hole_cards: int
    hi_lo: bool = False
    courchevel: bool = False
    rule: HandRule = HandRule.OMAHA

    def __post_init__(self) -> None:
        if self.rule is not HandRule.OMAHA and (self.hi_lo or self.courchevel):
            raise ValueError("hi-lo and Courchevel are Omaha games")

    @property
    def max_seats(self) -> int:
        """Most players the deck allows: players x hole + 5 board + 3 burns <= 52, at most 10."""
        return min(MAX_PLAYERS, (DECK_SIZE - BOARD_CARDS - BURNS) // self.hole_cards)


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant("omaha", "Omaha", 4),
        Variant("omaha_hilo", "Omaha Hi-Lo", 4, hi_lo=True),
        Variant("omaha5", "Five-card Omaha", 5),
        Variant("big_o", "Big O", 5, hi_lo=True),
        Variant("omaha6", "Six-card Omaha", 6),
        Variant("courchevel", "Courchevel", 5, courchevel=True),
        Variant("courchevel_hilo", "Courchevel Hi-Lo", 5, hi_lo=True, courchevel=True),
        Variant("holdem", "Texas Hold'em", 2, rule=HandRule.HOLDEM),
    )
}


def structure_name(structure: Structure) -> str:
    """A structure as players read it: ``Pot Limit``, ``No Limit``, ``Fixed Limit``."""
    return structure.value.title()


def game_name(variant: Variant, structure: Structure | None = None) -> str:
    """The one name of a game, wherever it is shown (choices, tables, statistics).

    ``Pot Limit Omaha Hi-Lo`` with a structure; the variant's own name
    (``Omaha Hi-Lo``) where statistics and leaderboards group every structure.
    """
    if structure is None:
        return variant.name
    return f"{structure_name(structure)} {variant.name}"


def game_key(games: Sequence[tuple[str, str]], small_blind: int, big_blind: int) -> str:
    """The one name of a cash game for the return rule (RULES.md 7): ``omaha/pot limit@1/2``.

    ``games`` are the variant keys and structures dealt at the table, in order: one pair
    today; a mixed table (RULES.md 11) gives its list, joined with ``+``
    (``omaha/pot limit+omaha_hilo/fixed limit@2/4``), so two tables are the same game
    when they deal the same list. The ante is not part of it: RULES.md 7 asks for the
    same blinds, and a table that adds an ante is still "the same blinds" (otherwise an
    ante of one chip would open a way round the rule). Storage keeps this text with each
    departure, and its migration 0010 spells the same text in SQL.
    """
    if not games:
        raise ValueError("a game key needs at least one game")
    return "+".join(f"{variant}/{structure}" for variant, structure in games) + (
        f"@{small_blind}/{big_blind}")


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Variant, structure and forced bets of a game.

    Fixed limit: the small bet is ``big_blind``, the big bet ``2 * big_blind``
    and ``small_blind`` must be ``big_blind // 2`` (5-10 game: blinds 2 and 5).
    ``seven_deuce``: the 7-2 bounty in big blinds (RULES.md 10), paid only in Texas
    Hold'em hands (:mod:`bot.engine.after_hand`); 0 when not played.
    """

    variant: Variant
    structure: Structure
    small_blind: int
    big_blind: int
    ante: int = 0
    run_it_twice: bool = False
    seven_deuce: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.structure, Structure):
            object.__setattr__(self, "structure", Structure(self.structure))
        if self.big_blind < 1:
            raise ValueError("the big blind must be at least 1 chip")
        if self.ante < 0:
            raise ValueError("the ante cannot be negative")
        if self.seven_deuce < 0:
            raise ValueError("the 7-2 bounty cannot be negative")
        if self.structure is Structure.FIXED_LIMIT:
            if self.big_blind < 2:
                raise ValueError("in fixed limit the small bet (big blind) must be at least 2")
            if self.small_blind != self.big_blind // 2:
                raise ValueError(
                    "in fixed limit the small blind is half the small bet rounded down: "
                    f"{self.big_blind // 2} with a small bet of {self.big_blind}"
                )
        elif not 1 <= self.small_blind <= self.big_blind:
            raise ValueError("the small blind must be between 1 and the big blind")

    @classmethod
    def fixed_limit(cls, variant: Variant, small_bet: int, ante: int = 0) -> GameConfig:
        """A fixed-limit game ``small_bet``-``2*small_bet``.

        Blinds are ``small_bet // 2`` and ``small_bet``."""
        return cls(variant, Structure.FIXED_LIMIT, small_bet // 2, small_bet, ante)

    @property
    def small_bet(self) -> int:
        """Fixed limit: the bet size preflop and on the flop (the big blind)."""
        return self.big_blind

    @property
    def big_bet(self) -> int:
        """Fixed limit: the bet size on the turn and the river."""
        return 2 * self.big_blind

    @property
    def max_seats(self) -> int:
        return self.variant.max_seats

    @property
    def phh_variant(self) -> str:
        """The PHH variant code: ``PO``, ``NO``, ``FO``, ``PO/8``, ``NO/8``, ``FO/8``; Texas
        Hold'em ``NT``, ``PT``, ``FT``."""
        variant = self.variant
        return self.structure.letter + variant.rule.letter + ("/8" if variant.hi_lo else "")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": self.variant.key,
            "structure": self.structure.value,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
        }
        if self.run_it_twice:
            out["run_it_twice"] = True
        if self.seven_deuce:
            out["seven_deuce"] = self.seven_deuce
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameConfig:
        return cls(
            VARIANTS[data["variant"]],
            Structure(data["structure"]),
            int(data["small_blind"]),
            int(data["big_blind"]),
            int(data.get("ante", 0)),
            bool(data.get("run_it_twice", False)),
            int(data.get("seven_deuce", 0)),
        )
