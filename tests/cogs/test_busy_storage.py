"""Commands that write are acknowledged before the database is reached.

Another writer (a backup, ``python -m bot audit``, a slow disk) can hold the
SQLite database for a while; Discord drops an interaction not answered within
3 seconds. Here a second connection holds the real database file's write lock
while players use the commands that store something: each is acknowledged
(a private "thinking…") while the lock is held, and answered once it is gone.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable

import pytest

from bot.offline.harness import Reply
from tests.cogs.test_table import open_table
from tests.conftest import Harness


def callbacks(h: Harness) -> int:
    return len([r for r in h.env.http_requests
                if r.method == "POST" and r.path.endswith("/callback")])


async def while_locked(h: Harness, command: Callable[[], Awaitable[Reply]]) -> Reply:
    """Run ``command`` while another connection holds the write lock: it must be
    acknowledged before the lock goes, and answered after."""
    before = callbacks(h)
    lock = sqlite3.connect(h.bot.settings.database_path, timeout=0, isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")  # the write lock, as any other writer would take it
    try:
        task = asyncio.ensure_future(command())
        for _ in range(200):
            if callbacks(h) > before:
                break
            await asyncio.sleep(0.01)
        assert callbacks(h) == before + 1, "not acknowledged while the database was busy"
        assert not task.done()  # its work waits for the database
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    return await task


@pytest.mark.parametrize(
    ("command", "options", "answer"),
    [
        ("table join", {"buyin": "150"}, "You sat down at seat"),
        ("table sitout", {}, ""),
        ("table topup", {"amount": "10"}, "your stack is"),
        ("table leave", {}, "went back to your balance"),
    ],
)
async def test_writes_are_acknowledged_before_the_database(
    harness: Harness, command: str, options: dict[str, str], answer: str
) -> None:
    h = harness
    await open_table(h)
    if command != "table join":
        await h.slash(h.bob, "table join", buyin="150")
    reply = await while_locked(h, lambda: h.slash(h.bob, command, **options))
    assert reply.ephemeral and answer in reply.text, reply


async def test_create_is_acknowledged_before_the_database(harness: Harness) -> None:
    h = harness
    assert h.bot.registry is not None
    reply = await while_locked(h, lambda: h.slash(h.alice, "table create"))
    assert not reply.ephemeral and "Table 1 is open" in reply.text, reply
    again = await h.slash(h.bob, "table create")
    assert again.ephemeral and "already has a table" in again.text, again


@pytest.mark.parametrize(
    ("who", "command", "options", "public", "answer"),
    [
        ("alice", "daily", {}, False, "You claimed your daily bonus"),
        ("alice", "balance", {}, False, "10,000"),
        ("alice", "balance", {"public": True}, True, "10,000"),
        ("manager", "chips grant", {"amount": "50", "reason": "prize"}, True, "Gave 50"),
        ("manager", "chips remove", {"amount": "50", "reason": "fine"}, True, "Took 50"),
        ("manager", "economy settings", {"daily_base": "500"}, False, "updated"),
        ("alice", "tournament create", {"buy_in": 100}, True, "Registration is open"),
    ],
)
async def test_economy_and_tournament_commands_are_acknowledged_before_the_database(
    harness: Harness, who: str, command: str, options: dict[str, object], public: bool,
    answer: str,
) -> None:
    """Balance, daily bonus, grants, economy settings and tournaments: a "thinking…"
    (private when the answer is) goes out while the database is busy, then the answer."""
    h = harness
    if command.startswith("chips"):
        options = {**options, "user": h.bob}
    actor = getattr(h, who)
    reply = await while_locked(h, lambda: h.slash(actor, command, **options))
    assert reply.ephemeral is not public and answer in reply.text, reply


async def test_tournament_join_and_leave_are_acknowledged_before_the_database(
    harness: Harness,
) -> None:
    h = harness
    assert (await h.slash(h.alice, "tournament create", buy_in=100)).ephemeral is False
    joined = await while_locked(h, lambda: h.slash(h.bob, "tournament join"))
    assert not joined.ephemeral and "registers" in joined.text, joined
    left = await while_locked(h, lambda: h.slash(h.bob, "tournament leave"))
    assert left.ephemeral and "unregistered" in left.text, left


async def test_a_refusal_found_in_storage_is_shown_only_to_the_player(
    harness: Harness,
) -> None:
    """A refusal found in storage (a second /daily the same day, a removal of more chips
    than the player has): as it can come only after the wait, the "thinking…" is private
    and becomes the refusal; a success is posted publicly afterwards
    (:func:`bot.adapter.polite.announce`). Nothing reaches the channel."""
    h = harness
    await h.slash(h.alice, "daily")
    public_before = len(h.public_messages())
    again = await while_locked(h, lambda: h.slash(h.alice, "daily"))
    assert again.ephemeral and "already claimed" in again.text, again
    too_much = await while_locked(h, lambda: h.slash(
        h.manager, "chips remove", user=h.bob, amount="1m", reason="r"))
    assert too_much.ephemeral and "you cannot remove" in too_much.text, too_much
    assert len(h.public_messages()) == public_before
    assert not [m for m in h.public_messages() if "already claimed" in m.content
                or "cannot remove" in m.content]
