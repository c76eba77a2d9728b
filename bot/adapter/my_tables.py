"""A player's seats from any channel: which table ``/table leave`` and ``/table info`` mean.

Commands find a table through the channel they are run in. A player must
also be able to see and leave their seats from anywhere (the table's channel
may be hidden from them, far up the list, or gone), so:

* with a ``table`` option, the command takes that table of this server;
* in a table's channel, that table;
* elsewhere, the player's own table when they sit at exactly one in this
  server; at several, a private list asking which (``table:`` option, with
  autocomplete); at none, a polite refusal that points to ``/table mine``.

``/table mine`` lists every seat of the player in this server with a link to
each table's channel (:func:`seats_text`).

Reading follows Discord's visibility (:mod:`bot.adapter.visibility`): ``/table
info``, ``/table mine`` and the autocompletes show only tables whose channel the
member may view, and a hidden table is refused as one that does not exist.
``/table leave`` still finds a seat the player can no longer see, so the chips
can always come back.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.adapter.limits import fit_message
from bot.adapter.scenes import table_link
from bot.adapter.visibility import may_view
from bot.i18n import Command, Option, Phrase, translate
from bot.runtime.errors import NoTable
from bot.runtime.registry import TableRegistry
from bot.runtime.table import wording
from bot.runtime.table.live import Table
from bot.runtime.table.policy import Request

__all__ = ["resolve_table", "seats_text", "table_choices"]


def _in_this_server(registry: TableRegistry, guild_id: int | None, table_id: int) -> Table:
    for table in registry.all():
        if table.table_id == table_id and table.guild_id == guild_id:
            return table
    raise NoTable(Phrase("refuse.no_such_table"))


def _shown(interaction: discord.Interaction[Any], table: Table, reading: bool) -> Table:
    """``table``, unless ``reading`` and its channel is hidden from the member (then refused
    as a table that does not exist)."""
    if reading and not may_view(interaction, table.channel_id):
        raise NoTable(Phrase("refuse.no_such_table"))
    return table


def resolve_table(
    registry: TableRegistry, interaction: discord.Interaction[Any], table_id: int | None,
    command: str, *, reading: bool = False,
) -> Table:
    """The table ``/table <command>`` means (see the module docstring), or NoTable;
    ``reading``: only a table whose channel the member may view."""
    if table_id is not None:
        table = _in_this_server(registry, interaction.guild_id, table_id)
        return _shown(interaction, table, reading)
    here = registry.find(interaction.channel_id) if interaction.channel_id is not None else None
    if here is not None:
        return _shown(interaction, here, reading)
    mine = registry.tables_of(interaction.user.id, interaction.guild_id)
    if reading:
        mine = [t for t in mine if may_view(interaction, t.channel_id)]
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise NoTable(Phrase("refuse.no_table_anywhere", create=Command("table create")))
    listed = ", ".join(f"#{t.table_id} <#{t.channel_id}>" for t in mine)
    raise NoTable(Phrase("refuse.which_table", count=len(mine), list=listed,
                         command=Command(f"table {command}"), option=Option("table")))


def seats_text(registry: TableRegistry, interaction: discord.Interaction[Any]) -> str:
    """Every seat of the member in this server whose channel they may view, one line each
    with the channel's link, in the member's language."""
    user_id, locale = interaction.user.id, interaction.locale
    mine = [t for t in registry.tables_of(user_id, interaction.guild_id)
            if may_view(interaction, t.channel_id)]
    if not mine:
        return translate(locale, "mine.none", join=Command("table join"))
    lines = [translate(locale, "mine.head", count=len(mine))]
    for t in mine:
        snap = t.snapshot()
        seat = next(s for s in snap.seats if s.user_id == user_id)
        status = translate(locale, "status." + seat.status.replace(" ", "_").replace("-", "_"))
        lines.append(translate(
            locale, "mine.seat", table=str(t.table_id), channel=f"<#{t.channel_id}>",
            link=table_link(t.guild_id, t.channel_id), title=wording.title(locale, t.config),
            seat=seat.seat, chips=Phrase("chips.count", count=seat.stack), status=status))
    lines.append(translate(locale, "mine.foot", leave=Command("table leave"),
                           info=Command("table info"), option=Option("table")))
    return fit_message(lines, locale=locale)


def table_choices(
    registry: TableRegistry, interaction: discord.Interaction[Any], current: str,
    *, leaving: bool,
) -> list[app_commands.Choice[int]]:
    """Autocomplete: this server's tables whose channel the member may view (the player's
    own first), by channel name and game in the member's language; ``leaving``: only
    those where the player sits and may leave (no tournament seat)."""
    user_id, typed, locale = interaction.user.id, current.strip().lower(), interaction.locale
    tables = [t for t in registry.all()
              if t.guild_id == interaction.guild_id and may_view(interaction, t.channel_id)]
    tables.sort(key=lambda t: (t.seat_of(user_id) is None, t.table_id))
    choices = []
    for t in tables:
        if leaving and (t.seat_of(user_id) is None or t.policy.refusal(Request.LEAVE)):
            continue
        guild = interaction.guild
        channel = guild.get_channel_or_thread(t.channel_id) if guild is not None else None
        where = (f"#{channel.name}" if channel is not None
                 else translate(locale, "choice.channel", channel=str(t.channel_id)))
        name = translate(locale, "choice.table", where=where, table=str(t.table_id),
                         title=wording.title(locale, t.config))
        if typed in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=t.table_id))
    return choices[:25]
