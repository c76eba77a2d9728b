"""A refusal is seen by the player who asked, and by nobody else (issue 21).

Discord keeps a deferral's visibility for the first followup after it (which edits the
"thinking…"); deleting the "thinking…" does not change it (the offline Discord follows
that rule: ``tests/offline/test_followups.py``). So a command whose refusal can come only
after a wait (the database, a table's lock) defers privately and posts its public
outcome with :func:`bot.adapter.polite.announce`; a command deferred in public refuses
what it can before, and an error after it (a race, a bug) goes to the player alone
(:func:`bot.adapter.polite.send_private`). Each such path, refused and done.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.adapter.polite import PLACEHOLDER
from bot.i18n import Phrase
from bot.offline.harness import Reply
from bot.runtime.errors import TableError
from tests.conftest import Harness

PAUSE = 10.0


def only_to_the_player(h: Harness, reply: Reply, words: str, public_before: int) -> None:
    """The refusal is the player's own answer; the channel got nothing, not even a
    "thinking…" left behind."""
    assert reply.ephemeral and words in reply.text, reply
    public = h.public_messages()
    assert len(public) == public_before, [m.content for m in public[public_before:]]


def public_without_a_private_copy(h: Harness, reply: Reply, words: str) -> None:
    """The outcome is one public message; the private "thinking…" it replaced is gone."""
    assert not reply.ephemeral and words in reply.text, reply
    assert reply.result.response is None  # the private copy was deleted
    assert [m for m in h.public_messages() if words in m.content]
    assert not [m for m in reply.messages if m.ephemeral]


async def test_daily_and_chips_refusals_after_the_database_are_private(harness: Harness) -> None:
    h = harness
    before = len(h.public_messages())
    claimed = await h.slash(h.alice, "daily")
    only_to_the_player(h, claimed, "You claimed your daily bonus", before)
    again = await h.slash(h.alice, "daily")
    only_to_the_player(h, again, "already claimed", before)
    too_much = await h.slash(h.manager, "chips remove", user=h.bob, amount="1m", reason="r")
    only_to_the_player(h, too_much, "you cannot remove", before)
    given = await h.slash(h.manager, "chips grant", user=h.bob, amount="5", reason="prize")
    public_without_a_private_copy(h, given, "Gave 5")


async def test_table_settings_refused_privately_and_changed_publicly(harness: Harness) -> None:
    h = harness
    h.bot.registry.pause = PAUSE
    await h.slash(h.alice, "table create")
    before = len(h.public_messages())
    not_yours = await h.slash(h.bob, "table settings", clock=40)
    only_to_the_player(h, not_yours, "Only the table's creator", before)
    changed = await h.slash(h.alice, "table settings", clock=40)
    public_without_a_private_copy(h, changed, "40 s per decision")
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="100")
    await h.advance(PAUSE + 0.1)
    before = len(h.public_messages())
    in_hand = await h.slash(h.alice, "table settings", clock=50)
    only_to_the_player(h, in_hand, "only between hands", before)


async def test_tournament_refusals_after_the_wait_are_private(harness: Harness) -> None:
    h = harness
    await h.slash(h.alice, "tournament create", buy_in=100, entrants=4)
    joined = await h.slash(h.bob, "tournament join")
    public_without_a_private_copy(h, joined, "registers")
    before = len(h.public_messages())
    again = await h.slash(h.bob, "tournament join")
    only_to_the_player(h, again, "already registered", before)
    start = await h.slash(h.bob, "tournament start")
    only_to_the_player(h, start, "creator", before)
    cancel = await h.slash(h.bob, "tournament cancel")
    only_to_the_player(h, cancel, "creator", before)
    cancelled = await h.slash(h.alice, "tournament cancel")
    assert not cancelled.ephemeral and cancelled.result.response is None, cancelled


@pytest.mark.parametrize("command", ["table create", "tournament create"])
async def test_an_error_after_a_public_thinking_goes_to_the_player_alone(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, command: str,
) -> None:
    """Every refusal a player can cause is checked before a public "thinking…"; one that
    comes after all (two creators at once) is told privately and the public "thinking…"
    is removed, not edited into the refusal."""
    h = harness

    async def beaten(**_: Any) -> None:
        raise TableError(Phrase("refuse.channel_busy"))

    service = h.bot.registry if command == "table create" else h.bot.app.tournaments
    monkeypatch.setattr(service, "create", beaten)
    before = len(h.public_messages())
    options: dict[str, Any] = {"buy_in": 100} if command.startswith("tournament") else {}
    refused = await h.slash(h.alice, command, **options)
    only_to_the_player(h, refused, Phrase("refuse.channel_busy").to("en"), before)
    assert not [m for m in h.public_messages() if m.content == PLACEHOLDER]
