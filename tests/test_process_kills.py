"""`python -m bot`, unchanged, killed (SIGKILL, :mod:`bot.crashpoint`) where nothing may be
lost (issue 33), then started again on the same database.

* Between a settlement's commit and its result message: the restarted bot posts the
  result then, once, saying so, with no hole card the rules did not show; a later
  restart posts it no more, even when the database did not hear that it was posted
  (the result is found among the channel's last messages).
* In the middle of its migrations (a database two schema versions old, killed inside
  the second one's transaction): the first is kept, the second is not half-applied, the
  next start completes the schema, the balances are as they were and
  ``python -m bot audit`` passes.
"""

from __future__ import annotations

import re
import signal
import sqlite3
from pathlib import Path

from bot.crashpoint import ENV
from bot.storage.migrate import load_migrations
from tests.fakediscord import BotProcess, Channel, FakeDiscord, Message
from tests.storage.test_migrate import open_in_a_child
from tests.test_process_hand import CARD_TOKEN, audit

MENTION = re.compile(r"<@(\d+)>")
RESULT = "**Hand #1 result**"
LATE = "Posted after a restart"
QUIET = {"RENDER_PROCESSES": "0"}


def results(fd: FakeDiscord, channel: Channel) -> list[Message]:
    return [m for m in fd.channel_messages(channel) if RESULT in m.content]


def stored(database: str, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(database, isolation_level=None)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


async def test_a_kill_before_the_result_is_posted_posts_it_after_the_restart_once(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        players = [fd.add_member(guild, name) for name in ("alice", "bob")]
        killed = BotProcess(fd, tmp_path, env={**QUIET, ENV: "settle.stored"})
        await killed.start()
        await fd.wait_until_ready()
        await (await fd.slash(players[0], poker, "table create")).reply()
        for user in players:
            await (await fd.slash(user, poker, "table join", buyin="150")).reply()
        turn = await fd.wait_for_message(lambda m: m.channel_id == poker.id and any(
            b.get("label") == "Fold" for b in m.buttons()), within=30)
        found = MENTION.search(turn.content)
        assert found is not None, turn.content
        await fd.click(fd.users[int(found[1])], turn, label="Fold")
        assert await killed.wait(within=30) == -signal.SIGKILL, killed.log
        assert results(fd, poker) == []
        assert stored(killed.database, "SELECT status, result_pending FROM hands") == [
            ("finished", 1)]

        fd.identified.clear()
        async with BotProcess(fd, tmp_path, env=QUIET) as bot:
            await bot.wait_for_log("Restored", 60)
            await fd.wait_until_ready()
            [late] = await fd.wait_until(lambda: results(fd, poker), 30, what="the result")
            assert LATE in late.content, late.content
            assert CARD_TOKEN.findall(late.content) == [], late.content  # a fold: none shown
            assert "wins" in late.content, late.content
            await fd.wait_until(lambda: any(  # the next hand is dealt after it
                "**Hand #2**" in m.content for m in fd.channel_messages(poker)), 30,
                what="hand #2")
            assert await bot.stop() == 0
        pending = "SELECT number, result_pending FROM hands WHERE number = 1"
        assert stored(bot.database, pending) == [(1, 0)]
        # as if killed after Discord took the result, before the database heard of it
        stored(bot.database, "UPDATE hands SET result_pending = 1 WHERE number = 1")

        fd.identified.clear()
        async with BotProcess(fd, tmp_path, env=QUIET) as again:
            await again.wait_for_log("Restored", 60)
            await fd.wait_until_ready()
            await fd.wait_until(lambda: any("Hand #2 resumes." in m.content
                                            for m in fd.channel_messages(poker)), 30,
                                what="hand #2 resumed")
            assert [m.id for m in results(fd, poker)] == [late.id]  # found there: not again
            assert await again.stop() == 0
        assert stored(bot.database, pending) == [(1, 0)]
        assert fd.unhandled == []
    assert "OK" in await audit(bot.database)


async def test_a_kill_in_the_middle_of_the_migrations_loses_nothing(tmp_path: Path) -> None:
    newest = len(load_migrations())
    database = str(tmp_path / "bot.sqlite3")
    assert open_in_a_child(database, upto=newest - 2) == 0  # an older bot's database
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        lobby = fd.add_channel(guild, "lobby")
        alice = fd.add_member(guild, "alice")
        conn = sqlite3.connect(database, isolation_level=None)
        conn.execute("INSERT INTO wallets (guild_id, user_id, balance, created_at)"
                     " VALUES (?, ?, 12345, 0)", (guild.id, alice.id))
        conn.execute("INSERT INTO ledger (guild_id, at, kind, amount, src, dst, user_id)"
                     " VALUES (?, 0, 'start', 12345, 'mint', ?, ?)",
                     (guild.id, f"wallet:{alice.id}", alice.id))
        conn.close()
        killed = BotProcess(fd, tmp_path, env={**QUIET, ENV: "migrate.writing:2"})
        await killed.start()
        assert await killed.wait(within=60) == -signal.SIGKILL, killed.log
        versions = "SELECT version FROM schema_migrations ORDER BY version"
        assert [v for (v,) in stored(database, versions)] == list(range(1, newest))

        async with BotProcess(fd, tmp_path, env=QUIET) as bot:
            await fd.wait_until_ready()
            balance = await (await fd.slash(alice, lobby, "balance")).reply()
            assert balance.content == "You have 12,345 chips.", balance.content
            assert await bot.stop() == 0
        assert [v for (v,) in stored(database, versions)] == list(range(1, newest + 1))
    assert "OK" in await audit(database)
