"""Visibility follows Discord's (issue 22, bot/adapter/visibility.py), offline.

A private channel's tables and hands are shown by the read commands (``/hands``,
``/hand show|export|verify``, ``/table info``, ``/table mine``) and the
autocompletes only to members who may view that channel, computed from its
permission overwrites like Discord: @everyone, then the member's roles (deny then
allow), then the member; administrators see everything.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.runtime.config import TableConfig
from tests.cogs.test_hands import play_out
from tests.cogs.test_table import PAUSE, open_table
from tests.conftest import Harness

ADMIN = discord.Permissions(administrator=True)


async def _private_poker(h: Harness) -> int:
    """alice and bob play hand #1 at #poker's table; then #poker is hidden from dave (his
    role's overwrite denies View Channel) and erin (a member overwrite denies it), while
    carol (in the same role, allowed by her member overwrite) and frank (an administrator
    denied as a member) still see it. The table's id."""
    await open_table(h)
    for actor in (h.alice, h.bob):
        assert (await h.slash(actor, "table join", buyin="200")).ephemeral
    await h.advance(PAUSE + 0.1)
    await play_out(h, 1)
    for name in ("erin", "frank"):
        h.add_member(name)
    guests = h.add_role("Guests", h.dave, h.carol)
    admins = h.add_role("Admins", h.members["frank"], permissions=ADMIN)
    assert admins.id
    h.overwrite(h.channel, guests, deny=("view_channel",))
    h.overwrite(h.channel, h.members["erin"], deny=("view_channel",))
    h.overwrite(h.channel, h.carol, allow=("view_channel",))
    h.overwrite(h.channel, h.members["frank"], deny=("view_channel",))
    await h.settle()
    return h.bot.registry.in_channel(h.channel.id).table_id


def _hidden(h: Harness) -> list[Any]:
    return [h.dave, h.members["erin"]]


def _seeing(h: Harness) -> list[Any]:
    return [h.alice, h.carol, h.members["frank"]]


async def test_the_offline_discord_hides_the_channel_as_discord_does(harness: Harness) -> None:
    """The members denied View Channel cannot act in #poker; the others can."""
    h = harness
    await _private_poker(h)
    for actor in _hidden(h):
        assert actor.available_commands(h.channel) == (), actor
    for actor in _seeing(h):
        assert "hands" in actor.available_commands(h.channel), actor


async def test_hands_lists_the_private_channels_hands_only_to_who_sees_it(
    harness: Harness,
) -> None:
    h = harness
    await _private_poker(h)
    lobby = h.add_channel("lobby")
    for actor in _hidden(h):
        for options in ({}, {"player": h.alice}):
            reply = await h.slash(actor, "hands", channel=lobby, **options)
            assert reply.ephemeral and "#1" not in reply.text, reply
            assert "no finished hand" in reply.text or "no hand" in reply.text, reply.text
            assert not reply.buttons
        for command in ("hand show", "hand export", "hand verify", "hand replay"):
            # elsewhere: that channel's
            reply = await h.slash(actor, command, channel=lobby, number=1)
            assert reply.ephemeral and reply.text == "There is no hand #1 in this channel."
    for actor in _seeing(h):
        reply = await h.slash(actor, "hands", channel=lobby)
        assert reply.ephemeral and "**#1**" in reply.text, reply
        [button] = reply.buttons
        assert reply.message is not None
        opened = await h.click(actor, reply.message, custom_id=button["custom_id"])
        assert opened.ephemeral and "**Hand #1**" in opened.all_text, opened


async def test_a_hands_button_refuses_once_the_channel_is_hidden(harness: Harness) -> None:
    """dave listed the hands while he could see #poker: his button then says the same
    as for a hand that does not exist, and shows nothing of it."""
    h = harness
    await open_table(h)
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await play_out(h, 1)
    lobby = h.add_channel("lobby")
    listing = await h.slash(h.dave, "hands", channel=lobby)
    [button] = listing.buttons
    h.overwrite(h.channel, h.dave, deny=("view_channel",))
    await h.settle()
    assert listing.message is not None
    opened = await h.click(h.dave, listing.message, custom_id=button["custom_id"])
    assert opened.ephemeral and opened.text == "There is no such hand in this channel.", opened
    assert not opened.embeds and not await opened.images()


async def test_a_public_replay_asked_from_elsewhere_posts_nothing(harness: Harness) -> None:
    """Hidden from #poker, dave asks in the lobby for hand #1 in public: the same words as
    for a hand that does not exist, and no message in either channel. (Discord itself keeps
    him from clicking the Replay button of a /hand show in a channel he no longer sees.)"""
    h = harness
    await _private_poker(h)
    lobby = h.add_channel("lobby")
    posted = len(h.public_messages())
    for actor in _hidden(h):
        asked = await h.slash(actor, "hand replay", channel=lobby, number=1, public=True)
        assert asked.ephemeral and asked.text == "There is no hand #1 in this channel."
        assert not await asked.files()
    assert len(h.public_messages()) == posted and not h.public_messages(lobby)


async def test_hand_show_export_verify_in_the_channel_for_who_sees_it(harness: Harness) -> None:
    """carol, allowed by her member overwrite, reads hand #1 in #poker like anyone there."""
    h = harness
    await _private_poker(h)
    for actor in (h.carol, h.members["frank"]):
        shown = await h.slash(actor, "hand show", number=1)
        assert shown.ephemeral and "**Hand #1**" in shown.all_text, shown
        export = await h.slash(actor, "hand export", number=1)
        assert [name for name, _ in await export.files()] == ["hand-1.phh"]
        verified = await h.slash(actor, "hand verify", number=1)
        assert verified.ephemeral and "#1" in verified.text, verified


async def test_table_info_and_autocomplete_hide_the_private_table(harness: Harness) -> None:
    h = harness
    table_id = await _private_poker(h)
    lobby = h.add_channel("lobby")
    nothing = await h.slash(h.dave, "table info", channel=lobby, table=table_id + 100)
    for actor in _hidden(h):
        assert await actor.autocomplete(lobby, "table info", "table", "") == []
        assert await actor.autocomplete(lobby, "table info", "table", "poker") == []
        reply = await h.slash(actor, "table info", channel=lobby, table=table_id)
        assert reply.ephemeral and reply.text == nothing.text, reply
        assert "alice" not in reply.text and "<#" not in reply.text
    for actor in _seeing(h):
        offered = await actor.autocomplete(lobby, "table info", "table", "")
        assert [c["value"] for c in offered] == [table_id], actor
        reply = await h.slash(actor, "table info", channel=lobby, table=table_id)
        assert f"Table {table_id} in <#{h.channel.id}>" in reply.text and "alice" in reply.text


async def test_a_player_who_loses_sight_of_the_table_still_leaves_it(harness: Harness) -> None:
    """alice sits at #poker's table, then a member overwrite hides #poker from her:
    /table mine, /table info and the autocompletes show nothing of it, and /table leave
    still gives her chips back."""
    h = harness
    await open_table(h)
    await h.slash(h.alice, "table join", buyin="100")
    lobby = h.add_channel("lobby")
    assert f"<#{h.channel.id}>" in (await h.slash(h.alice, "table mine", channel=lobby)).text
    h.overwrite(h.channel, h.alice, deny=("view_channel",))
    await h.settle()
    mine = await h.slash(h.alice, "table mine", channel=lobby)
    assert mine.ephemeral and "no seat at any table" in mine.text, mine
    info = await h.slash(h.alice, "table info", channel=lobby)
    assert info.ephemeral and "no seat at a table in this server" in info.text, info
    for command in ("table info", "table leave"):
        assert await h.alice.autocomplete(lobby, command, "table", "") == []
    before = await h.balance(h.alice)
    left = await h.slash(h.alice, "table leave", channel=lobby)
    assert left.ephemeral and await h.balance(h.alice) == before + 100, left


async def test_role_allow_beats_everyone_deny_and_member_overwrites_come_last(
    harness: Harness,
) -> None:
    """#vip denies @everyone and allows the VIP role; Muted denies at the role level too
    (a role allow wins over a role deny); member overwrites decide last; an administrator
    sees everything. The offline Discord and the bot agree on each member."""
    h = harness
    vip = h.add_channel("vip")
    await open_table(h, channel=vip)
    table_id = h.bot.registry.in_channel(vip.id).table_id
    for name in ("erin", "frank"):
        h.add_member(name)
    erin, frank = h.members["erin"], h.members["frank"]
    vips = h.add_role("VIP", h.alice, h.bob, erin)
    muted = h.add_role("Muted", h.bob)
    h.add_role("Admins", frank, permissions=ADMIN)
    h.overwrite(vip, None, deny=("view_channel",))
    h.overwrite(vip, vips, allow=("view_channel",))
    h.overwrite(vip, muted, deny=("view_channel",))
    h.overwrite(vip, h.carol, allow=("view_channel",))
    h.overwrite(vip, erin, deny=("view_channel",))
    h.overwrite(vip, frank, deny=("view_channel",))
    await h.settle()
    expected = {h.alice: True, h.bob: True, h.carol: True, h.dave: False, erin: False,
                frank: True}
    for actor, sees in expected.items():
        assert bool(actor.available_commands(vip)) is sees, actor
        offered = await actor.autocomplete(h.channel, "table info", "table", "")
        assert (table_id in [c["value"] for c in offered]) is sees, actor


async def test_private_threads_and_other_servers_stay_hidden(harness: Harness) -> None:
    """A table in a private thread is shown to its members only; a command run in another
    server shows nothing of this server's tables or hands. (``/table create`` refuses a
    private thread now, RULES.md 7; one opened there before that rule is still shown.)"""
    h = harness
    thread = h.add_thread("high-stakes", private=True, members=(h.alice, h.bob))
    table = await h.bot.registry.create(
        guild_id=h.guild.id, channel_id=thread.id, creator_id=h.alice.id,
        config=TableConfig.create())
    table_id = table.table_id
    for actor, sees in ((h.alice, True), (h.bob, True), (h.carol, False), (h.manager, False)):
        offered = await actor.autocomplete(h.channel, "table info", "table", "")
        assert (table_id in [c["value"] for c in offered]) is sees, actor
    other = h.env.create_guild("Other Club")
    there = other.create_text_channel("poker")
    alice_there = other.add_member(h.alice.user)
    assert await alice_there.autocomplete(there, "table info", "table", "") == []
    reply = await h.slash(alice_there, "table info", channel=there, table=table_id)
    assert reply.ephemeral and "no such table in this server" in reply.text, reply
    assert "no finished hand" in (await h.slash(alice_there, "hands", channel=there)).text
