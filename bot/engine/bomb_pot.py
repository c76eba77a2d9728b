"""Bomb pots (RULES.md 10): every player antes, nobody posts a blind, no preflop betting.

A :class:`BombPot` given to a :class:`~bot.engine.hand.Hand` makes it one: each
player dealt in posts the bomb ante, the hole cards are dealt, the flop comes at
once and the betting starts on the flop as on any flop (first active player left
of the button; minimum bet the big blind, in fixed limit the small bet; in pot
limit the antes are the pot). With ``double_board`` each street is dealt twice and
every pot is halved between the two boards.

Decisions where RULES.md is silent (pinned by ``tests/engine/test_bomb_pot.py``):

* **The table's ante** is not posted on top: the bomb ante replaces it in that hand.
  Nobody straddles (a straddle is a blind, RULES.md 10); a standing choice to straddle
  waits for the next hand with blinds.
* **The ante** is posted clockwise from the first seat after the button; a player who
  cannot cover it posts all they have and is all-in (as any ante, RULES.md 3). When at
  most one player has chips behind after the antes, nobody bets: every hand is shown
  and the boards are dealt (RULES.md 6, a run-out).
* **Hole cards** are dealt as in any hand: one at a time clockwise from the seat after
  the button (heads-up from the button).
* **Courchevel**: the first flop card comes with its burn before the other two as in
  any Courchevel hand; there is simply no betting in between.
* **Double board, the deal** (RULES.md 10): each street is dealt on board 1 (one burn,
  its cards), then on board 2 (one burn, its cards): flop 1, flop 2, turn 1, turn 2,
  river 1, river 2. Courchevel deals each board's face-up first card (with its burn),
  then each board's other two flop cards (without one), so a board still burns three.
  When ``players x hole cards + 10 + 6`` exceeds the deck (:func:`fits_two_boards`),
  the hand is dealt on one board; the engine decides it, so a replay decides alike.
* **Double board, the showdown**: hands are shown in the usual order; a hand is mucked
  only when it can neither win nor tie any part of a pot on either board. Each pot is
  halved, the odd chip to board 1, and each half is awarded on its board by RULES.md 6
  (:func:`~bot.engine.showdown.award_two_boards`, the split a board run twice uses).
  A double-board hand is never run twice (it already has two boards); a bomb pot on
  one board may be, as any hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.variants import BURNS, DECK_SIZE, Variant

__all__ = ["BombPot", "fits_two_boards"]

#: The cards two boards take: 5 board cards and 3 burns each.
TWO_BOARDS = 2 * (5 + BURNS)


@dataclass(frozen=True, slots=True)
class BombPot:
    """A hand dealt as a bomb pot: ``ante`` chips from every player, maybe two boards
    (``double_board`` asks for them; :func:`fits_two_boards` says whether they are dealt)."""

    ante: int
    double_board: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.ante, bool) or not isinstance(self.ante, int) or self.ante < 1:
            raise ValueError("a bomb pot's ante is at least 1 chip")

    def to_dict(self) -> dict[str, Any]:
        return {"ante": self.ante, "double_board": self.double_board}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BombPot:
        return cls(int(data["ante"]), bool(data.get("double_board", False)))


def fits_two_boards(variant: Variant, players: int) -> bool:
    """Whether the deck holds two boards: ``players x hole cards + 10 + 6 burns <= 52``."""
    return players * variant.hole_cards + TWO_BOARDS <= DECK_SIZE
