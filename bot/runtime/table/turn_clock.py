"""The turn clock of a table: prompt, time bank notice, reminder, timeout (RULES.md 8).

One task per turn sleeps until each mark of :func:`bot.runtime.turns.marks`;
at each mark it takes the table's lock and checks the turn is still the same
(a decision cancels the task, and a token guards against a late wake-up).
When time is up the bot checks if it may, otherwise folds; a second timeout
in a row sits the player out, and their later decisions in the hand are
checked or folded at once.

The clock runs only while the dealer hears the table (:mod:`bot.runtime.hearing`): a
turn begun while it does not waits with no task, and a task that wakes then does
nothing; when the dealer hears again, :func:`resume` moves the turn past the time it
could not hear (the rest of its time, at least 15 s) and runs its clock again. A
timeout that cannot be stored (the dealer cannot write: :class:`StoreUnavailable`)
changes nothing: the turn stays open, its clock stopped, until the dealer can.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bot.i18n import Command, Name, Phrase
from bot.runtime.decisions import timed_out
from bot.runtime.errors import StoreUnavailable
from bot.runtime.hearing import NOTICEABLE, started_after
from bot.runtime.seating import Seat
from bot.runtime.table import settle, time_banks
from bot.runtime.table.events import TimeBankStarted, TurnBegan, TurnReminder
from bot.runtime.table.ways import ways_forward
from bot.runtime.turns import TIMEOUTS_TO_SIT_OUT, Mark, Turn, marks

if TYPE_CHECKING:
    from bot.runtime.table.live import Table
    from bot.runtime.table.live_hand import LiveHand

__all__ = ["resume", "run", "start_turn"]


def start_turn(table: Table, cur: LiveHand) -> Turn:
    """Open the decision of the player to act, tell the table and start its clock (if the
    dealer hears the table; else :func:`resume` does when it hears again)."""
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
    if table.hearing.hears(table.guild_id):
        table.start_timer(run(table, turn), "clock")
    return turn


async def run(table: Table, turn: Turn) -> None:
    """Sleep until each mark of ``turn``'s clock still ahead and act on it, while the turn
    lasts and the dealer hears the table."""
    elapsed = table.clock.now() - turn.started
    for at, mark in marks(turn):
        if at <= elapsed:
            continue  # passed before the clock stopped (the time the dealer could not hear)
        await table.clock.sleep(at - elapsed)
        elapsed = at
        async with table.lock:
            cur = table.current
            if cur is None or cur.turn is None or cur.turn.token != turn.token:
                return
            if not table.hearing.hears(table.guild_id):
                return  # the clock stopped: resume() runs it again
            try:
                await _on_mark(table, cur, turn, mark)
            except StoreUnavailable:
                return  # the clock stopped: resume() runs it again once the dealer can write


def resume(table: Table, cur: LiveHand, turn: Turn, deaf_since: float, why: str) -> None:
    """The dealer hears the table again after hearing nothing since ``deaf_since`` (under
    the lock): ``turn`` gets the time it had left then, and at least 15 s, and its clock
    runs again; when that moves its deadline, the turn message says so (and ``why``)."""
    table.cancel_timer()
    before = turn.started
    turn.started = started_after(turn.started, turn.total, deaf_since, table.clock.now())
    table.start_timer(run(table, turn), "clock")
    if turn.started - before >= NOTICEABLE:
        view = replace(table.turn_view_of(cur, turn), waited=why)
        table.outbox.send(TurnBegan(table.snapshot(), view))


async def _on_mark(table: Table, cur: LiveHand, turn: Turn, mark: Mark) -> None:
    seat = table.seats[turn.seat]
    if mark is Mark.BANK:
        table.outbox.send(TimeBankStarted(table.snapshot(), table.turn_view_of(cur, turn),
                                          turn.bank))
    elif mark is Mark.REMINDER:
        view = table.turn_view_of(cur, turn)
        table.outbox.send(TurnReminder(table.snapshot(), view, round(turn.reminder_lead)))
    else:
        await _timeout(table, cur, seat)


async def _timeout(table: Table, cur: LiveHand, seat: Seat) -> None:
    await table.apply(cur, seat, timed_out(table.legal(cur)))  # stored first, or nothing
    left, seat.time_bank = seat.time_bank, 0.0  # the bank is spent in full
    await time_banks.keep(table, seat, left)
    seat.timeouts += 1
    if seat.timeouts >= TIMEOUTS_TO_SIT_OUT and not seat.sitting_out:
        seat.clock_sat_out = True
        seat.pre_action = None
        await settle.mark_sitting_out(table, seat)
        table.tell(Phrase("notice.timed_out", name=Name(seat.name), sitin=Command("table sitin")))
        table.tell(Phrase("notice.timed_out_you", sitin=Command("table sitin")), seat.user_id,
                   ways=ways_forward(table, seat.user_id))
    await table.advance(cur)
