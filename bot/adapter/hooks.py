"""A player's click carries the table's next live message through the interaction routes.

Discord's global rate limit (50 requests per second per bot) caps play when
every action costs two channel requests (post the next turn, delete the old
one). The interaction endpoints do not count against it. Discord's "Rate
Limits" page: "Interaction endpoints are not bound to the bot's Global Rate
Limit."; its "Receiving and Responding" page, above the callback, followup and
original-response routes: "The endpoints below are not bound to the
application's Global Rate Limit.", and "Interaction tokens are valid for **15
minutes**, meaning you can respond to an interaction within that amount of
time." (discord/discord-api-docs, docs/topics/rate-limits and
docs/interactions/receiving-and-responding).

So when a player acts by a button or the raise form (a component or
modal-submit interaction, acknowledged with a deferred update, type 6), the
table's channel (:class:`bot.adapter.channel.TableChannel`) is handed the
interaction as a :class:`Hook`:

* the next live message is posted as the interaction's followup
  (``POST /webhooks/{app}/{token}``, with the picture, the buttons and the
  mention of the next player, who is notified as by a channel post);
* the live message the button was on is that interaction's ``@original``
  (``DEFERRED_UPDATE_MESSAGE``: "For components, ACK an interaction and edit
  the original message later"; a modal opened by a component carries that
  component's message too), so it is deleted with ``DELETE
  .../messages/@original`` and edited (the result, a run-out street) with
  ``PATCH .../messages/@original``;
* a live message posted as a followup is edited through ``PATCH
  .../messages/{id}`` of the token that posted it while that token is valid.
  A followup is a message of the bot's application in the channel, so the
  channel routes reach it too: they are the fallback.

A token is used only while it is valid, with a margin (:data:`TOKEN_MARGIN`),
and only for the message it belongs to; a request it gets refused (401 code
50027 Invalid Webhook Token, 404 code 10015 Unknown Webhook) is sent again by
the channel routes, and so is one Discord asks to wait for longer than
:data:`LONG_WAIT` (a 429: the turn prompt goes at once by the channel, within
the pacer's budget, rather than seconds late; :func:`watch_token_waits`). The
click that ended a hand (its token edited the result) also carries the next
hand's first message.

**Slash-command actions** (``/check``, ``/call``, ...) carry the next live
message the same way. The command is acknowledged with a private deferred
response (type 5, "thinking"), which its private confirmation then edits; the
next live message is a public followup of the command. Discord's "Create
Followup Message": "When using this endpoint directly after responding to an
interaction with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will
function as Edit Original Interaction Response for backwards compatibility.
In this case, no new message will be created, and the loading message will be
edited instead. The ephemeral flag will be ignored". So the followup waits for
the confirmation (:meth:`Hook.ready`): a command's hook is *confirmed* once its
original was edited, and a followup is sent only then (else, after
:data:`CONFIRM_WAIT`, or when the confirmation failed, the channel routes are
used). A command is on no message: its hook is bound to the live message shown
when it acted (the one the next live message replaces); that message is
deleted through the token that posted it (``DELETE .../messages/{id}`` of an
earlier click or command), never through the command's ``@original``, which
is its private confirmation. The clock's timeouts, refreshes and notices use
the channel routes.

**A followup answered 5xx** may have been posted all the same (Discord can carry a
request out and lose the answer), and a followup takes no nonce (unlike a channel
message: :mod:`bot.adapter.nonces`). So discord.py does not send any followup again
after a 5xx (:class:`UnknownEffect` is raised at once by the trace: a private reply
answered 5xx is shown once or not at all, never twice), and :func:`post_followup`, for
the table's public messages, looks at the channel's last :data:`LOOK_BACK` messages for
this interaction's followup with this content, and takes it if Discord posted it; only
when it is not there is the 5xx raised, and the channel sends the message again by its
own route.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

#: Discord: "Interaction tokens are valid for 15 minutes".
TOKEN_LIFETIME = 15 * 60.0
#: The token is not used in its last minute (the interaction was created a
#: little before the bot saw it, and a slow request must not arrive late).
TOKEN_MARGIN = 60.0
#: What Discord answers for a token it no longer takes (expired, or unknown).
INVALID_TOKEN_CODES = frozenset({50027, 10015})
#: A request through a token that Discord asks to wait longer than this (seconds,
#: a 429's ``X-RateLimit-Reset-After``) goes by the channel routes instead. Two
#: seconds: a token's bucket commonly resets within 2 s (5 requests per 2 s), which
#: is worth waiting for; a longer wait would make the turn prompt late by more than
#: the channel routes cost within the pacer's budget.
LONG_WAIT = 2.0
#: Seconds a command's followup waits for the command's private confirmation (then
#: the next live message goes by the channel routes).
CONFIRM_WAIT = 2.0
#: The same for a notice carried by a join's token: the channel routes would make it
#: wait longer than this when many tables open at once (issue 33), and hold up the
#: table's first hand behind it.
NOTICE_CONFIRM_WAIT = 10.0

#: The channel's last messages looked at for a followup answered 5xx, and how many times.
LOOK_BACK = 10
LOOKUPS = 3
#: Create Followup Message (``POST /webhooks/{application}/{token}``).
FOLLOWUP = re.compile(r"/webhooks/\d+/[^/]+$")

log = logging.getLogger(__name__)

#: Set while the channel sends a request through a token: a long 429 then raises
#: :class:`TokenWait` instead of discord.py's sleeping through it.
_FALL_BACK = contextvars.ContextVar("omaha_token_fall_back", default=False)


def now() -> float:
    return asyncio.get_running_loop().time()


@dataclass(frozen=True)
class Hook:
    """An acknowledged click, form submit or slash-command action: its token, the live
    message it acted on (0: a command not bound yet), until when, and for a command
    whether its private confirmation is in place (:meth:`ready`)."""

    interaction: discord.Interaction[Any]
    message_id: int
    until: float
    #: A command's: resolved True once its deferred original was edited (False: never).
    confirmed: asyncio.Future[bool] | None = None

    @classmethod
    def of(cls, interaction: discord.Interaction[Any]) -> Hook | None:
        """The hook of a component or modal-submit interaction on a message, or of a
        slash command (else None). A click on a private (ephemeral) message, such as
        the question before a fold (:mod:`bot.adapter.fold_question`) or a player's seat
        panel (:mod:`bot.adapter.seat_panel`), is on no live message: it is bound like a
        command, and confirmed once that message is edited (a panel's at once: it was
        acknowledged as its update, so a followup is a message of its own)."""
        until = now() + TOKEN_LIFETIME - TOKEN_MARGIN
        kinds = (discord.InteractionType.component, discord.InteractionType.modal_submit)
        private = interaction.message is not None and interaction.message.flags.ephemeral
        if interaction.type is discord.InteractionType.application_command or (
                interaction.type in kinds and private):
            return cls(interaction, 0, until, asyncio.get_running_loop().create_future())
        if interaction.type not in kinds or interaction.message is None:
            return None
        return cls(interaction, interaction.message.id, until)

    @property
    def by_command(self) -> bool:
        return self.confirmed is not None

    def on(self, message_id: int) -> Hook:
        """This command's hook, bound to the live message it acted on."""
        return dataclasses.replace(self, message_id=message_id)

    def valid(self) -> bool:
        return now() < self.until

    def confirm(self, done: bool) -> None:
        """The command's private confirmation was edited in (or failed: ``done`` False)."""
        if self.confirmed is not None and not self.confirmed.done():
            self.confirmed.set_result(done)

    def refused(self) -> bool:
        """A command whose answer failed, or that was refused: it carries nothing."""
        done = self.confirmed
        return done is not None and done.done() and not done.result()

    def settled(self) -> bool:
        """A followup may be sent now, without waiting (:meth:`ready` says True at once)."""
        done = self.confirmed
        return done is None or (done.done() and done.result())

    async def ready(self, within: float = CONFIRM_WAIT) -> bool:
        """Whether a followup may be sent now: at once for a click; for a command once
        its deferred original was edited (the first followup would edit it otherwise),
        waiting ``within`` seconds for it."""
        if self.confirmed is None:
            return True
        try:
            return await asyncio.wait_for(asyncio.shield(self.confirmed), within)
        except TimeoutError:
            return False


@contextlib.contextmanager
def confirming(hook: Hook | None) -> Iterator[None]:
    """A command's answer is edited into its deferred original within the block: its hook
    is confirmed at the end (not when the block raises: the command was refused)."""
    try:
        yield
    except BaseException:
        if hook is not None:
            hook.confirm(False)
        raise
    if hook is not None:
        hook.confirm(True)


class TokenWait(Exception):
    """Discord asked a request through an interaction token to wait too long (429)."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limited for {retry_after:.1f} s")
        self.retry_after = retry_after


class UnknownEffect(discord.DiscordServerError):
    """A followup answered 5xx: Discord may have posted it; it is not sent again blindly."""


async def falling_back(request: Any) -> Any:
    """Await ``request`` (through a token); a 429 asking for more than :data:`LONG_WAIT`
    raises :class:`TokenWait` at once, before anything is sent again."""
    mark = _FALL_BACK.set(True)
    try:
        return await request
    finally:
        _FALL_BACK.reset(mark)


def retry_after(response: aiohttp.ClientResponse) -> float:
    """A 429's wait in seconds, from Discord's headers (0 when it gives none)."""
    for header in ("X-RateLimit-Reset-After", "Retry-After"):
        value = response.headers.get(header)
        if value:
            try:
                return float(value)
            except ValueError:
                continue
    return 0.0


async def on_request_end(
    session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
) -> None:
    """aiohttp's trace signal, in the task that sent the request: a long 429 through a
    token the channel is using raises :class:`TokenWait` (discord.py would sleep); any
    followup answered 5xx raises :class:`UnknownEffect` (discord.py would send it again)."""
    response = params.response
    if response.status >= 500 and params.method == "POST" and FOLLOWUP.search(params.url.path):
        raise UnknownEffect(response, f"a followup answered {response.status}")
    if response.status != 429 or not _FALL_BACK.get():
        return
    wait = retry_after(response)
    if wait > LONG_WAIT:
        response.close()
        raise TokenWait(wait)


def watch_token_waits(http: discord.http.HTTPClient) -> None:
    """Install :func:`on_request_end` on ``http``'s session (before it logs in: discord.py
    builds the session then; the followups of interactions use that session too)."""
    trace = http.http_trace or aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    http.http_trace = trace


async def post_followup(
    hook: Hook, channel: discord.abc.Messageable, content: str, **kwargs: Any
) -> discord.Message:
    """``hook``'s followup with ``content``; after a 5xx, the one Discord posted anyway if
    it did (found in ``channel``), else the 5xx is raised (see the module docstring)."""
    try:
        return await hook.interaction.followup.send(content, wait=True, **kwargs)
    except UnknownEffect:
        found = await posted_anyway(channel, hook.interaction.id, content)
        if found is None:
            raise
        log.info("a followup answered 5xx was posted all the same: not posted again")
        return found


async def posted_anyway(
    channel: discord.abc.Messageable, interaction_id: int, content: str
) -> discord.Message | None:
    """The followup of ``interaction_id`` with ``content`` among ``channel``'s last
    messages (None: not there, or Discord would not say)."""
    mark = _FALL_BACK.set(False)  # the channel's own route, waited for as it says
    try:
        for attempt in range(LOOKUPS):
            try:
                async for message in channel.history(limit=LOOK_BACK):
                    meta = message.interaction_metadata
                    if meta is not None and meta.id == interaction_id \
                            and message.content == content:
                        return message
                return None
            except discord.HTTPException as exc:
                if exc.status < 500:
                    return None
                await asyncio.sleep(1 + attempt)
        return None
    finally:
        _FALL_BACK.reset(mark)


def refused_token(exc: discord.HTTPException) -> bool:
    """Discord no longer takes the interaction's token (expired or unknown)."""
    return exc.status == 401 or exc.code in INVALID_TOKEN_CODES


def throttled(exc: discord.HTTPException) -> bool:
    """A 429 discord.py did not wait through (no ``Via`` header, or the offline Discord)."""
    return exc.status == 429


__all__ = [
    "CONFIRM_WAIT", "INVALID_TOKEN_CODES", "LONG_WAIT", "LOOKUPS", "LOOK_BACK",
    "NOTICE_CONFIRM_WAIT", "TOKEN_LIFETIME", "TOKEN_MARGIN", "Hook", "TokenWait",
    "UnknownEffect", "confirming", "falling_back", "on_request_end", "post_followup",
    "posted_anyway", "refused_token", "retry_after", "throttled", "watch_token_waits",
]
