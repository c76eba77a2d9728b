"""Interactions are answered before any network work, even when every request is slow.

``python -m bot`` runs unchanged against the fake Discord with a 350 ms delay
on every REST route (a far-away or loaded connection). Discord drops an
interaction not answered within 3 seconds; the last ``/tournament join`` of a
ten-player sit-and-go starts the tournament, which used to look up each
entrant's name over REST first (ten round trips: 3.5 s).
"""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.payloads import Message
from tests.fakediscord.server import Interaction

#: Discord's deadline for the first answer to an interaction.
DEADLINE = 3.0
ROUND_TRIP = 0.35


async def public_answer(fd: FakeDiscord, it: Interaction) -> Message:
    """The join's public message: a followup posted once the private "thinking…" became
    its copy (which is then deleted; :func:`bot.adapter.polite.announce`)."""
    def posted() -> Message | None:
        if it.original is not None and not it.original.deleted:
            return None  # the private copy goes last
        return next((m for m in it.followups if not m.ephemeral and not m.deleted), None)

    await it.answer(within=20)
    return await fd.wait_until(posted, 20, what="the public answer of a join")


async def test_last_tournament_join_is_answered_in_time_despite_latency(tmp_path: Path) -> None:
    """Each join, the last one included, answers with no REST request before its callback."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        players = [fd.add_member(guild, f"player{i}") for i in range(10)]
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            created = await fd.slash(players[0], poker, "tournament create", buy_in=100,
                                     entrants=10)
            assert "Registration is open" in (await created.reply()).content
            fd.delay("*", r"/.*", ROUND_TRIP)
            joins = []
            for player in players:
                it = await fd.slash(player, poker, "tournament join")
                await public_answer(fd, it)  # the join's work is done before the next one
                joins.append(it)
            last = joins[-1]
            assert "starts now" in (await public_answer(fd, last)).content
            for it in joins:
                assert it.requests_before_answer == [], it.requests_before_answer
            assert last.answer_time is not None and last.answer_time < DEADLINE, (
                last.answer_time
            )
            assert await bot.stop() == 0
        assert fd.unhandled == []
