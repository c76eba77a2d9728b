"""A public answer is posted only where the member may post it themselves (issue 29),
through the offline Discord.

``/leaderboard``, ``/hand replay public``, a public ``/stats`` and a public ``/balance``
are the member speaking through the bot (and ``/table create`` and ``/tournament create``:
a table and a tournament post in their creator's channel): the member's own Send Messages
(Send Messages in Threads in a thread) and, for a picture, Attach Files in that channel,
read from the interaction (``interaction.permissions``: what Discord computes from the
channel's overwrites, as the offline Discord does), are checked first. Without them the command is
refused privately, at once (no deferral, nothing drawn, no turn of the cooldown spent),
naming what is missing in the reader's language, and nothing is posted.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.offline.harness import Actor
from tests.cogs.test_hands import play_out
from tests.cogs.test_table import PAUSE, open_table
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio

#: Discord's interaction callback "channel message with source", and the ephemeral flag.
MESSAGE_WITH_SOURCE = 4
EPHEMERAL = 64


async def refused(h: Harness, actor: Actor, command: str, **options: Any) -> str:
    """Run ``/command``: its refusal, after checking that the bot's only request was the
    private answer itself (nothing deferred, posted, drawn or edited)."""
    start, posted = len(h.requests()), len(h.public_messages(options.get("channel")))
    reply = await h.slash(actor, command, **options)
    await h.settle()
    made = h.requests()[start:]
    assert [(r.method, r.path.rsplit("/", 1)[-1]) for r in made] == [("POST", "callback")], made
    assert made[0].json["type"] == MESSAGE_WITH_SOURCE, made[0].json
    assert made[0].json["data"]["flags"] & EPHEMERAL, made[0].json
    assert len(h.public_messages(options.get("channel"))) == posted
    return reply.text


async def test_a_member_without_send_messages_posts_no_leaderboard(harness: Harness) -> None:
    h = harness
    h.overwrite(h.channel, h.dave, deny=("send_messages",))
    text = await refused(h, h.dave, "leaderboard")
    assert text == ("Nothing was posted: you do not have the Send Messages permission in this"
                    " channel, and I post here for you only what you could post yourself.")
    h.set_locale(h.dave, "pt-BR")
    assert "você não tem a permissão Enviar mensagens" in await refused(h, h.dave, "leaderboard")
    # no turn was spent: allowed again, he gets his leaderboard at once
    h.overwrite(h.channel, h.dave, allow=("send_messages",))
    shown = await h.slash(h.dave, "leaderboard")
    assert not shown.ephemeral and len(await shown.images()) == 1


async def test_a_picture_needs_attach_files_too(harness: Harness) -> None:
    h = harness
    h.overwrite(h.channel, h.dave, deny=("attach_files",))
    assert "the Attach Files permission" in await refused(h, h.dave, "leaderboard")
    assert "the Attach Files permission" in await refused(h, h.dave, "stats", user=h.alice)
    # a balance is text: Send Messages is enough
    shown = await h.slash(h.dave, "balance", user=h.alice)
    assert not shown.ephemeral and "alice has" in shown.text
    mine = await h.slash(h.dave, "stats")  # his own, privately: nothing is posted
    assert mine.ephemeral


async def test_both_missing_are_named(harness: Harness) -> None:
    h = harness
    muted = h.add_role("Muted", h.dave)
    h.overwrite(h.channel, muted, deny=("send_messages", "attach_files"))
    text = await refused(h, h.dave, "stats", public=True)
    assert "the Send Messages and Attach Files permissions" in text
    assert "the Send Messages permission" in await refused(h, h.dave, "balance", public=True)
    assert (await h.slash(h.dave, "balance")).ephemeral  # privately: nothing posted


async def test_in_a_thread_send_messages_in_threads_decides(harness: Harness) -> None:
    """In a thread Discord checks Send Messages in Threads (set on its parent), not Send
    Messages."""
    h = harness
    thread = h.add_thread("side")
    h.overwrite(h.channel, h.dave, deny=("send_messages",))
    shown = await h.slash(h.dave, "leaderboard", channel=thread)
    assert not shown.ephemeral and len(await shown.images()) == 1
    h.overwrite(h.channel, h.carol, deny=("send_messages_in_threads",))
    text = await refused(h, h.carol, "leaderboard", channel=thread)
    assert "the Send Messages in Threads permission" in text
    assert not (await h.slash(h.carol, "leaderboard")).ephemeral  # the channel itself: yes


async def test_a_public_replay_is_refused_and_a_private_one_still_drawn(
    harness: Harness,
) -> None:
    h = harness
    await open_table(h)
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await play_out(h, 1)
    for denied, named in (("send_messages", "Send Messages"), ("attach_files", "Attach Files")):
        h.overwrite(h.channel, h.alice, deny=(denied,))
        text = await refused(h, h.alice, "hand replay", number=1, public=True)
        assert f"the {named} permission" in text, text
    private = await h.slash(h.alice, "hand replay", number=1)
    assert private.ephemeral and [n for n, _ in await private.files()] == ["hand-1.gif"]


async def test_no_table_or_tournament_opens_where_its_creator_may_not_post(
        harness: Harness) -> None:
    """A table and a tournament post in their creator's name (the table, its
    announcements): not where the creator could not post a message themselves."""
    h = harness
    h.overwrite(h.channel, h.dave, deny=("send_messages",))
    for command, options in (("table create", {}), ("tournament create", {"buy_in": 100})):
        text = await refused(h, h.dave, command, **options)
        assert "the Send Messages permission" in text, text
    assert h.bot.registry is not None and not h.bot.registry.all()
    assert not h.bot.tournaments.all()
    h.overwrite(h.channel, h.dave, allow=("send_messages",))
    assert not (await h.slash(h.dave, "table create")).ephemeral
