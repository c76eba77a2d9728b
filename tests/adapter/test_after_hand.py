"""After a hand through the offline Discord (bot.adapter.after_hand, RULES.md 10): the 7-2
bounty in the result, the **Rabbit hunt**, **Show** and **Show one** buttons, each path,
who may use them, their end at the next deal, the pictures, and the words in five
languages."""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

import discord
import pytest

from bot.adapter.scenes import Live, table_view
from bot.engine import phh
from bot.engine.dealing import deal_positions
from bot.engine.hand import VARIANTS
from bot.i18n.cards import written
from tests.cogs.test_table import PAUSE, open_table
from tests.conftest import PNG_SIGNATURE, Harness, buttons_of
from tests.rigged import Rigged, draw_order, hand_order

HOLES = ["AsAh", "KsKh", "7c2d"]  # alice (seat 1, small blind), bob (2), carol (3, button)
OPTIONS = {"variant": "holdem", "structure": "no limit", "seven_deuce": 5, "rabbit_hunt": True,
           "showing": True}
#: Where the pictures are written for a look (``PICTURES=dir``); a temporary folder else.
PICTURES = os.environ.get("PICTURES")


def _custom(message: discord.Message, end: str) -> str:
    return next(str(b.custom_id) for b in buttons_of(message) if str(b.custom_id).endswith(end))


async def _stolen(h: Harness, **options: object) -> discord.Message:
    """Carol's 7c 2d raises on the button, alice and bob fold: hand #1's result message."""
    h.bot.registry.rng = Rigged(draw_order(3, 2), hand_order(HOLES))
    await open_table(h, **{**OPTIONS, **options})
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    for actor, end in ((h.carol, ":raise:4"), (h.alice, ":fold"), (h.bob, ":fold")):
        turn = next(m for m in reversed(h.public_messages())
                    if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)))
        assert f"<@{actor.id}>" in turn.content
        assert (await h.click(actor, turn, custom_id=_custom(turn, end))).silent
    return next(m for m in h.public_messages()
                if any(str(b.custom_id).startswith("omaha:hand:") for b in buttons_of(m)))


def _keep(name: str, png: bytes, tmp_path: Path) -> None:
    assert png.startswith(PNG_SIGNATURE)
    (Path(PICTURES) if PICTURES else tmp_path).joinpath(name).write_bytes(png)


async def test_the_bounty_is_told_in_the_result_with_the_after_hand_buttons(
    harness: Harness,
) -> None:
    h = harness
    result = await _stolen(h)
    assert "carol shows 7♣ 2♦ and collects the 7-2 bounty: 20 (alice 10, bob 10)" in (
        result.content)
    assert [str(b.label) for b in buttons_of(result)] == [
        "Hand log", "Rabbit hunt", "Show", "Show one"]
    table = h.bot.registry.in_channel(h.channel.id)
    assert {s.name: s.stack for s in table.seats.values()} == {
        "alice": 189, "bob": 188, "carol": 223}
    info = await h.slash(h.dave, "table info")
    assert "7-2 bounty: 5 big blinds · rabbit hunt · showing cards after the hand" in info.text


async def test_the_rabbit_hunt_for_the_table_once(harness: Harness, tmp_path: Path) -> None:
    """A stranger is refused privately; bob's ask is confirmed to him and posts the five
    cards that would have come (the committed deck's board places) with their picture;
    a second ask is refused."""
    h = harness
    result = await _stolen(h)
    stranger = await h.click(h.dave, result, label="Rabbit hunt")
    assert stranger.ephemeral and stranger.text == "Only the players dealt in hand #1 may do that."
    asked = await h.click(h.bob, result, label="Rabbit hunt")
    assert asked.ephemeral and asked.text == (
        "The rabbit hunt of hand #1 is on the table for everyone.")
    deck = hand_order(HOLES)
    rabbit = written(deck[i] for i in deal_positions(3, VARIANTS["holdem"])["board"])
    [posted] = [m for m in h.public_messages() if "Rabbit hunt" in m.content]
    assert posted.content == f"**Rabbit hunt** of hand #1 (asked by bob), not played: {rabbit}"
    [(name, png)] = await h.files(posted)
    assert name == "hand-1-rabbit.png"
    _keep("rabbit.png", png, tmp_path)
    again = await h.click(h.alice, result, label="Rabbit hunt")
    assert again.ephemeral and "is done already" in again.text
    assert len(await h.bot.db.hands.actions(1)) == 3  # the rabbit stores nothing


async def test_show_one_then_the_unshown_card_stays_secret(
    harness: Harness, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """Alice (folded) picks her Ah from her private picker: it is posted, stored, in
    /hand show and the PHH export; her As never reaches a public message, the history a
    railbird reads, or a log line. Carol's 7-2 is shown already: nothing left to show."""
    caplog.set_level(logging.DEBUG, logger="bot")
    h = harness
    result = await _stolen(h)
    picker = await h.click(h.alice, result, label="Show one")
    assert picker.ephemeral and picker.text == "Which card of hand #1 do you show to the table?"
    assert [b["label"] for b in picker.buttons] == ["A♠", "A♥"]
    shown = await h.click(h.alice, picker.message, label="A♥")
    assert shown.ephemeral and shown.text == "You show A♥ to the table."
    [posted] = [m for m in h.public_messages() if m.content.startswith("alice shows")]
    assert posted.content == "alice shows A♥ (hand #1)."
    [(_, png)] = await h.files(posted)
    _keep("shown-one.png", png, tmp_path)
    nothing = await h.click(h.carol, result, label="Show")
    assert nothing.ephemeral and nothing.text == (
        "You have shown every card of hand #1 already.")
    history = await h.slash(h.dave, "hand show", number=1)
    assert "alice shows A♥ after the hand" in history.all_text
    [final] = await history.images()
    _keep("hand-show.png", final, tmp_path)
    export = await h.slash(h.dave, "hand export", number=1)
    [(_, data)] = await export.files()
    text = data.decode()
    assert '"d dh p1 ??Ah"' in text and '_shown_after = ["p3 sm 7c2d", "p1 sm ??Ah"]' in text
    assert phh.replay(phh.loads(text)).finishing_stacks == (189, 188, 223)
    hidden = re.compile(r"\bAs\b")
    public = [m.content for m in h.public_messages()] + [history.all_text, text.split(
        "_deck_hashes")[0]]
    assert not [t for t in public if hidden.search(t)]
    assert not hidden.search(caplog.text)


async def test_show_the_whole_hand_and_only_the_eligible(harness: Harness,
                                                         tmp_path: Path) -> None:
    h = harness
    result = await _stolen(h)
    stranger = await h.click(h.dave, result, label="Show")
    assert stranger.ephemeral and "Only the players dealt in hand #1" in stranger.text
    whole = await h.click(h.bob, result, label="Show")
    assert whole.ephemeral and whole.text == "You show K♠ K♥ to the table."
    [posted] = [m for m in h.public_messages() if m.content.startswith("bob shows")]
    assert posted.content == "bob shows K♠ K♥ (hand #1)."
    [(_, png)] = await h.files(posted)
    _keep("shown-whole.png", png, tmp_path)
    again = await h.click(h.bob, result, label="Show one")
    assert again.ephemeral and "every card of hand #1 already" in again.text
    stored = [a for a in await h.bot.db.hands.actions(1) if a["kind"] == "show"]
    assert stored == [{"seat": 2, "kind": "show", "amount": None, "cards": ["Ks", "Kh"],
                       "source": "player"}]


async def test_the_buttons_end_at_the_next_deal(harness: Harness, tmp_path: Path) -> None:
    """When hand #2 is dealt, hand #1's result keeps only its Hand log; a click that came
    before that edit is refused (the live table's picture names the options meanwhile)."""
    h = harness
    result = await _stolen(h)
    ids = {what: _custom(result, what) for what in (":rabbit", ":show", ":one")}
    h.bot.registry.in_channel(h.channel.id).finished = None  # as the next deal does
    for custom_id in ids.values():
        late = await h.click(h.alice, result, custom_id=custom_id)
        assert late.ephemeral and late.text == (
            "Hand #1 is over: the next hand has been dealt, so that is no longer possible.")
    await h.advance(PAUSE + 0.1)
    live = next(m for m in reversed(h.public_messages())
                if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)))
    assert "Hand #2" in live.content
    _keep("live-table.png", await h.png(live), tmp_path)
    [kept] = [m for m in h.public_messages() if m.id == result.id]
    assert [str(b.label) for b in buttons_of(kept)] == ["Hand log"]
    assert not [m for m in h.public_messages() if "Rabbit hunt" in m.content]


async def test_a_table_without_the_options_offers_only_the_hand_log(harness: Harness) -> None:
    h = harness
    result = await _stolen(h, seven_deuce=0, rabbit_hunt=False, showing=False)
    assert [str(b.label) for b in buttons_of(result)] == ["Hand log"]
    assert "bounty" not in result.content
    refused = await h.slash(h.alice, "table settings", variant="omaha", seven_deuce=5)
    assert refused.ephemeral and refused.text == (
        "The 7-2 bounty is played at Texas Hold'em tables only, not at Omaha.")


async def test_a_portuguese_table_and_an_italian_player(harness: Harness) -> None:
    """The table's words are its language's; the picker speaks the clicking player's."""
    h = harness
    h.set_locale(h.alice, "it")
    result = await _stolen(h, language="pt-BR")
    assert "carol mostra 7♣ 2♦ e recebe o bounty do 7-2: 20 (alice 10, bob 10)" in (
        result.content)
    assert [str(b.label) for b in buttons_of(result)][1:] == [
        "Rabbit hunt", "Mostrar", "Mostrar uma"]
    picker = await h.click(h.alice, result, label="Mostrar uma")
    assert picker.text == "Quale carta della mano #1 mostri al tavolo?"
    await h.click(h.bob, result, label="Rabbit hunt")
    assert any(m.content.startswith("**Rabbit hunt** da mão #1 (pedido por bob), não jogado")
               for m in h.public_messages())


async def test_the_table_picture_names_the_options(harness: Harness) -> None:
    h = harness
    await _stolen(h, language="it")
    snap = h.bot.registry.in_channel(h.channel.id).snapshot()
    assert table_view(Live(snap)).game == (
        "Texas Hold'em No-limit 1/2 · taglia del 7-2: 5 grandi bui · caccia al coniglio"
        " · mostrare le carte dopo la mano")


async def test_after_a_restart_the_buttons_are_refused_politely(harness: Harness) -> None:
    """The table keeps its last hand in memory only: after a restart its buttons (routed by
    their custom id) are refused, privately."""
    h = harness
    result = await _stolen(h)
    await h.restart()
    for what in (":rabbit", ":show", ":one"):
        late = await h.click(h.bob, result, custom_id=_custom(result, what))
        assert late.ephemeral and late.text.startswith("Hand #1 is over"), late
