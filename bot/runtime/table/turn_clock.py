"""The turn clock of a table: prompt, time bank notice, reminder, timeout (RULES.md 8).

One task per turn sleeps until each mark of :func:`bot.runtime.turns.marks`;
at each mark it takes the table's lock and checks the turn is still the same
(a decision cancels the task, and a token guards against a late wake-up).
When time is up the bot checks if it may, otherwise folds; a second timeout
in a row sits the player out, and their later decisions in the hand are
checked or folded at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import Command, Name, Phrase
from bot.runtime.decisions import timed_out
from bot.runtime.seating import Seat
from bot.runtime.table import settle
from bot.runtime.table.events import TurnBegan, TurnReminder
from bot.runtime.table.ways import ways_forward
from bot.runtime.turns import TIMEOUTS_TO_SIT_OUT, Mark, Turn, marks

if TYPE_CHECKING:
    from bot.runtime.table.live import Table
    from bot.runtime.table.live_hand import LiveHand

__all__ = ["run", "start_turn"]


def start_turn(table: Table, cur: LiveHand) -> Turn:
    """Open the decision of the player to act and tell the table."""
    n = cur.hand.to_act
    assert n is not None
    turn = Turn(
        token=f"{cur.hand_no}.{cur.seq}",
        seat=n,
        started=table.clock.now(),
        clock=float(table.config.clock),
        bank=max(0.0, table.seats[n].time_bank),
    )
    cur.turn = turn
    table.outbox.send(TurnBegan(table.snapshot(), table.turn_view_of(cur, turn)))
    return turn


async def run(table: Table, turn: Turn) -> None:
    """Sleep until each mark of ``turn``'s clock and act on it, while the turn lasts."""
    elapsed = 0.0
    for at, mark in marks(turn):
        await table.clock.sleep(at - elapsed)
        elapsed = at
        async with table.lock:
            cur = table.current
            if cur is None or cur.turn is None or cur.turn.token != turn.token:
                return
            await _on_mark(table, cur, turn, mark)


async def _on_mark(table: Table, cur: LiveHand, turn: Turn, mark: Mark) -> None:
    seat = table.seats[turn.seat]
    if mark is Mark.BANK:
        table.tell(Phrase("notice.time_bank", name=Name(seat.name), seconds=int(turn.bank)),
                   transient=True)
    elif mark is Mark.REMINDER:
        view = table.turn_view_of(cur, turn)
        table.outbox.send(TurnReminder(table.snapshot(), view, round(turn.reminder_lead)))
    else:
        await _timeout(table, cur, seat)


async def _timeout(table: Table, cur: LiveHand, seat: Seat) -> None:
    seat.time_bank = 0.0
    cur.turn = None  # the bank is spent in full: nothing more to deduct
    seat.timeouts += 1
    await table.apply(cur, seat, timed_out(table.legal(cur)))
    if seat.timeouts >= TIMEOUTS_TO_SIT_OUT and not seat.sitting_out:
        seat.clock_sat_out = True
        seat.pre_action = None
        await settle.mark_sitting_out(table, seat)
        table.tell(Phrase("notice.timed_out", name=Name(seat.name), sitin=Command("table sitin")))
        table.tell(Phrase("notice.timed_out_you", sitin=Command("table sitin")), seat.user_id,
                   ways=ways_forward(table, seat.user_id))
    await table.advance(cur)
