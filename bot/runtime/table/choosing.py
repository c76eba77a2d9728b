"""The game of the next hand at a mixed table (RULES.md 11): the rotation's, or the one
the player on the button picks (dealer's choice).

Dealer's choice: before the deal, outside the table's lock (the table answers every
other request meanwhile), :func:`ask` works out who will be on the button and offers
them the list (:class:`~bot.runtime.table.events.GameAsked`, a private menu on Discord)
for :data:`CHOICE_TIME` seconds; the presenter's buttons answer through
:func:`answer`. The deal then asks :func:`switch` for the hand's game
(:func:`bot.runtime.mix.game_for_hand`): the pick counts only if its player is on the
button of the hand actually dealt (a player who sat out or left meanwhile is not);
otherwise the previous hand's game is dealt again. A hand whose button is drawn for (the
table's first, or after a stop) offers no menu: nobody is on the button before the draw.

:func:`switch` makes the table's settings say the hand's game (the snapshot, the turn and
the deck commitment name it), stores them when the game changes (so a restart knows the
previous hand's game), and announces a new game, or the pick, before the deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import Command, Name, Phrase
from bot.runtime.errors import NotAllowed, NotSeated
from bot.runtime.mix import Game, Mode, game_for_hand, named, upcoming
from bot.runtime.seating import DealPlan, Draw, plan_deal
from bot.runtime.table.events import GameAsked, GameChoice

if TYPE_CHECKING:
    from bot.runtime.table.live import Table

__all__ = ["CHOICE_TIME", "Chosen", "answer", "ask", "switch"]

#: Seconds the player on the button has to pick the game (RULES.md 11).
CHOICE_TIME = 15.0


@dataclass(frozen=True)
class Chosen:
    """What the player on the button was asked, and what they picked (None: nothing)."""

    user_id: int
    game: Game | None


async def ask(table: Table) -> Chosen | None:
    """Dealer's choice: offer the list to the player who will be on the button, and wait
    for their pick (at most :data:`CHOICE_TIME`). None when nobody is asked: not dealer's
    choice, no hand to deal, or a button still to be drawn."""
    mix = table.config.mix
    if mix is None or mix.mode is not Mode.DEALERS_CHOICE or table.current is not None:
        return None
    if table.closed or table.closing or table.held:
        return None
    plan = plan_deal(table.seats, table.dealer, table.policy.ready)
    if plan is None or isinstance(plan, Draw):
        return None
    chooser = table.seats[plan.button].user_id
    choice = GameChoice(chooser, mix.games)
    table.outbox.send(GameAsked(table.snapshot(), choice, CHOICE_TIME))
    return Chosen(chooser, await choice.wait(table.clock, CHOICE_TIME))


def answer(table: Table, choice: GameChoice, user_id: int, index: int) -> Game:
    """A click on the menu: the pick of a player still in the game (seated, not sitting
    out or leaving); a player who sat out or left meanwhile picks nothing (RULES.md 11)."""
    if user_id == choice.user_id:
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotSeated(Phrase("refuse.not_seated", join=Command("table join")))
        if seat.sitting_out or seat.leaving:
            raise NotAllowed(Phrase("refuse.choice.sitting_out"))
    return choice.answer(user_id, index)


async def switch(table: Table, plan: DealPlan, chosen: Chosen | None, hand_no: int) -> None:
    """Make the table deal hand ``hand_no``'s game (a mixed table; under the lock, before
    the deck is committed) and announce it when it is new, or picked."""
    config = table.config
    mix = config.mix
    if mix is None:
        return
    previous = config.current_game
    on_button = table.seats[plan.button].user_id
    picked = chosen.game if chosen is not None and chosen.user_id == on_button else None
    game = game_for_hand(mix, hand_no, previous, picked)
    if game != previous:
        table.config = config.playing(game)
        await table.tables.update_table(table.table_id, table.config.to_dict())
    name = named(game)
    if chosen is not None:
        key = "notice.game_chosen" if picked is not None else "notice.game_not_chosen"
        table.tell(Phrase(key, name=Name(table.seats[plan.button].name), game=name))
        return
    first = hand_no == mix.since + 1
    if first or game != previous or mix.mode is Mode.DEALERS_CHOICE:
        coming = upcoming(mix, hand_no)
        count = coming[1] if coming is not None else 0
        table.tell(Phrase("notice.game_now", game=name, count=count) if count
                   else Phrase("notice.game_now_choice", game=name))
