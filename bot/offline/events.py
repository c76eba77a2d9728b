"""Guild Scheduled Events as Discord limits them (issue 34); applied once, on import.

simcord serves the scheduled-event routes and checks Manage Events, the entity's
channel or location and an external event's end time. What this module adds, as
Discord documents it (docs/resources/guild-scheduled-event):

* ``name`` 1 to 100 characters, ``description`` at most 1000, an external event's
  ``entity_metadata.location`` 1 to 100: otherwise 400 Invalid Form Body (50035)
  with the field's path;
* ``privacy_level`` is required on create and must be 2 (GUILD_ONLY);
* ``entity_type`` 1 (STAGE_INSTANCE), 2 (VOICE) or 3 (EXTERNAL); a stage or voice
  event needs ``channel_id``, an external one ``entity_metadata.location`` and
  ``scheduled_end_time`` (checked on create);
* ``scheduled_start_time`` not in the past (GUILD_SCHEDULED_EVENT_SCHEDULE_PAST), on
  create and when an edit moves it; ``scheduled_end_time`` after the start;
* the status only moves forward: SCHEDULED (1) to ACTIVE (2) or CANCELED (4),
  ACTIVE to COMPLETED (3); a COMPLETED or CANCELED event changes no more (Discord
  answers 400; the code here is Invalid Form Body with the ``status`` path, as the
  exact code of that refusal is not documented).

:func:`event_errors` and :func:`status_error` are plain functions so that the
process-level fake Discord (``tests/fakediscord``) refuses exactly the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from simcord.backend import errors as _errors
from simcord.http.routes import scheduled_events as _events

from bot.offline.routes import replace_route

__all__ = ["event_errors", "status_error"]

#: The status moves Discord allows (``from -> to``).
ALLOWED_MOVES = {1: {2, 4}, 2: {3}}
GUILD_ONLY = 2


def _length(body: Mapping[str, Any], key: str, low: int, high: int) -> dict[str, str]:
    value = body.get(key)
    if value is None or low <= len(str(value)) <= high:
        return {}
    return {key: f"Must be between {low} and {high} in length."}


def _time(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def _entity_errors(body: Mapping[str, Any]) -> dict[str, str]:
    """A new event's entity: its type, and the channel or the place and end it needs."""
    kind = body.get("entity_type")
    if kind not in (1, 2, 3):
        return {"entity_type": "Value must be one of {1, 2, 3}."}
    metadata = body.get("entity_metadata") or {}
    if kind in (1, 2) and not body.get("channel_id"):
        return {"channel_id": "This field is required"}
    errors = {}
    if kind == 3 and not (isinstance(metadata, Mapping) and metadata.get("location")):
        errors["entity_metadata.location"] = "This field is required"
    if kind == 3 and not body.get("scheduled_end_time"):
        errors["scheduled_end_time"] = "This field is required"
    return errors


def _time_errors(body: Mapping[str, Any], now: datetime, creating: bool) -> dict[str, str]:
    start, end = _time(body.get("scheduled_start_time")), _time(body.get("scheduled_end_time"))
    errors = {}
    if "scheduled_start_time" in body or creating:
        if start is None:
            errors["scheduled_start_time"] = "Invalid ISO8601 timestamp."
        elif start < now:
            errors["scheduled_start_time"] = "Cannot schedule event in the past."
    if end is not None and start is not None and end <= start:
        errors["scheduled_end_time"] = "Cannot schedule event to end before starting."
    return errors


def event_errors(
    body: Mapping[str, Any], *, creating: bool, now: datetime | None = None
) -> dict[str, str]:
    """Discord's form errors for a scheduled event's body, by field path (the times
    checked against ``now`` when given)."""
    errors = {**_length(body, "name", 1, 100), **_length(body, "description", 0, 1000)}
    if creating:
        errors.update(_entity_errors(body))
    if now is not None:
        errors.update(_time_errors(body, now, creating))
    metadata = body.get("entity_metadata") or {}
    if isinstance(metadata, Mapping):
        errors.update({f"entity_metadata.{k}": v
                       for k, v in _length(metadata, "location", 1, 100).items()})
    if creating and "name" not in body:
        errors["name"] = "This field is required"
    privacy = body.get("privacy_level")
    if (creating and privacy is None) or (privacy is not None and int(privacy) != GUILD_ONLY):
        errors["privacy_level"] = "Value must be one of {2}."
    return errors


def status_error(current: int, wanted: int) -> str | None:
    """Why Discord refuses moving an event from ``current`` to ``wanted``, or None."""
    if wanted == current or wanted in ALLOWED_MOVES.get(current, set()):
        return None
    return f"Cannot change the status from {current} to {wanted}."


def _refuse(errors: Mapping[str, str]) -> None:
    if errors:
        raise _errors.invalid_form_body(
            "; ".join(f"{k}: {v}" for k, v in errors.items()),
            errors={k: {"_errors": [{"code": "BASE_TYPE_BAD", "message": v}]}
                    for k, v in errors.items()})


def create_scheduled_event(ctx: Any) -> Any:
    _refuse(event_errors(ctx.body(), creating=True, now=ctx.backend.clock.now()))
    return _events.create_scheduled_event(ctx)


def edit_scheduled_event(ctx: Any) -> Any:
    body = ctx.body()
    errors = event_errors(body, creating=False, now=ctx.backend.clock.now())
    if "status" in body and not errors:
        ctx.require_guild_permissions(ctx.int_arg("guild_id"), "manage_events")
        event = ctx.backend.get_scheduled_event(ctx.int_arg("guild_id"), ctx.int_arg("event_id"))
        why = status_error(int(event.status), int(body["status"]))
        if why is not None:
            errors["status"] = why
    _refuse(errors)
    return _events.edit_scheduled_event(ctx)


replace_route("POST", _events.create_scheduled_event, create_scheduled_event)
replace_route("PATCH", _events.edit_scheduled_event, edit_scheduled_event)
