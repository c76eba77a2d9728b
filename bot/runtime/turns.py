"""A decision waiting for a player: the turn, its clock and what the player is shown (pure).

RULES.md section 8: each decision has ``clock`` seconds, then the player's
time bank is spent. The player is reminded ``REMINDER_LEAD`` seconds (at most
half the time) before time runs out; when both have run out the bot checks
if it may, otherwise folds. The time bank is not refilled.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.engine.betting import LegalActions
from bot.engine.variants import Structure
from bot.runtime.seating import Seat
from bot.runtime.table.views import TurnView

__all__ = ["REMINDER_LEAD", "TIMEOUTS_TO_SIT_OUT", "Mark", "Turn", "marks", "presets", "view_of"]

#: Seconds before time runs out when the player is reminded.
REMINDER_LEAD = 10.0
#: Consecutive timeouts that sit a player out (RULES section 8).
TIMEOUTS_TO_SIT_OUT = 2


class Mark(Enum):
    """Moments on a turn's clock."""

    BANK = "the time bank starts"
    REMINDER = "reminder"
    TIMEOUT = "time is up"


@dataclass
class Turn:
    token: str  # "<hand_no>.<action seq>": buttons carry it so stale clicks are refused
    seat: int
    started: float
    clock: float
    bank: float

    @property
    def total(self) -> float:
        return self.clock + self.bank

    @property
    def reminder_lead(self) -> float:
        return min(REMINDER_LEAD, self.total / 2)

    def spent_bank(self, now: float) -> float:
        """Seconds of time bank used if the player acts at ``now``."""
        return max(0.0, (now - self.started) - self.clock)

    def left(self, now: float) -> tuple[float, float]:
        """Seconds of the decision clock, then of the time bank, left at ``now``."""
        elapsed = max(0.0, now - self.started)
        return max(0.0, self.clock - elapsed), max(0.0, self.bank - self.spent_bank(now))


def marks(turn: Turn) -> list[tuple[float, Mark]]:
    """When (seconds after the turn started) each mark of the clock falls, in order."""
    lead = turn.reminder_lead
    out = [(turn.total - lead, Mark.REMINDER), (turn.total, Mark.TIMEOUT)]
    if turn.bank > 0 and turn.clock < turn.total - lead:
        out.insert(0, (turn.clock, Mark.BANK))
    return out


def presets(legal: LegalActions, structure: Structure) -> tuple[tuple[str, int], ...]:
    """Quick raise sizes for the buttons: Min, ½ Pot, Pot (pot limit and no limit), each
    below the all-in: a size that is the whole stack is the All-in button's alone (issue
    23: Min and All-in never show the same amount)."""
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        return ()
    out: list[tuple[str, int]] = [("Min", low)] if low < legal.all_in_to else []
    if structure is Structure.FIXED_LIMIT:
        return tuple(out)
    pot_after_call = legal.pot + legal.to_call
    for label, size in (("½ Pot", pot_after_call // 2), ("Pot", pot_after_call)):
        to = max(low, min(high, legal.current_bet + size))
        if to not in (v for _, v in out) and to < legal.all_in_to:
            out.append((label, to))
    return tuple(out)


def view_of(
    turn: Turn, seat: Seat, legal: LegalActions, structure: Structure, now: float
) -> TurnView:
    """What the player to act is shown at ``now``: their options, the clock and time bank
    left (once in the bank, all that is left is the clock's), quick sizes."""
    clock, bank = turn.left(now)
    if clock <= 0:
        clock, bank = bank, 0.0
    return TurnView(
        token=turn.token,
        seat=turn.seat,
        user_id=seat.user_id,
        name=seat.name,
        can_check=legal.can_check,
        to_call=legal.to_call,
        min_raise_to=legal.min_raise_to,
        max_raise_to=legal.max_raise_to,
        is_bet=legal.is_bet,
        all_in_to=legal.all_in_to,
        current_bet=legal.current_bet,
        pot=legal.pot,
        clock=clock,
        time_bank=bank,
        deadline=turn.started + turn.total,
        presets=presets(legal, structure),
    )
