"""Closed DMs through ``python -m bot`` and the fake Discord: Discord is asked once."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import BotProcess, FakeDiscord

#: Hands played with a closed-DM player, and the invalid requests allowed for them all.
HANDS = 3
BUDGET = 2


async def test_a_closed_dm_player_costs_one_invalid_request(tmp_path: Path) -> None:
    """Bob's DMs are closed and he acts every hand: the bot's DMs to him are refused once
    (403, 50007), not every hand; the fake counts every 401/403/429 it answers."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        players = [fd.add_member(guild, name) for name in ("alice", "bob", "carol")]
        fd.close_dms(players[1])
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            await (await fd.slash(players[0], poker, "table create")).reply()
            for p in players:
                await (await fd.slash(p, poker, "table join", buyin="200")).reply()
            acted = 0
            for number in range(1, HANDS + 1):
                await fd.wait_for_message(
                    lambda m, n=number: m.content.startswith(f"**Hand #{n}"), within=20)
                while not any(m.content.startswith(f"**Hand #{number} result")
                              for m in fd.channel_messages(poker)):
                    turn = await fd.wait_for_message(lambda m, a=acted: m.id > a and not m.deleted
                                                     and any(b.get("label") == "Fold"
                                                             for b in m.buttons()), within=20)
                    acted = turn.id
                    actor = next(p for p in players if p.mention in turn.content)
                    await (await fd.click(actor, turn, label="Fold")).answer()
                    await fd.wait_until(lambda t=turn: t.deleted or any(
                        m.id > t.id for m in fd.channel_messages(poker)), 20, what="the next")
            assert await bot.stop() == 0
        assert len(fd.invalid) <= BUDGET, fd.invalid
        dm_path = f"/channels/{fd.dm_channel(players[1]).id}/messages"
        refused = [r for r in fd.invalid if r[0] == 403 and r[2] == dm_path]
        assert len(refused) == 1, fd.invalid
        assert len(fd.dms(players[0])) >= HANDS
