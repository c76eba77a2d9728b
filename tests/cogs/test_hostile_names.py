"""Names are data, never markup (issue 22): a hostile display name pings nobody."""
from __future__ import annotations

import pytest

from bot.i18n import escaped
from tests.cogs.test_table import PAUSE, open_table, play_out
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


async def test_a_hostile_name_is_shown_escaped_and_pings_nobody(harness: Harness) -> None:
    h = harness
    victim = h.dave
    name = f"<@{victim.id}> **WINS 1,000,000** @everyone"
    mallory = h.add_member(name)
    await open_table(h)
    for actor in (mallory, h.bob):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await play_out(h)
    info = await h.slash(mallory, "table info")
    assert escaped(name) in info.text and f"<@{victim.id}>" not in info.text
    texts = [m.content for m in h.public_messages()]
    assert any(escaped(name) in t for t in texts)
    assert not any("**WINS" in t for t in texts)
    for content, users, everyone in h.pinged():
        assert not everyone and victim.id not in users, content
        assert users <= {mallory.id, h.bob.id}, content


#: Every bidirectional control a name could carry into a line of text.
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


async def test_a_right_to_left_override_in_a_name_reverses_nothing(harness: Harness) -> None:
    """U+202E in a display name would show the rest of the message line backwards
    ("raises to 300" read "003 ot sesiar"): every bidi control is dropped from the name."""
    h = harness
    mallory = h.add_member("\u202eyllas\u2066 (" + BIDI + ")")
    await open_table(h)
    for actor in (mallory, h.bob):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await play_out(h)
    info = await h.slash(mallory, "table info")
    shown = [info.text, *(m.content for m in h.public_messages())]
    assert any("yllas \\(\\)" in text for text in shown)  # the name, without its controls
    for text in shown:
        assert not set(BIDI) & set(text), ascii(text)
