"""Proposing a bomb pot (RULES.md 10): every player who would be dealt in agrees first.

A player proposes one (``/bombpot``); the players who would be dealt into the next hand
answer with the proposal's buttons; when all agree, the next hand is a bomb pot
(:mod:`bot.runtime.bomb_pots` decides it at the deal). Decisions where RULES.md is silent:

* **Who may propose**: a seated player who would be dealt into the next hand (ready and
  owing no big blind: players waiting to enter are not dealt into a bomb pot), at a cash
  table whose bomb pots are on, while it is open.
* **For which hand, how often**: always for the next hand to be dealt (during a hand, the
  one after it), once per hand: after a proposal for a hand, accepted or not, nobody may
  propose again until that hand is dealt. Not when that hand is a scheduled bomb pot.
* **Who must agree**: every player who would be dealt in when it is proposed (the
  proposer agrees by proposing). One refusal ends it; so does silence: when
  :data:`VOTE_SECONDS` pass before everyone has agreed, it is refused (nobody's silence
  counts as yes).
* **The deal waits** for an open proposal: a hand due while one is open is dealt when it
  is answered or runs out (at most :data:`VOTE_SECONDS` later).
* **At the deal** the bomb pot goes ahead only when every player then dealt in agreed; a
  player who sat back in since and would be dealt in turns it into a usual hand, and the
  table is told (:func:`bot.runtime.bomb_pots.choose`).
* Proposals and agreements live in memory: a restart forgets them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.i18n import Command, Listed, Name, Phrase
from bot.runtime import bomb_pots
from bot.runtime.errors import NotAllowed, TableError

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

__all__ = ["VOTE_SECONDS", "BombVote", "Proposal", "answer", "cancel", "check_answer",
           "check_propose", "holds_deal", "propose", "stopped"]

#: Seconds the players have to agree to a proposed bomb pot.
VOTE_SECONDS = 20.0

_TOKENS = itertools.count(1)


@dataclass
class Proposal:
    """An open proposal: for hand ``hand_no``, who must answer (user id -> name), who agreed."""

    token: str  # "<hand_no>.<n>": the answer buttons carry it
    hand_no: int
    proposer: int
    voters: dict[int, str]
    agreed: set[int] = field(default_factory=set)
    seconds: float = VOTE_SECONDS
    timer: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def silent(self) -> list[int]:
        """The players who have not answered yet."""
        return [u for u in self.voters if u not in self.agreed]


@dataclass
class BombVote:
    """A table's proposals: the open one, the hand last agreed to and the last one asked."""

    proposal: Proposal | None = None
    agreed: tuple[int, frozenset[int]] | None = None  # (hand number, the users who agreed)
    asked: int = 0  # the hand number of the last proposal

    def agreed_for(self, hand_no: int) -> frozenset[int] | None:
        """The users who agreed to a bomb pot for hand ``hand_no`` (None: no agreement)."""
        if self.agreed is not None and self.agreed[0] == hand_no:
            return self.agreed[1]
        return None


def _next_hand(table: Table) -> int:
    return table.hands_dealt + 1


def _voters(table: Table) -> dict[int, str]:
    """Who would be dealt into a bomb pot now: ready, owing no big blind (user -> name)."""
    return {s.user_id: s.name for _, s in sorted(table.seats.items())
            if table.policy.ready(s) and not s.needs_big_blind}


def check_propose(table: Table, user_id: int) -> None:
    """Refuse a proposal that cannot be made now (before anything waits; again under the
    lock by :func:`propose`)."""
    table.check_open()
    if not bomb_pots.on(table.config):
        raise NotAllowed(Phrase("refuse.bomb_pot.off", settings=Command("table settings")))
    table.require_seat(user_id)
    vote, hand_no = table.bomb_vote, _next_hand(table)
    if vote.proposal is not None:
        raise TableError(Phrase("refuse.bomb_pot.open"))
    if bomb_pots.scheduled(table.config, hand_no) or vote.agreed_for(hand_no) is not None:
        raise TableError(Phrase("refuse.bomb_pot.already", number=str(hand_no)))
    if vote.asked == hand_no:
        raise TableError(Phrase("refuse.bomb_pot.once", number=str(hand_no)))
    voters = _voters(table)
    if user_id not in voters:
        raise TableError(Phrase("refuse.bomb_pot.not_dealt"))
    if len(voters) < 2:
        raise TableError(Phrase("refuse.bomb_pot.too_few"))


async def propose(table: Table, user_id: int) -> Proposal:
    """Open a proposal for the next hand (the proposer agrees) and start its clock."""
    async with table.lock:
        check_propose(table, user_id)
        hand_no = _next_hand(table)
        proposal = Proposal(f"{hand_no}.{next(_TOKENS)}", hand_no, user_id, _voters(table),
                            {user_id})
        vote = table.bomb_vote
        vote.proposal, vote.asked = proposal, hand_no
        proposal.timer = asyncio.get_running_loop().create_task(
            _clock(table, proposal), name=f"table-{table.table_id}-bomb-vote")
        return proposal


async def _clock(table: Table, proposal: Proposal) -> None:
    """When time is up, silence refuses."""
    await table.clock.sleep(proposal.seconds)
    async with table.lock:
        if table.bomb_vote.proposal is not proposal:
            return
        proposal.timer = None  # this task: nothing to cancel
        names = Listed([Name(proposal.voters[u]) for u in proposal.silent])
        _close(table, Phrase("notice.bomb_pot.silence", names=names))


def check_answer(table: Table, user_id: int, token: str) -> Proposal:
    """The open proposal ``user_id`` may answer now; the polite refusal otherwise."""
    proposal = table.bomb_vote.proposal
    if proposal is None or proposal.token != token:
        raise TableError(Phrase("refuse.bomb_pot.over"))
    if user_id not in proposal.voters:
        raise TableError(Phrase("refuse.bomb_pot.not_asked"))
    if user_id in proposal.agreed:
        raise TableError(Phrase("refuse.bomb_pot.answered"))
    return proposal


async def answer(table: Table, user_id: int, agree: bool, token: str) -> Phrase:
    """A player's answer; the words confirming it to them. The last "yes" makes the next
    hand a bomb pot; a "no" ends the proposal."""
    async with table.lock:
        proposal = check_answer(table, user_id, token)
        if not agree:
            _close(table, Phrase("notice.bomb_pot.refused", name=Name(proposal.voters[user_id])))
            return Phrase("reply.bomb_pot.refused")
        proposal.agreed.add(user_id)
        if proposal.silent:
            return Phrase("reply.bomb_pot.agreed")
        table.bomb_vote.agreed = (proposal.hand_no, frozenset(proposal.agreed))
        bomb = bomb_pots.bomb_of(table.config)
        key = "notice.bomb_pot.accepted_double" if bomb.double_board else "notice.bomb_pot.accepted"
        _close(table, Phrase(key, number=str(proposal.hand_no), ante=bomb.ante))
        return Phrase("reply.bomb_pot.agreed")


def _close(table: Table, notice: Phrase) -> None:
    """End the open proposal (under the lock): tell the table, and deal the next hand if it
    was waiting for the answer."""
    cancel(table)
    table.bomb_vote.proposal = None
    table.tell(notice)
    if table.current is None:
        table.schedule_deal(0.0)


def holds_deal(table: Table) -> bool:
    """An open proposal for the hand about to be dealt: the deal waits for its answer."""
    proposal = table.bomb_vote.proposal
    return proposal is not None and proposal.hand_no == _next_hand(table)


def cancel(table: Table) -> None:
    """Stop the open proposal's clock (the proposal ends, or the table stops)."""
    proposal = table.bomb_vote.proposal
    timer = proposal.timer if proposal is not None else None
    if timer is not None and timer is not asyncio.current_task() and not timer.done():
        timer.cancel()
    if proposal is not None:
        proposal.timer = None


async def stopped(table: Table) -> None:
    """The table stops for good or the bot shuts down: the open proposal's clock ends."""
    proposal = table.bomb_vote.proposal
    timer = proposal.timer if proposal is not None else None
    cancel(table)
    if timer is not None:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await timer
