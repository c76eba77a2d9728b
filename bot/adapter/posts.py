"""What a table's channel sends: the kinds of posts, whom a message may ping, and the
Discord codes that mean the channel is lost (or a thread to reopen).

:class:`bot.adapter.channel.TableChannel` sends them, in order, one table at a time.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

import discord

from bot.adapter.hooks import Hook
from bot.adapter.scenes import Live
from bot.render import TableView
from bot.runtime.table.events import Receipt
from bot.runtime.table.views import HandResultView

__all__ = [
    "LOST_CODES", "NO_PINGS", "THREAD_ARCHIVED", "ChannelLost", "Commitment", "Drawn", "Picture",
    "Post",
    "Result", "Stage", "Text", "pinging",
]

#: Discord's codes for a channel the bot can no longer use.
#: The values complete "the table was closed because ...".
LOST_CODES = {
    10003: "the channel was deleted",
    50001: "I lost access to the channel",
    50013: "I lost permissions the table needs in the channel",
    160005: "the thread was locked",
}
#: Discord's code for a request into an archived thread (unarchive it, then send again).
THREAD_ARCHIVED = 50083
NO_PINGS = discord.AllowedMentions.none()


def pinging(users: Iterable[int]) -> discord.AllowedMentions:
    """Mentions notify exactly ``users``: no one else, no role, never @everyone/@here."""
    wanted = sorted(set(users))
    if not wanted:
        return NO_PINGS
    return discord.AllowedMentions(users=[discord.Object(u) for u in wanted],
                                   roles=False, everyone=False, replied_user=False)


class ChannelLost(Exception):
    """Discord refuses this channel for good (deleted, no access, missing permissions):
    ``code`` is Discord's (:data:`LOST_CODES`)."""

    def __init__(self, reason: str, code: int = 0) -> None:
        super().__init__(reason)
        self.code = code


class Drawn(NamedTuple):
    """A picture drawn to be sent: its file name, bytes and description (alt text)."""

    name: str
    data: bytes
    description: str


@dataclass(frozen=True)
class Text:
    """A message in the channel: the mentions of ``pings`` notify (no one else's); a
    ``reminder`` is removed later; a message with a ``view`` (buttons) goes alone."""

    content: str
    pings: frozenset[int] = frozenset()
    reminder: bool = False
    view: discord.ui.View | None = None


@dataclass(frozen=True)
class Stage:
    """One street of a run-out, shown by editing the live message."""

    view: TableView
    content: str


@dataclass(frozen=True)
class Result:
    """A hand's result; ``posted`` is called once Discord has it (:mod:`.late_results`)."""

    live: Live
    result: HandResultView
    picture: Callable[[], Awaitable[Drawn | None]]
    posted: Callable[[], Awaitable[None]]


@dataclass(frozen=True)
class Picture:
    """A message with one picture, drawn when its turn to be sent comes."""

    content: str
    picture: Callable[[], Awaitable[Drawn]]


@dataclass(frozen=True)
class Commitment:
    """A hand's deck commitment, posted before its deal and never edited or deleted (its
    Discord timestamp shows it came first). The table waits on ``receipt``: answered with
    the message's id once Discord has it, failed when the message cannot be posted."""

    content: str
    receipt: Receipt


Post = Commitment | Text | Stage | Result | Picture


@dataclass
class Shown:
    """The live message as it is on Discord (the channel keeps it current)."""

    message: discord.PartialMessage
    hand_no: int
    token: str | None
    version: int
    picture: TableView | None
    #: An interaction whose token reaches this message (None: the channel routes only).
    hook: Hook | None = None

    def via(self) -> Hook | None:
        hook = self.hook
        return hook if hook is not None and hook.valid() else None

