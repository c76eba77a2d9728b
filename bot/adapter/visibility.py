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

**Results** (issue 29): another member's statistics, graphs and rankings count only
the hands and tournaments of channels their readers may view
(:func:`counted_channels`; which channel a result belongs to: :mod:`bot.storage.stats`).
A private answer's reader is the member; a public answer's readers are everyone who
may view the channel it is posted in, whom the bot cannot list (no members intent), so
a channel counts there when each of them may surely view it too: the answer's own
channel; one with the same base, a thread counting as its parent (whoever reads a thread
views its parent, and a public thread's readers are its parent's): the answer's
channel's public threads, or, for an answer in a thread, its parent and the parent's
public threads; or a channel **open to every member** (the @everyone role may view it
and no overwrite of it denies View Channel to anyone; a public thread as its parent, a
private thread never). The member must also view it. Consequence: a deleted channel's
hands, or an archived thread's (not in the bot's cache, as above), count for nobody
but their own players.
Decision: a member's own figures answered to them alone count all their hands, in
channels they can no longer see too: those hands are theirs, and nobody else reads
the answer. Balances are one per server (every table's chips go through them): they
are never filtered, and ``/help`` says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

__all__ = ["counted_channels", "may_view", "open_to_everyone", "readers_may_view",
           "visible_channels"]


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


def open_to_everyone(channel: Any) -> bool:
    """May every member of its server view ``channel`` (a cached channel or thread)?"""
    if isinstance(channel, discord.Thread):
        if channel.is_private() or channel.parent is None:
            return False
        channel = channel.parent
    if not isinstance(channel, discord.abc.GuildChannel):
        return False
    if not channel.permissions_for(channel.guild.default_role).view_channel:
        return False
    return all(overwrite.view_channel is not False for overwrite in channel.overwrites.values())


def _base(channel: Any) -> int:
    """A thread's parent channel, else the channel itself: whoever reads a thread may
    view its parent, and a public thread's readers are its parent's."""
    return channel.parent_id if isinstance(channel, discord.Thread) else int(channel.id)


def readers_may_view(interaction: discord.Interaction[Any], channel_id: int) -> bool:
    """May everyone who reads the interaction's channel view channel ``channel_id`` (and
    the member too)? (See the module docstring for the rule.)"""
    if not may_view(interaction, channel_id):
        return False
    if channel_id == interaction.channel_id:
        return True
    guild = interaction.guild
    assert guild is not None  # may_view said yes: a server's interaction
    channel = guild.get_channel_or_thread(channel_id)
    posted = guild.get_channel_or_thread(interaction.channel_id or 0)
    private = isinstance(channel, discord.Thread) and channel.is_private()
    if not private and posted is not None and _base(channel) == _base(posted):
        return True
    return open_to_everyone(channel)


def counted_channels(
    interaction: discord.Interaction[Any], channel_ids: Iterable[int], *, public: bool
) -> list[int]:
    """Those of ``channel_ids`` whose results an answer to ``interaction`` may count: the
    member's view for a private answer, the channel's readers' for a public one."""
    allowed = readers_may_view if public else may_view
    return [c for c in dict.fromkeys(channel_ids) if allowed(interaction, c)]
