"""Refusals of Discord's that simcord lacks; applied once, when this module is imported.

simcord already refuses what Discord refuses for a message's size (content
over 2,000 characters, more than 10 embeds, every embed limit and the 6,000
total, more than 5 action rows or 5 buttons a row, labels over 80 and custom
ids over 100 characters) and for modals (title and text input label over 45,
placeholder over 100), with Discord's answer, 400 Invalid Form Body (code
50035) and the path of the field. It also refuses a post without Send
Messages (Send Messages in Threads in a thread) or without View Channel, and
a read of the history without Read Message History. Checked against
simcord 3.2.1's ``components.validate_message_state`` and
``http/routes/messages.py``; ``tests/cogs/test_refusals.py`` proves each one
through the real discord.py client.

What this module adds, as Discord does it:

* **Invalid emoji** on a component (a button's ``emoji``, a select option's):
  a unicode emoji must be one Discord knows (its list is Unicode's emoji, taken
  here from the ``emoji`` package, :func:`emoji.is_emoji`), a custom emoji an
  object with a snowflake ``id`` and, if named, a name of 2 to 32 letters,
  digits or underscores. Otherwise: 400, code 50035, ``Invalid Form Body``
  with the path (``components.0.components.0.emoji.name: Invalid emoji``). A
  playing-card character such as ``🂠`` (U+1F0A0) is not an emoji.
* **Attach Files** for a channel post or edit that uploads files, and **Embed
  Links** for embeds: 403 Missing Permissions (code 50013). Without Embed
  Links, Discord refuses a message that has nothing but embeds, and sends the
  others without their embeds (reported in discord/discord-api-docs#2601);
  both are modelled. Interaction responses and followups are not gated by
  channel permissions, on Discord as here.
* **An expired interaction token**: past its 15 minutes, Discord answers the
  interaction's webhook routes (followups, ``@original``) with 401 Invalid
  Webhook Token (code 50027); simcord answered 404 Unknown Webhook (10015),
  which stays the answer for a token Discord never issued.

simcord already follows Discord where the bot's clicks need it: a followup
may carry files and components; for a component interaction acknowledged
with a deferred update (type 6), and for a form opened by a component,
``@original`` is the message the component is on (simcord's
``Interaction.defer_update``), so ``DELETE .../messages/@original`` deletes it.

The rules are plain functions (:func:`emoji_problem`,
:func:`component_emoji_errors`) so that the process-level fake Discord in
``tests/fakediscord`` refuses exactly the same emoji.

Why patching: these replace or wrap functions of simcord's
``components``, ``http.routes.messages`` and ``http.router`` modules, which is
one more reason simcord is pinned to an exact version (see :mod:`bot.offline`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import emoji
from simcord import components as _components
from simcord.backend import errors as _errors
from simcord.backend import permissions as _permissions
from simcord.backend.ops import commands as _commands
from simcord.http.routes import messages as _messages

from bot.offline.routes import replace_route

_CUSTOM_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
_MAX_SNOWFLAKE = (1 << 64) - 1

#: What Discord says about a bad emoji (``BUTTON_COMPONENT_INVALID_EMOJI``).
INVALID_EMOJI = "Invalid emoji"


def _snowflake(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 < value <= _MAX_SNOWFLAKE
    return isinstance(value, str) and value.isdigit() and 0 < int(value) <= _MAX_SNOWFLAKE


def emoji_problem(value: Any) -> tuple[str, str] | None:
    """Why Discord would refuse ``value`` as a component's emoji: ``(field, message)``, or None.

    ``field`` is the emoji's own key at fault (``name``, ``id``, ``animated``),
    or ``""`` when the emoji is not an object at all.
    """
    if not isinstance(value, Mapping):
        return "", "Must be an object"
    name = value.get("name")
    ident = value.get("id")
    animated = value.get("animated")
    if animated is not None and not isinstance(animated, bool):
        return "animated", "Must be a boolean"
    if ident is not None:  # a custom emoji
        if not _snowflake(ident):
            return "id", "Value is not snowflake."
        if name is not None and not (isinstance(name, str) and _CUSTOM_NAME.fullmatch(name)):
            return "name", INVALID_EMOJI
        return None
    if not isinstance(name, str) or not name:
        return "name", INVALID_EMOJI
    if not emoji.is_emoji(name):
        return "name", INVALID_EMOJI
    return None


def _emojis(items: Any, path: str) -> Iterator[tuple[str, Any]]:
    """``(path, emoji)`` for every emoji in a component tree, paths as Discord writes them."""
    if not isinstance(items, list):
        return
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        here = f"{path}.{index}"
        if item.get("emoji") is not None:
            yield f"{here}.emoji", item["emoji"]
        for option_index, option in enumerate(item.get("options") or []):
            if isinstance(option, Mapping) and option.get("emoji") is not None:
                yield f"{here}.options.{option_index}.emoji", option["emoji"]
        yield from _emojis(item.get("components"), f"{here}.components")
        accessory = item.get("accessory")
        if isinstance(accessory, Mapping):
            yield from _emojis([accessory], f"{here}.accessory")


def component_emoji_errors(components: Any) -> list[tuple[str, str]]:
    """``(path, message)`` for every emoji Discord would refuse in a message's components."""
    found = []
    for path, value in _emojis(components, "components"):
        problem = emoji_problem(value)
        if problem is not None:
            key, message = problem
            found.append((f"{path}.{key}" if key else path, message))
    return found


# -- the patches ----------------------------------------------------------------------------

_simcord_validate_components: Callable[..., list[dict[str, Any]]] = (
    _components.validate_components
)
# simcord checks a post's permissions in a private function; wrapped and replaced below.
_simcord_send_permissions: Callable[..., None] = _messages._send_permissions
_simcord_edit_message: Callable[..., Any] = _messages.edit_message
_simcord_interaction_by_token: Callable[..., Any] = _commands.CommandsMixin.interaction_by_token


def invalid_webhook_token() -> _errors.BackendError:
    return _errors.BackendError(401, 50027, "Invalid Webhook Token")


def interaction_by_token(backend: Any, token: str) -> Any:
    """simcord's look-up of an interaction token, with Discord's 401 for an expired one."""
    interaction_id = backend.interaction_tokens.get(token)
    if interaction_id is not None:
        record = backend.interactions[interaction_id]
        if record.expires_at is not None and backend.now_iso() >= record.expires_at:
            raise invalid_webhook_token()
    return _simcord_interaction_by_token(backend, token)


def validate_components(components: Any, *, flags: int = 0) -> list[dict[str, Any]]:
    """simcord's validation, plus Discord's refusal of invalid emoji."""
    normalized = _simcord_validate_components(components, flags=flags)
    problems = component_emoji_errors(normalized)
    if problems:
        path, message = problems[0]
        # simcord's callers turn this into 400 Invalid Form Body (50035) with this text.
        raise _components.ComponentValidationError(f"{path}: {message}")
    return normalized


def _embeds_of(body: Mapping[str, Any]) -> list[Any]:
    embeds = body.get("embeds")
    if embeds is None and body.get("embed"):
        embeds = [body["embed"]]
    return list(embeds or [])


def _media_permissions(ctx: Any, channel_id: int) -> None:
    """Attach Files for uploads, Embed Links for embeds (as Discord checks them)."""
    channel = ctx.backend.get_channel(channel_id)
    if channel.guild_id is None:  # DMs: no permissions apply
        return
    if ctx.files:
        ctx.require_channel_permissions(channel_id, "attach_files")
    body = ctx.json if isinstance(ctx.json, dict) else None
    if body is None or not _embeds_of(body):
        return
    backend = ctx.backend
    granted = backend.compute_permissions(channel.guild_id, backend.bot_user.id, channel_id)
    if granted & _permissions.flag("embed_links"):
        return
    has_other = bool((body.get("content") or "").strip() or ctx.files or body.get("components"))
    if not has_other:
        raise _errors.missing_permissions()
    body["embeds"] = []  # Discord drops the embeds and sends the rest
    body.pop("embed", None)


def send_permissions(ctx: Any, channel_id: int) -> None:
    """simcord's Send Messages check, then Attach Files and Embed Links."""
    _simcord_send_permissions(ctx, channel_id)
    _media_permissions(ctx, channel_id)


def edit_message(ctx: Any) -> Any:
    """Editing a channel message: Attach Files for new uploads, Embed Links for embeds."""
    channel_id = ctx.int_arg("channel_id")
    ctx.require_channel_permissions(channel_id)
    _media_permissions(ctx, channel_id)
    return _simcord_edit_message(ctx)


_components.validate_components = validate_components
_messages._send_permissions = send_permissions  # simcord's private hook (pinned version)
replace_route("PATCH", _simcord_edit_message, edit_message)
_commands.CommandsMixin.interaction_by_token = interaction_by_token  # type: ignore[method-assign,assignment]

__all__ = [
    "INVALID_EMOJI",
    "component_emoji_errors",
    "edit_message",
    "emoji_problem",
    "interaction_by_token",
    "send_permissions",
    "validate_components",
]
