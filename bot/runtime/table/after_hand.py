"""After a hand, until the next deal: the rabbit hunt and showing cards (RULES.md 10).

The engine decides what may be shown and which cards the rabbit is
(:mod:`bot.engine.after_hand`); the table keeps the settled hand here
(:class:`Finished`, :attr:`Table.finished`) until its next hand is dealt, and takes
the players' requests (the buttons of the hand's result):

* **Rabbit hunt**: any player dealt in may ask once per hand, when the hand ended
  before the river because everyone else folded. The cards are posted to the
  table (:class:`~bot.runtime.table.events.RabbitHunted`), marked as not played:
  they belong to no board, nothing is stored and nothing changes. RULES.md says they
  are *shown*, so the whole table sees them, not only the player who asked.
* **Showing**: a player who folded or won without a showdown shows their whole hand or
  one card of it (the picker's choice), and may show more later. What is shown is
  stored with the hand (an action of kind ``show`` after its end, which
  :func:`~bot.runtime.hand_history.rebuild` replays), so it becomes part of the hand's
  public history: ``/hand show``, its replay and its PHH export; what is not shown
  stays as secret as before.
* **Until the next deal**: the table forgets the hand when it deals the next one
  (:func:`~bot.runtime.table.dealing.deal`); a button of it is then refused politely,
  and so it is after a restart (the hand is kept in memory only) or when its settings
  did not offer it (the table's settings when the hand was dealt count, not a change
  made since).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.engine.after_hand import may_show, rabbit_cards, rabbit_refusal, showable
from bot.engine.cards import Card
from bot.engine.hand import Hand
from bot.i18n import Phrase
from bot.i18n.cards import written
from bot.runtime.errors import TableError
from bot.runtime.table.events import CardsShownAfter, RabbitHunted

if TYPE_CHECKING:
    from bot.runtime.config import TableConfig
    from bot.runtime.table.live import Table

__all__ = [
    "Finished", "check_rabbit", "check_show", "finished", "offers", "rabbit_hunt", "show",
]


@dataclass
class Finished:
    """A settled hand kept until the next deal, with the options it was dealt with."""

    hand: Hand
    hand_id: int
    hand_no: int
    users: dict[int, int]  # seat -> user id, of every player dealt in
    names: dict[int, str]
    rabbit_hunt: bool
    showing: bool
    hunted: bool = False  # its rabbit was hunted (once per hand)

    def seat_of(self, user_id: int) -> int | None:
        return next((s for s, u in self.users.items() if u == user_id), None)


def offers(config: TableConfig, hand: Hand) -> tuple[bool, bool]:
    """Whether the result of the settled ``hand`` offers a rabbit hunt, and showing."""
    rabbit = config.rabbit_hunt and rabbit_refusal(hand) is None
    shows = config.showing and any(showable(hand, seat) for seat in hand.seat_order)
    return rabbit, shows


def finished(
    table: Table, hand: Hand, hand_id: int, hand_no: int, users: dict[int, int],
    names: dict[int, str],
) -> Finished:
    """What the table keeps of a hand it settles (under the lock)."""
    rabbit, shows = offers(table.config, hand)
    return Finished(hand, hand_id, hand_no, dict(users), dict(names), rabbit, shows)


def _kept(table: Table, user_id: int, hand_no: int) -> tuple[Finished, int]:
    """The hand ``hand_no`` while the table keeps it, and the seat ``user_id`` had in it."""
    done = table.finished
    if done is None or done.hand_no != hand_no:
        raise TableError(Phrase("refuse.after_hand.over", number=str(hand_no)))
    seat = done.seat_of(user_id)
    if seat is None:
        raise TableError(Phrase("refuse.after_hand.not_dealt", number=str(hand_no)))
    return done, seat


def check_rabbit(table: Table, user_id: int, hand_no: int) -> tuple[Finished, int]:
    """The hand whose rabbit ``user_id`` may hunt now, and their seat in it; the polite
    refusal otherwise."""
    done, seat = _kept(table, user_id, hand_no)
    if not done.rabbit_hunt:
        key = "refuse.rabbit.off" if not table.config.rabbit_hunt else "refuse.rabbit.none"
        raise TableError(Phrase(key, number=str(hand_no)))
    if done.hunted:
        raise TableError(Phrase("refuse.rabbit.done", number=str(hand_no)))
    return done, seat


async def rabbit_hunt(table: Table, user_id: int, hand_no: int) -> Phrase:
    """Post the rabbit of hand ``hand_no`` to the table; the words telling the player."""
    async with table.lock:
        done, seat = check_rabbit(table, user_id, hand_no)
        done.hunted = True
        table.outbox.send(RabbitHunted(table.snapshot(), hand_no, done.names[seat],
                                       done.hand.board, rabbit_cards(done.hand)))
    return Phrase("reply.rabbit", number=str(hand_no))


def check_show(
    table: Table, user_id: int, hand_no: int, pick: int | None = None
) -> tuple[Finished, int, tuple[Card, ...]]:
    """The hand, ``user_id``'s seat and the cards they would show now: the rest of their
    hand, or (``pick``) the card at that place of it; the polite refusal otherwise."""
    done, seat = _kept(table, user_id, hand_no)
    if not done.showing:
        key = "refuse.show.off" if not table.config.showing else "refuse.show.none"
        raise TableError(Phrase(key, number=str(hand_no)))
    hand = done.hand
    if not may_show(hand, seat):
        raise TableError(Phrase("refuse.show.not_yours", number=str(hand_no)))
    left = showable(hand, seat)
    if not left:
        raise TableError(Phrase("refuse.show.all_shown", number=str(hand_no)))
    if pick is None:
        return done, seat, left
    hole = hand.hole(seat)
    if not 0 <= pick < len(hole):
        raise TableError(Phrase("refuse.show.no_such_card"))
    if hole[pick] not in left:
        raise TableError(Phrase("refuse.show.shown", card=str(hole[pick])))
    return done, seat, (hole[pick],)


async def show(table: Table, user_id: int, hand_no: int, pick: int | None = None) -> Phrase:
    """Show the player's cards of hand ``hand_no`` (all those not shown yet, or the one at
    ``pick``): stored with the hand first, then told to the table; the words telling the
    player."""
    async with table.lock:
        done, seat, cards = check_show(table, user_id, hand_no, pick)
        await table.hands.record_show(done.hand_id, seat, cards)
        hand = done.hand
        hand.show_after(seat, cards)
        shown = set(hand.shown_after.get(seat, ()))
        table.outbox.send(CardsShownAfter(
            table.snapshot(), hand_no, seat, done.names[seat],
            tuple(c if c in shown else None for c in hand.hole(seat)), hand.board))
    return Phrase("reply.show", cards=written(cards))
