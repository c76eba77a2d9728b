"""The in-process offline Discord refuses what Discord refuses (bot/offline/refusals.py + simcord).

Bodies go through the bot's real discord.py HTTP client as raw JSON (so that
discord.py's own client-side checks do not hide the server's answer).
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route
from simcord.components import ComponentValidationError, validate_modal

from bot.offline.refusals import component_emoji_errors, emoji_problem
from tests.conftest import Harness
from tests.limit_cases import MESSAGE_CASES, MODAL_CASES


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors",)


async def post(h: Harness, body: dict[str, Any], channel_id: int | None = None) -> Any:
    route = Route(
        "POST", "/channels/{channel_id}/messages", channel_id=channel_id or h.channel.id
    )
    return await h.bot.http.request(route, json=body)


@pytest.mark.parametrize(
    "at_limit, over_limit, field",
    [case[1:] for case in MESSAGE_CASES],
    ids=[case[0] for case in MESSAGE_CASES],
)
@pytest.mark.off_contract("a body one step over Discord's limits, sent to see it refused")
async def test_message_limits(
    harness: Harness, at_limit: dict[str, Any], over_limit: dict[str, Any], field: str
) -> None:
    """A body at Discord's limit is posted; one step over gets 400 Invalid Form Body (50035)."""
    h = harness
    posted = await post(h, at_limit)
    assert int(posted["channel_id"]) == h.channel.id
    with pytest.raises(discord.HTTPException) as refused:
        await post(h, over_limit)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert field in refused.value.text, refused.value.text
    assert len(h.public_messages()) == 1  # the refused one was not posted


async def test_my_cards_glyph_is_refused_and_the_joker_accepted(harness: Harness) -> None:
    """A button with 🂠 (U+1F0A0) gets Discord's 400 "Invalid emoji" with its path; 🃏 posts."""
    h = harness
    channel = h.bot.get_partial_messageable(h.channel.id, guild_id=h.guild.id)
    bad = discord.ui.View()
    bad.add_item(discord.ui.Button(label="My cards", emoji="🂠", custom_id="cards"))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("hand", view=bad)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "components.0.components.0.emoji.name: Invalid emoji" in refused.value.text
    good = discord.ui.View()
    good.add_item(discord.ui.Button(label="My cards", emoji="🃏", custom_id="cards"))
    message = await channel.send("hand", view=good)
    assert message.components


async def test_an_edit_with_an_invalid_emoji_is_refused(harness: Harness) -> None:
    """Edits are checked like posts: adding a 🂠 button to a message fails and changes nothing."""
    h = harness
    channel = h.bot.get_partial_messageable(h.channel.id, guild_id=h.guild.id)
    message = await channel.send("hand")
    bad = discord.ui.View()
    bad.add_item(discord.ui.Button(label="My cards", emoji="🂠", custom_id="cards"))
    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(content="edited", view=bad)
    assert refused.value.code == 50035
    assert h.public_messages()[0].content == "hand"


@pytest.mark.parametrize(
    "value, problem",
    [
        ({"name": "🃏"}, None),
        ({"name": "♠"}, None),
        ({"name": "❤️"}, None),
        ({"name": "👍🏽"}, None),
        ({"name": "🇫🇷"}, None),
        ({"name": "poker_chip", "id": "123456789012345678", "animated": False}, None),
        ({"id": 123456789012345678}, None),
        ({"name": "🂠"}, ("name", "Invalid emoji")),
        ({"name": "A"}, ("name", "Invalid emoji")),
        ({"name": "🃏🃏"}, ("name", "Invalid emoji")),
        ({"name": ""}, ("name", "Invalid emoji")),
        ({}, ("name", "Invalid emoji")),
        ({"name": "x", "id": "123"}, ("name", "Invalid emoji")),
        ({"name": "ok_name", "id": "12a"}, ("id", "Value is not snowflake.")),
        ({"name": "ok_name", "id": 0}, ("id", "Value is not snowflake.")),
        ({"name": "ok_name", "id": True}, ("id", "Value is not snowflake.")),
        ({"name": "🃏", "animated": "yes"}, ("animated", "Must be a boolean")),
        ("🃏", ("", "Must be an object")),
    ],
)
def test_emoji_rule(value: Any, problem: tuple[str, str] | None) -> None:
    """Unicode emoji must be real emoji; custom ones need a snowflake id and a 2-32 word name."""
    assert emoji_problem(value) == problem


def test_emoji_paths_reach_nested_items_and_select_options() -> None:
    """Every emoji of a message is found, with Discord's dotted path."""
    rows = [
        {"type": 1, "components": [{"type": 2, "emoji": {"name": "🃏"}}, {"type": 2}]},
        {"type": 1, "components": [
            {"type": 2, "emoji": {"name": "🂠"}},
            {"type": 3, "options": [{"emoji": {"name": "♠"}}, {"emoji": {"name": "🂡"}}]},
        ]},
    ]
    assert component_emoji_errors(rows) == [
        ("components.1.components.0.emoji.name", "Invalid emoji"),
        ("components.1.components.1.options.1.emoji.name", "Invalid emoji"),
    ]


@pytest.mark.parametrize(
    "at_limit, over_limit, field",
    [case[1:] for case in MODAL_CASES],
    ids=[case[0] for case in MODAL_CASES],
)
def test_modal_limits(at_limit: dict[str, Any], over_limit: dict[str, Any], field: str) -> None:
    """simcord's modal check (what its callback route answers 400 with) holds Discord's limits."""
    validate_modal(at_limit)
    with pytest.raises(ComponentValidationError, match=field):
        validate_modal(over_limit)


def png() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n"), filename="table.png")


async def test_attach_files_and_embed_links_are_enforced(harness: Harness) -> None:
    """Without Attach Files uploads get 403 (50013); without Embed Links embeds go or fail."""
    h = harness
    channel = h.bot.get_partial_messageable(h.channel.id, guild_id=h.guild.id)
    await channel.send("picture", file=png())  # allowed by default
    h.deny_bot("attach_files", "embed_links")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("picture", file=png())
    assert refused.value.code == 50013
    message = await channel.send("text")
    with pytest.raises(discord.Forbidden):
        await message.edit(attachments=[png()])
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send(embed=discord.Embed(title="only an embed"))
    assert refused.value.code == 50013
    kept = await channel.send("with text", embed=discord.Embed(title="dropped"))
    assert kept.content == "with text" and not h.public_messages()[-1].embeds


async def test_send_view_and_history_permissions(harness: Harness) -> None:
    """Send Messages (403 50013), View Channel (403 50001), Read Message History on reads."""
    h = harness
    other = h.add_channel("other")
    channel = h.bot.get_partial_messageable(other.id, guild_id=h.guild.id)
    message = await channel.send("hello")
    h.deny_bot("read_message_history", channel=other)
    with pytest.raises(discord.Forbidden):
        await channel.fetch_message(message.id)
    h.deny_bot("send_messages", channel=other)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("again")
    assert refused.value.code == 50013
    h.deny_bot("view_channel", channel=other)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("again")
    assert refused.value.code == 50001


async def test_threads_need_send_messages_in_threads(harness: Harness) -> None:
    """In a thread Discord checks Send Messages in Threads (from the parent), not Send Messages."""
    h = harness
    thread = h.add_thread("high stakes")
    channel = h.bot.get_partial_messageable(thread.id, guild_id=h.guild.id)
    h.deny_bot("send_messages")
    await channel.send("still fine in the thread")
    h.deny_bot("send_messages_in_threads")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("refused")
    assert refused.value.code == 50013
    assert [m.content for m in thread.history()] == ["still fine in the thread"]
