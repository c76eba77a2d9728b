"""How large a file the bot may upload, in the offline Discord; applied once, on import.

Discord tells the bot with every interaction how large an attachment it may upload there
(``attachment_size_limit``: 10 MiB in a server without boosts, more with boosts;
discord.py's ``Interaction.filesize_limit``) and refuses a larger upload with 413
Request Entity Too Large (code 40005); a file's description (its alt text) over 1024
characters is refused with 400 Invalid Form Body (code 50035) naming
``attachments.N.description``, as Discord's attachment object documents the limit.
simcord 3.2.1 sends 25 MiB with every interaction and refuses no upload, nor a long
description. This module sends the limit set with :func:`set_upload_limit`
(``Harness.set_upload_limit``; Discord's 10 MiB of a server without boosts until then)
and refuses any message, followup or edit with a file over it, or a description over
1024 characters, as Discord does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcord import interactions as _interactions
from simcord.backend import errors as _errors
from simcord.http import router as _router

from bot.adapter.limits import ATTACHMENT_DESCRIPTION
from bot.offline.commands import error_tree

__all__ = ["TOO_LARGE", "description_problems", "dispatch", "set_upload_limit", "upload_limit"]

#: Discord's limit in a server without boosts (10 MiB), not simcord's 25 MiB.
DEFAULT = 10 * 1024 * 1024
#: Discord's code for an upload over the limit.
TOO_LARGE = 40005

_LIMITS: dict[int, int] = {}  # id(backend) -> bytes
_simcord_base_payload = _interactions.base_payload
_simcord_dispatch: Callable[..., Any] = _router.dispatch


def set_upload_limit(backend: Any, limit: int) -> None:
    """The largest file the bot may upload from now on (and what interactions say)."""
    _LIMITS[id(backend)] = limit


def upload_limit(backend: Any) -> int:
    return _LIMITS.get(id(backend), DEFAULT)


def description_problems(descriptions: list[str | None]) -> list[tuple[str, str, str]]:
    """Discord's refusal of each attachment description over its limit."""
    return [(f"attachments.{i}.description", "BASE_TYPE_MAX_LENGTH",
             f"Must be {ATTACHMENT_DESCRIPTION} or fewer in length.")
            for i, text in enumerate(descriptions)
            if isinstance(text, str) and len(text) > ATTACHMENT_DESCRIPTION]


def base_payload(backend: Any, **kwargs: Any) -> Any:
    record, payload = _simcord_base_payload(backend, **kwargs)
    payload["attachment_size_limit"] = upload_limit(backend)
    return record, payload


def _size(file: Any) -> int:
    """Bytes of an upload's file, its read position kept."""
    fp = file.fp
    at = fp.tell()
    size = int(fp.seek(0, 2))
    fp.seek(at)
    return size


def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
    """simcord's routing, with Discord's 413 for a file over the upload limit."""
    limit = upload_limit(backend)
    files = kwargs.get("files") or ()
    if any(_size(f) > limit for f in files):
        raise _errors.BackendError(413, TOO_LARGE, "Request entity too large")
    problems = description_problems([f.description for f in files])
    if problems:
        raise _errors.invalid_form_body(errors=error_tree(problems))
    return _simcord_dispatch(backend, method, path, **kwargs)


_interactions.base_payload = base_payload
_router.dispatch = dispatch
