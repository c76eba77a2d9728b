"""Who may see a table, a hand or a tournament: whoever may view its channel on Discord.

Read commands (``/hands``, ``/hand show|export|verify``, ``/table info``,
``/table mine``) and every autocomplete show something of a channel only to
a member Discord lets view that channel, so a private channel keeps its tables
and hands private. The rule is Discord's own, computed without a request and
without the members intent: :meth:`discord.abc.GuildChannel.permissions_for`
on the cached channel with ``interaction.user`` (a Member sent with every
interaction, roles included): the server's base permissions, then the
channel's overwrites for @everyone, the member's roles and the member (deny
then allow at each level); the owner and administrators see everything.

* A thread follows its parent channel's View Channel; a **private** thread
  also needs its member: one the bot knows is in it (its cache), its owner,
  the member who runs the command in it, or Manage Threads.
* Decision: a channel the bot does not have in its cache is **not shown**:
  deleted, one the bot cannot see (Discord does not tell it), another
  server's (a command run in one server never reveals another's, whichever
  shard holds it), or an archived thread (discord.py drops those from its
  cache). Showing what cannot be checked would leak; hiding it costs only the
  history of a channel nobody can open anyway (or an archived thread's).
* In DMs (no server, no member) nothing of a server is shown.

Refusals for what is hidden say what they say for what does not exist, so a
member cannot learn that a hidden hand or table is there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

__all__ = ["may_view", "visible_channels"]


def _thread_member(thread: discord.Thread, member: discord.Member, here: int | None) -> bool:
    """May ``member`` see the private ``thread`` (beyond its parent's View Channel)?"""
    if here == thread.id or thread.owner_id == member.id:
        return True
    if any(joined.id == member.id for joined in thread.members):
        return True
    return thread.permissions_for(member).manage_threads


def may_view(interaction: discord.Interaction[Any], channel_id: int) -> bool:
    """May the member of ``interaction`` view channel (or thread) ``channel_id`` of the
    interaction's server? (See the module docstring for the rule.)"""
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return False
    try:
        if not channel.permissions_for(member).view_channel:
            return False
    except discord.ClientException:  # a thread whose parent is not in the cache
        return False
    if isinstance(channel, discord.Thread) and channel.is_private():
        return _thread_member(channel, member, interaction.channel_id)
    return True


def visible_channels(
    interaction: discord.Interaction[Any], channel_ids: Iterable[int]
) -> list[int]:
    """Those of ``channel_ids`` the member of ``interaction`` may view, in their order."""
    return [c for c in dict.fromkeys(channel_ids) if may_view(interaction, c)]
