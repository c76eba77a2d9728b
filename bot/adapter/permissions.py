"""The channel permissions a table needs, checked before one is opened.

A table posts pictures (Attach Files) and embeds (Embed Links: without it
Discord refuses a message that is only an embed and hides the others), the
presenter edits its own messages (Read Message History), and nothing works
without seeing and writing in the channel (View Channel, Send Messages; in a
thread, Send Messages in Threads, which is what Discord checks there instead
of Send Messages). Without them every post fails
and nobody is told, and Discord counts each refused request against the bot;
so ``/table create`` and ``/tournament create`` check
``interaction.app_permissions`` (the bot's permissions in that channel, sent
with every interaction: no request needed) and refuse with the names a
server manager sees in Discord's channel settings. They refuse a private
thread too (:func:`refuse_private_thread`, RULES.md 7).

A **public post a member asks for** (``/leaderboard``, ``/hand replay public``, a public
``/stats`` or ``/balance``, and a table or tournament they open: ``/table create``,
``/tournament create``) is the member speaking through the bot, so it needs what the
member would need to post it themselves (issue 29): Send Messages (Send Messages in
Threads in a thread) and, when it carries a picture, Attach Files, read from
``interaction.permissions`` (the member's permissions in that channel, sent with every
interaction). Without them :func:`require_member_post` refuses privately, at once, naming
what is missing, and nothing is posted (nor drawn).

:data:`INVITE_PERMISSIONS` is the same set for the invite URL (the README
gives its integer, and ``tests/adapter/test_permissions.py`` keeps the two equal).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import Phrase, Wording, translate
from bot.runtime.errors import TableError

#: Permission attribute -> the name Discord's channel settings show.
UI_NAMES: dict[str, str] = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
}

#: What a table needs in a text channel, in the order the refusal names them.
CHANNEL_NEEDS = (
    "view_channel", "send_messages", "embed_links", "attach_files", "read_message_history",
)
#: What a table needs in a thread: Discord checks Send Messages in Threads there.
THREAD_NEEDS = (
    "view_channel", "send_messages_in_threads", "embed_links", "attach_files",
    "read_message_history",
)

#: What a multi-table tournament needs in its channel as well: it opens a thread per table
#: there and posts in them (without Send Messages in Threads it would start and at once
#: lose every table).
TOURNAMENT_THREAD_NEEDS = ("create_public_threads", "send_messages_in_threads")

#: Everything to grant when inviting the bot (it may host tables in channels and threads).
INVITE_PERMISSIONS = discord.Permissions(**dict.fromkeys(UI_NAMES, True))

_THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


class MissingChannelPermissions(TableError):
    """The bot lacks permissions a table needs in this channel; the message names them."""

    def __init__(self, missing: list[str]) -> None:
        self.missing = missing
        super().__init__(_Missing(missing))


class MemberCannotPost(TableError):
    """The member may not post here what they asked the bot to post; the message names
    the permissions they lack."""

    def __init__(self, missing: list[str]) -> None:
        self.missing = missing
        super().__init__(_Missing(missing, "refuse.member_cannot_post"))


class _Missing(Wording):
    """A refusal (message ``key``) naming the missing permissions as Discord's settings
    show them in the reader's language (``permission.<attribute>``)."""

    def __init__(self, missing: list[str], key: str = "refuse.missing_permissions") -> None:
        self.missing = missing
        self.key = key

    def to(self, locale: object) -> str:
        names = [translate(locale, f"permission.{p}") for p in self.missing]
        listed = names[0] if len(names) == 1 else translate(
            locale, "list.and", first=", ".join(names[:-1]), last=names[-1])
        return translate(locale, self.key, count=len(names), list=listed)


def in_thread(interaction: discord.Interaction[Any]) -> bool:
    """True when the interaction comes from a thread."""
    return getattr(interaction.channel, "type", None) in _THREAD_TYPES


def missing_table_permissions(permissions: discord.Permissions, *, thread: bool) -> list[str]:
    """The permission attributes a table needs that ``permissions`` lacks, in a fixed order."""
    needs = THREAD_NEEDS if thread else CHANNEL_NEEDS
    return [name for name in needs if not getattr(permissions, name)]


def refuse_private_thread(interaction: discord.Interaction[Any]) -> None:
    """Raise :class:`TableError` in a private thread: tables open only in channels and
    public threads (RULES.md 7), since a private thread's members can remove the bot from
    it, and a table whose channel is lost ends its hand on timeouts."""
    if getattr(interaction.channel, "type", None) is discord.ChannelType.private_thread:
        raise TableError(Phrase("refuse.private_thread"))


def require_table_permissions(interaction: discord.Interaction[Any]) -> None:
    """Raise :class:`MissingChannelPermissions` unless the bot can run a table here."""
    missing = missing_table_permissions(interaction.app_permissions, thread=in_thread(interaction))
    if missing:
        raise MissingChannelPermissions(missing)


def require_member_post(interaction: discord.Interaction[Any], *, files: bool) -> None:
    """Raise :class:`MemberCannotPost` unless the member may post here themselves (with
    ``files``: attach them too)."""
    needs = ["send_messages_in_threads" if in_thread(interaction) else "send_messages"]
    if files:
        needs.append("attach_files")
    missing = [name for name in needs if not getattr(interaction.permissions, name)]
    if missing:
        raise MemberCannotPost(missing)


def require_thread_permissions(interaction: discord.Interaction[Any]) -> None:
    """Raise :class:`MissingChannelPermissions` unless the bot may open the threads of a
    multi-table tournament here and post in them."""
    granted = interaction.app_permissions
    missing = [name for name in TOURNAMENT_THREAD_NEEDS if not getattr(granted, name)]
    if missing:
        raise MissingChannelPermissions(missing)


__all__ = [
    "CHANNEL_NEEDS",
    "INVITE_PERMISSIONS",
    "THREAD_NEEDS",
    "TOURNAMENT_THREAD_NEEDS",
    "UI_NAMES",
    "MemberCannotPost",
    "MissingChannelPermissions",
    "in_thread",
    "missing_table_permissions",
    "refuse_private_thread",
    "require_member_post",
    "require_table_permissions",
    "require_thread_permissions",
]
