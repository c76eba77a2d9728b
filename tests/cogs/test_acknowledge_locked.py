"""Every interaction is acknowledged before any lock or database wait (issue 21).

A hand is being settled (every table's ``lock`` held) while another writer holds
the database (on SQLite a second connection's write transaction on the file; on
PostgreSQL a transaction holding every table ``IN ACCESS EXCLUSIVE MODE``, which
blocks reads too). Meanwhile every slash command of the bot's tree (found by
walking it, so a new command is covered without a new line here) and every kind of
button (each of the bot's :data:`~bot.adapter.views.DYNAMIC_ITEMS`, the leaderboard
pager's) is used once: each must be acknowledged (its interaction callback, the
answer, a deferral or a modal) within Discord's 3 seconds, while everything is still
held. Then the holds go and the interaction finishes as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import discord
import pytest
from discord import app_commands
from simcord.http import router

from bot.adapter import leaderboard
from bot.adapter.after_hand import AfterHandButton
from bot.adapter.bomb_votes import BombPotButton
from bot.adapter.fold_question import question
from bot.adapter.game_choice import ChooseButton, PickButton
from bot.adapter.seat_buttons import ways_view
from bot.adapter.views import DYNAMIC_ITEMS, CardsButton, RunTwiceButton
from bot.offline.harness import Actor, Reply
from bot.runtime.table.views import Way
from bot.settings import Secret, Settings
from tests.conftest import Harness, buttons_of

#: Discord drops an interaction not acknowledged within 3 seconds.
DEADLINE = 3.0
#: Seconds between hands, parked until the test moves the clock.
PAUSE = 10.0

#: Example values of the commands' required options (a new command with a required
#: option fails :func:`test_every_command_has_its_required_options` until it has one).
OPTIONS: dict[str, dict[str, Any]] = {
    "bet": {"amount": "4"},
    "raise": {"to": "8"},
    "table topup": {"amount": "10"},
    "preaction": {"action": "call any"},
    "tournament create": {"buy_in": 100},
    "hand verify": {"number": 1},
    "chips grant": {"amount": "5", "reason": "prize"},
    "chips remove": {"amount": "5", "reason": "fine"},
    "season start": {"name": "Spring"},
    "schedule cancel": {"game": 1},
    "schedule cash": {"starts": "in 2 hours"},
    "schedule move": {"starts": "in 3 hours", "game": 1},
    "schedule timezone": {"zone": "Europe/Rome"},
}
#: Optional values worth giving: they make the command wait (a change, a public answer).
EXTRA: dict[str, dict[str, Any]] = {
    "table settings": {"clock": 40},
    "table limits": {"per_server": 50},
    "economy settings": {"daily_base": "500"},
    "stats": {"public": True},
    "balance": {"public": True},
}
#: Run last, in this order: they end what the others use.
LAST = ("table leave", "table close", "tournament cancel")
#: Managers' commands (groups, or one command).
MANAGED = ("chips", "economy", "table limits")


@pytest.fixture
def bot_settings(database_target: str, tmp_path: Path) -> Settings:
    """The bot on SQLite, or on the throwaway PostgreSQL cluster (``database_target``)."""
    if database_target.startswith("postgres"):
        return Settings(token=Secret("test-token"), database_path=str(tmp_path / "t.sqlite3"),
                        database_url=Secret(database_target))
    return Settings(token=Secret("test-token"), database_path=database_target)


@contextlib.asynccontextmanager
async def database_held(settings: Settings) -> AsyncIterator[None]:
    """Another writer holds the whole database until the block ends."""
    url = settings.database_url.reveal()
    if not url:
        lock = sqlite3.connect(settings.database_path, timeout=0, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the write lock, as any other writer takes it
        try:
            yield
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        return
    conn = await asyncpg.connect(url)
    try:
        names = [r["tablename"] for r in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]
        transaction = conn.transaction()
        await transaction.start()
        await conn.execute(f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE")
        try:
            yield
        finally:
            await transaction.rollback()
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def tables_held(h: Harness) -> AsyncIterator[None]:
    """Every table's lock is held (as while a hand is dealt or settled)."""
    held = [t.lock for t in h.bot.registry.all()]
    for lock in held:
        await lock.acquire()
    try:
        yield
    finally:
        for lock in held:
            lock.release()


class Clock:
    """Uses interactions while everything is held; notes how long each took to acknowledge
    (from its start to the moment simcord got its callback)."""

    def __init__(self, h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
        self.h = h
        self.times: dict[str, float] = {}
        self.answered = asyncio.Event()
        real = router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            if method == "POST" and path.endswith("/callback"):
                self.answered.set()
            return real(backend, method, path, **kwargs)

        monkeypatch.setattr(router, "dispatch", dispatch)  # simcord's one entry for REST

    async def held(self, what: str, verb: Callable[..., Awaitable[Reply]], *args: Any,
                   **kwargs: Any) -> Reply:
        """``verb(*args, **kwargs)`` (``h.slash``, ``h.click``...) while everything is held."""
        self.answered.clear()
        async with tables_held(self.h), database_held(self.h.bot.settings):
            start = time.perf_counter()
            task = asyncio.ensure_future(verb(*args, **kwargs))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.answered.wait(), 2 * DEADLINE)
            self.times[what] = time.perf_counter() - start
        reply = await task
        await self.h.settle()
        return reply

    def check(self) -> None:
        late = {what: round(t, 3) for what, t in self.times.items() if t >= DEADLINE}
        assert not late, f"acknowledged after Discord's {DEADLINE} s: {late}"


def leaf_commands(h: Harness) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]


def ordered(h: Harness) -> list[str]:
    names = sorted(c.qualified_name for c in leaf_commands(h))
    return [n for n in names if n not in LAST] + [n for n in LAST if n in names]


def kind_of(custom_id: str) -> str:
    """The bot's button class (or the pager) a custom id belongs to."""
    for item in DYNAMIC_ITEMS:
        if re.fullmatch(item.__discord_ui_compiled_template__, custom_id):
            return item.__name__
    return custom_id  # the leaderboard pager's fixed ids


async def start_hand(h: Harness) -> None:
    h.bot.registry.pause = PAUSE
    await h.slash(h.alice, "table create")
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="100")
    await h.advance(PAUSE + 0.1)


def live_message(h: Harness) -> tuple[Actor, discord.Message]:
    """The newest turn message and the player it names."""
    for m in reversed(h.public_messages()):
        if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)):
            actor = next(a for a in h.members.values() if f"<@{a.id}>" in m.content)
            return actor, m
    raise AssertionError("no turn message")


async def stale_question(h: Harness) -> discord.Message:
    """A message with the run-it-twice buttons and a bomb pot proposal's (stale questions:
    refused, still answered)."""
    table = h.bot.registry.all()[0]
    view = discord.ui.View(timeout=None)
    for choice in ("twice", "once"):
        view.add_item(RunTwiceButton(table.table_id, "1.1", choice))
    for choice in ("yes", "no"):
        view.add_item(BombPotButton(table.table_id, "1.1", choice))
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Run it twice? A bomb pot?", view=view)
    await h.settle()
    return next(m for m in h.public_messages() if m.id == sent.id)


async def after_hand_buttons(h: Harness) -> discord.Message:
    """A message with a hand's after-hand buttons (of a hand the table does not keep:
    each refused at once, still answered)."""
    table = h.bot.registry.all()[0]
    view = discord.ui.View(timeout=None)
    for what in ("rabbit", "show", "one", "card0"):
        view.add_item(AfterHandButton(table.table_id, 1, what))
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Hand #1 result", view=view)
    await h.settle()
    return next(m for m in h.public_messages() if m.id == sent.id)


async def game_menu(h: Harness) -> discord.Message:
    """A message with dealer's choice buttons (a stale choice: refused, still answered)."""
    table = h.bot.registry.all()[0]
    view = discord.ui.View(timeout=None)
    view.add_item(ChooseButton(table.table_id, "0"))
    view.add_item(PickButton(table.table_id, "0", 0, "PLO"))
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Dealer's choice", view=view)
    await h.settle()
    return next(m for m in h.public_messages() if m.id == sent.id)


async def fold_question(h: Harness, answer: int) -> discord.Message:
    """A message with one answer to the question before a fold (of a turn that has passed:
    answered at once by an edit that takes the buttons away, nothing done)."""
    table = h.bot.registry.all()[0]
    _, answers = question(table.table_id, "1.1", "en")
    view = discord.ui.View(timeout=None)
    view.add_item(answers.children[answer])
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Fold anyway?", view=view)
    await h.settle()
    return next(m for m in h.public_messages() if m.id == sent.id)


async def seat_ways(h: Harness, player: Actor) -> discord.Message:
    """A message with a seat's way forward for ``player`` (sit in: they are already in)."""
    table = h.bot.registry.all()[0]
    view = ways_view(table.table_id, player.id, (Way("sitin"),))
    assert view is not None
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("Your seat", view=view)
    await h.settle()
    return next(m for m in h.public_messages() if m.id == sent.id)


async def my_cards(h: Harness) -> Any:
    """A live message posted before the seat panel, with its **My cards** button."""
    table = h.bot.registry.all()[0]
    view = discord.ui.View(timeout=None)
    view.add_item(CardsButton(table.table_id))
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("An older hand message", view=view)
    await h.settle()
    return next(m for m in h.public_messages() if m.id == sent.id)


async def click_everything(h: Harness, clock: Clock) -> set[str]:
    """Every button of the live message (as a waiting player: each refused or done at once,
    and as the player to act: the raise form, then its submission), the run-it-twice
    and bomb pot buttons, the after-hand buttons, a seat's way forward, the dealer's choice
    buttons and the leaderboard pager. Returns the kinds clicked."""
    kinds: set[str] = set()
    actor, live = live_message(h)
    waiting = next(a for a in (h.alice, h.bob, h.carol) if a is not actor)
    panel = None
    for button in buttons_of(live):
        custom_id = str(button.custom_id)
        clicker = actor if custom_id.endswith(":form") else waiting
        reply = await clock.held(f"button {custom_id}", h.click, clicker, live,
                                 custom_id=custom_id)
        kinds.add(kind_of(custom_id))
        if reply.modal is not None:
            await clock.held("the raise form", h.submit, actor, reply, {"amount": "abc"})
        if custom_id.startswith("omaha:myseat:"):
            panel = reply.message
    assert panel is not None  # the waiting player's seat panel: its pre-actions
    for button in buttons_of(panel):
        custom_id = str(button.custom_id)
        if not button.disabled:
            await clock.held(f"button {custom_id}", h.click, waiting, panel, custom_id=custom_id)
            kinds.add(kind_of(custom_id))
    question = await stale_question(h)
    for button in buttons_of(question):
        custom_id = str(button.custom_id)
        await clock.held(f"button {custom_id}", h.click, waiting, question, custom_id=custom_id)
        kinds.add(kind_of(custom_id))
    for message in (await after_hand_buttons(h), await seat_ways(h, waiting), await my_cards(h),
                    await game_menu(h), await fold_question(h, 0), await fold_question(h, 1)):
        for button in buttons_of(message):
            custom_id = str(button.custom_id)
            await clock.held(f"button {custom_id}", h.click, waiting, message,
                             custom_id=custom_id)
            kinds.add(kind_of(custom_id))
    board = await h.slash(h.alice, "leaderboard")
    assert board.message is not None, board
    await clock.held("button lb:next", h.click, h.alice, board.message, custom_id="lb:next")
    kinds.add("lb:next")
    return kinds


async def test_every_command_has_its_required_options(harness: Harness) -> None:
    missing = {
        c.qualified_name: [p.name for p in c.parameters if p.required
                           and p.name not in OPTIONS.get(c.qualified_name, {})
                           and p.name != "user"]
        for c in leaf_commands(harness)
    }
    assert not {k: v for k, v in missing.items() if v}, "add examples to OPTIONS"


async def test_every_interaction_is_acknowledged_while_tables_and_database_are_held(
    harness: Harness, monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = harness
    monkeypatch.setattr(leaderboard, "PER_PAGE", 1)  # a pager with pages to turn
    await h.slash(h.manager, "chips grant", user=h.carol, amount="5", reason="rank")
    await start_hand(h)
    sng = h.add_channel("sng")
    await h.slash(h.bob, "tournament create", channel=sng, buy_in=100, entrants=4)
    clock = Clock(h, monkeypatch)
    kinds = await click_everything(h, clock)
    expected = {item.__name__ for item in DYNAMIC_ITEMS} | {"lb:next"}
    assert kinds == expected, expected - kinds
    for name in ordered(h):
        actor = h.manager if name.split()[0] in MANAGED or name in MANAGED else h.bob
        options = {**OPTIONS.get(name, {}), **EXTRA.get(name, {})}
        if name.startswith("chips"):
            options["user"] = h.carol
        channel = sng if name.startswith("tournament") else None
        await clock.held(f"/{name}", h.slash, actor, name, channel=channel, **options)
    print("acknowledged in (s):", {k: round(v, 3) for k, v in sorted(clock.times.items())})
    assert {f"/{n}" for n in ordered(h)} <= set(clock.times)
    clock.check()
