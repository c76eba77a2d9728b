"""A seat's ways forward as buttons (issue 23: no dead ends).

The runtime says which steps a player can take from where their seat is
(:func:`bot.runtime.table.ways.ways_forward`: top up, sit in, post a big blind
now, stay, leave). :func:`ways_view` makes them buttons on a message addressed
to that player alone: the private reply to a seat command (``/table join``,
``sitout``, ``sitin``, ``leave``, ``topup``: :func:`reply_with_ways`) and the
direct message that tells a busted or timed-out player where they stand (the
presenter's notice to one player). The private replies (and ``/table info`` to a
seated player) also carry the player's standing choice to straddle under the gun,
at a table that plays straddles (:func:`bot.runtime.table.straddle.straddle_ways`:
``straddle`` turns it on, ``nostraddle`` off). Custom id::

    omaha:seat:<table>:<user>:<kind>[:<amount>]
    kind: topup sitin post stay leave straddle nostraddle

A click does what the command does (``/table topup``, ``/table sitin`` with or
without ``post_big_blind``, ``/table leave``) or changes the choice, for the player
the buttons were made for, and answers privately with the next ways, if any; anyone
else's click is refused. The labels speak the reader's language (``button.way.*``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter.polite import acknowledge, report
from bot.i18n import Phrase, Wording, spoken, translate
from bot.runtime.errors import TableError
from bot.runtime.table.straddle import STRADDLE_OFF, STRADDLE_ON, choose, straddle_ways
from bot.runtime.table.views import Way
from bot.runtime.table.ways import ways_forward

if TYPE_CHECKING:
    from bot.client import OmahaDealer
    from bot.runtime.table.live import Table

__all__ = ["SeatButton", "reply_with_ways", "straddle_button", "take_way", "ways_view"]

#: The button style of each way: coming back is the primary choice, leaving the last.
STYLES = {
    "topup": discord.ButtonStyle.success,
    "sitin": discord.ButtonStyle.success,
    "post": discord.ButtonStyle.primary,
    "stay": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    STRADDLE_ON: discord.ButtonStyle.primary,
    STRADDLE_OFF: discord.ButtonStyle.secondary,
}


class SeatButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"omaha:seat:(?P<table>[0-9]+):(?P<user>[0-9]+):"
    r"(?P<kind>topup|sitin|post|stay|leave|straddle|nostraddle)(?::(?P<amount>[0-9]+))?",
):
    """One way forward for one player's seat."""

    def __init__(self, table_id: int, user_id: int, way: Way, locale: object = None) -> None:
        custom_id = f"omaha:seat:{table_id}:{user_id}:{way.kind}" + (
            f":{way.amount}" if way.kind == "topup" else "")
        label = translate(locale, f"button.way.{way.kind}", amount=way.amount)
        super().__init__(discord.ui.Button(label=label, style=STYLES[way.kind],
                                           custom_id=custom_id))
        self.table_id, self.user_id, self.way = table_id, user_id, way

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SeatButton:
        way = Way(match["kind"], int(match["amount"] or 0))
        return cls(int(match["table"]), int(match["user"]), way)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await take_way(interaction, self.table_id, self.user_id, self.way)
        except Exception as exc:
            await report(interaction, exc)


def ways_view(
    table_id: int, user_id: int, ways: Sequence[Way], locale: object = None
) -> discord.ui.View | None:
    """The buttons of ``ways`` for ``user_id`` at table ``table_id`` (None: no way to offer)."""
    if not ways:
        return None
    view = discord.ui.View(timeout=None)
    for way in ways:
        view.add_item(SeatButton(table_id, user_id, way, locale))
    return view


async def take_way(
    interaction: discord.Interaction[Any], table_id: int, user_id: int, way: Way
) -> None:
    """Do what the button ``way`` offers (acknowledged privately first: the table's lock
    may be held by a hand being settled), then answer with the ways on from there."""
    if interaction.user.id != user_id:
        raise TableError(Phrase("refuse.not_your_buttons"))
    client: OmahaDealer = interaction.client
    table = client.table_actions.by_id(table_id)
    await acknowledge(interaction)
    if way.kind == "topup":
        reply = await table.top_up(user_id, way.amount)
    elif way.kind == "leave":
        reply = await table.leave(user_id)
    elif way.kind in (STRADDLE_ON, STRADDLE_OFF):
        reply = await choose(table, user_id, on=way.kind == STRADDLE_ON)
    else:
        reply = await table.sit_in(user_id, post_big_blind=way.kind == "post")
    await reply_with_ways(interaction, table, reply)


def straddle_button(interaction: discord.Interaction[Any], table: Table) -> dict[str, Any]:
    """The ``view`` keyword of a private reply about ``table`` (``/table info``): the
    reader's straddle button when they sit there and the table plays straddles."""
    user_id = interaction.user.id
    view = ways_view(table.table_id, user_id, straddle_ways(table, user_id), interaction.locale)
    return {} if view is None else {"view": view}


async def reply_with_ways(
    interaction: discord.Interaction[Any], table: Table, reply: str | Wording
) -> None:
    """The private answer to a seat request (acknowledged privately before), with the
    player's ways forward from where their seat is now, and their straddle choice, as
    buttons."""
    user_id = interaction.user.id
    ways = (*ways_forward(table, user_id), *straddle_ways(table, user_id))
    view = ways_view(table.table_id, user_id, ways, interaction.locale)
    text = spoken(reply, interaction.locale)
    if view is None:
        await interaction.edit_original_response(content=text)
    else:
        await interaction.edit_original_response(content=text, view=view)
