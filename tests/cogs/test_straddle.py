"""The straddle through the offline Discord (RULES.md 10): the table setting on ``/table
create`` and ``/table settings``, each player's button on their private replies, a hand
where it is posted (the live message, the table picture), ``/table info``, a restart."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.adapter.scenes import table_view
from bot.render.front import BLIND_INK
from bot.render.table import draw_table
from bot.runtime.table.live import Table
from tests.adapter.test_seat_buttons import click_way, way_ids
from tests.cogs.test_table import PAUSE, open_table, turn_message
from tests.conftest import Harness, Reply

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


def kinds(reply: Reply | Any) -> list[str]:
    return [c.split(":")[4] for c in way_ids(reply)]


async def seat_everyone(h: Harness) -> tuple[Table, list[Reply]]:
    """A no-limit straddle table with alice, bob, carol and dave seated: their replies."""
    opened = await open_table(h, structure="no limit", straddle=True)
    assert "straddle allowed" in opened.text, opened
    joined = [await h.slash(a, "table join", buyin="200") for a in (h.alice, h.bob, h.carol,
                                                                     h.dave)]
    table = h.bot.registry.in_channel(h.channel.id)
    assert table is not None
    return table, joined


async def test_the_button_turns_the_choice_on_and_the_straddle_is_posted(
    harness: Harness,
) -> None:
    h = harness
    table, joined = await seat_everyone(h)
    for actor, reply in zip((h.alice, h.bob, h.carol, h.dave), joined, strict=True):
        assert reply.ephemeral and kinds(reply) == ["straddle"], reply
        chosen = await click_way(h, actor, reply, "straddle")
        assert chosen.ephemeral and "You will straddle 4" in chosen.text, chosen
        assert kinds(chosen) == ["nostraddle"]
    await h.advance(PAUSE + 0.1)
    cur = table.current
    assert cur is not None
    straddler = cur.hand.straddle_seat
    assert straddler is not None
    name = table.seats[straddler].name
    turn = turn_message(h)
    assert f"{name} straddles 4" in turn.content, turn.content
    assert [b.label for b in turn.components[0].children if b.label.startswith("Call")] == [
        "Call 4"]
    # the picture posted with the turn: the straddler's marker and bet in front of the seat
    view = table_view(h.bot.presenter.channels[table.table_id].live)
    drawn = draw_table(view)
    marker = next(p for p in drawn.placed if p.tag == f"blind:{straddler}")
    bet = next(p for p in drawn.placed if p.tag == f"bet:{straddler}")
    assert (marker.text, bet.text) == ("STR", "4")
    assert "straddle allowed" in view.game
    picture = Image.open(io.BytesIO(await h.png(turn))).convert("RGB")
    x0, y0, _, y1 = marker.limit
    assert picture.getpixel((x0 + 4, (y0 + y1) // 2)) == BLIND_INK["STR"]


async def test_the_choice_can_be_turned_off_and_is_shown_in_info(harness: Harness) -> None:
    h = harness
    table, joined = await seat_everyone(h)
    await click_way(h, h.bob, joined[1], "straddle")
    info = await h.slash(h.bob, "table info")
    assert info.ephemeral and "straddle allowed" in info.text, info
    assert kinds(info) == ["nostraddle"]
    off = await click_way(h, h.bob, info, "nostraddle")
    assert off.ephemeral and "no longer straddle" in off.text, off
    assert kinds(off) == ["straddle"]
    assert not table.seat_of(h.bob.id).straddle
    await h.advance(PAUSE + 0.1)
    assert table.current is not None and table.current.hand.straddle_seat is None
    stranger = await h.slash(h.add_member("erin"), "table info")
    assert "straddle allowed" in stranger.text and not way_ids(stranger)


async def test_fixed_limit_refuses_the_setting_politely(harness: Harness) -> None:
    h = harness
    refused = await h.slash(h.alice, "table create", structure="fixed limit", straddle=True)
    assert refused.ephemeral and "no-limit and pot-limit tables only" in refused.text, refused
    assert h.bot.registry.find(h.channel.id) is None
    await open_table(h)
    plain = await h.slash(h.bob, "table join", buyin="100")
    assert "straddle" not in kinds(plain)
    changed = await h.slash(h.alice, "table settings", straddle=True)
    assert not changed.ephemeral and "straddle allowed" in changed.text, changed
    again = await h.slash(h.alice, "table settings", structure="fixed limit")
    assert again.ephemeral and "no-limit and pot-limit tables only" in again.text, again


async def test_the_choice_survives_a_restart(harness: Harness) -> None:
    h = harness
    _, joined = await seat_everyone(h)
    await click_way(h, h.carol, joined[2], "straddle")
    bot = await h.restart()
    table = bot.registry.in_channel(h.channel.id)
    assert table is not None and table.seat_of(h.carol.id).straddle
    info = await h.slash(h.carol, "table info")
    assert kinds(info) == ["nostraddle"]
