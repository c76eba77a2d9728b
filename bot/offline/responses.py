"""Discord's interaction responses where simcord differs; applied once, on import.

* **Deleting a deferred "thinking…" original stops the loading.** A command
  deferred in public (type 5) whose work then fails must not show the error
  in the channel: the bot deletes the public "thinking…" message and sends the
  error as an ephemeral followup (:func:`bot.adapter.polite.send_private`). On
  Discord, deleting the deferred original ends its loading state and later
  followups are new messages with their own flags (kordlib/kord#546 builds its
  API on it: "if you defer a public response and then delete it (this will
  just stop the loading) you can still send followups"). simcord kept the
  record loading, so the next followup tried to edit the deleted original and
  got 404 Unknown Message; here the deletion completes the deferral.

Like :mod:`bot.offline.refusals`, this replaces one of simcord's route
handlers (simcord is pinned to an exact version).
"""

from __future__ import annotations

from typing import Any

from simcord.http.router import RequestContext
from simcord.http.routes import interactions as _interactions

from bot.offline.routes import replace_route

_simcord_delete_original = _interactions.delete_original_response


def delete_original_response(ctx: RequestContext) -> Any:
    """Delete ``@original``; a deferred original's loading ends with it."""
    record = _interactions._record(ctx)  # simcord's private record of the interaction
    answer = _simcord_delete_original(ctx)
    if record.loading:
        record.complete_deferred()
    return answer


replace_route("DELETE", _simcord_delete_original, delete_original_response)
