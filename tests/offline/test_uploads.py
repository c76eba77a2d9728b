"""The offline Discord's upload limit: the one Discord tells with each interaction, and
its 413 (code 40005) for a larger file, on channel posts and interaction followups."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from bot.offline.uploads import DEFAULT, TOO_LARGE
from tests.conftest import Harness


def _file(size: int) -> discord.File:
    return discord.File(io.BytesIO(b"x" * size), filename="data.bin")


async def test_a_file_over_the_limit_is_refused_as_discord_refuses_it(harness: Harness) -> None:
    h = harness
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send(file=_file(2000))  # Discord's 10 MiB until a limit is set
    h.set_upload_limit(1000)
    await channel.send(file=_file(1000))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(file=_file(1001))
    assert refused.value.status == 413 and refused.value.code == TOO_LARGE
    assert [m.attachments[0].size for m in h.public_messages() if m.attachments] == [2000, 1000]


async def test_interactions_say_the_limit(harness: Harness) -> None:
    h = harness
    seen: list[int] = []

    async def told(interaction: discord.Interaction[Any]) -> None:
        seen.append(interaction.filesize_limit)

    h.bot.add_listener(told, "on_interaction")
    await h.slash(h.alice, "help")
    h.set_upload_limit(12345)
    await h.slash(h.alice, "help")
    assert seen == [DEFAULT, 12345]


async def test_the_default_is_discords_limit_of_a_server_without_boosts(harness: Harness) -> None:
    """10 MiB (Discord since 2024), not the 25 MiB simcord says."""
    channel = harness.bot.get_channel(harness.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send(file=_file(DEFAULT))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(file=_file(DEFAULT + 1))
    assert refused.value.status == 413 and refused.value.code == TOO_LARGE


async def test_a_description_over_1024_characters_is_refused_as_discord_refuses_it(
    harness: Harness,
) -> None:
    """Discord's attachment object: ``description`` (the alt text) is at most 1024
    characters; a longer one is 400 Invalid Form Body (50035) naming the field."""
    channel = harness.bot.get_channel(harness.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(file=discord.File(io.BytesIO(b"x"), filename="a.png",
                                                description="d" * 1024))
    assert sent.attachments[0].description == "d" * 1024
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(file=discord.File(io.BytesIO(b"x"), filename="b.png",
                                             description="d" * 1025))
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "attachments.0.description" in str(refused.value) or "1024" in str(refused.value)
    assert len([m for m in harness.public_messages() if m.attachments]) == 1
