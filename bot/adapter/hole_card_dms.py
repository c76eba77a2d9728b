"""Hole cards by direct message, each hand, for the players who chose it (``/prefs``).

Each dealt player who chose ``dm`` (the default) gets a picture of their cards naming
the table, with a link to it and the hand's deck commitment, and the cards in words
(a screen reader reads that line); the picture carries its description too
(:mod:`bot.render.alt`). The others ("panel only") get no DM: their cards are in their
seat panel (:mod:`bot.adapter.seat_panel`, **My seat**) and behind ``/cards``.

When Discord refuses the DM (closed DMs) the channel is told once per table, with no
card in it, that the player should press **My seat** or use ``/cards``, which answer
only them; the refusal is remembered (:mod:`bot.adapter.closed_dms`) and no DM is
tried again until the player interacts later on, so a closed-DM player costs no
invalid request per hand. The DMs go through the table's DM lane
(:mod:`bot.adapter.lanes`): a slow DM delays neither the channel nor another table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.adapter.posts import Text
from bot.adapter.scenes import game_line, hole_cards_view, language, mention, table_link
from bot.i18n import Command, translate
from bot.i18n.cards import written
from bot.render import alt, render_hole_cards_async, sort_hole
from bot.runtime.table.events import CardsDealt
from bot.runtime.table.views import PrivateCards, TableSnapshot
from bot.storage import HoleCards

if TYPE_CHECKING:
    from bot.adapter.presenter import DiscordPresenter

__all__ = ["deal", "send_hole_cards"]


def deal(presenter: DiscordPresenter, event: CardsDealt) -> None:
    """A player was dealt: their DM goes on the table's DM lane (unless they chose the
    panel only)."""
    table = event.table
    if presenter.prefs.of(table.guild_id, event.user_id).hole_cards is not HoleCards.DM:
        return  # the panel (My seat) or /cards show them
    presenter.lane(table.table_id).run(
        lambda: _deal_privately(presenter, table, event.user_id, event.cards))


async def _deal_privately(
    presenter: DiscordPresenter, table: TableSnapshot, user_id: int, cards: PrivateCards
) -> None:
    if await send_hole_cards(presenter, table, user_id, cards):
        closed = presenter.dm_closed.get(table.table_id, set())
        if user_id in closed:  # DMs open again: the turn line stops pointing at /cards
            closed.discard(user_id)
            presenter.live_changed(table, dm_closed=frozenset(closed))
        return
    # kept only for tables with a closed DM (a table that closed forgets it)
    closed = presenter.dm_closed.setdefault(table.table_id, set())
    if user_id in closed:  # the channel was told once already
        return
    closed.add(user_id)
    presenter.live_changed(table, dm_closed=frozenset(closed))
    # named, not pinged: their turn message pings them (as they chose) and says it again
    lang = language(table)
    presenter.channel(table).post(
        Text(translate(lang, "dm.closed", player=mention(user_id),
                       button=translate(lang, "button.my_seat"), cards=Command("cards"))))


async def send_hole_cards(
    presenter: DiscordPresenter, table: TableSnapshot, user_id: int, cards: PrivateCards
) -> bool:
    """DM the player their cards as a picture; False when Discord refuses the DM."""
    if user_id in presenter.closed_dms:  # refused before: no picture, no request
        return False
    lang = presenter.locale_of(user_id, table)
    # not through the render gate: a player's cards never wait behind table pictures
    # (the gate's timing sees them anyway: they share the render processes)
    view = hole_cards_view(table, cards, lang)
    png = await render_hole_cards_async(view, *presenter.prefs.drawing(table.guild_id, user_id))
    text = translate(lang, "dm.cards", number=str(table.hand_no), table=str(table.table_id),
                     game=game_line(table, lang), commitment=table.commitment,
                     link=table_link(table.guild_id, table.channel_id))
    # the cards in words too, in the picture's order (a screen reader reads this line)
    text += "\n" + translate(lang, "cards.yours", cards=written(sort_hole(cards.cards)))
    name = f"hand-{table.hand_no}-cards-{user_id}.png"
    return await presenter.dms.send(
        user_id, text, file=presenter.file(name, png, alt.hole_cards(view)))
