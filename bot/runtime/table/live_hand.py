"""The hand a table is playing, and what the table keeps beside it (its own module, so
the table's helpers read it without importing the table)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.hand import Hand
from bot.runtime.table.run_twice import Question
from bot.runtime.turns import Turn

__all__ = ["LiveHand"]


@dataclass
class LiveHand:
    """The hand being played and what the table keeps beside it."""

    hand: Hand
    hand_id: int
    hand_no: int
    dealt: tuple[int, ...]
    start_stacks: dict[int, int]
    seq: int = 0
    turn: Turn | None = None
    commitment: str = ""  # the deck commitment's root, posted before the deal
    question: Question | None = None  # the open run-it-twice question
    #: a player made a decision of their own in it (``Source.own``): not every action
    #: a timeout or automatic (a tournament stops after many such hands in a row)
    decided: bool = False
