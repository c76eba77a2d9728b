"""The offline Discord answers followups after a "thinking…" as Discord documents.

Discord's "Create Followup Message" (discord/discord-api-docs,
docs/interactions/receiving-and-responding): directly after a deferred response
(``DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE``) a followup "will function as Edit Original
Interaction Response ... The ephemeral flag will be ignored, and the value you provided
in the initial defer response will be preserved". The bot's code relies on the offline
Discord (simcord, :mod:`bot.offline`) holding to it: a test command added to the bot's
tree defers, then follows up, and the test reads what members would see.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from tests.conftest import Harness

#: What the probe did with each step's REST answer: "ok" or the error code.
SEEN: list[str] = []


async def _try(request: Any) -> None:
    try:
        await request
        SEEN.append("ok")
    except discord.HTTPException as exc:
        SEEN.append(str(exc.code))


@app_commands.command(name="probe", description="Defer, then follow up (a test command)")
async def probe(interaction: discord.Interaction[Any], way: str) -> None:
    """``way``: "public" or "private" deferral, then "-followup" (an ephemeral one after a
    public deferral, a public one after a private), "-delete" first, or "-edit" first."""
    public = way.startswith("public")
    await interaction.response.defer(ephemeral=not public, thinking=True)
    if way.endswith("-delete"):
        await _try(interaction.delete_original_response())
    if way.endswith("-edit"):
        await _try(interaction.edit_original_response(content="edited"))
    await _try(interaction.followup.send("followup", ephemeral=public))


@pytest.fixture
async def probing(harness: Harness) -> Harness:
    SEEN.clear()
    harness.bot.tree.add_command(probe)
    await harness.bot.tree.sync()
    return harness


@pytest.mark.parametrize("public", [True, False])
async def test_the_first_followup_edits_the_thinking_and_keeps_its_visibility(
    probing: Harness, public: bool,
) -> None:
    h = probing
    way = "public" if public else "private"
    reply = await h.slash(h.alice, "probe", way=f"{way}-followup")
    assert SEEN == ["ok"]
    assert reply.texts == ["followup"], reply  # no new message: the "thinking…" became it
    assert reply.ephemeral is not public
    in_channel = [m.content for m in h.public_messages()]
    assert ("followup" in in_channel) is public


async def test_a_deleted_thinking_leaves_the_followup_nothing_to_edit(probing: Harness) -> None:
    """Deleting a public "thinking…" is no way to send the next answer privately."""
    h = probing
    h.allow_unanswered = True  # the deleted "thinking…" stays a deferral never completed
    reply = await h.slash(h.alice, "probe", way="public-delete")
    assert SEEN == ["ok", "10008"], SEEN  # 404 Unknown Message
    assert reply.texts == [] and "followup" not in reply.all_text


@pytest.mark.parametrize("public", [True, False])
async def test_after_an_edit_a_followup_is_a_new_message_with_its_own_flags(
    probing: Harness, public: bool,
) -> None:
    h = probing
    way = "public" if public else "private"
    reply = await h.slash(h.alice, "probe", way=f"{way}-edit")
    assert SEEN == ["ok", "ok"]
    assert reply.texts == ["edited", "followup"], reply
    assert reply.result.response.ephemeral is not public
    assert reply.result.followups[0].ephemeral is public
