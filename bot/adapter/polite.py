"""Turn errors into polite, private (ephemeral) replies (the adapter's side; the
``cogs.errors`` extension installs :func:`report` as the command tree's error handler).

Domain errors carry messages written for players (``bot.storage``'s
:class:`EconomyError`, ``bot.runtime``'s :class:`TableError`, the settings'
:class:`SettingsError`). A refusal raised with a :class:`~bot.i18n.Phrase`
(``error.phrase``) is worded in the reader's language (``interaction.locale``);
one raised with a plain string is shown as it is. discord.py's own check
failures (missing permission, server-only command, cooldown, a value that
does not convert) get a sentence each, in the reader's language too. Anything
else is a bug: it is logged with its traceback and the player sees a short
apology that reveals nothing of the internals (no hole cards, no deck, no
stack trace).

Slash commands reach :func:`report` through the command tree
(:meth:`cogs.errors.ErrorHandler.on_app_command_error`). Buttons and modals do not
go through the tree: views and modals should derive from :class:`PoliteView` /
:class:`PoliteModal` (or call :func:`report` from their ``on_error``).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.cooldowns import TooSoon
from bot.adapter.limits import fit_text
from bot.i18n import Wording, translate
from bot.runtime.errors import TableError
from bot.settings import SettingsError
from bot.storage.errors import EconomyError, StorageUnavailable

log = logging.getLogger("bot.adapter.polite")

#: Discord's "Interaction has already been acknowledged."
ALREADY_ACKNOWLEDGED = 40060


async def defer_once(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """``interaction.response.defer(**kwargs)``, and Discord's "already acknowledged"
    taken as done: Discord carried out a first deferral and answered 5xx all the same
    (its bad minutes), and discord.py sent it again. The interaction is acknowledged;
    refusing the click for it would lose a player's action. From then on it is answered
    as deferred (:func:`_deferred_already`): its answer edits the "thinking…" or follows
    up, never a second response that Discord would refuse again."""
    try:
        await interaction.response.defer(**kwargs)
    except discord.HTTPException as exc:
        if exc.code != ALREADY_ACKNOWLEDGED:
            raise
        log.info("interaction %s was acknowledged already (a 5xx Discord carried out)",
                 interaction.id)
        _deferred_already(interaction, thinking=bool(kwargs.get("thinking")))


def _deferred_already(interaction: discord.Interaction[Any], *, thinking: bool) -> None:
    """Tell discord.py that ``interaction`` was deferred as ``defer(thinking=...)`` asks
    (the type it would have recorded), Discord having carried it out.

    discord.py records a response only when its request succeeds
    (``InteractionResponse._response_type``, read by ``is_done()`` and ``type``) and has
    no public way to record one made otherwise; this is the one place that writes it."""
    kind = interaction.type
    if kind is discord.InteractionType.application_command or thinking:
        deferred = discord.InteractionResponseType.deferred_channel_message
    else:  # a component or a modal: an update of its message
        deferred = discord.InteractionResponseType.deferred_message_update
    interaction.response._response_type = deferred  # discord.py's own field, see above


#: ``interaction.extras`` key: the interaction was deferred in public (:func:`acknowledge`).
PUBLIC_DEFER = "omaha_public_defer"

#: What a public "thinking…" shows for the moment between an error and its deletion.
PLACEHOLDER = "…"

#: Shown for an unexpected error: short, apologetic, no internals (``error.unexpected``).
UNEXPECTED = "Sorry, something went wrong on my side. The error was logged; please try again."

#: Discord's permission names as its client shows them, per language (``permission.*``).
PERMISSION_NAMES = ("manage_guild", "administrator", "manage_channels", "manage_messages")

#: Errors whose ``str()`` (or ``phrase``) is already a message for the player; a database
#: that cannot be written now is one (``error.cannot_write``: logged once, by storage).
DOMAIN_ERRORS: tuple[type[Exception], ...] = (
    EconomyError, TableError, SettingsError, TooSoon, StorageUnavailable)


def unwrap(error: BaseException) -> BaseException:
    """The original exception behind discord.py's wrappers."""
    while isinstance(error, app_commands.CommandInvokeError | commands.CommandInvokeError):
        error = error.original
    return error


def _permissions(names: list[str], locale: object) -> str:
    shown = [translate(locale, f"permission.{p}") if p in PERMISSION_NAMES
             else p.replace("_", " ").title() for p in names]
    if len(shown) == 1:
        return shown[0]
    return translate(locale, "list.and", first=", ".join(shown[:-1]), last=shown[-1])


def _domain(error: Exception, locale: object) -> str:
    phrase = getattr(error, "phrase", None)
    text = phrase.to(locale) if isinstance(phrase, Wording) else str(error).strip()
    return text or translate(locale, "error.not_now")


def describe(error: BaseException, locale: object = None) -> str | None:
    """The player-facing message for ``error`` in ``locale``, or None when it is a bug."""
    error = unwrap(error)
    if isinstance(error, DOMAIN_ERRORS):
        return _domain(error, locale)
    if isinstance(error, app_commands.MissingPermissions):
        return translate(locale, "error.you_need",
                         permissions=_permissions(error.missing_permissions, locale))
    if isinstance(error, app_commands.BotMissingPermissions):
        return translate(locale, "error.i_need",
                         permissions=_permissions(error.missing_permissions, locale))
    if isinstance(error, app_commands.NoPrivateMessage):
        return translate(locale, "error.server_only")
    if isinstance(error, app_commands.CommandOnCooldown):
        return translate(locale, "error.cooldown", seconds=round(error.retry_after))
    if isinstance(error, app_commands.TransformerError):
        return translate(locale, "error.bad_value", value=repr(error.value))
    if isinstance(error, app_commands.CommandNotFound):
        return translate(locale, "error.unknown_command")
    if isinstance(error, app_commands.CheckFailure):
        return translate(locale, "error.check_failed")
    return None


async def acknowledge(interaction: discord.Interaction[Any], *, private: bool = True) -> None:
    """Acknowledge now, answer when the work is done (DESIGN: "Acknowledge first").

    Discord drops an interaction not answered within 3 seconds, and storage or a
    table's lock can be slow (a busy database, a hand being settled): the deferral
    ("thinking…", only to the user when ``private``) goes out before any of it,
    and :func:`bot.adapter.actions.reply_private`, :func:`announce` or
    ``edit_original_response`` replaces it.

    The visibility is chosen here, once: Discord keeps it for the deferred message
    and for the first followup after it (which edits it). So defer in public only
    when every refusal has been checked before (the checks that need no wait) and
    the answer is public; when a refusal can come after the wait, defer privately
    and post the public outcome with :func:`announce`."""
    if not interaction.response.is_done():
        await defer_once(interaction, ephemeral=private, thinking=True)
        if not private:
            interaction.extras[PUBLIC_DEFER] = True


async def announce(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """The public outcome of an interaction deferred privately (:func:`acknowledge`).

    The first followup after a deferral only edits the "thinking…" and keeps its
    visibility (Discord's "Create Followup Message"; :mod:`bot.offline`), so the
    private "thinking…" is edited first (the player sees the outcome even if the
    rest fails), the outcome then goes to the channel as a public followup (a new
    message: the interaction routes, outside the global rate limit), and the
    private copy is deleted. ``kwargs`` (``allowed_mentions``) go to both."""
    await interaction.edit_original_response(content=text, **kwargs)
    await interaction.followup.send(text, **kwargs)
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()


async def _after_public_defer(interaction: discord.Interaction[Any], text: str) -> None:
    """An error after a public "thinking…" (a race, a bug: every refusal a player can
    cause is checked before a public deferral). A followup would only edit the public
    message, so the "thinking…" is completed first, the error then goes to the player
    alone as a new ephemeral followup, and the public message is deleted."""
    await interaction.edit_original_response(content=PLACEHOLDER)
    await interaction.followup.send(text, ephemeral=True)
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()


async def send_private(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer ``interaction`` ephemerally, whether or not it was answered already.

    After a private deferral the "thinking…" becomes the text; after a public one
    (:func:`acknowledge` with ``private=False``) see :func:`_after_public_defer`:
    an error is never left in a public answer's place."""
    text = fit_text(text)
    deferred = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
    try:
        if deferred and interaction.extras.get(PUBLIC_DEFER):
            await _after_public_defer(interaction, text)
        elif deferred:
            await interaction.edit_original_response(content=text)  # the private "thinking…"
        elif interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not deliver an error message to %s", interaction.user.id)


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the player what went wrong; log bugs with their traceback.

    An interaction cut short because the bot is shutting down (its HTTP session
    closed under it) is neither a bug nor answerable: one line, no traceback. Nor is
    one Discord failed with 5xx past discord.py's retries (its bad minutes): one
    warning line, and the player is told something went wrong (if Discord lets us).
    """
    if getattr(interaction.client, "shutting_down", False):
        log.info("An interaction was cut short by the shutdown (%s: %s)",
                 type(unwrap(error)).__name__, unwrap(error))
        return
    failed = unwrap(error)
    if isinstance(failed, discord.HTTPException) and failed.status >= 500:
        log.warning("Discord answered %s to a request for an interaction of user %s",
                    failed.status, interaction.user.id)
        await send_private(interaction, translate(interaction.locale, "error.unexpected"))
        return
    text = describe(error, interaction.locale)
    if text is None:
        original = unwrap(error)
        data: dict[str, Any] = dict(interaction.data or {})
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "Unexpected error in %s (user %s, channel %s)",
            command or data.get("custom_id", "an interaction"),
            interaction.user.id, interaction.channel_id,
            exc_info=(type(original), original, original.__traceback__),
        )
        text = translate(interaction.locale, "error.unexpected")
    await send_private(interaction, text)


class PoliteView(discord.ui.View):
    """A view whose callback errors are answered like slash-command errors."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await report(interaction, error)


class PoliteModal(discord.ui.Modal):
    """A modal whose submit errors are answered like slash-command errors."""

    async def on_error(  # type: ignore[override]  # discord.py's Modal narrows BaseView's
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await report(interaction, error)
