"""Asking the players of an all-in run-out whether to run the board twice.

The engine decides when the question arises and what follows
(:mod:`bot.engine.run_twice`); the table asks it here:

* every player still in the hand gets the buttons (:class:`RunTwiceAsked`) at
  once, on one clock of the table's decision time (no time bank: nobody's
  decision is on hold but the board's), which runs only while the dealer hears
  the table (RULES.md 8, :func:`resume`, as a turn's);
* each answer is stored as an action of the hand (kind ``twice`` or ``once``)
  before the engine takes it, so a restart replays it
  (:func:`~bot.runtime.decisions.replay_stored`); a question open at a restart
  is asked again from the start, with the answers already stored kept;
* the first "once" deals the board once; the last "twice" deals it twice;
  when the clock runs out, silence answers "once" (source ``timeout``), which
  does not count toward sitting a player out (it was not their turn to act).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import Name, Phrase
from bot.runtime.decisions import RUN_ONCE, RUN_TWICE, Source
from bot.runtime.errors import NotYourTurn, StoreUnavailable
from bot.runtime.hearing import NOTICEABLE, started_after
from bot.runtime.ports import StoredAction
from bot.runtime.table.events import RunTwiceAsked

if TYPE_CHECKING:
    from bot.runtime.seating import Seat
    from bot.runtime.table.live import Table
    from bot.runtime.table.live_hand import LiveHand

__all__ = ["Question", "answer", "ask", "check_answer", "resume", "silence"]


@dataclass
class Question:
    """The open run-it-twice question of a hand."""

    token: str  # "<hand_no>.<action seq>", as a turn's: the buttons carry it
    started: float
    clock: float


def ask(table: Table, cur: LiveHand) -> None:
    """Open the question (under the lock) and start its clock (once the dealer hears)."""
    question = Question(f"{cur.hand_no}.{cur.seq}", table.clock.now(), float(table.config.clock))
    cur.question = question
    _tell(table, cur, question)
    if table.hearing.hears(table.guild_id):
        table.start_timer(_clock(table, question), "run-twice")


def resume(table: Table, cur: LiveHand, question: Question, deaf_since: float, why: str) -> None:
    """The dealer hears the table again (under the lock): the question gets the time it
    had left, at least 15 s, and is asked again when that moves its deadline."""
    table.cancel_timer()
    before = question.started
    question.started = started_after(before, question.clock, deaf_since, table.clock.now())
    table.start_timer(_clock(table, question), "run-twice")
    if question.started - before >= NOTICEABLE:
        _tell(table, cur, question, waited=why)


def _tell(table: Table, cur: LiveHand, question: Question, *, waited: str = "") -> None:
    users = {n: table.seats[n].user_id for n in cur.hand.run_twice_voters}
    left = question.started + question.clock - table.clock.now()
    table.outbox.send(RunTwiceAsked(table.snapshot(), question.token, users, left, waited))


async def _clock(table: Table, question: Question) -> None:
    """When time is up, silence means once (if the dealer hears the table)."""
    await table.clock.sleep(question.started + question.clock - table.clock.now())
    async with table.lock:
        cur = table.current
        if cur is None or cur.question is None or cur.question.token != question.token:
            return
        if not table.hearing.hears(table.guild_id):
            return  # the clock stopped: resume() runs it again
        with contextlib.suppress(StoreUnavailable):  # goes on once the dealer can write
            await silence(table, cur)
            await table.advance(cur)


async def silence(table: Table, cur: LiveHand) -> None:
    """Time is up for the open question (under the lock): silence answers "once" (source
    ``timeout``), and the board is dealt once."""
    silent = cur.hand.run_twice_voters
    if silent:
        await _vote(table, cur, table.seats[silent[0]], False, Source.TIMEOUT)


def check_answer(table: Table, user_id: int, token: str | None) -> tuple[Seat, LiveHand]:
    """The player's seat and the hand when they are asked now; the polite refusal otherwise
    (called before the click is acknowledged, and again under the lock)."""
    seat = table.require_seat(user_id)
    cur = table.current
    question = cur.question if cur is not None else None
    if cur is None or question is None or (token is not None and token != question.token):
        raise NotYourTurn(Phrase("refuse.run_twice.over"))
    if seat.number not in cur.hand.run_twice_voters:
        if seat.number in cur.dealt and not cur.hand.player(seat.number).folded:
            raise NotYourTurn(Phrase("refuse.run_twice.answered"))
        raise NotYourTurn(Phrase("refuse.run_twice.not_in_hand"))
    return seat, cur


async def answer(
    table: Table, user_id: int, agree: bool, token: str | None = None
) -> Phrase:
    """A player's answer ("twice" or "once"); the words confirming it to them (worded in
    their own language by the caller)."""
    async with table.lock:
        seat, cur = check_answer(table, user_id, token)
        await _vote(table, cur, seat, agree, Source.PLAYER)
        await table.advance(cur)
    return Phrase("reply.run_twice.twice" if agree else "reply.run_twice.once")


async def _vote(table: Table, cur: LiveHand, seat: Seat, agree: bool, source: Source) -> None:
    """Store, then apply one answer (under the lock); tell the table."""
    hand = cur.hand
    kind = RUN_TWICE if agree else RUN_ONCE
    stored = StoredAction(cur.seq, seat.number, kind, None, source.value)
    if seat.number not in hand.run_twice_voters:  # checked before anything is stored
        raise NotYourTurn(Phrase("refuse.run_twice.answered"))
    await table.hands.append_action(cur.hand_id, stored)
    board_before = len(hand.board)
    events = hand.vote_run_twice(seat.number, agree)
    cur.seq += 1
    key = "twice" if agree else "once_timeout" if source is Source.TIMEOUT else "once"
    table.tell(Phrase(f"notice.run_twice.{key}", name=Name(seat.name)), logged=True)
    if hand.run_twice_voters:
        return
    cur.question = None
    table.cancel_timer()
    table.tell_streets(table.snapshot(), events, board_before)
