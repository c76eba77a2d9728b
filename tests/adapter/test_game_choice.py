"""Dealer's choice through the offline Discord (RULES.md 11, bot/adapter/game_choice.py):
the player on the button opens a private menu of the table's games and picks one, lets the
15 seconds run out, or sits out meanwhile; the channel is told, the commitment names the
hand's game, and the turn message says what is dealt now and what comes next."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.runtime.table import choosing
from bot.runtime.table.live import Table
from tests.adapter.test_seat_buttons import PAUSE, finish_hand
from tests.cogs.test_deal_commitment import commitments
from tests.conftest import Harness, buttons_of

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


async def _second_hand_asked(h: Harness) -> tuple[Table, Any, Any]:
    """Dealer's choice among NLHE, PLO and PLO8 with three players: the first hand (its
    button drawn, nobody asked) deals NLHE and is folded; then the button is asked. The
    table, the question's message and the chooser."""
    h.bot.registry.pause = PAUSE
    h.bot.registry.rng = random.Random(23)
    reply = await h.slash(h.alice, "table create", games="NLHE, PLO, PLO8",
                          mode="dealer's choice")
    assert "Games: No Limit Texas Hold'em, Pot Limit Omaha, and Pot Limit Omaha Hi-Lo" \
           " · dealer's choice" in reply.text, reply
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None and table.config.variant_key == "holdem"
    assert not _asked_messages(h)
    await finish_hand(h, table)
    await h.advance(PAUSE + 0.1)
    [asked] = _asked_messages(h)
    chooser = next(a for a in h.members.values() if f"<@{a.id}>" in asked.content)
    assert "otherwise No Limit Texas Hold'em is dealt again" in asked.content
    assert table.current is None  # the deal waits for the pick
    return table, asked, chooser


def _asked_messages(h: Harness) -> list[Any]:
    return [m for m in h.public_messages()
            if any(str(b.custom_id).startswith("omaha:choose:") for b in buttons_of(m))]


def _others(h: Harness, chooser: Any) -> Any:
    return next(a for a in (h.alice, h.bob, h.carol) if a.id != chooser.id)


async def test_the_button_picks_from_a_private_menu(harness: Harness) -> None:
    h = harness
    table, asked, chooser = await _second_hand_asked(h)
    stranger = await h.click(_others(h, chooser), asked, label="Choose the game")
    assert stranger.ephemeral and "not yours to choose" in stranger.text, stranger
    menu = await h.click(chooser, asked, label="Choose the game")
    assert menu.ephemeral and menu.text == "Pick the game of the next hand:", menu
    assert [b["label"] for b in menu.buttons] == [
        "No Limit Texas Hold'em", "Pot Limit Omaha", "Pot Limit Omaha Hi-Lo"]
    assert menu.message is not None
    picked = await h.click(chooser, menu.message, label="Pot Limit Omaha Hi-Lo")
    assert picked.ephemeral and picked.text == "You chose Pot Limit Omaha Hi-Lo.", picked
    await h.settle()
    assert table.current is not None and table.current.hand_no == 2
    assert table.current.hand.config.variant.key == "omaha_hilo"
    said = next(m for m in h.public_messages() if "chose Pot Limit Omaha Hi-Lo" in m.content)
    dealt = next(m for m in h.public_messages() if m.content.startswith("**Hand #2"))
    assert said.id < dealt.id  # announced before the deal, named by the commitment
    assert any("Deck commitment of hand #2 (Pot Limit Omaha Hi-Lo)" in m.content
               for m in commitments(h))
    turn = next(m for m in reversed(h.public_messages()) if m.content.startswith("**Hand #2"))
    assert "Pot Limit Omaha Hi-Lo 1/2 · next: dealer's choice" in turn.content, turn.content
    record = await h.bot.db.history.in_channel(h.channel.id, 2)
    assert record is not None and record.variant == "omaha_hilo"
    late = await h.click(chooser, asked, label="Choose the game")
    assert late.ephemeral and "choice is over" in late.text, late
    h.check_errors()


async def test_no_pick_in_15_seconds_deals_the_previous_game_again(harness: Harness) -> None:
    h = harness
    table, asked, chooser = await _second_hand_asked(h)
    await h.advance(choosing.CHOICE_TIME + 0.1)
    assert table.current is not None and table.current.hand.config.variant.key == "holdem"
    assert any("did not choose: No Limit Texas Hold'em again" in m.content
               for m in h.public_messages())
    late = await h.click(chooser, asked, label="Choose the game")
    assert late.ephemeral and "choice is over" in late.text, late


async def test_a_chooser_who_sits_out_picks_nothing(harness: Harness) -> None:
    """The player asked sits out: their pick is refused, the previous game is dealt again
    without them, and the button goes on as it would at any table."""
    h = harness
    table, asked, chooser = await _second_hand_asked(h)
    menu = await h.click(chooser, asked, label="Choose the game")
    await h.slash(chooser, "table sitout")
    assert menu.message is not None
    refused = await h.click(chooser, menu.message, label="Pot Limit Omaha")
    assert refused.ephemeral and "sitting out" in refused.text, refused
    await h.advance(choosing.CHOICE_TIME + 0.1)
    cur = table.current
    assert cur is not None and cur.hand.config.variant.key == "holdem"
    assert chooser.id not in {table.seats[n].user_id for n in cur.dealt}
    await h.audit()
