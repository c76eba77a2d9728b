"""A small fake Discord on 127.0.0.1: REST and gateway websocket (aiohttp).

Enough of Discord's API v10 for ``python -m bot`` to run unchanged against it
(``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` point at it): log in, READY
and GUILD_CREATE, application command sync, INTERACTION_CREATE and every way
of answering one (callback with ``with_response``, followups, editing the
original, modals), channel messages with attachments (multipart), edits,
DMs, and DMs refused with Discord's error 50007.

Like Discord it refuses what breaks its limits (:mod:`tests.fakediscord.limits`:
content, embeds, components, invalid emoji, modals, a command tree with an invalid
name or localization (:mod:`bot.offline.commands`); 400 code 50035 with the
``errors`` tree) and what the bot's channel permissions do not allow
(``fd.deny_bot(channel, ATTACH_FILES)``: 403 code 50013, or 50001 without
View Channel; ``app_permissions`` in interactions follow). A deleted channel
(``await fd.delete_channel(channel)``, its threads with it) answers every
request with 404 Unknown Channel (10003); after ``await fd.remove_bot(guild)``
(the bot kicked) its channels there answer 403 Missing Access (50001). The
bot hears CHANNEL_DELETE, THREAD_DELETE or GUILD_DELETE as on Discord. ``fd.delay(method,
pattern, seconds)`` adds latency to matching REST routes; every interaction
records the REST requests the bot made before answering it
(``it.requests_before_answer``) and how long the answer took (``it.answer_time``).

The test side drives it like users would::

    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        alice = fd.add_member(guild, "alice")
        ... start the bot with fd.bot_environment(database_path) ...
        await fd.wait_until_ready()                 # identified, commands synced
        it = await fd.slash(alice, poker, "balance")
        reply = await it.reply()                    # the first message it answered with
        it2 = await fd.click(alice, some_message, label="Fold")
        dm = await fd.wait_for_message(lambda m: m.channel_id == fd.dm_channel(alice).id)

Discord's rate limits are enforced (per-route buckets with their headers, the
global 50 per second, 429 bodies and the `Via` header: :mod:`tests.fakediscord.ratelimits`;
``FakeDiscord(rate_limits=False)`` turns them off; ``fd.rate_limited`` lists every 429).
Like Discord it counts invalid requests (every answer 401, 403 or 429, but a 429 of
scope ``shared``; past 10,000 in 10 minutes Discord bans the bot for a while):
``fd.invalid`` lists them. ``fd.weather.storm(seconds, ...)`` answers a share of the
requests 5xx (a 502 after carrying the request out) and opens global 429 windows for a
while (:mod:`tests.fakediscord.faults`); Create Message honours ``nonce`` with
``enforce_nonce`` as Discord does (the message already posted with that nonce).

The interaction webhook routes (followups, ``@original``: for a component
interaction, or a form opened by one, acknowledged with an update, it is the
message the component is on) refuse a token as Discord does: unknown, 404
Unknown Webhook (10015); older than 15 minutes (``it.expire()`` makes it so),
401 Invalid Webhook Token (50027).

The first followup after a deferred "thinking…" (callback type 5) edits it and keeps
its visibility, as Discord's "Create Followup Message" documents: "When using this
endpoint directly after responding to an interaction with
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function as Edit Original
Interaction Response ... no new message will be created, and the loading message will
be edited instead. The ephemeral flag will be ignored, and the value you provided in
the initial defer response will be preserved" (discord/discord-api-docs,
docs/interactions/receiving-and-responding). A "thinking…" deleted before it was
edited leaves that followup nothing to edit: 404 Unknown Message (10008).

Routes the bot calls that are not implemented answer 404 and are listed in
``fd.unhandled`` (a test should assert it stays empty).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.offline.commands import command_problems
from bot.sharding import shard_of
from tests.discord_spec.contract import Request, assert_within_contract

from .bodies import payload
from .events import MANAGE_EVENTS, create_event, delete_event, edit_event, get_event
from .faults import Weather
from .gateway import Gateway, Identity, NotConnected, Session, serves
from .limits import Problem, error_tree, message_problems, modal_problems
from .payloads import (
    ATTACH_FILES,
    BOT_PERMISSIONS,
    EMBED_LINKS,
    EPHEMERAL,
    EVERYONE,
    LOADING,
    MANAGE_GUILD,
    READ_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Message,
    Role,
    User,
    channel_payload,
    guild_payload,
    member_payload,
    message_payload,
    now_iso,
    snowflake,
    user_payload,
)
from .ratelimits import RateLimiter
from .threads import create_thread, edit_thread, thread_refusal

log = logging.getLogger("fakediscord")

JSON = {"Content-Type": "application/json"}  # exactly: discord.py compares the header
#: The answers Discord counts as invalid requests (``fd.invalid`` lists them).
INVALID_STATUSES = frozenset({401, 403, 429})
#: "Interaction tokens are valid for 15 minutes" (Discord, Receiving and Responding).
TOKEN_LIFETIME = 15 * 60.0
#: Discord's upload limit in a server without boosts (10 MiB since 2024).
UPLOAD_LIMIT = 10 * 1024 * 1024


class FakeDiscordError(AssertionError):
    """The test asked the fake Discord for something impossible."""


@dataclass
class Interaction:
    """One interaction sent to the bot and everything the bot answered."""

    fd: FakeDiscord
    id: int
    token: str
    type: int
    user: User
    channel: Channel
    payload: dict[str, Any]
    source_message: Message | None = None
    callback_type: int | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    #: Index into ``fd.requests`` when the interaction was sent to the bot.
    request_index: int = 0
    #: REST requests (method, path) the bot made after receiving it and before answering it.
    requests_before_answer: list[tuple[str, str]] = field(default_factory=list)
    dispatched_at: float = 0.0
    answered_at: float | None = None
    #: Loop time after which Discord refuses the token (401, code 50027); see :meth:`expire`.
    expires_at: float = float("inf")

    def expire(self) -> None:
        """The token's 15 minutes are over: its webhook routes answer 401 Invalid Webhook Token."""
        self.expires_at = asyncio.get_running_loop().time()

    @property
    def answer_time(self) -> float | None:
        """Seconds from sending the interaction to the bot's callback arriving."""
        return None if self.answered_at is None else self.answered_at - self.dispatched_at

    @property
    def messages(self) -> list[Message]:
        """The original response (if any) then the followups."""
        return ([self.original] if self.original else []) + self.followups

    async def answer(self, within: float = 10.0) -> Interaction:
        """Wait for the bot's callback (Discord allows it 3 seconds; tests wait longer)."""
        try:
            await asyncio.wait_for(self.answered.wait(), within)
        except TimeoutError:
            raise FakeDiscordError(
                f"the bot did not answer interaction {self.id} within {within} s"
            ) from None
        return self

    async def reply(self, within: float = 10.0) -> Message:
        """The first message of the answer with content, embeds or files (after deferrals)."""

        def ready() -> Message | None:
            for m in self.messages:  # a deleted one is no answer (a private copy of a public one)
                if m.deleted:
                    continue
                if not (m.flags & LOADING) and (m.content or m.embeds or m.attachments):
                    return m
            return None

        await self.answer(within)
        return await self.fd.wait_until(ready, within, what=f"a reply to interaction {self.id}")


def _split_command(name: str) -> list[str]:
    return name.split()


class FakeDiscord:
    """The fake Discord server. ``await start()`` / ``await stop()``, or ``async with``."""

    def __init__(
        self, *, token: str = "fake-bot-token", host: str = "127.0.0.1", rate_limits: bool = True,
        contract: bool = True,
    ) -> None:
        self.token = token
        #: Check every request against Discord's API specification when the fake stops
        #: (``async with``); False only where the test itself sends what Discord refuses.
        self.contract = contract
        #: Discord's rate limits (:mod:`tests.fakediscord.ratelimits`); None: unlimited.
        self.limiter: RateLimiter | None = RateLimiter() if rate_limits else None
        #: (method, path, scope) of every request refused with 429.
        self.rate_limited: list[tuple[str, str, str]] = []
        self.host = host
        self.port = 0
        self.application_id = snowflake()
        #: The largest attachment the bot may upload (Discord's 10 MiB in a server without
        #: boosts), sent with every interaction as ``attachment_size_limit``; a larger
        #: file is refused with 413 Request Entity Too Large (40005), as Discord does.
        self.upload_limit = UPLOAD_LIMIT
        self.bot_user = User(self.application_id, "Omaha Dealer", bot=True)
        self.owner = User(snowflake(), "server-owner")
        self.users: dict[int, User] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self._tokens: dict[str, Interaction] = {}  # a long run has many: no scan
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.requests: list[tuple[str, str]] = []
        #: Every REST request with its query and body, checked against Discord's API
        #: specification when the fake stops (:mod:`tests.discord_spec.contract`).
        self.seen: list[Request] = []
        #: (status, method, path) of every request Discord counts as invalid (401, 403, 429:
        #: past 10,000 in 10 minutes it bans the bot for a while).
        self.invalid: list[tuple[int, str, str]] = []
        self.invalid_times: list[float] = []  # when each was answered (loop time)
        self.unhandled: list[str] = []
        #: Permission bits taken from the bot per channel (threads follow their parent).
        self.bot_denied: dict[int, int] = {}
        #: Guild Scheduled Events by id (their payloads: :mod:`.events`).
        self.scheduled_events: dict[int, dict[str, Any]] = {}
        #: Guilds the bot was removed from (kicked): their channels refuse it.
        self.removed_from: set[int] = set()
        #: (method, path pattern, seconds): latency added to matching REST requests.
        self.delays: list[tuple[str, str, float]] = []
        #: 5xx and global 429 storms, and Create Message's nonces (:mod:`.faults`).
        self.weather = Weather(lambda: asyncio.get_running_loop().time())
        self.identified = asyncio.Event()
        self.commands_synced = asyncio.Event()
        self.gateway = Gateway(
            token, Identity(self._ready, self._guild_creates, self._identified), 41_250
        )
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None

    # -- lifecycle ---------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
        if self.contract and exc[0] is None:  # a failing test's own error comes first
            assert_within_contract(self.seen)

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    def bot_environment(self, database_path: str, **extra: str) -> dict[str, str]:
        """Environment variables that point ``python -m bot`` at this fake."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DATABASE_PATH": database_path,
            "LOG_LEVEL": "INFO",
            **extra,
        }

    # -- building the world ----------------------------------------------------------
    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> Guild:
        """A server; ``shard=(shard_id, shard_count)`` gives it an id that shard serves."""
        guild_id = snowflake()
        if shard is not None:
            wanted, count = shard
            guild_id += ((wanted - shard_of(guild_id, count)) % count) << 22
        guild = Guild(guild_id, name, owner_id=self.owner.id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", EVERYONE)
        guild.members[self.owner.id] = []
        guild.members[self.bot_user.id] = []
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(snowflake(), name, 0, guild.id)
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, parent: Channel, name: str) -> Channel:
        """A public thread in ``parent`` (tables may live in threads too)."""
        assert parent.guild_id is not None
        thread = Channel(snowflake(), name, 11, parent.guild_id, parent_id=parent.id)
        self.guilds[parent.guild_id].channels[thread.id] = thread
        self.channels[thread.id] = thread
        return thread

    def add_member(self, guild: Guild, name: str, *, manager: bool = False) -> User:
        """A new user who is a member of ``guild`` (with Manage Server when ``manager``)."""
        user = User(snowflake(), name)
        self.users[user.id] = user
        roles: list[int] = []
        if manager:
            role = next((r for r in guild.roles.values() if r.name == "Managers"), None)
            if role is None:
                role = Role(snowflake(), "Managers", EVERYONE | MANAGE_GUILD, position=1)
                guild.roles[role.id] = role
            roles.append(role.id)
        guild.members[user.id] = roles
        return user

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive ``thread`` (a week without messages), or lock it (a moderator)."""
        if locked:
            thread.locked = True
        else:
            thread.archived = True

    def deny_bot(self, channel: Channel, *bits: int) -> None:
        """Take permission bits (``ATTACH_FILES``...) from the bot in ``channel``."""
        for bit in bits:
            self.bot_denied[channel.id] = self.bot_denied.get(channel.id, 0) | bit

    async def delete_channel(self, channel: Channel) -> None:
        """Delete a channel or a thread (a channel's threads go with it), as a member with
        Manage Channels would; the connected bot hears CHANNEL_DELETE or THREAD_DELETE."""
        gone = [channel, *(c for c in self.channels.values() if c.parent_id == channel.id)]
        for c in gone:
            self.channels.pop(c.id, None)
            if c.guild_id is not None:
                self.guilds[c.guild_id].channels.pop(c.id, None)
        if not self.gateway.connected:
            return
        if channel.parent_id is not None:
            await self.dispatch("THREAD_DELETE", {
                "id": str(channel.id), "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id), "type": channel.type,
            })
        else:
            await self.dispatch("CHANNEL_DELETE", channel_payload(channel, self.users))

    async def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked from ``guild``: GUILD_DELETE, then its channels refuse it."""
        self.removed_from.add(guild.id)
        if self.gateway.connected:
            await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})

    def grant_manage_events(self, guild: Guild) -> None:
        """Give the bot a role with Manage Events in ``guild`` (before the bot starts)."""
        role = Role(snowflake(), "Events", MANAGE_EVENTS, position=1)
        guild.roles[role.id] = role
        guild.members[self.bot_user.id] = [*guild.members.get(self.bot_user.id, []), role.id]

    def bot_permissions(self, channel: Channel) -> int:
        """The bot's permissions in ``channel`` (a thread's are its parent channel's): the
        channel's, with what its roles in the server add (Manage Events)."""
        if channel.guild_id is None or channel.guild_id in self.removed_from:
            return 0
        source = channel.parent_id if channel.parent_id is not None else channel.id
        guild = self.guilds.get(channel.guild_id)
        extra = 0 if guild is None else guild.permissions(self.bot_user.id) & MANAGE_EVENTS
        return (BOT_PERMISSIONS | extra) & ~self.bot_denied.get(source, 0)

    def delay(self, method: str, pattern: str, seconds: float) -> None:
        """Answer REST requests matching ``method`` and the path regex ``pattern`` late."""
        self.delays.append((method, pattern, seconds))

    def close_dms(self, user: User) -> None:
        """The user refuses DMs: sending them one fails with 403 / 50007."""
        user.dms_closed = True

    def dm_channel(self, user: User) -> Channel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient_id == user.id:
                return channel
        channel = Channel(snowflake(), None, 1, None, recipient_id=user.id)
        self.channels[channel.id] = channel
        return channel

    # -- reading what the bot did ----------------------------------------------------
    def channel_messages(self, channel: Channel, *, ephemeral: bool = False) -> list[Message]:
        """Messages in ``channel``, oldest first (ephemeral ones only when asked)."""
        return [
            m for m in self.messages.values()
            if m.channel_id == channel.id and not m.deleted and (ephemeral or not m.ephemeral)
        ]

    def last_message(self, channel: Channel) -> Message | None:
        """The newest public message in ``channel``."""
        found = self.channel_messages(channel)
        return found[-1] if found else None

    def dms(self, user: User) -> list[Message]:
        """The bot's DMs to ``user``, oldest first."""
        return self.channel_messages(self.dm_channel(user))

    async def wait_until(
        self, check: Callable[[], Any], within: float = 10.0, *, what: str = "a condition"
    ) -> Any:
        """Wait until ``check()`` returns something truthy (re-checked on every change)."""

        async def loop() -> Any:
            async with self._changed:
                while True:
                    value = check()
                    if value:
                        return value
                    await self._changed.wait()

        try:
            return await asyncio.wait_for(loop(), within)
        except TimeoutError:
            raise FakeDiscordError(f"timed out after {within} s waiting for {what}") from None

    async def wait_for_message(
        self, check: Callable[[Message], bool], within: float = 10.0
    ) -> Message:
        """The first (oldest) message satisfying ``check``, waiting for it if needed."""

        def find() -> Message | None:
            return next((m for m in self.messages.values() if check(m)), None)

        return await self.wait_until(find, within, what="a matching message")

    async def wait_until_ready(self, within: float = 30.0) -> None:
        """Wait until the bot has identified on the gateway and synced its commands."""
        await self.wait_until(
            lambda: self.identified.is_set() and self.commands_synced.is_set(), within,
            what="the bot to log in and sync its commands",
        )

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # -- acting as users ---------------------------------------------------------------
    def _commands_for(self, guild_id: int | None) -> list[dict[str, Any]]:
        found = list(self.guild_commands.get(guild_id, [])) if guild_id else []
        return found + self.global_commands

    def _base_interaction(
        self, type_: int, user: User, channel: Channel, data: dict[str, Any]
    ) -> tuple[Interaction, dict[str, Any]]:
        interaction_id = snowflake()
        token = f"itoken{interaction_id}"
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel_payload(channel, self.users),
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild_id or 0)},
            "context": 0 if channel.guild_id else 1,
            "attachment_size_limit": self.upload_limit,
            "app_permissions": str(self.bot_permissions(channel)),
        }
        if channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            if user.id not in guild.members:
                raise FakeDiscordError(f"{user.name} is not a member of {guild.name}")
            member = member_payload(guild, user)
            member["permissions"] = str(guild.permissions(user.id))
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = "en-US"
            payload["member"] = member
        else:
            payload["user"] = user_payload(user)
        now = asyncio.get_running_loop().time()
        interaction = Interaction(
            self, interaction_id, token, type_, user, channel, payload,
            request_index=len(self.requests), dispatched_at=now,
            expires_at=now + TOKEN_LIFETIME,
        )
        self.interactions[interaction_id] = interaction
        self._tokens[token] = interaction
        return interaction, payload

    async def slash(
        self, user: User, channel: Channel, command: str, /, **options: Any
    ) -> Interaction:
        """``user`` runs ``/command`` (``"chips grant"`` for subcommands) in ``channel``.

        Option values: ints, strs, bools, floats as they are; a :class:`User`
        for user/member options. Returns at once; ``await it.reply()`` waits.
        """
        path = _split_command(command)
        root = next(
            (c for c in self._commands_for(channel.guild_id) if c["name"] == path[0]), None
        )
        if root is None:
            raise FakeDiscordError(f"/{path[0]} is not synced (commands: "
                                   f"{[c['name'] for c in self._commands_for(channel.guild_id)]})")
        spec = root
        for part in path[1:]:
            spec = next((o for o in spec.get("options", []) if o["name"] == part
                         and o["type"] in (1, 2)), None)  # type: ignore[assignment]
            if spec is None:
                raise FakeDiscordError(f"/{command}: no subcommand {part!r}")
        leaf_options: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        known = {o["name"]: o for o in spec.get("options", []) if o["type"] not in (1, 2)}
        for name, value in options.items():
            if name not in known:
                raise FakeDiscordError(f"/{command} has no option {name!r} (has {sorted(known)})")
            kind = known[name]["type"]
            if isinstance(value, User):
                resolved.setdefault("users", {})[str(value.id)] = user_payload(value)
                if channel.guild_id is not None:
                    guild = self.guilds[channel.guild_id]
                    if value.id in guild.members:
                        m = member_payload(guild, value, with_user=False)
                        m["permissions"] = str(guild.permissions(value.id))
                        resolved.setdefault("members", {})[str(value.id)] = m
                value = str(value.id)
            leaf_options.append({"name": name, "type": kind, "value": value})
        missing = [
            o["name"] for o in known.values() if o.get("required") and o["name"] not in options
        ]
        if missing:
            raise FakeDiscordError(f"/{command} needs {missing}")
        nested: list[dict[str, Any]] = leaf_options
        node = root
        chain = []
        for part in path[1:]:
            node = next(o for o in node.get("options", []) if o["name"] == part)
            chain.append(node)
        for sub in reversed(chain):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: dict[str, Any] = {
            "id": root["id"], "name": root["name"], "type": 1, "options": nested,
        }
        if resolved:
            data["resolved"] = resolved
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        interaction, payload = self._base_interaction(2, user, channel, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    async def click(
        self, user: User, message: Message, *, label: str | None = None,
        custom_id: str | None = None,
    ) -> Interaction:
        """``user`` clicks the button with ``label`` or ``custom_id`` on ``message``."""
        buttons = [
            b for b in message.buttons()
            if (label is None or b.get("label") == label)
            and (custom_id is None or b.get("custom_id") == custom_id)
        ]
        if len(buttons) != 1:
            raise FakeDiscordError(
                f"expected one button label={label!r} custom_id={custom_id!r}, found "
                f"{[b.get('label') for b in message.buttons()]}"
            )
        button = buttons[0]
        if button.get("disabled"):
            raise FakeDiscordError(f"the button {button.get('label')!r} is disabled")
        channel = self.channels[message.channel_id]
        data = {"custom_id": button["custom_id"], "component_type": 2}
        interaction, payload = self._base_interaction(3, user, channel, data)
        interaction.source_message = message
        payload["message"] = message_payload(message, channel, self.users, self.base_url)
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    async def submit_modal(
        self, user: User, shown: Interaction, values: dict[str, str]
    ) -> Interaction:
        """Submit the modal ``shown`` opened, text inputs keyed by custom_id."""
        if shown.modal is None:
            raise FakeDiscordError("that interaction did not open a modal")
        rows = []
        for custom_id, value in values.items():
            rows.append({"type": 1, "components": [
                {"type": 4, "custom_id": custom_id, "value": value}
            ]})
        data = {"custom_id": shown.modal["custom_id"], "components": rows}
        interaction, payload = self._base_interaction(5, user, shown.channel, data)
        if shown.source_message is not None:
            interaction.source_message = shown.source_message
            payload["message"] = message_payload(
                shown.source_message, shown.channel, self.users, self.base_url
            )
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    # -- gateway --------------------------------------------------------------------------
    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH (op 0) event to the bot, on the shard of its server."""
        try:
            await self.gateway.dispatch(event, data)
        except NotConnected as error:
            raise FakeDiscordError(str(error)) from None

    def _ready(self, session: Session) -> dict[str, Any]:
        return {
            "v": 10,
            "user": user_payload(self.bot_user),
            "guilds": [
                {"id": str(g), "unavailable": True} for g in self.guilds
                if g not in self.removed_from and serves(session, g)
            ],
            "session_id": f"session{snowflake()}",
            "resume_gateway_url": self.gateway_url,
            "shard": [session.shard_id, session.shard_count],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def _guild_creates(self, session: Session) -> list[dict[str, Any]]:
        return [
            guild_payload(guild, self.users, self.bot_user) for guild in self.guilds.values()
            if guild.id not in self.removed_from and serves(session, guild.id)
        ]

    async def _identified(self) -> None:
        self.identified.set()
        await self._notify()

    # -- REST ------------------------------------------------------------------------------
    async def _cdn(self, request: web.Request) -> web.Response:
        att_id = int(request.match_info["attachment_id"])
        for m in self.messages.values():
            for a in m.attachments:
                if a.id == att_id:
                    return web.Response(body=a.data, content_type=a.content_type or "image/png")
        return web.Response(status=404)

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        self.requests.append((request.method, path))
        response = await self._answer(request, path)
        body, _ = await payload(request)
        self.seen.append(Request(request.method, path, dict(request.query), body))
        shared = response.headers.get("X-RateLimit-Scope") == "shared"  # not counted
        if response.status in INVALID_STATUSES and not shared:  # counted against the bot
            self.invalid.append((response.status, request.method, path))
            self.invalid_times.append(asyncio.get_running_loop().time())
        return response

    async def _answer(self, request: web.Request, path: str) -> web.Response:
        if request.headers.get("Authorization") not in (f"Bot {self.token}", None):
            return _error(401, 0, "401: Unauthorized")
        fault = self.weather.fault(request.method, path)
        if fault is not None and not fault.after:
            if fault.response.status == 429:
                self.rate_limited.append((request.method, path, "global"))
            return fault.response
        headers: dict[str, str] = {}
        if self.limiter is not None:
            verdict = self.limiter.check(request.method, path)
            headers = verdict.headers
            if verdict.refused is not None:
                self.rate_limited.append((request.method, path, verdict.scope or ""))
                return web.Response(status=429, body=json.dumps(verdict.refused).encode(),
                                    headers={**JSON, **headers})
        response = await self._route(request, path)
        response.headers.update(headers)
        if fault is not None:  # carried out, and answered 5xx all the same
            if response.status < 300:
                self.weather.carried_out(response.body, request.method, path)  # type: ignore[arg-type]
            return fault.response
        return response

    async def _route(self, request: web.Request, path: str) -> web.Response:
        for method, pattern, handler in self._routes():
            if method != request.method:
                continue
            match = re.fullmatch(pattern, path)
            if match:
                for d_method, d_pattern, seconds in self.delays:
                    if d_method in (request.method, "*") and re.fullmatch(d_pattern, path):
                        await asyncio.sleep(seconds)
                try:
                    result = await handler(request, *match.groups())
                except _RestError as error:
                    return _error(error.status, error.code, error.message, error.errors)
                await self._notify()
                if result is None:
                    return web.Response(status=204)
                return web.Response(body=json.dumps(result).encode(), headers=JSON)
        self.unhandled.append(f"{request.method} {path}")
        log.warning("fake discord: no route for %s %s", request.method, path)
        return _error(404, 0, f"fake discord: {request.method} {path} is not implemented")

    def _routes(self) -> Iterable[tuple[str, str, Callable[..., Any]]]:
        app = str(self.application_id)
        return (
            ("GET", r"/users/@me", self._me),
            ("GET", r"/oauth2/applications/@me", self._app_info),
            ("GET", r"/applications/@me", self._app_info),
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/gateway/bot", self._get_gateway),
            ("PUT", rf"/applications/{app}/commands", self._put_global_commands),
            ("GET", rf"/applications/{app}/commands", self._get_global_commands),
            ("PUT", rf"/applications/{app}/guilds/(\d+)/commands", self._put_guild_commands),
            ("GET", rf"/applications/{app}/guilds/(\d+)/commands", self._get_guild_commands),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", self._callback),
            ("POST", rf"/webhooks/{app}/([^/]+)", self._followup),
            ("GET", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)", self._get_webhook_msg),
            ("PATCH", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)", self._edit_webhook_msg),
            ("DELETE", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)", self._del_webhook_msg),
            ("POST", r"/users/@me/channels", self._open_dm),
            ("GET", r"/users/(\d+)", self._get_user),
            ("GET", r"/guilds/(\d+)/members/(\d+)", self._get_member),
            ("GET", r"/channels/(\d+)", self._get_channel),
            ("PATCH", r"/channels/(\d+)", functools.partial(edit_thread, self)),
            ("POST", r"/channels/(\d+)/typing", self._typing),
            ("POST", r"/channels/(\d+)/threads", functools.partial(create_thread, self)),
            ("POST", r"/channels/(\d+)/messages", self._send_message),
            ("GET", r"/channels/(\d+)/messages", self._history),
            ("GET", r"/channels/(\d+)/messages/(\d+)", self._get_message),
            ("PATCH", r"/channels/(\d+)/messages/(\d+)", self._edit_message),
            ("DELETE", r"/channels/(\d+)/messages/(\d+)", self._delete_message),
            ("POST", r"/guilds/(\d+)/scheduled-events", functools.partial(create_event, self)),
            ("GET", r"/guilds/(\d+)/scheduled-events/(\d+)", functools.partial(get_event, self)),
            ("PATCH", r"/guilds/(\d+)/scheduled-events/(\d+)",
             functools.partial(edit_event, self)),
            ("DELETE", r"/guilds/(\d+)/scheduled-events/(\d+)",
             functools.partial(delete_event, self)),
        )

    # login and application
    async def _me(self, request: web.Request) -> Any:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise _RestError(401, 0, "401: Unauthorized")
        return user_payload(self.bot_user)

    async def _app_info(self, request: web.Request) -> Any:
        return {
            "id": str(self.application_id), "name": self.bot_user.name, "icon": None,
            "description": "", "summary": "", "bot_public": True,
            "bot_require_code_grant": False, "owner": user_payload(self.owner),
            "verify_key": "0" * 64, "flags": 0, "team": None, "rpc_origins": [],
            "bot": user_payload(self.bot_user),
        }

    async def _get_gateway(self, request: web.Request) -> Any:
        return {"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}

    # commands
    def _store_commands(self, body: list[dict[str, Any]], guild_id: int | None) -> list[Any]:
        stored = []
        for cmd in body:
            full = {
                "id": str(snowflake()), "application_id": str(self.application_id),
                "version": str(snowflake()), "type": 1, "options": [],
                "default_member_permissions": None, "dm_permission": True, "nsfw": False,
                **cmd,
            }
            if guild_id is not None:
                full["guild_id"] = str(guild_id)
            stored.append(full)
        return stored

    async def _put_global_commands(self, request: web.Request) -> Any:
        body, _ = await payload(request)
        _refuse(command_problems(body))
        self.global_commands = self._store_commands(body, None)
        self.commands_synced.set()
        return self.global_commands

    async def _get_global_commands(self, request: web.Request) -> Any:
        return self.global_commands

    async def _put_guild_commands(self, request: web.Request, guild_id: str) -> Any:
        if int(guild_id) not in self.guilds:  # Discord: not a server the bot is in
            raise _RestError(403, 50001, "Missing Access")
        body, _ = await payload(request)
        _refuse(command_problems(body))
        stored = self._store_commands(body, int(guild_id))
        self.guild_commands[int(guild_id)] = stored
        self.commands_synced.set()
        return stored

    async def _get_guild_commands(self, request: web.Request, guild_id: str) -> Any:
        return self.guild_commands.get(int(guild_id), [])

    # bodies
    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        """JSON body and uploaded files (multipart ``payload_json`` + ``files[n]``)."""
        body, files = await payload(request)
        if any(len(a.data) > self.upload_limit for a in files):
            raise _RestError(413, 40005, "Request entity too large")
        body = body if body is not None else {}
        described = {str(a.get("id")): a.get("description")
                     for a in body.get("attachments") or [] if isinstance(a, dict)}
        for index, attachment in enumerate(files):
            attachment.description = described.get(str(index))
        return body, files

    def _new_message(
        self, channel: Channel, body: dict[str, Any], files: list[Attachment], *,
        flags: int = 0, type_: int = 0, interaction: Interaction | None = None,
    ) -> Message:
        message = Message(
            snowflake(), channel.id, self.bot_user.id,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=_with_ids(body.get("components") or []),
            attachments=files,
            flags=flags | (int(body.get("flags") or 0) & EPHEMERAL),
            type=type_,
            interaction_id=interaction.id if interaction else None,
            interaction_metadata=None if interaction is None else {
                "id": str(interaction.id), "type": interaction.type,
                "user": user_payload(interaction.user), "authorizing_integration_owners": {},
            },
        )
        self.messages[message.id] = message
        return message

    def _edit(self, message: Message, body: dict[str, Any], files: list[Attachment]) -> Message:
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if "components" in body:
            message.components = _with_ids(body["components"] or [])
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments = message.attachments + files
        message.flags &= ~LOADING
        message.edits += 1
        message.edited_at = now_iso()
        return message

    def _msg(self, message: Message) -> dict[str, Any]:
        return message_payload(message, self.channels[message.channel_id], self.users,
                               self.base_url)

    # interactions
    async def _callback(self, request: web.Request, interaction_id: str, token: str) -> Any:
        it = self.interactions.get(int(interaction_id))
        if it is None or it.token != token:
            raise _RestError(404, 10062, "Unknown interaction")
        if it.callback_type is not None:
            raise _RestError(400, 40060, "Interaction has already been acknowledged.")
        body, files = await self._body(request)
        kind = int(body["type"])
        data = body.get("data") or {}
        if kind in (4, 7):
            _refuse(message_problems(data))
        elif kind == 9:
            _refuse(modal_problems(data))
        it.callback_type = kind
        it.answered_at = asyncio.get_running_loop().time()
        it.requests_before_answer = self.requests[it.request_index : len(self.requests) - 1]
        resource: dict[str, Any] = {"type": kind}
        message: Message | None = None
        if kind == 4:  # message
            message = self._new_message(it.channel, data, files, type_=20, interaction=it)
        elif kind == 5:  # deferred message ("thinking")
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(it.channel, {}, [], flags=flags, type_=20, interaction=it)
        elif kind == 7:  # update the message the component is on
            if it.source_message is None:
                raise _RestError(400, 50035, "UPDATE_MESSAGE needs a component interaction")
            message = self._edit(it.source_message, data, files)
        elif kind == 6:  # deferred update
            if it.source_message is None:
                raise _RestError(400, 50035, "DEFERRED_UPDATE_MESSAGE needs a component")
        elif kind == 9:  # modal
            it.modal = data
        elif kind != 8:
            raise _RestError(400, 50035, f"unsupported callback type {kind}")
        if kind in (4, 5):
            it.original = message
        if message is not None:
            resource["message"] = self._msg(message)
        it.answered.set()
        return {
            "interaction": {
                "id": str(it.id), "type": it.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": resource if kind != 6 else None,
        }

    def _by_token(self, token: str) -> Interaction:
        """The interaction of a webhook route's token, refused as Discord does: an unknown
        token 404 Unknown Webhook, one older than 15 minutes 401 Invalid Webhook Token, in
        a deleted channel 404 Unknown Channel."""
        it = self._tokens.get(token)
        if it is None:
            raise _RestError(404, 10015, "Unknown Webhook")
        if asyncio.get_running_loop().time() >= it.expires_at:
            raise _RestError(401, 50027, "Invalid Webhook Token")
        if it.channel.id not in self.channels:
            raise _RestError(404, 10003, "Unknown Channel")
        return it

    def _webhook_target(self, it: Interaction, message_id: str) -> Message:
        if message_id == "@original":
            target = it.original or it.source_message
        else:
            target = self.messages.get(int(message_id))
            if target is not None and target not in it.messages and target is not it.source_message:
                target = None
        if target is None or target.deleted:
            raise _RestError(404, 10008, "Unknown Message")
        return target

    async def _followup(self, request: web.Request, token: str) -> Any:
        """Create Followup Message. Discord: "When using this endpoint directly after
        responding to an interaction with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint
        will function as Edit Original Interaction Response [...] no new message will be
        created, and the loading message will be edited instead. The ephemeral flag will be
        ignored, and the value you provided in the initial defer response will be
        preserved"."""
        it = self._by_token(token)
        if it.callback_type is None:
            raise _RestError(404, 10015, "Unknown Webhook (the interaction was not answered)")
        body, files = await self._body(request)
        _refuse(message_problems(body))
        if it.original is not None and it.original.flags & LOADING:
            # Discord: the first followup after a "thinking…" edits it, flags ignored
            return self._msg(self._edit(self._webhook_target(it, "@original"), body, files))
        message = self._new_message(it.channel, body, files, type_=20, interaction=it)
        it.followups.append(message)
        return self._msg(message)

    async def _get_webhook_msg(self, request: web.Request, token: str, message_id: str) -> Any:
        return self._msg(self._webhook_target(self._by_token(token), message_id))

    async def _edit_webhook_msg(self, request: web.Request, token: str, message_id: str) -> Any:
        it = self._by_token(token)
        body, files = await self._body(request)
        _refuse(message_problems(body))
        return self._msg(self._edit(self._webhook_target(it, message_id), body, files))

    async def _del_webhook_msg(self, request: web.Request, token: str, message_id: str) -> None:
        self._webhook_target(self._by_token(token), message_id).deleted = True

    # users, members, channels, messages
    async def _open_dm(self, request: web.Request) -> Any:
        body, _ = await payload(request)
        user = self.users.get(int(body["recipient_id"]))
        if user is None:
            raise _RestError(404, 10013, "Unknown User")
        return channel_payload(self.dm_channel(user), self.users)

    async def _get_user(self, request: web.Request, user_id: str) -> Any:
        user = self.users.get(int(user_id))
        if user is None:
            raise _RestError(404, 10013, "Unknown User")
        return user_payload(user)

    async def _get_member(self, request: web.Request, guild_id: str, user_id: str) -> Any:
        guild = self.guilds.get(int(guild_id))
        if guild is None or int(user_id) not in guild.members:
            raise _RestError(404, 10007, "Unknown Member")
        return member_payload(guild, self.users[int(user_id)])

    def _channel(self, channel_id: str) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise _RestError(404, 10003, "Unknown Channel")
        if channel.guild_id in self.removed_from:
            raise _RestError(403, 50001, "Missing Access")
        return channel

    async def _get_channel(self, request: web.Request, channel_id: str) -> Any:
        return channel_payload(self._channel(channel_id), self.users)

    async def _typing(self, request: web.Request, channel_id: str) -> None:
        self._channel(channel_id)

    async def _send_message(self, request: web.Request, channel_id: str) -> Any:
        channel = self._channel(channel_id)
        if channel.type == 1:
            assert channel.recipient_id is not None
            recipient = self.users[channel.recipient_id]
            if recipient.dms_closed or recipient.bot:
                raise _RestError(403, 50007, "Cannot send messages to this user")
        body, files = await self._body(request)
        if channel.guild_id is not None:
            sending = SEND_MESSAGES_IN_THREADS if channel.parent_id is not None else SEND_MESSAGES
            self._require(channel, VIEW_CHANNEL, sending)
            thread_refusal(channel)
            self._media_permissions(channel, body, files)
        if not (body.get("content") or body.get("embeds") or files or body.get("components")):
            raise _RestError(400, 50006, "Cannot send an empty message")
        _refuse(message_problems(body))
        if len(str(body.get("nonce", ""))) > 25:
            _refuse([("nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")])
        same = self.weather.nonce_message(channel.id, body)
        if same is not None:  # enforce_nonce: the message posted with it before
            return self._msg(self.messages[same])
        message = self._new_message(channel, body, files)
        self.weather.remember_nonce(channel.id, body, message.id)
        return self._msg(message)

    def _require(self, channel: Channel, *bits: int) -> None:
        """403 unless the bot has every bit in ``channel`` (50001 without View Channel)."""
        granted = self.bot_permissions(channel)
        if not granted & VIEW_CHANNEL:
            raise _RestError(403, 50001, "Missing Access")
        if any(not granted & bit for bit in bits):
            raise _RestError(403, 50013, "Missing Permissions")

    def _media_permissions(
        self, channel: Channel, body: dict[str, Any], files: list[Attachment]
    ) -> None:
        """Attach Files for uploads; Embed Links for embeds (dropped when there is more)."""
        if files:
            self._require(channel, ATTACH_FILES)
        if body.get("embeds") and not self.bot_permissions(channel) & EMBED_LINKS:
            if not (body.get("content") or files or body.get("components")):
                raise _RestError(403, 50013, "Missing Permissions")
            body["embeds"] = []

    async def _history(self, request: web.Request, channel_id: str) -> Any:
        channel = self._channel(channel_id)
        if channel.guild_id is not None:
            self._require(channel, READ_HISTORY)
        limit = int(request.query.get("limit", "50"))
        found = self.channel_messages(channel)
        return [self._msg(m) for m in reversed(found[-limit:])]

    def _message(self, channel_id: str, message_id: str) -> Message:
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.channel_id != int(channel_id):
            raise _RestError(404, 10008, "Unknown Message")
        return message

    async def _get_message(self, request: web.Request, channel_id: str, message_id: str) -> Any:
        channel = self._channel(channel_id)
        if channel.guild_id is not None:
            self._require(channel, READ_HISTORY)
        return self._msg(self._message(channel_id, message_id))

    async def _edit_message(self, request: web.Request, channel_id: str, message_id: str) -> Any:
        channel = self._channel(channel_id)
        if channel.guild_id is not None:
            self._require(channel)
        message = self._message(channel_id, message_id)
        thread_refusal(channel)
        if message.author_id != self.bot_user.id:
            raise _RestError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await self._body(request)
        if channel.guild_id is not None:
            self._media_permissions(channel, body, files)
        _refuse(message_problems(body))
        return self._msg(self._edit(message, body, files))

    async def _delete_message(self, request: web.Request, channel_id: str, message_id: str) -> None:
        channel = self._channel(channel_id)
        if channel.guild_id is not None:
            self._require(channel)
        thread_refusal(channel)
        self._message(channel_id, message_id).deleted = True


class _RestError(Exception):
    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _refuse(problems: list[Problem]) -> None:
    """Discord's 400 Invalid Form Body (50035) naming every bad field, if there is one."""
    if problems:
        raise _RestError(400, 50035, "Invalid Form Body", error_tree(problems))


def _error(
    status: int, code: int, message: str, errors: dict[str, Any] | None = None
) -> web.Response:
    payload: dict[str, Any] = {"code": code, "message": message}
    if errors:
        payload["errors"] = errors
    return web.Response(status=status, body=json.dumps(payload).encode(), headers=JSON)


def _with_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord stores them (every component gets a numeric ``id``)."""
    counter = 0

    def walk(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        nonlocal counter
        out = []
        for item in items:
            counter += 1
            copy = {**item, "id": item.get("id", counter)}
            if "components" in copy:
                copy["components"] = walk(copy["components"])
            out.append(copy)
        return out

    with contextlib.suppress(TypeError):
        return walk(components)
    return components
