"""`python -m bot` opens a multi-table tournament's tables as threads on the fake Discord."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.process import REPO


async def test_a_full_multi_table_tournament_opens_its_threads_over_the_wire(
    tmp_path: Path,
) -> None:
    """Eleven players register for tables of 6: the last entry's answer is deferred, the
    bot opens two public threads under the channel (a week's auto-archive), names them in
    the answer and deals in each; it stops cleanly and no request went unanswered."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        players = [fd.add_member(guild, f"p{i}") for i in range(11)]
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            created = await (await fd.slash(players[0], poker, "tournament create",
                                            buy_in=100, entrants=11, table_size=6)).reply()
            assert "Registration is open" in created.content, created.content
            for player in players[:-1]:
                await (await fd.slash(player, poker, "tournament join")).reply()
            last = await fd.slash(players[-1], poker, "tournament join")
            answer = await last.reply(within=20.0)
            assert last.callback_type == 5  # deferred: the start opens threads first
            threads = [c for c in fd.channels.values() if c.parent_id == poker.id]
            assert sorted(t.name or "" for t in threads) == [
                "Tournament #1 - table 1", "Tournament #1 - table 2"]
            assert all(t.type == 11 and t.auto_archive_duration == 10080 for t in threads)
            assert all(f"<#{t.id}>" in answer.content for t in threads), answer.content
            for thread in threads:
                await fd.wait_for_message(
                    lambda m, t=thread: m.channel_id == t.id and "Table " in m.content,
                    within=20.0)
            code = await bot.stop()
        assert code == 0, bot.log
        assert fd.unhandled == []
    audit = await asyncio.create_subprocess_exec(  # the chips on both tables add up
        sys.executable, "-m", "bot", "audit", "--db", bot.database, cwd=REPO,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await audit.communicate()
    assert audit.returncode == 0 and "OK" in out.decode(), out.decode()
