"""After a restart: continue each interrupted hand on its own deck, or cancel it.

The registry hands every unfinished hand to :func:`resume`: the stored
settings, seats, button, deck and actions rebuild the engine's hand exactly
(RULES are deterministic given the deck), and play goes on where it stopped.
A record that cannot be replayed is cancelled: every stack is as it was
before the hand, and the table is told.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.engine.cards import Deck
from bot.engine.commitment import commit
from bot.engine.hand import Hand, SeatIn
from bot.i18n import Phrase
from bot.runtime.bomb_pots import stored_bomb_pot
from bot.runtime.config import TableConfig
from bot.runtime.decisions import Source, replay_stored
from bot.runtime.ports import UnfinishedHand
from bot.runtime.table.dealing import announce
from bot.runtime.table.live_hand import LiveHand

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

log = logging.getLogger(__name__)

__all__ = ["resume"]


async def resume(table: Table, unfinished: UnfinishedHand) -> bool:
    """Continue ``unfinished`` at ``table``; cancel it if that fails. True when resumed."""
    async with table.lock:
        start = unfinished.start
        table.hands_dealt = max(table.hands_dealt, start.hand_no)
        try:
            cur = _rebuild(table, unfinished)
        except Exception as exc:  # a record we cannot replay: give everyone their chips back
            log.warning("table %s: cancelling hand %s: %s", table.table_id, unfinished.hand_id, exc)
            await table.hands.cancel_hand(unfinished.hand_id)
            table.tell(Phrase("notice.hand_cancelled", number=str(start.hand_no)))
            table.schedule_deal()
            return False
        for s in start.seats:
            table.seats[s.seat].stack = s.stack
            table.seats[s.seat].needs_big_blind = False
        dealer = table.dealer
        dealer.button = start.button
        dealer.last_big_blind = cur.hand.big_blind_seat
        dealer.last_dealt = len(start.seats)
        table.current = cur
        announce(table, cur, resumed=True)
        table.tell(Phrase("notice.hand_resumes", number=str(start.hand_no)))
        await table.advance(cur)
        return True


def _rebuild(table: Table, unfinished: UnfinishedHand) -> LiveHand:
    start = unfinished.start
    config = TableConfig.from_dict(dict(start.config))
    if any(
        table.seats.get(s.seat) is None or table.seats[s.seat].user_id != s.user_id
        for s in start.seats
    ):
        raise ValueError("the seats changed since the hand began")
    hand = Hand(
        config.game,
        [SeatIn(s.seat, s.stack, s.posts_big_blind, s.straddle) for s in start.seats],
        start.button,
        Deck(order=start.deck),
        stored_bomb_pot(start.config),
    )
    hand.start()
    for a in sorted(unfinished.actions, key=lambda a: a.seq):
        replay_stored(hand, a.seat, a.kind, a.amount)
    return LiveHand(
        hand=hand,
        hand_id=unfinished.hand_id,
        hand_no=start.hand_no,
        dealt=tuple(s.seat for s in start.seats),
        start_stacks={s.seat: s.stack for s in start.seats},
        seq=len(unfinished.actions),
        decided=any(Source.own(a.source) for a in unfinished.actions),
        # said "posted before the deal" only of a root that was (hands dealt before the
        # commitment had its own message showed a prefix of it)
        commitment=(commit(start.deck, start.salts).root
                    if start.salts and start.commitment_message is not None else ""),
    )
