"""`python -m bot`, unchanged, over the fake Discord: a table's channel deleted mid-hand.

The hand is played out by the clock's rule (RULES.md 7: the small blind, to act,
folds on the timeout), every stack goes back (``/balance`` from another channel,
then ``python -m bot audit`` on the database the process leaves), each player gets
a DM with the hand's result, and the bot sends nothing more to the deleted channel.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakediscord import BotProcess, FakeDiscord
from tests.test_process_hand import audit


async def test_a_channel_deleted_mid_hand_plays_it_out(tmp_path: Path) -> None:
    """Two players, hand #1 running, #poker deleted: the small blind folds on the timeout,
    stacks back, DMs, no more requests."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        lobby = fd.add_channel(guild, "lobby")
        alice, bob = fd.add_member(guild, "alice"), fd.add_member(guild, "bob")
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            await (await fd.slash(alice, poker, "table create")).reply()
            for user in (alice, bob):
                await (await fd.slash(user, poker, "table join", buyin="150")).reply()
            await fd.wait_until(
                lambda: any("your turn" in m.content for m in fd.channel_messages(poker)),
                15, what="the first turn",
            )
            await fd.delete_channel(poker)
            told: dict[str, str] = {}
            for user in (alice, bob):
                dm = await fd.wait_for_message(
                    lambda m, u=user: m.channel_id == fd.dm_channel(u).id
                    and "was closed" in m.content,
                )
                assert "in #poker was closed because the channel was deleted" in dm.content
                assert "hand #1 was played out by the clock's rule" in dm.content
                told[user.name] = dm.content
            # the small blind (1 of 1/2) folded to the big blind when its time was taken
            lost = {u for u, text in told.items() if "You lost 1 chip in it." in text}
            won = {u for u, text in told.items() if "You won 1 chip in it." in text}
            assert len(lost) == len(won) == 1 and lost | won == {"alice", "bob"}
            assert "Your 149 chips are back in your balance." in told[lost.pop()]
            assert "Your 151 chips are back in your balance." in told[won.pop()]
            dead = [r for r in fd.requests if f"/channels/{poker.id}" in r[1]]
            shown = {(await (await fd.slash(user, lobby, "balance")).reply()).content
                     for user in (alice, bob)}
            assert shown == {"You have 9,999 chips.", "You have 10,001 chips."}
            mine = await (await fd.slash(alice, lobby, "table mine")).reply()
            assert "no seat at any table" in mine.content
            await asyncio.sleep(0.5)  # let anything still queued go out before counting
            assert [r for r in fd.requests if f"/channels/{poker.id}" in r[1]] == dead
            assert await bot.stop() == 0
        assert fd.unhandled == []
    assert "OK" in await audit(bot.database)
