"""The offline Discord's verbs: one guild, a ``#poker`` channel, five members.

Harness API (``h``)
-------------------
Acting (each returns a :class:`Reply` once the bot has settled):
``await h.slash(actor, "table create", channel=None, **options)``,
``await h.click(actor, message, label=... | custom_id=...)``,
``await h.submit(actor, shown_reply, {"custom_id": "value"})``,
``await h.concurrently(lambda: h.click(...), lambda: h.slash(...))``,
``await h.advance(seconds)`` (loop timers and the DB's wall clock),
``await h.restart(after=0.0)`` (a new bot on the same database; ``after``: the old one
stops first and the new one starts that many seconds later), ``h.close_dms(actor)``,
``await h.drop_gateway(shard=None)`` and ``await h.restore_gateway(shard=None,
resume=True)`` (the gateway connection, every shard's or one's, cut and back, resumed
or on a new session: :mod:`bot.offline.gateway`; what members do meanwhile never
reaches the bot),
``h.add_member(name, manager=False)``, ``h.add_channel(name)``,
``h.add_thread(name, channel=None, private=False, members=())``,
``h.add_role(name, *members, permissions=None)``,
``h.overwrite(channel, target, allow=(), deny=())`` (a channel's permission overwrite for
a role, a member, or @everyone when ``target`` is None, as set in its settings; a member's
interactions there carry the permissions it leaves them, ``interaction.permissions``, as
Discord computes them: a member denied Send Messages or Attach Files is one),
``h.deny_bot("attach_files", ..., channel=None)``
(the bot loses those permissions there, as with a channel overwrite;
``"view_channel"``: every request there gets 403 Missing Access, 50001),
``h.delete_channel(channel=None)`` (then 404 Unknown Channel, 10003),
``h.remove_bot()`` (the bot is kicked from the guild).
Reading: ``h.messages(channel=None, viewer=None)``, ``h.public_messages()``,
``h.last_message()``, ``h.dms(actor)``, ``await h.png(message)``,
``await h.files(message)``, ``h.requests("POST", "/messages")``,
``await h.balance(actor)``, ``await h.audit()``, ``buttons_of(message)``.
``Reply`` (:mod:`bot.offline.replies`): ``.text``, ``.texts``, ``.all_text``
(embeds too), ``.ephemeral``, ``.message`` (to click its buttons), ``.buttons``,
``.modal``, ``.embeds``, ``await .images()`` (PNG bytes), ``await .files()``;
its properties re-read simcord's state, so they show later edits.

Outside pytest, :func:`offline` runs a bot in the offline Discord and hands
back a :class:`Harness`; on the way out it closes the bot (tables stopped,
database closed), so the process can exit.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import simcord
from simcord import ChannelHandle, Env, GuildHandle, MemberActor, RoleHandle
from simcord.backend.models import Overwrite
from simcord.enums import ChannelType, OverwriteType

import bot.offline.commands  # Discord refuses an invalid command tree (applied on import)
import bot.offline.events  # scheduled events' limits (applied on import)
import bot.offline.locales  # each member's language in interactions (applied on import)
import bot.offline.refusals  # Discord's refusals that simcord lacks (applied on import)
import bot.offline.settling  # teaches simcord its two extra rules (applied on import)
import bot.offline.thread_states  # archived and locked threads refuse (applied on import)
import bot.offline.uploads  # the upload limit, told and enforced (applied on import)
from bot.adapter.polite import describe
from bot.client import OmahaDealer
from bot.offline import gateway
from bot.offline.invalid import Invalid, invalid_requests  # counting applied on import
from bot.offline.replies import PNG_SIGNATURE, Reply, buttons_of
from bot.sharding import shard_of

__all__ = ["PNG_SIGNATURE", "Actor", "FakeWallClock", "Harness", "Message", "Reply", "buttons_of",
           "offline"]

#: A simulated member who acts (simcord's ``MemberActor``), for code outside ``cogs/``.
Actor = MemberActor
#: A message as the members see it.
Message = discord.Message
START_TIME = 1_767_225_600.0  # 2026-01-01 00:00:00 UTC, a Thursday


class FakeWallClock:
    """Epoch seconds that move only when told (the database's clock in tests)."""

    def __init__(self, start: float = START_TIME) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Harness:
    """One guild with a #poker channel and five members, and verbs to drive the bot."""

    def __init__(self, env: Env, clock: FakeWallClock) -> None:
        self.env = env
        self.clock = clock
        #: Set to True in a test that provokes a bug on purpose.
        self.allow_unexpected_errors = False
        #: Set to True in a test that leaves an interaction unanswered on purpose.
        self.allow_unanswered = False
        self.unexpected: list[logging.LogRecord] = []
        self.guild: GuildHandle = env.create_guild("Poker Club")
        self.channel: ChannelHandle = self.guild.create_text_channel("poker")
        self.manager_role = self.guild.create_role(
            "Managers", permissions=discord.Permissions(manage_guild=True)
        )
        self.members: dict[str, MemberActor] = {}
        for name in ("alice", "bob", "carol", "dave"):
            self.add_member(name)
        self.manager = self.add_member("manny", manager=True)
        self._closed_dms: set[int] = set()
        self._unheard: set[int] = set()  # interactions sent while their gateway was down

    # -- the world ---------------------------------------------------------------
    @property
    def bot(self) -> OmahaDealer:
        bot = self.env.bot
        assert isinstance(bot, OmahaDealer)
        return bot

    @property
    def alice(self) -> MemberActor:
        return self.members["alice"]

    @property
    def bob(self) -> MemberActor:
        return self.members["bob"]

    @property
    def carol(self) -> MemberActor:
        return self.members["carol"]

    @property
    def dave(self) -> MemberActor:
        return self.members["dave"]

    def add_member(self, name: str, *, manager: bool = False) -> MemberActor:
        """A new member of the guild (with Manage Server when ``manager``)."""
        roles = [self.manager_role] if manager else []
        actor = self.guild.add_member(self.env.create_user(name), roles=roles)
        self.members[name] = actor
        return actor

    def add_channel(self, name: str) -> ChannelHandle:
        return self.guild.create_text_channel(name)

    def add_thread(
        self, name: str, channel: ChannelHandle | None = None, *, private: bool = False,
        members: tuple[MemberActor, ...] = (),
    ) -> ChannelHandle:
        """A thread in ``channel`` (``#poker`` by default), started by the guild's owner:
        public, or ``private`` with the bot and ``members`` added to it."""
        parent, backend = channel or self.channel, self.env.backend
        owner = backend.get_guild(self.guild.id).owner_id
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        thread = backend.create_thread(parent.id, name, owner, type=kind)
        for user_id in [backend.bot_user.id, *(m.id for m in members)] if private else []:
            backend.add_thread_member(thread.id, user_id)
        return ChannelHandle(self.env, self.guild, thread)

    def add_role(
        self, name: str, *members: MemberActor, permissions: discord.Permissions | None = None
    ) -> RoleHandle:
        """A new role of the guild, given to ``members``."""
        role = self.guild.create_role(name, permissions=permissions)
        for member in members:
            self.env.backend.add_member_role(self.guild.id, member.id, role.id)
        return role

    def overwrite(
        self, channel: ChannelHandle, target: RoleHandle | MemberActor | None, *,
        allow: tuple[str, ...] = (), deny: tuple[str, ...] = (),
    ) -> None:
        """Set ``channel``'s permission overwrite for ``target`` (a role, a member, or
        @everyone when None), replacing any it had, as a manager does in its settings;
        the bot hears CHANNEL_UPDATE at the next settle."""
        kind = OverwriteType.MEMBER if isinstance(target, MemberActor) else OverwriteType.ROLE
        self.env.backend.set_overwrite(channel.id, Overwrite(
            target_id=self.guild.id if target is None else target.id, type=kind,
            allow=discord.Permissions(**dict.fromkeys(allow, True)).value,
            deny=discord.Permissions(**dict.fromkeys(deny, True)).value,
        ))

    def archive_thread(self, thread: ChannelHandle, *, locked: bool = False) -> None:
        """Archive ``thread`` (as a week without messages does), or lock it (as a moderator):
        Discord then refuses the bot's messages there (50083; locked: 160005)."""
        flags = {"locked": True} if locked else {"archived": True}
        self.env.backend.edit_channel(thread.id, {}, thread_metadata=flags)

    def deny_bot(self, *permissions: str, channel: ChannelHandle | None = None) -> None:
        """Take ``permissions`` (``"attach_files"``...) from the bot in ``channel``.

        A member overwrite for the bot, as a server manager would set in the
        channel's settings (threads follow their parent channel's). From then on
        ``interaction.app_permissions`` there lacks them and requests needing
        them fail as on Discord (403, code 50013 Missing Permissions).
        """
        target = channel or self.channel
        backend = self.env.backend
        model = backend.get_channel(target.id)
        deny = discord.Permissions(**dict.fromkeys(permissions, True)).value
        bot_id = backend.bot_user.id
        overwrites = [o for o in model.overwrites if o.target_id != bot_id]
        old = next((o for o in model.overwrites if o.target_id == bot_id), None)
        overwrites.append(
            Overwrite(
                target_id=bot_id,
                type=OverwriteType.MEMBER,
                allow=(old.allow if old else 0) & ~deny,
                deny=(old.deny if old else 0) | deny,
            )
        )
        backend.edit_channel(target.id, {}, overwrites=overwrites)

    def restore_bot(self, channel: ChannelHandle | None = None) -> None:
        """Undo :meth:`deny_bot`: remove the bot's member overwrite in ``channel``."""
        target = channel or self.channel
        backend = self.env.backend
        model = backend.get_channel(target.id)
        bot_id = backend.bot_user.id
        backend.edit_channel(target.id, {}, overwrites=[
            o for o in model.overwrites if o.target_id != bot_id])

    def delete_channel(self, channel: ChannelHandle | None = None) -> None:
        """Delete ``channel`` (or a thread) as a member with Manage Channels would.

        The bot hears CHANNEL_DELETE (THREAD_DELETE for a thread) at the next
        settle; from then on every request to it gets 404 Unknown Channel
        (code 10003), as on Discord.
        """
        self.env.backend.delete_channel((channel or self.channel).id)

    def remove_bot(self) -> None:
        """The bot is removed (kicked) from the guild: it hears GUILD_DELETE, and its
        channels there are gone for it (404 Unknown Channel, code 10003)."""
        self.env.backend.remove_guild(self.guild.id)

    def close_dms(self, actor: MemberActor) -> None:
        """From now on the bot's DMs to ``actor`` fail as on Discord (403, code 50007)."""
        channel_id = self.env.backend.get_dm_channel(actor.id).id
        self._closed_dms.add(actor.id)
        self.env.inject_error(
            "POST", f"/channels/{channel_id}/messages", status=403, code=50007,
            message="Cannot send messages to this user", times=None,
        )

    # -- acting ------------------------------------------------------------------
    def set_locale(self, actor: MemberActor, locale: str) -> None:
        """``actor``'s Discord client speaks ``locale`` ("pt-BR", "es-ES", "it", ...)."""
        bot.offline.locales.set_locale(self.env.backend, actor.id, locale)

    def set_upload_limit(self, limit: int) -> None:
        """Discord lets the bot upload files of at most ``limit`` bytes from now on (the
        ``attachment_size_limit`` of interactions), and refuses larger ones (413, 40005)."""
        bot.offline.uploads.set_upload_limit(self.env.backend, limit)

    async def slash(
        self, actor: MemberActor, command: str, /, *, channel: ChannelHandle | None = None,
        **options: Any,
    ) -> Reply:
        """Run ``/command`` (``"table create"`` for subcommands) as ``actor``."""
        result = await actor.slash(channel or self.channel, command, **options)
        return self._reply(result)

    async def click(
        self, actor: MemberActor, message: Any, *, label: str | None = None,
        custom_id: str | None = None,
    ) -> Reply:
        """Click the button with ``label`` or ``custom_id`` on ``message`` (in a channel, or
        in the actor's direct messages with the bot)."""
        dm = self.env.backend.dm_channels.get(actor.id)
        in_dm = dm is not None and getattr(getattr(message, "channel", None), "id", None) == dm
        clicker = actor.user if in_dm else actor
        result = await clicker.click(message, label=label, custom_id=custom_id)
        return self._reply(result)

    async def submit(self, actor: MemberActor, shown: Reply, values: dict[str, Any]) -> Reply:
        """Fill in and submit the modal ``shown`` opened (values keyed by custom_id)."""
        result = await actor.submit_modal(shown.result, values)
        return self._reply(result)

    def _reply(self, result: simcord.InteractionResult) -> Reply:
        """``result`` as a :class:`Reply`; one the bot could not hear (its shard's gateway
        connection was down) is remembered: Discord, not the bot, answers it ("This
        interaction failed"), so :meth:`check_answered` does not ask the bot to."""
        record = result._interaction  # simcord's record of the interaction
        guild_id = record.guild_id
        shard = 0 if guild_id is None else shard_of(guild_id, self.bot.shard_count or 1)
        if gateway.is_down(self.bot, shard):
            self._unheard.add(record.id)
        return Reply(self, result)

    async def concurrently(self, *actions: Callable[[], Awaitable[Reply]]) -> list[Reply]:
        """Fire several actions at the same moment and let the bot handle them together.

        Each action is a zero-argument callable such as
        ``lambda: h.click(h.alice, msg, label="Fold")``. Their interactions all
        reach the bot before any handler runs; the replies come back in order.
        """
        env = self.env
        # simcord has no public switch for settling: its private Env._settle_internal is
        # swapped for a no-op meanwhile (simcord is pinned to an exact version).
        real_settle = env._settle_internal

        async def no_settle(**_: Any) -> None:
            return None

        env._settle_internal = no_settle  # type: ignore[method-assign]
        try:
            pending = [await action() for action in actions]
        finally:
            env._settle_internal = real_settle  # type: ignore[method-assign]
        await env.settle()
        return pending

    async def advance(self, seconds: float) -> None:
        """Move the loop's clock (timeouts, turn clocks) and the wall clock forward."""
        self.clock.advance(seconds)
        await self.env.advance_time(seconds)

    async def settle(self) -> None:
        await self.env.settle()

    async def restart(self, *, after: float = 0.0) -> OmahaDealer:
        """Stop the bot and start a new one on the same database (a restart); with
        ``after``, the old one stops first (its tables too) and the new one starts
        ``after`` seconds later (a crash and a slow restart: nothing runs meanwhile)."""
        old = self.bot
        if after:
            await old.close()
            await self.advance(after)
        new = OmahaDealer(old.settings, wall_clock=self.clock)
        await self.env.restart_bot(new)
        await old.close()  # detached: its tables stop and its database closes
        new.db.clock = self.clock
        new.presenter.runout_pause = old.presenter.runout_pause
        return new

    async def drop_gateway(self, shard: int | None = None) -> None:
        """The bot's gateway connection drops (``shard``'s, or every one): the bot is told
        as discord.py tells it, and hears nothing more from those servers until
        :meth:`restore_gateway`."""
        for one in self._shards(shard):
            gateway.drop(self.env, one)
        await self.settle()

    async def restore_gateway(self, shard: int | None = None, *, resume: bool = True) -> None:
        """The connection is back (``shard``'s, or every one): its session resumed, or a
        new one (``resume=False``: READY and the servers again)."""
        back = gateway.resume if resume else gateway.reconnect
        for one in self._shards(shard):
            back(self.env, one)
        await self.settle()

    def _shards(self, shard: int | None) -> tuple[int, ...]:
        return gateway.shards_of(self.bot) if shard is None else (shard,)

    # -- reading -----------------------------------------------------------------
    def messages(
        self, channel: ChannelHandle | None = None, *, viewer: MemberActor | None = None
    ) -> list[discord.Message]:
        """The channel's messages, oldest first (ephemerals only with their ``viewer``)."""
        return (channel or self.channel).history(viewer=viewer)

    def public_messages(self, channel: ChannelHandle | None = None) -> list[discord.Message]:
        """What everybody sees in the channel (no ephemeral messages)."""
        return [
            m for m in (channel or self.channel).history() if not m.flags.ephemeral
        ]

    def last_message(self, channel: ChannelHandle | None = None) -> discord.Message | None:
        public = self.public_messages(channel)
        return public[-1] if public else None

    def dms(self, actor: MemberActor) -> list[discord.Message]:
        """Messages in ``actor``'s DM channel with the bot, oldest first."""
        channel = self.env.backend.dm_channels.get(actor.id)
        if channel is None:
            return []
        return actor.user.dm_channel.history()

    @staticmethod
    async def files(message: discord.Message) -> list[tuple[str, bytes]]:
        """``(filename, bytes)`` of each attachment of a message."""
        return [(a.filename, await a.read()) for a in message.attachments]

    @staticmethod
    async def png(message: discord.Message) -> bytes:
        """The single PNG attached to ``message``."""
        assert len(message.attachments) == 1, f"expected one attachment: {message.attachments}"
        data = await message.attachments[0].read()
        assert data.startswith(PNG_SIGNATURE), "attachment is not a PNG"
        return data

    def requests(self, method: str | None = None, contains: str = "") -> list[Any]:
        """REST calls the bot made (simcord's log), filtered by method and path."""
        return [
            r for r in self.env.http_requests
            if (method is None or r.method == method) and contains in r.path
        ]

    def pinged(self) -> list[tuple[str, frozenset[int], bool]]:
        """Every message content the bot sent or edited, with the users it pinged and
        whether it pinged @everyone/@here: as Discord does, the content's mentions that
        its ``allowed_mentions`` let through (none given: all of them)."""
        found = []
        for r in self.env.http_requests:
            body = r.json if isinstance(r.json, dict) else {}
            if r.method not in ("POST", "PATCH") or not isinstance(body.get("content"), str):
                continue
            content, rule = body["content"], body.get("allowed_mentions")
            parse = rule.get("parse", []) if rule else ["users", "everyone"]
            allowed = {int(u) for u in (rule or {}).get("users", [])}
            users = {int(u) for u in re.findall(r"<@!?(\d+)>", content)}
            pinged = users if "users" in parse else users & allowed
            everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
            found.append((content, frozenset(pinged), everyone))
        return found

    @property
    def invalid_requests(self) -> list[Invalid]:
        """The requests Discord would count as invalid (answered 401, 403 or 429)."""
        return invalid_requests(self.env.backend)

    async def balance(self, actor: MemberActor) -> int:
        """The actor's balance straight from the economy (opens the wallet if needed)."""
        return await self.bot.economy.balance(self.guild.id, actor.id)

    def check_errors(self) -> None:
        """Fail on bugs (errors without a player message); domain errors are fine.

        simcord records every exception a view's ``on_error`` sees, including
        the expected ones ("It is not your turn") that :mod:`bot.adapter.polite` turns
        into polite replies; those are acknowledged here. Bugs (logged by
        ``bot.adapter.polite`` as unexpected, or unknown to :func:`describe`) fail.
        """
        captured = self.env.errors  # reading acknowledges them for simcord
        if self.allow_unexpected_errors:
            return
        bugs = [repr(e) for e in captured if describe(e) is None]
        bugs += [r.getMessage() for r in self.unexpected]
        if bugs:
            raise AssertionError("the bot hit unexpected errors: " + "; ".join(bugs))

    def check_answered(self) -> None:
        """Fail if an interaction went unanswered or was left "thinking" (deferred, no reply).

        Discord shows "The application did not respond" for the first and an
        endless "is thinking..." for the second; both are bugs.
        """
        problems = []
        for record in self.env.backend.interactions.values():
            if record.id in self._unheard:
                continue  # the bot never heard it (its gateway was down): not its to answer
            what = record.command_name or f"component on message {record.source_message_id}"
            if not record.responded:
                problems.append(f"{what} (user {record.user_id}) was never answered")
            elif record.loading:
                problems.append(f"{what} (user {record.user_id}) was deferred and never completed")
        if problems:
            raise AssertionError("; ".join(problems))

    async def audit(self) -> None:
        """Fail unless every chip is accounted for in every server."""
        lines = await self.bot.db.audit()
        bad = [str(line) for line in lines if not line.ok]
        if bad:
            raise AssertionError("chip audit failed:\n" + "\n".join(bad))


@contextlib.asynccontextmanager
async def offline(bot: OmahaDealer, clock: FakeWallClock | None = None) -> AsyncIterator[Harness]:
    """Run ``bot`` in the offline Discord (logged in, ``setup_hook`` done) as a :class:`Harness`.

    On the way out the bot is closed before simcord detaches it: its tables
    stop and its database closes (simcord alone would only cancel its tasks and
    leave the database's worker thread running, so the process would not exit).
    """
    wall = clock or FakeWallClock()
    async with simcord.run(bot) as env:
        try:
            bot.db.clock = wall
            h = Harness(env, wall)
            await env.settle()
            yield h
            await env.settle()
        finally:
            await bot.close()
