"""Dealing the next hand: the seating core's plan, the record, the engine's hand.

The deck is shuffled and committed to (:mod:`bot.engine.commitment`) first,
and the whole root is made public (:class:`~bot.runtime.table.events.DeckCommitted`):
the table waits, under its lock, until its observer says the message is posted.
Only then is the hand recorded with its deck (secret until the hand is over),
that message's id and the seating, and only then are cards dealt: no hole card
is sent and no action taken before the root is public. When the message cannot
be posted (or nobody took it within :data:`COMMITMENT_WAIT`), nothing is recorded,
no chip moves, and the table tries again after its pause
(:class:`CommitmentNotPosted`). A message the observer took (queued behind other
tables' requests, or being sent) is waited for past that wait, never given up while on
its way: giving it up only posted it twice and queued more requests (issue 33). When the
hand cannot be recorded (the dealer cannot write:
:class:`~bot.runtime.errors.StoreUnavailable`), nothing of it happens either (the button
does not move) and the table deals once the dealer can write again; its posted root then
belongs to no hand. The hand stores the id of the message it was dealt after and where
it is (the table's commitment thread), which ``/hand verify`` reads.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.engine.cards import Deck, draw_for_button
from bot.engine.commitment import commit
from bot.engine.events import Event
from bot.engine.hand import Hand, SeatIn
from bot.runtime import bomb_pots
from bot.runtime.errors import StoreUnavailable
from bot.runtime.ports import HandStart, StoredSeat
from bot.runtime.seating import DealPlan, Draw, drawn_plan, plan_deal, record_plan
from bot.runtime.table import bomb_vote, choosing
from bot.runtime.table.events import (
    ButtonDrawn,
    CardsDealt,
    DeckCommitted,
    HandBegan,
    Receipt,
    StreetDealt,
)
from bot.runtime.table.hand_views import private_cards
from bot.runtime.table.live_hand import LiveHand

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

log = logging.getLogger(__name__)

__all__ = [
    "COMMITMENT_WAIT", "RETRY_LIMIT", "CommitmentNotPosted", "after_pause", "announce", "deal",
    "may_deal", "next_try", "publish",
]

#: Seconds the table waits for its deck commitment to be taken by the observer (queued or
#: being sent) or posted, before giving the hand up.
COMMITMENT_WAIT = 30.0
#: The longest wait before trying again to deal a hand whose commitment was not posted.
RETRY_LIMIT = 60.0


def next_try(pause: float) -> float:
    """Seconds before dealing again after a commitment that was not posted, ``pause``
    seconds after the one before: twice as long (at least 2 s), at most RETRY_LIMIT."""
    return min(RETRY_LIMIT, 2 * max(pause, 1.0))


def may_deal(table: Table) -> bool:
    """Whether ``table`` may deal a hand now: it plays none, is open and not held, and
    the dealer hears it (:mod:`bot.runtime.table.waiting`)."""
    return (table.current is None and table.unfinished is None
            and not (table.closed or table.closing or table.held)
            and table.hearing.hears(table.guild_id))


class CommitmentNotPosted(Exception):
    """The hand's deck commitment could not be made public: the hand was not dealt."""


def plan(table: Table) -> DealPlan | None:
    """The next hand's seating; draws for the button when the rules say so."""
    decided = plan_deal(table.seats, table.dealer, table.policy.ready)
    if not isinstance(decided, Draw):
        return decided
    button, cards = draw_for_button(list(decided.seats), rng=table.rng)
    return drawn_plan(cards, button)


async def publish(table: Table, hand_no: int, root: str) -> tuple[int, int | None]:
    """Make hand ``hand_no``'s deck commitment public: the posted message's id and where
    it is (None: the table's channel), once the observer says it is posted (raises
    :class:`CommitmentNotPosted` otherwise)."""
    receipt = Receipt()
    table.outbox.send(DeckCommitted(table.snapshot(), hand_no, root, receipt))
    message_id = await receipt.wait(COMMITMENT_WAIT)
    if message_id is None:
        raise CommitmentNotPosted(f"table {table.table_id}: hand {hand_no}'s commitment")
    return message_id, receipt.channel_id


async def after_pause(table: Table, pause: float) -> None:
    """The table's next deal, ``pause`` seconds after it was scheduled (its deal task):
    dealer's choice asks the button first, outside the lock (:mod:`.choosing`); then,
    under the lock, the hand is dealt and played up to its first decision. A commitment
    not posted tries again later."""
    await table.clock.sleep(pause)
    if not may_deal(table):  # not heard: dealt once it is (bot.runtime.table.waiting)
        return
    if bomb_vote.holds_deal(table):  # dealt once the bomb pot proposed for it is answered
        return
    chosen = await choosing.ask(table)
    async with table.lock:
        if not may_deal(table):  # the connection dropped meanwhile: asked again once heard
            return
        try:
            cur = await deal(table, chosen)
            if cur is not None:
                await table.advance(cur)
        except CommitmentNotPosted as missed:
            log.warning("%s was not posted: no hand dealt, trying again", missed)
            table.schedule_deal(next_try(pause))
        except StoreUnavailable:
            pass  # dealt (or played on) once the dealer can write (bot.runtime.table.waiting)
        except Exception:
            log.exception("table %s: could not start a hand", table.table_id)
            table.current = None


async def deal(table: Table, chosen: choosing.Chosen | None = None) -> LiveHand | None:
    """Commit, publish, record and deal the next hand (under the lock); None when nobody
    can play, or when a bomb pot proposed for it is still unanswered (it is dealt once
    answered). Raises :class:`CommitmentNotPosted` when the root could not be published.
    A mixed table first switches to the hand's game (``chosen``: dealer's choice)."""
    if bomb_vote.holds_deal(table):
        return None
    seating = plan(table)
    if seating is None:
        return None
    hand_no = table.hands_dealt + 1
    await choosing.switch(table, seating, chosen, hand_no)
    bomb, seating, notice = bomb_pots.choose(table.config, seating, table.seats, hand_no,
                                             table.bomb_vote.agreed_for(hand_no))
    deck = Deck(rng=table.rng)
    committed = commit(deck.order)  # before any card: the root goes public first
    message_id, posted_in = await publish(table, hand_no, committed.root)
    if table.closed or table.closing or table.held:  # stopped while it was being posted
        return None
    dealt = [table.seats[n] for n in seating.dealt]
    start = HandStart(
        table_id=table.table_id,
        hand_no=hand_no,
        config=bomb_pots.hand_settings(table.policy.hand_config(table.config), bomb),
        seats=tuple(
            StoredSeat(s.number, s.user_id, s.stack, s.number in seating.posts,
                       s.straddle and table.config.straddle)
            for s in dealt
        ),
        button=seating.button,
        deck=deck.order,
        salts=committed.salts,
        commitment_message=message_id,
        commitment_channel=posted_in,
    )
    seats_in = [SeatIn(s.seat, s.stack, s.posts_big_blind, s.straddle) for s in start.seats]
    hand = Hand(table.policy.game(table.config), seats_in, seating.button, deck, bomb)
    hand_id = await table.hands.start_hand(start)  # not stored: nothing below happens
    record_plan(table.seats, table.dealer, seating, table.policy.ready)
    table.finished = None  # the last hand's rabbit hunt and showing end with this deal
    if notice is not None:
        table.tell(notice)
    if seating.drawn:
        cards = dict(seating.drawn)
        table.outbox.send(ButtonDrawn(table.snapshot(), cards, seating.button))
    table.hands_dealt = hand_no
    for s in table.seats.values():
        s.clock_sat_out = False
        s.pre_action = None
    cur = LiveHand(
        hand=hand,
        hand_id=hand_id,
        hand_no=hand_no,
        dealt=seating.dealt,
        start_stacks={s.number: s.stack for s in dealt},
        commitment=committed.root,
    )
    table.current = cur
    announce(table, cur, hand.start())
    return cur


def announce(
    table: Table, cur: LiveHand, started: Sequence[Event] = (), *, resumed: bool = False
) -> None:
    """Tell the table a hand has begun, and each player dealt in their own cards; then the
    board: the streets its start dealt (``started``: Courchevel's first card, a bomb pot's
    flop on each board, or its whole run-out when everyone is all-in on the antes), each
    told in turn; for a hand resumed after a restart, each board as it is."""
    snap = table.snapshot()
    table.outbox.send(HandBegan(snap, resumed))
    for n in cur.dealt:
        table.outbox.send(CardsDealt(snap, table.seats[n].user_id, private_cards(cur.hand, n)))
    if started:
        table.tell_streets(snap, started, 0)
        return
    for run, board in enumerate(cur.hand.boards):
        if board:
            table.outbox.send(StreetDealt(snap, cur.hand.street, board, run=run))
