"""The name shown for a member: the display name, or the username when the pictures
cannot tell the display name apart (Thai, Arabic, Chinese... become "?")."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from bot.adapter.names import chosen_name
from bot.adapter.scenes import Live, table_view
from bot.render.canvas import Canvas
from bot.render.table import draw_table
from bot.render.views import TableView
from tests.cogs.test_table import PAUSE, open_table
from tests.conftest import Harness

SOMCHAI, SOMSAK = "สมชาย", "สมศักดิ์"


def test_the_display_name_unless_the_pictures_would_draw_it_mostly_as_question_marks(
) -> None:
    assert chosen_name("José", "jose", 1) == "José"  # drawn as it is
    assert chosen_name("Ａｌｉｃｅ", "alice", 1) == "Ａｌｉｃｅ"  # folded to "Alice"
    assert chosen_name("Bob 李", "bob", 1) == "Bob 李"  # one letter in four is "?"
    assert chosen_name("ab李李", "ab", 1) == "ab李李"  # half: still told apart
    assert chosen_name("a李李", "a_li", 1) == "a_li"  # two in three would be "?"
    assert chosen_name(SOMCHAI, "somchai", 1) == "somchai"
    assert chosen_name("محمد", "mohammed.k", 1) == "mohammed.k"
    assert chosen_name("Дмитрий", "dima", 1) == "dima"
    assert chosen_name("😀😀", "smiley", 1) == "smiley"  # nothing of it drawn
    # an account of the old username system whose name is no better: its id, distinct
    first = chosen_name(SOMCHAI, f"{SOMCHAI}#0001", 170_000_000_000_000_001)
    second = chosen_name(SOMSAK, f"{SOMSAK}#0001", 170_000_000_000_000_002)
    assert first.startswith("#") and int(first[1:], 36) == 170_000_000_000_000_001
    assert second.startswith("#") and int(second[1:], 36) == 170_000_000_000_000_002
    assert first.isascii() and first[1:].isalnum() and len(first) <= 14  # drawn, short
    assert first == chosen_name(SOMCHAI, f"{SOMCHAI}#0001", 170_000_000_000_000_001)


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


def names_drawn(view: TableView) -> tuple[Canvas, dict[int, str]]:
    """The table drawn as the channel gets it (a real PNG) and each seat's drawn name."""
    cv = draw_table(view)
    png = cv.png()
    assert Image.open(io.BytesIO(png)).size == cv.img.size
    return cv, {int(p.tag.split(":")[1]): p.text for p in cv.placed
                if p.kind == "text" and p.tag.startswith("name:")}


async def test_two_thai_players_are_told_apart_in_the_table_picture(harness: Harness) -> None:
    """Two members with Thai names (a global name, a server nickname) sit at a table: the
    picture would draw both "?????"; they are seated, and drawn, by their usernames,
    after a restart too."""
    h = harness
    somchai = h.guild.add_member(h.env.create_user("somchai", global_name=SOMCHAI))
    somsak = h.guild.add_member(h.env.create_user("somsak"), nick=SOMSAK)
    await open_table(h)
    for actor in (somchai, somsak):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    snap = table.snapshot()
    seats = {s.user_id: s.seat for s in snap.seats}
    view = table_view(Live(snap))
    _, drawn = names_drawn(view)
    assert {drawn[seats[somchai.id]], drawn[seats[somsak.id]]} == {"somchai", "somsak"}
    # the same picture with the display names: the two players would look the same
    thai = {somchai.id: SOMCHAI, somsak.id: SOMSAK}
    as_thai = dataclasses.replace(view, seats=tuple(
        dataclasses.replace(v, name=thai[s.user_id]) for v, s in zip(view.seats, snap.seats,
                                                                      strict=True)))
    _, before = names_drawn(as_thai)
    assert before[seats[somchai.id]] == before[seats[somsak.id]] == "?????"
    await h.restart()  # the seats come back with names looked up again
    restored = h.bot.registry.in_channel(h.channel.id).snapshot()
    assert {s.user_id: s.name for s in restored.seats} == {
        somchai.id: "somchai", somsak.id: "somsak"}
