"""Each member's Discord language in the offline Discord; applied once, on import.

simcord 3.2.1 sends every interaction with ``"locale": "en-US"`` and
``"guild_locale": "en-US"``. Discord sends the user's client language and the
server's preferred locale; this wraps simcord's ``interactions.base_payload``
so that ``interaction.locale`` is the language set with :func:`set_locale`
(``Harness.set_locale``) and ``interaction.guild_locale`` the guild's
``preferred_locale`` (``env.create_guild(..., preferred_locale="pt-BR")``).
"""

from __future__ import annotations

from typing import Any

from simcord import interactions as _interactions

_LOCALES: dict[tuple[int, int], str] = {}  # (id(backend), user id) -> Discord locale
_simcord_base_payload = _interactions.base_payload


def set_locale(backend: Any, user_id: int, locale: str) -> None:
    """The language ``user_id``'s Discord client reports from now on."""
    _LOCALES[(id(backend), user_id)] = locale


def base_payload(backend: Any, **kwargs: Any) -> Any:
    record, payload = _simcord_base_payload(backend, **kwargs)
    locale = _LOCALES.get((id(backend), kwargs["user_id"]))
    if locale is not None:
        payload["locale"] = locale
    guild_id = kwargs.get("guild_id")
    if guild_id is not None:
        payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
    return record, payload


_interactions.base_payload = base_payload

__all__ = ["base_payload", "set_locale"]
