"""Compact results through the offline Discord: the winner's cards, a line per player with
their net for a hand of several pots, halves or boards, the pictures drawing each player's
net (issue 31), the log behind the Hand log button, in each language of the table.

The deals are seeded (``registry.rng``); each test asserts what its seed deals (a scoop,
three split pots, two boards) in the result's own lines, so a change in dealing fails here
loudly rather than testing something else.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.adapter import presenter
from bot.i18n import hands, translate
from bot.render import ShowdownView, TableView
from bot.render.showdown import draw_showdown
from bot.render.table import draw_table
from tests.card_text import all_symbols, symbols
from tests.cogs.test_prefs import LOCALES, play_hand
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of


def _pictures(monkeypatch: pytest.MonkeyPatch) -> list[TableView | ShowdownView]:
    """Record the table and showdown views the presenter draws (the real renderers draw)."""
    drawn: list[TableView | ShowdownView] = []
    table, showdown = presenter.render_table_async, presenter.render_showdown_async

    async def table_spy(view: TableView, *args: Any) -> bytes:
        drawn.append(view)
        return await table(view, *args)

    async def showdown_spy(view: ShowdownView, *args: Any) -> bytes:
        drawn.append(view)
        return await showdown(view, *args)

    monkeypatch.setattr(presenter, "render_table_async", table_spy)
    monkeypatch.setattr(presenter, "render_showdown_async", showdown_spy)
    return drawn


def _panels(view: ShowdownView) -> dict[str, str]:
    """Each shown hand's name and the amount its panel draws."""
    placed = {p.tag: p.text for p in draw_showdown(view).placed
              if p.tag.startswith(("net:", "won:"))}
    return {hand.name: placed.get(f"net:{i}", placed.get(f"won:{i}", ""))
            for i, hand in enumerate(view.hands)}


def _result(h: Harness, title: str):  # type: ignore[no-untyped-def]
    found = [m for m in h.public_messages() if m.content.startswith(title)]
    assert found, [m.content for m in h.public_messages()]
    return found[-1]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hi_lo_scoop_is_one_line_a_player_in_each_language(
    harness: Harness, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four players check an Omaha Hi-Lo hand down; carol takes both halves (the seed's
    deal): the result has a line per player who showed, carol first with her net and her
    cards, the others with theirs; its showdown picture draws the same nets; no log under
    it, and its Hand log button opens the whole hand privately."""
    h = harness
    drawn = _pictures(monkeypatch)
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
    made = {name: hands.in_sentence(locale, label) for name, label in (
        ("carol", "Three of a kind, twos; Low 7-5-4-2-A"),
        ("alice", "Two pair, aces and kings; no low"),
        ("dave", "Two pair, aces and fives; Low 8-5-4-2-A"))}
    assert lines[1:] == all_symbols([f"carol +6 · 9s 2c 2d 7h: {made['carol']}",
                                     f"alice −2 · Kd Qh Js Ah: {made['alice']}",
                                     f"dave −2 · 5d Ac 8d 9d: {made['dave']}"]), lines
    assert not result.embeds
    [showdown] = [v for v in drawn if isinstance(v, ShowdownView)]
    assert _panels(showdown) == {"carol": "+6", "alice": "−2", "dave": "−2"}
    label = translate(locale, "button.hand_log")
    assert [str(b.label) for b in buttons_of(result)] == [label]
    opened = await h.click(h.dave, result, label=label)
    assert opened.ephemeral and translate(locale, "hand.every_action") in opened.all_text
    assert len(await opened.images()) == 1


@pytest.mark.parametrize("locale", ["en", "pt-BR"])
async def test_an_all_in_hi_lo_with_three_pots_is_a_line_a_player(
    harness: Harness, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No-limit Omaha Hi-Lo, four stacks all-in before the flop (60, 100, 150, 200): a main
    and two side pots, each split high and low (the seed's deal). dave takes the high of
    both side pots, 110 chips, for the 150 he put in: his line and his panel say −40, not
    +110. Four lines under the title, not seven; the nets add up to nothing."""
    h = harness
    drawn = _pictures(monkeypatch)
    h.bot.presenter.runout_pause = 0.1
    h.bot.registry.rng = random.Random(35)
    await open_table(h, variant="omaha_hilo", structure="no limit", language=locale)
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
    title = translate(locale, "result.title", number="1", game="").split("·")[0].strip()
    for _ in range(12):
        if any(m.content.startswith(title) for m in h.public_messages()):
            break
        await h.advance(1.0)
    await h.bot.presenter.idle()
    lines = _result(h, title).content.splitlines()
    assert [line.split(" · ")[0] for line in lines[1:]] == [
        "carol +80", "alice +60", "dave −40", "bob −100"], lines
    if locale == "en":
        assert lines[1:] == all_symbols([
            "carol +80 · 4h 5h Kc 4d: straight, eight high; low 7-6-5-4-2",
            "alice +60 · 6d Jd Ks 4s: flush, king high; low 8-7-6-4-2",
            "dave −40 · 2d 5s 5d 9s: flush, nine high; low 8-7-6-5-2",
            "bob −100 · 8h 7c Td Jc: two pair, eights and sevens; no low",
        ])
    else:
        assert lines[4].endswith("dois pares, oitos e setes; sem mão baixa"), lines
    [showdown] = [v for v in drawn if isinstance(v, ShowdownView)]
    assert _panels(showdown) == {"carol": "+80", "alice": "+60", "dave": "−40", "bob": "−100"}
    assert sum(w.amount for p in showdown.pots for w in p.winners if w.name == "dave") == 110


@pytest.mark.parametrize("locale", ["en", "it"])
async def test_a_hand_run_twice_is_a_line_a_player_and_its_picture_draws_nets(
    harness: Harness, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three players all-in for 200 at a no-limit table, run twice (the seed's deal): alice
    takes board 1, carol board 2. The result is a line a player with their net and their
    hand on each board, and the table picture's seats read +100, +100 and −200."""
    h = harness
    drawn = _pictures(monkeypatch)
    h.bot.presenter.runout_pause = 0.1
    h.bot.registry.rng = random.Random(5)
    await open_table(h, structure="no limit", run_it_twice=True, language=locale)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    for _ in range(6):
        if not [m for m in h.public_messages()
                if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m))]:
            break
        turn = turn_message(h)
        ids = [str(b.custom_id) for b in buttons_of(turn)]
        shove = [i for i in ids if i.endswith(":allin")] or [i for i in ids if i.endswith(":call")]
        await h.click(actor_of(h, turn), turn, custom_id=shove[0])
    [question] = [m for m in h.public_messages()
                  if any(str(b.custom_id).endswith(":twice") for b in buttons_of(m))]
    for actor in (h.alice, h.bob, h.carol):
        await h.click(actor, question, custom_id=next(
            str(b.custom_id) for b in buttons_of(question) if str(b.custom_id).endswith(":twice")))
    title = translate(locale, "result.title", number="1", game="").split("·")[0].strip()
    for _ in range(12):
        if any(m.content.startswith(title) for m in h.public_messages()):
            break
        await h.advance(1.0)
    await h.bot.presenter.idle()
    lines = _result(h, title).content.splitlines()
    board = [f"({translate(locale, 'pot.board', number=str(k))})" for k in (1, 2)]
    assert [line.split(" · ")[0] for line in lines[1:]] == [
        "alice +100", "carol +100", "bob −200"], lines
    assert all(line.count(board[0]) == line.count(board[1]) == 1 for line in lines[1:]), lines
    if locale == "en":
        assert lines[1] == symbols("alice +100 · As Kc Kh Kd: two pair, kings and nines "
                                   "(board 1); pair of aces (board 2)")
    [table] = [v for v in drawn if isinstance(v, TableView) and v.second_board]
    states = {p.tag: p.text for p in draw_table(table).placed if p.tag.startswith("state:")}
    seats = {s.name: s.seat for s in table.seats}
    assert {name: states[f"state:{seat}"] for name, seat in seats.items()} == {
        "alice": "+100", "carol": "+100", "bob": "−200"}
