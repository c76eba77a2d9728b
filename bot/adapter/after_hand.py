"""The buttons of a hand's result until the next deal (RULES.md 10): **Rabbit hunt**,
**Show** and **Show one** (:mod:`bot.runtime.table.after_hand` decides), and what they
post to the channel.

Custom id (a :class:`discord.ui.DynamicItem`, so it works after a restart, where the
table then refuses it: it keeps the hand in memory only)::

    omaha:after:<table>:<hand number>:<what>    what: rabbit show one card0 ... card5

The result's buttons are public and speak the table's language; any click by someone
who may not use them gets a private, polite refusal (the runtime's). When the next hand
is dealt, the result is edited back to its **Hand log** alone (:func:`retire_offers`:
one request a hand, at tables offering them only); a click that beats the edit is
refused. **Show one** answers the player alone with one button per card they may still
show, labelled with the card (an ephemeral message: their own cards, to them only);
``card<i>`` shows the card at that place of their hand. Each action is acknowledged
privately before the table's lock, then confirmed privately; what is shown or hunted
goes to the channel (:func:`rabbit_post`, :func:`shown_post`) with a picture where the
cards not played, or not shown, are drawn apart (:mod:`bot.render.after_hand`).
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.polite import acknowledge, report
from bot.adapter.posts import Drawn, Picture
from bot.adapter.scenes import game_line, language
from bot.engine.cards import Card
from bot.i18n import Name, spoken, translate
from bot.i18n.cards import written
from bot.render import CardRow, CardRowsView, alt, render_card_rows_async
from bot.runtime.table import after_hand
from bot.runtime.table.events import CardsShownAfter, RabbitHunted
from bot.runtime.table.views import HandResultView, TableSnapshot

if TYPE_CHECKING:
    from bot.client import OmahaDealer
    from bot.runtime.table.live import Table

__all__ = ["AfterHandButton", "Offering", "add_after_hand_buttons", "after_hand_post",
           "rabbit_post", "retire_offers", "shown_post"]

#: A result message offering after-hand buttons, and the view it keeps at the next deal.
Offering = tuple[discord.PartialMessage | discord.Message, discord.ui.View | None]

_STYLES = {"rabbit": discord.ButtonStyle.primary, "show": discord.ButtonStyle.secondary,
           "one": discord.ButtonStyle.secondary}
_EMOJI = {"rabbit": "🐇", "show": "👀", "one": "👁️"}


class AfterHandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:after:(?P<table>[0-9]+):(?P<hand>[0-9]+):(?P<what>rabbit|show|one|card[0-5])",
):
    """One of the result's after-hand buttons, or a card of the **Show one** picker."""

    def __init__(self, table_id: int, hand_no: int, what: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or what, emoji=_EMOJI.get(what),
            style=_STYLES.get(what, discord.ButtonStyle.secondary),
            custom_id=f"omaha:after:{table_id}:{hand_no}:{what}",
        ))
        self.table_id, self.hand_no, self.what = table_id, hand_no, what

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AfterHandButton:
        return cls(int(match["table"]), int(match["hand"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _clicked(interaction, self.table_id, self.hand_no, self.what)
        except Exception as exc:
            await report(interaction, exc)


async def _clicked(
    interaction: discord.Interaction[Any], table_id: int, hand_no: int, what: str
) -> None:
    """Refused at once when it cannot be done; else acknowledged privately, done under the
    table's lock, and confirmed privately."""
    client: OmahaDealer = interaction.client
    table = client.table_actions.by_id(table_id)
    user_id = interaction.user.id
    if what == "one":
        await _pick(interaction, table, hand_no)
        return
    pick = int(what.removeprefix("card")) if what.startswith("card") else None
    if what == "rabbit":
        after_hand.check_rabbit(table, user_id, hand_no)
    else:
        after_hand.check_show(table, user_id, hand_no, pick)
    await acknowledge(interaction)
    if what == "rabbit":
        reply = await after_hand.rabbit_hunt(table, user_id, hand_no)
    else:
        reply = await after_hand.show(table, user_id, hand_no, pick)
    await interaction.edit_original_response(content=spoken(reply, interaction.locale))


async def _pick(interaction: discord.Interaction[Any], table: Table, hand_no: int) -> None:
    """**Show one**: the cards the player may still show, as buttons only they see."""
    done, seat, cards = after_hand.check_show(table, interaction.user.id, hand_no)
    hole = done.hand.hole(seat)
    view = discord.ui.View(timeout=None)
    for i, c in enumerate(hole):
        if c in cards:
            view.add_item(AfterHandButton(table.table_id, hand_no, f"card{i}", written([c])))
    text = translate(interaction.locale, "show.pick", number=str(hand_no))
    await interaction.response.send_message(text, view=view, ephemeral=True)


def add_after_hand_buttons(
    view: discord.ui.View, snap: TableSnapshot, result: HandResultView
) -> None:
    """The result's **Rabbit hunt**, **Show** and **Show one**, when it offers them."""
    lang = language(snap)
    wanted = (["rabbit"] if result.rabbit_hunt else []) + (
        ["show", "one"] if result.showing else [])
    for what in wanted:
        view.add_item(AfterHandButton(snap.table_id, result.hand_no, what,
                                      translate(lang, f"button.after.{what}")))


async def retire_offers(offering: Offering) -> None:
    """The next hand is dealt: the last result keeps only its **Hand log** (the offering's
    view). A refused edit changes nothing else: a click there is refused politely anyway."""
    message, kept = offering
    with contextlib.suppress(discord.HTTPException):
        await message.edit(view=kept)


def after_hand_post(event: RabbitHunted | CardsShownAfter) -> Picture:
    """What the channel posts for a rabbit hunt or cards shown after a hand (RULES.md 10)."""
    return rabbit_post(event) if isinstance(event, RabbitHunted) else shown_post(event)


def _cards(cards: tuple[Card, ...]) -> str:
    return written(cards)


def rabbit_post(event: RabbitHunted) -> Picture:
    """The rabbit's message: its cards in words, and the picture drawing them apart from
    the board, marked as not played."""
    snap, lang = event.table, language(event.table)
    content = translate(lang, "rabbit.posted", number=str(event.hand_no),
                        name=Name(event.name), cards=_cards(event.rabbit))
    rows = [CardRow(translate(lang, "render.board"), event.board)] if event.board else []
    rows.append(CardRow(translate(lang, "rabbit.not_played"), event.rabbit, apart=True))
    view = CardRowsView(translate(lang, "rabbit.title"), game_line(snap), event.hand_no,
                        tuple(rows), locale=lang)

    async def picture() -> Drawn:
        return Drawn(f"hand-{event.hand_no}-rabbit.png", await render_card_rows_async(view),
                     alt.card_rows(view))

    return Picture(content, picture)


def shown_post(event: CardsShownAfter) -> Picture:
    """The message of cards shown after a hand: those cards in words, and the picture of
    the player's hand with the cards still hidden face down."""
    snap, lang = event.table, language(event.table)
    shown = tuple(c for c in event.cards if c is not None)
    content = translate(lang, "shown.after", number=str(event.hand_no), name=Name(event.name),
                        cards=_cards(shown))
    rows = [CardRow(translate(lang, "shown.hand", name=event.name), event.cards)]
    if event.board:
        rows.append(CardRow(translate(lang, "render.board"), event.board))
    view = CardRowsView(translate(lang, "shown.title", name=event.name), game_line(snap),
                        event.hand_no, tuple(rows), locale=lang)

    async def picture() -> Drawn:
        return Drawn(f"hand-{event.hand_no}-shown-{event.seat}.png",
                     await render_card_rows_async(view), alt.card_rows(view))

    return Picture(content, picture)
