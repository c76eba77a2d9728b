"""The offline Discord's gateway cut and back (bot/offline/gateway.py): the bot is told
as discord.py tells it, and hears nothing meanwhile."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.sharding import shard_of
from tests.conftest import Harness


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy")


def record(h: Harness, *names: str) -> list[tuple[str, tuple[Any, ...]]]:
    """The gateway events ``names`` the bot is told from now on, in order."""
    told: list[tuple[str, tuple[Any, ...]]] = []
    for name in names:

        async def listener(*args: Any, name: str = name) -> None:
            told.append((name, args))

        h.bot.add_listener(listener, f"on_{name}")
    return told


async def test_one_connection_cut_resumed_and_a_new_session(harness: Harness) -> None:
    """Cut: on_disconnect, and a command meanwhile never reaches the bot (Discord fails it
    for the member; the harness does not count it unanswered). Resumed: on_resumed. Cut
    again and back on a new session: on_connect then on_ready, and commands work."""
    h = harness
    told = record(h, "disconnect", "resumed", "connect", "ready")
    seen: list[int] = []

    async def heard(interaction: discord.Interaction[Any]) -> None:
        seen.append(interaction.id)

    h.bot.add_listener(heard, "on_interaction")
    await h.drop_gateway()
    lost = await h.slash(h.alice, "balance")
    assert not lost.acknowledged and seen == []
    await h.restore_gateway()
    assert [n for n, _ in told] == ["disconnect", "resumed"]
    await h.drop_gateway()
    await h.restore_gateway(resume=False)
    assert [n for n, _ in told] == ["disconnect", "resumed", "disconnect", "connect", "ready"]
    reply = await h.slash(h.alice, "balance")
    assert reply.text == "You have 10,000 chips." and len(seen) == 1
    assert h.bot.get_guild(h.guild.id) is not None  # the servers came back with READY


@pytest.mark.parametrize("shards", [2])
async def test_one_shard_cut_the_other_hears(harness: Harness) -> None:
    """Sharded: the cut shard's on_shard_disconnect (with on_disconnect beside it), its
    server's commands lost meanwhile while the other shard's arrive; resumed:
    on_shard_resumed with its id."""
    h = harness
    down = shard_of(h.guild.id, 2)
    other = h.env.create_guild("Other Club", shard_id=1 - down)
    bob_there = other.add_member(h.bob.user)
    told = record(h, "shard_disconnect", "shard_resumed")
    await h.drop_gateway(down)
    assert not (await h.slash(h.alice, "balance")).acknowledged
    there = other.create_text_channel("general")
    assert (await h.slash(bob_there, "balance", channel=there)).acknowledged
    await h.restore_gateway(down)
    assert told == [("shard_disconnect", (down,)), ("shard_resumed", (down,))]
    assert (await h.slash(h.alice, "balance")).acknowledged
