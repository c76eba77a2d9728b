"""How large a file the bot may upload, in the offline Discord; applied once, on import.

Discord tells the bot with every interaction how large an attachment it may upload there
(``attachment_size_limit``: 10 MiB in a server without boosts, more with boosts;
discord.py's ``Interaction.filesize_limit``) and refuses a larger upload with 413
Request Entity Too Large (code 40005). simcord 3.2.1 sends 25 MiB with every interaction
and refuses no upload. This module sends the limit set with :func:`set_upload_limit`
(``Harness.set_upload_limit``; Discord's 10 MiB of a server without boosts until then)
and refuses any message, followup or edit with a file over it, as Discord does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcord import interactions as _interactions
from simcord.backend import errors as _errors
from simcord.http import router as _router

__all__ = ["TOO_LARGE", "dispatch", "set_upload_limit", "upload_limit"]

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
    if any(_size(f) > limit for f in kwargs.get("files") or ()):
        raise _errors.BackendError(413, TOO_LARGE, "Request entity too large")
    return _simcord_dispatch(backend, method, path, **kwargs)


_interactions.base_payload = base_payload
_router.dispatch = dispatch
