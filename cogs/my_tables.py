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
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.runtime.errors import NoTable
from bot.runtime.policy import Request
from bot.runtime.registry import TableRegistry
from bot.runtime.table import Table
from cogs.limits import fit_message
from cogs.scenes import table_link

__all__ = ["resolve", "seats_text", "table_choices"]


def _in_this_server(registry: TableRegistry, guild_id: int | None, table_id: int) -> Table:
    for table in registry.all():
        if table.table_id == table_id and table.guild_id == guild_id:
            return table
    raise NoTable("There is no such table in this server: pick one from the list.")


def resolve(
    registry: TableRegistry, interaction: discord.Interaction[Any], table_id: int | None,
    command: str,
) -> Table:
    """The table ``/table <command>`` means (see the module docstring), or NoTable."""
    if table_id is not None:
        return _in_this_server(registry, interaction.guild_id, table_id)
    here = registry.find(interaction.channel_id) if interaction.channel_id is not None else None
    if here is not None:
        return here
    mine = registry.tables_of(interaction.user.id, interaction.guild_id)
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise NoTable(
            "There is no table in this channel and you have no seat at a table in this server. "
            "`/table create` starts one here."
        )
    listed = ", ".join(f"table {t.table_id} in <#{t.channel_id}>" for t in mine)
    raise NoTable(
        f"You have seats at {len(mine)} tables ({listed}): "
        f"say which with `/table {command} table:`."
    )


def seats_text(registry: TableRegistry, user_id: int, guild_id: int | None) -> str:
    """Every seat of ``user_id`` in this server, one line each with the channel's link."""
    mine = registry.tables_of(user_id, guild_id)
    if not mine:
        return "You have no seat at any table in this server: `/table join` in a table's channel."
    lines = [f"Your seats ({len(mine)}):"]
    for t in mine:
        snap = t.snapshot()
        seat = next(s for s in snap.seats if s.user_id == user_id)
        lines.append(
            f"Table {t.table_id} in <#{t.channel_id}> ({table_link(t.guild_id, t.channel_id)}): "
            f"{t.config.title} · seat {seat.seat} · {seat.stack:,} chips · {seat.status}"
        )
    lines.append("`/table leave table:` or `/table info table:` work from any channel.")
    return fit_message(lines)


def table_choices(
    registry: TableRegistry, interaction: discord.Interaction[Any], current: str,
    *, leaving: bool,
) -> list[app_commands.Choice[int]]:
    """Autocomplete: this server's tables (the player's own first), by channel name;
    ``leaving``: only those where the player sits and may leave (no tournament seat)."""
    user_id, typed = interaction.user.id, current.strip().lower()
    tables = [t for t in registry.all() if t.guild_id == interaction.guild_id]
    tables.sort(key=lambda t: (t.seat_of(user_id) is None, t.table_id))
    choices = []
    for t in tables:
        if leaving and (t.seat_of(user_id) is None or t.policy.refusal(Request.LEAVE)):
            continue
        guild = interaction.guild
        channel = guild.get_channel_or_thread(t.channel_id) if guild is not None else None
        where = f"#{channel.name}" if channel is not None else f"channel {t.channel_id}"
        name = f"{where} · {t.config.title} (table {t.table_id})"
        if typed in name.lower():
            choices.append(app_commands.Choice(name=name[:100], value=t.table_id))
    return choices[:25]
