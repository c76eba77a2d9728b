"""Guild Scheduled Events as Discord limits them (issue 34); applied once, on import.

simcord serves the scheduled-event routes and checks Manage Events, the entity's
channel or location and an external event's end time. What this module adds, as
Discord documents it (docs/resources/guild-scheduled-event):

* ``name`` 1 to 100 characters, ``description`` at most 1000, an external event's
  ``entity_metadata.location`` 1 to 100: otherwise 400 Invalid Form Body (50035)
  with the field's path;
* ``privacy_level`` is required on create and must be 2 (GUILD_ONLY);
* the status only moves forward: SCHEDULED (1) to ACTIVE (2) or CANCELED (4),
  ACTIVE to COMPLETED (3); a COMPLETED or CANCELED event changes no more (Discord
  answers 400; the code here is Invalid Form Body with the ``status`` path, as the
  exact code of that refusal is not documented).

:func:`event_errors` and :func:`status_error` are plain functions so that the
process-level fake Discord (``tests/fakediscord``) refuses exactly the same.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def event_errors(body: Mapping[str, Any], *, creating: bool) -> dict[str, str]:
    """Discord's form errors for a scheduled event's body, by field path."""
    errors = {**_length(body, "name", 1, 100), **_length(body, "description", 0, 1000)}
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
    _refuse(event_errors(ctx.body(), creating=True))
    return _events.create_scheduled_event(ctx)


def edit_scheduled_event(ctx: Any) -> Any:
    body = ctx.body()
    errors = event_errors(body, creating=False)
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
