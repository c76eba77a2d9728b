"""Compact results through the offline Discord: one line per winner per pot, the log
behind the Hand log button, in each language of the table.

The deals are seeded (``registry.rng``); each test asserts what its seed deals (a scoop,
three split pots) in the result's own lines, so a change in dealing fails here loudly
rather than testing something else.
"""

from __future__ import annotations

import random

import pytest

from bot.i18n import Name, translate
from tests.cogs.test_prefs import LOCALES, play_hand
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of


def _result(h: Harness, title: str):  # type: ignore[no-untyped-def]
    found = [m for m in h.public_messages() if m.content.startswith(title)]
    assert found, [m.content for m in h.public_messages()]
    return found[-1]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hi_lo_scoop_is_one_line_in_each_language(harness: Harness, locale: str) -> None:
    """Four players check an Omaha Hi-Lo hand down; carol takes both halves (the seed's
    deal): the result says it in one line, names the hands that won nothing once each,
    has no log under it, and its Hand log button opens the whole hand privately."""
    h = harness
    h.bot.registry.rng = random.Random(23)
    h.set_locale(h.dave, locale)
    await open_table(h, variant="omaha_hilo", language=locale)
    for actor in (h.alice, h.bob, h.carol, h.dave):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await play_hand(h, 1)
    title = translate(locale, "result.title", number="1", game="").split("·")[0].strip()
    result = _result(h, title)
    lines = result.content.splitlines()
    scoop = translate(locale, "result.scoops", name=Name("carol"), amount=8)
    assert [line for line in lines if "carol" in line] == [
        next(line for line in lines if line.startswith(scoop + " "))], lines
    assert 2 <= len(lines) <= 8 and not result.embeds, lines
    assert not [line for line in lines[1:] if line.startswith(("carol", "**"))
                and scoop not in line]
    label = translate(locale, "button.hand_log")
    assert [str(b.label) for b in buttons_of(result)] == [label]
    opened = await h.click(h.dave, result, label=label)
    assert opened.ephemeral and translate(locale, "hand.every_action") in opened.all_text
    assert len(await opened.images()) == 1


async def test_an_all_in_hi_lo_with_three_pots_fits_in_eight_lines(harness: Harness) -> None:
    """No-limit Omaha Hi-Lo, four stacks all-in before the flop: a main and two side pots,
    each split high and low between two players (the seed's deal): six winner lines, one
    per winner per pot, the one hand that won nothing, and the title."""
    h = harness
    h.bot.presenter.runout_pause = 0.1
    h.bot.registry.rng = random.Random(35)
    await open_table(h, variant="omaha_hilo", structure="no limit")
    for actor, chips in ((h.alice, "60"), (h.bob, "100"), (h.carol, "150"), (h.dave, "200")):
        await h.slash(actor, "table join", buyin=chips)
    await h.advance(PAUSE + 0.1)
    for _ in range(8):
        if not [m for m in h.public_messages()
                if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m))]:
            break
        turn = turn_message(h)
        ids = [str(b.custom_id) for b in buttons_of(turn)]
        shove = [i for i in ids if i.endswith(":allin")] or [i for i in ids if i.endswith(":call")]
        await h.click(actor_of(h, turn), turn, custom_id=shove[0])
    for _ in range(12):
        if any("Hand #1 result" in m.content for m in h.public_messages()):
            break
        await h.advance(1.0)
    lines = _result(h, "**Hand #1 result**").content.splitlines()
    assert lines[1:7] == [
        "alice wins 120 high with flush, king high (main pot)",
        "carol wins 120 low with 7-6-5-4-2 (main pot)",
        "dave wins 60 high with flush, nine high (side pot 1)",
        "carol wins 60 low with 7-6-5-4-2 (side pot 1)",
        "dave wins 50 high with flush, nine high (side pot 2)",
        "carol wins 50 low with 7-6-5-4-2 (side pot 2)",
    ], lines
    assert len(lines) == 8 and lines[7].startswith("bob shows "), lines
