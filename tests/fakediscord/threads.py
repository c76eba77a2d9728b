"""``POST /channels/{id}/threads``: a thread without a starter message, as Discord does it.

Kept apart from :mod:`.server` (which routes to :func:`create_thread`). What Discord
checks, the fake checks: the parent is a text or announcement channel (400, code
50024, otherwise: no thread in a thread or a DM); a name of 1 to 100 characters
and an auto-archive duration of 60, 1440, 4320 or 10080 minutes (400, code 50035,
with the field's error); View Channel and Create Public Threads (or Create
Private Threads for a private one) in the parent (403, codes 50001 and 50013).
Without ``type`` Discord makes a private thread. The answer is the thread's
channel object (owned by the bot), and the bot hears THREAD_CREATE with
``newly_created`` when it is connected.

A thread that lives for weeks: archived (``fd.archive_thread(thread)``, as a week
without messages does), it refuses the bot's message requests with 400, code
50083, until the bot unarchives it (``PATCH /channels/{id}`` with ``{"archived":
false}``, which needs only Send Messages in Threads: :func:`edit_thread`); locked
by a moderator (``locked=True``) it refuses the bot (no Manage Threads) with 403,
code 160005, and cannot be unarchived by it (:func:`thread_refusal`). The bot archives a
thread it opened (``{"archived": true}``: a thread's owner may; another's needs Manage
Threads, which the bot does not have here).

A guild holds at most :data:`MAX_ACTIVE_THREADS` active threads (archived ones do not
count): one more is refused with 400, code 160006 (160007 under an announcement channel).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .payloads import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
    channel_payload,
    snowflake,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = [
    "ARCHIVE_DURATIONS", "MAX_ACTIVE_THREADS", "create_thread", "edit_thread", "thread_refusal",
]

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
#: The most active threads Discord lets a guild hold.
MAX_ACTIVE_THREADS = 1000


def _invalid(field: str, code: str, message: str) -> Exception:
    from .server import _RestError

    return _RestError(400, 50035, "Invalid Form Body",
                      {field: {"_errors": [{"code": code, "message": message}]}})


def _check_body(body: dict[str, Any]) -> tuple[str, int, int]:
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise _invalid("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    kind = body.get("type", 12)
    if kind not in (11, 12):
        raise _invalid("type", "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")
    duration = body.get("auto_archive_duration", 1440)
    if duration not in ARCHIVE_DURATIONS:
        raise _invalid("auto_archive_duration", "BASE_TYPE_CHOICES",
                       "Value must be one of {60, 1440, 4320, 10080}.")
    return name, int(kind), int(duration)


async def create_thread(server: FakeDiscord, request: web.Request, channel_id: str) -> Any:
    from .server import _RestError

    parent = server._channel(channel_id)
    if parent.type not in (0, 5) or parent.guild_id is None:
        raise _RestError(400, 50024, "Cannot execute action on this channel type")
    body, _ = await server._body(request)
    name, kind, duration = _check_body(body)
    server._require(parent, VIEW_CHANNEL,
                    CREATE_PUBLIC_THREADS if kind == 11 else CREATE_PRIVATE_THREADS)
    _room_for_a_thread(server, parent)
    thread = Channel(snowflake(), name, kind, parent.guild_id, parent_id=parent.id,
                     auto_archive_duration=duration, owner_id=server.bot_user.id)
    server.guilds[parent.guild_id].channels[thread.id] = thread
    server.channels[thread.id] = thread
    payload = channel_payload(thread, server.users)
    payload["owner_id"] = str(server.bot_user.id)
    if server.gateway.session_for(parent.guild_id) is not None:  # the bot hears it
        await server.dispatch("THREAD_CREATE", {**payload, "newly_created": True})
    return payload


def _room_for_a_thread(server: FakeDiscord, parent: Channel) -> None:
    """Discord's refusal of one more thread in a guild that has its most active ones."""
    from .server import _RestError

    guild = server.guilds[parent.guild_id or 0]
    active = sum(1 for c in guild.channels.values() if c.type in (10, 11, 12) and not c.archived)
    if active < MAX_ACTIVE_THREADS:
        return
    if parent.type == 5:
        raise _RestError(400, 160007, "Maximum number of active announcement threads reached")
    raise _RestError(400, 160006, "Maximum number of active threads reached")


def thread_refusal(channel: Channel) -> None:
    """Discord's refusal of a message request into a locked or archived thread, if any."""
    from .server import _RestError

    if channel.locked:
        raise _RestError(403, 160005, "Thread is locked")
    if channel.archived:
        raise _RestError(400, 50083, "Thread is archived")


async def edit_thread(server: FakeDiscord, request: web.Request, channel_id: str) -> Any:
    """``PATCH /channels/{id}``: only unarchiving a thread (``{"archived": false}``), or
    archiving one the bot opened (``{"archived": true}``)."""
    from .server import _RestError

    channel = server._channel(channel_id)
    body, _ = await server._body(request)
    own = channel.owner_id == server.bot_user.id
    if channel.parent_id is None or body not in ({"archived": False}, {"archived": True}) \
            or (body["archived"] and not own):
        raise _RestError(403, 50013, "Missing Permissions")  # the bot manages no channel
    server._require(channel, VIEW_CHANNEL if body["archived"] else SEND_MESSAGES_IN_THREADS)
    if channel.locked:
        raise _RestError(403, 160005, "Thread is locked")
    channel.archived = body["archived"]
    payload = channel_payload(channel, server.users)
    if server.gateway.session_for(channel.guild_id or 0) is not None:
        await server.dispatch("THREAD_UPDATE", payload)
    return payload
