"""``/guilds/{id}/scheduled-events``: Guild Scheduled Events, as Discord checks them.

Kept apart from :mod:`.server` (which routes here). Manage Events in the server
(``fd.grant_manage_events(guild)`` gives the bot a role with it) or 403 Missing
Permissions (50013); the body's limits (name, description, location, privacy, the
entity's type with the channel or the place and end it needs, a start not in the past
and an end after it) and the status moves are :mod:`bot.offline.events`' (the
in-process offline Discord refuses the same): 400 Invalid Form Body (50035) with the
field's path. Events are
kept in ``fd.scheduled_events`` (id -> payload); a deleted one answers 404 Unknown
Guild Scheduled Event (10070).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.offline.events import event_errors, status_error

from .payloads import snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = ["MANAGE_EVENTS", "create_event", "delete_event", "edit_event", "get_event"]

MANAGE_EVENTS = 1 << 33
EDITABLE = ("name", "description", "scheduled_start_time", "scheduled_end_time", "status",
            "entity_type", "privacy_level", "entity_metadata", "channel_id")


def _error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> Exception:
    from .server import _RestError

    return _RestError(status, code, message, errors)


def _form(errors: dict[str, str]) -> Exception:
    return _error(400, 50035, "Invalid Form Body", {
        k: {"_errors": [{"code": "BASE_TYPE_BAD", "message": v}]} for k, v in errors.items()})


def _allowed(fd: FakeDiscord, guild_id: str) -> None:
    guild = fd.guilds.get(int(guild_id))
    if guild is None:
        raise _error(404, 10004, "Unknown Guild")
    if not guild.permissions(fd.bot_user.id) & MANAGE_EVENTS:
        raise _error(403, 50013, "Missing Permissions")


def _event(fd: FakeDiscord, guild_id: str, event_id: str) -> dict[str, Any]:
    event = fd.scheduled_events.get(int(event_id))
    if event is None or event["guild_id"] != guild_id:
        raise _error(404, 10070, "Unknown Guild Scheduled Event")
    return event


async def create_event(fd: FakeDiscord, request: web.Request, guild_id: str) -> Any:
    _allowed(fd, guild_id)
    body = await request.json()
    errors = event_errors(body, creating=True, now=datetime.now(UTC))
    if errors:
        raise _form(errors)
    event_id = snowflake()
    event = {key: body.get(key) for key in EDITABLE}
    fd.scheduled_events[event_id] = {
        **event, "id": str(event_id), "guild_id": guild_id, "status": 1,
        "creator_id": str(fd.bot_user.id), "entity_id": None, "user_count": 0,
        "creator": None, "image": None,
    }
    return fd.scheduled_events[event_id]


async def get_event(fd: FakeDiscord, request: web.Request, guild_id: str, event_id: str) -> Any:
    return _event(fd, guild_id, event_id)


async def edit_event(fd: FakeDiscord, request: web.Request, guild_id: str, event_id: str) -> Any:
    _allowed(fd, guild_id)
    event = _event(fd, guild_id, event_id)
    body = await request.json()
    errors = event_errors(body, creating=False, now=datetime.now(UTC))
    if "status" in body and (why := status_error(event["status"], int(body["status"]))):
        errors["status"] = why
    if errors:
        raise _form(errors)
    event.update({k: v for k, v in body.items() if k in EDITABLE})
    return event


async def delete_event(fd: FakeDiscord, request: web.Request, guild_id: str, event_id: str) -> None:
    _allowed(fd, guild_id)
    _event(fd, guild_id, event_id)
    del fd.scheduled_events[int(event_id)]
