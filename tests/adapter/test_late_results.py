"""A result and the database's note that it was posted, through the offline Discord with
the real bot (bot/adapter/late_results.py, issue 33).

A kill between a settlement and its result is played here by the database's note: the
result's message removed and the note put back (the channel never got it), or only the
note put back (killed after Discord took it, before the database heard).
"""

from __future__ import annotations

import logging
import re

import pytest

from bot.adapter.views import hand_button_id
from bot.offline.harness import Message
from tests.card_text import WRITTEN
from tests.cogs.test_table import actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of
from tests.test_app_metrics import scrape, value

CARD = re.compile(rf"(?<![A-Za-z0-9]){WRITTEN}(?![A-Za-z0-9])")


async def fold_hand_one(h: Harness, **options: object) -> Message:
    """Hand #1 at a heads-up table, folded by the first to act: its result message."""
    await open_table(h, **options)
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(h.bot.registry.pause + 0.1)
    turn = turn_message(h)
    fold = next(str(b.custom_id) for b in buttons_of(turn) if str(b.custom_id).endswith(":fold"))
    await h.click(actor_of(h, turn), turn, custom_id=fold)
    await h.settle()
    [result] = results(h)
    return result


def results(h: Harness) -> list[Message]:
    """The channel's messages with hand #1's result (its Hand log button names it)."""
    return [m for m in h.public_messages()
            if any(b.custom_id == hand_button_id(1) for b in buttons_of(m))]


async def pending(h: Harness) -> list[int]:
    return await h.bot.db.read(lambda c: [r[0] for r in c.execute(
        "SELECT number FROM hands WHERE result_pending = 1")])


async def note_unposted(h: Harness) -> None:
    await h.bot.db.write(lambda c: c.execute("UPDATE hands SET result_pending = 1"))


async def test_the_note_is_cleared_once_discord_has_the_result(harness: Harness) -> None:
    h = harness
    await fold_hand_one(h)
    assert await pending(h) == []


async def test_a_result_the_channel_never_got_comes_after_the_restart_in_its_language(
    harness: Harness,
) -> None:
    h = harness
    first = await fold_hand_one(h, language="it")
    await h.bot.http.delete_message(h.channel.id, first.id)
    await note_unposted(h)
    await h.restart()
    await h.settle()
    [late] = results(h)
    lines = late.content.split("\n")
    assert lines[0].startswith("**Risultato della mano #1**"), late.content
    assert lines[1] == ("*Pubblicato dopo un riavvio: il bot si è fermato prima di poter "
                        "pubblicare questo risultato.*")
    assert [lines[0], *lines[2:]] == first.content.split("\n")  # the same result
    assert CARD.findall(late.content) == []  # folded: no card shown
    assert await pending(h) == []
    # counted by the process that played it, not again by the one that posted it late
    assert value(scrape(h.bot.metrics), "omaha_hands_total",
                 variant="omaha", structure="pot limit") == 0


async def test_a_result_already_in_the_channel_is_not_posted_again(harness: Harness) -> None:
    h = harness
    first = await fold_hand_one(h)
    await note_unposted(h)
    await h.restart()
    await h.settle()
    assert [m.id for m in results(h)] == [first.id]
    assert await pending(h) == []


async def test_a_closed_tables_result_the_channel_never_got_comes_after_the_restart_once(
    harness: Harness,
) -> None:
    h = harness
    first = await fold_hand_one(h, language="it")
    assert "closed" in (await h.slash(h.alice, "table close")).text
    await h.settle()
    await h.bot.http.delete_message(h.channel.id, first.id)
    await note_unposted(h)
    await h.restart()
    await h.settle()
    [late] = results(h)
    lines = late.content.split("\n")
    assert lines[1].startswith("*Pubblicato dopo un riavvio"), late.content
    assert [lines[0], *lines[2:]] == first.content.split("\n")
    assert h.public_messages()[-1].id == late.id  # after the table's closing message
    assert await pending(h) == []
    await h.restart()  # posted once: never again
    await h.settle()
    assert [m.id for m in results(h)] == [late.id]


@pytest.mark.parametrize("loss", ["deleted", "no access"])
async def test_a_closed_tables_result_whose_channel_is_lost_is_logged_once_and_forgotten(
    harness: Harness, caplog: pytest.LogCaptureFixture, loss: str,
) -> None:
    h = harness
    first = await fold_hand_one(h)
    await h.slash(h.alice, "table close")
    await h.settle()
    await h.bot.http.delete_message(h.channel.id, first.id)
    await note_unposted(h)
    if loss == "deleted":
        h.delete_channel()
    else:
        h.deny_bot("view_channel")
    caplog.set_level(logging.WARNING, "bot.adapter")
    await h.restart()
    await h.settle()
    lost = [r for r in caplog.records if "cannot be used any more" in r.getMessage()]
    assert len(lost) == 1, caplog.text
    assert await pending(h) == []
    if loss == "no access":
        h.restore_bot()
    assert results(h) == []  # not tried again at the next start
    caplog.clear()
    await h.restart()
    await h.settle()
    assert results(h) == [] and "cannot be used" not in caplog.text
