"""Archived and locked threads, refused as Discord refuses them (applied on import).

simcord keeps a thread's ``archived`` and ``locked`` flags but lets the bot post,
edit and delete in it whatever they are. Discord does not: a thread archived
(after its auto-archive duration without messages, up to a week) refuses the
channel's message requests with 400, code 50083 ("Thread is archived"), and a
locked thread refuses a bot without Manage Threads with 403, code 160005
("Thread is locked"). The bot can unarchive a thread that is not locked with
``PATCH /channels/{id}`` and ``{"archived": false}`` alone: Discord asks only
for the right to send messages there then (Send Messages in Threads), where
simcord asked for Manage Channels. The bot archives a thread it opened (``{"archived":
true}`` alone) without Manage Threads, as Discord lets a thread's owner (simcord asked
for Manage Channels); another's thread needs Manage Threads. Interaction webhooks
(followups, ``@original``) are not checked here.

A guild holds at most :data:`MAX_ACTIVE_THREADS` active threads (archived ones do not
count): past that Discord refuses a new thread with 400, code 160006 (160007 under an
announcement channel), which simcord does not; every way to open one is checked here.

Why patching: these wrap simcord's message route handlers (after
:mod:`bot.offline.refusals` has wrapped them) and its channel edit route.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcord.backend import permissions as _permissions
from simcord.backend import serializers as _serializers
from simcord.backend.errors import BackendError, missing_permissions
from simcord.enums import ChannelType
from simcord.http.routes import channels as _channels
from simcord.http.routes import messages as _messages

from bot.offline import refusals
from bot.offline.routes import replace_route

__all__ = [
    "MAX_ACTIVE_THREADS", "NO_THREAD_HERE", "THREADS_FULL", "THREAD_ARCHIVED", "THREAD_LOCKED",
    "create_thread", "thread_refusal",
]

THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005

_earlier_send_permissions: Callable[..., None] = _messages._send_permissions
_simcord_delete_message: Callable[..., Any] = _messages.delete_message
_simcord_edit_channel: Callable[..., Any] = _channels.edit_channel
_simcord_create_thread: Callable[..., Any] = _channels.create_thread
_simcord_thread_from_message: Callable[..., Any] = _channels.create_thread_from_message
#: The auto-archive durations Discord takes, in minutes.
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
#: Discord's code for a thread asked of a channel that cannot hold one (a thread, a DM).
NO_THREAD_HERE = 50024
#: The most active threads Discord lets a guild hold.
MAX_ACTIVE_THREADS = 1000
#: Discord's codes past it: a thread, an announcement channel's thread.
THREADS_FULL = 160006
ANNOUNCEMENT_THREADS_FULL = 160007


def _may_manage_threads(ctx: Any, channel: Any) -> bool:
    granted = ctx.backend.compute_permissions(channel.guild_id, ctx.backend.bot_user.id, channel.id)
    return bool(granted & _permissions.flag("manage_threads"))


def thread_refusal(ctx: Any, channel_id: int) -> None:
    """Discord's refusal of a message request into a locked or archived thread, if any."""
    channel = ctx.backend.get_channel(channel_id)
    meta = channel.thread_metadata if channel.is_thread else None
    if meta is None:
        return
    if meta.locked and not _may_manage_threads(ctx, channel):
        raise BackendError(403, THREAD_LOCKED, "Thread is locked")
    if meta.archived:
        raise BackendError(400, THREAD_ARCHIVED, "Thread is archived")


def send_permissions(ctx: Any, channel_id: int) -> None:
    _earlier_send_permissions(ctx, channel_id)
    thread_refusal(ctx, channel_id)


def edit_message(ctx: Any) -> Any:
    thread_refusal(ctx, ctx.int_arg("channel_id"))
    return refusals.edit_message(ctx)


def delete_message(ctx: Any) -> Any:
    thread_refusal(ctx, ctx.int_arg("channel_id"))
    return _simcord_delete_message(ctx)


def edit_channel(ctx: Any) -> Any:
    """Unarchiving a thread needs only Send Messages in Threads (not if it is locked);
    archiving it, being its owner or Manage Threads."""
    channel = ctx.backend.get_channel(ctx.int_arg("channel_id"))
    body = ctx.body()
    if not (channel.is_thread and body in ({"archived": False}, {"archived": True})):
        return _simcord_edit_channel(ctx)
    if body["archived"]:
        ctx.require_channel_permissions(channel.id)
        if channel.owner_id != ctx.backend.bot_user.id and not _may_manage_threads(ctx, channel):
            raise missing_permissions()
    else:
        ctx.require_channel_permissions(channel.id, "send_messages_in_threads")
    if channel.thread_metadata.locked and not _may_manage_threads(ctx, channel):
        raise BackendError(403, THREAD_LOCKED, "Thread is locked")
    updated = ctx.backend.edit_channel(channel.id, {}, thread_metadata=body)
    return dict(_serializers.channel_payload(ctx.backend, updated))


def _invalid(field: str, code: str, message: str) -> BackendError:
    return BackendError(400, 50035, "Invalid Form Body",
                        errors={field: {"_errors": [{"code": code, "message": message}]}})


def create_thread(ctx: Any) -> Any:
    """A thread without a starter message, checked as Discord checks it: the parent a
    text or announcement channel (not a thread: 400, code 50024), a name of 1 to 100
    characters and a known auto-archive duration (400, code 50035), then simcord's
    permission checks (View Channel, Create Public Threads)."""
    channel = ctx.backend.get_channel(ctx.int_arg("channel_id"))
    if channel.is_thread:
        raise BackendError(400, NO_THREAD_HERE, "Cannot execute action on this channel type")
    body = ctx.body()
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise _invalid("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    if body.get("auto_archive_duration", 1440) not in ARCHIVE_DURATIONS:
        raise _invalid("auto_archive_duration", "BASE_TYPE_CHOICES",
                       "Value must be one of {60, 1440, 4320, 10080}.")
    _room_for_a_thread(ctx, channel)
    return _simcord_create_thread(ctx)


def create_thread_from_message(ctx: Any) -> Any:
    """A thread on a message: refused too past the guild's active threads."""
    _room_for_a_thread(ctx, ctx.backend.get_channel(ctx.int_arg("channel_id")))
    return _simcord_thread_from_message(ctx)


def _room_for_a_thread(ctx: Any, parent: Any) -> None:
    """Discord's refusal of one more thread in a guild that has its most active ones."""
    if parent.guild_id is None:
        return
    if len(ctx.backend.active_threads(parent.guild_id)) < MAX_ACTIVE_THREADS:
        return
    if parent.type == ChannelType.NEWS:
        raise BackendError(400, ANNOUNCEMENT_THREADS_FULL,
                           "Maximum number of active announcement threads reached")
    raise BackendError(400, THREADS_FULL, "Maximum number of active threads reached")


_messages._send_permissions = send_permissions  # simcord's private hook (pinned version)
replace_route("PATCH", refusals.edit_message, edit_message)
replace_route("DELETE", _simcord_delete_message, delete_message)
replace_route("PATCH", _simcord_edit_channel, edit_channel)
replace_route("POST", _simcord_create_thread, create_thread)
replace_route("POST", _simcord_thread_from_message, create_thread_from_message)
