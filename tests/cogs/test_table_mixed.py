"""Mixed tables through the offline Discord (RULES.md 11): ``/table create games``, its
refusals and autocomplete, a rotation's turn messages saying what is dealt now and next,
the list changed between hands, and ``/hands`` filtered by each hand's own game."""

from __future__ import annotations

import pytest

from tests.adapter.test_seat_buttons import finish_hand
from tests.cogs.test_table import PAUSE, open_table, turn_message
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions", "cogs.hands")


@pytest.mark.parametrize("options, words", [
    ({"games": "NLHE, stud, PLO"}, "I did not understand “stud” in the list of games"),
    ({"games": "NLHE, PLO", "variant": "omaha6"}, "either a list of games or a variant"),
    ({"games": "NLHE, PLO6", "seats": 8}, "Six-card Omaha seats 2 to 7 players"),
    ({"games": "NLHE, O8", "small_blind": 3, "big_blind": 5}, "half the big blind"),
    ({"mode": "dealer's choice"}, "go with a list of games"),
])
async def test_bad_lists_are_refused_privately_and_open_nothing(
    harness: Harness, options: dict[str, object], words: str
) -> None:
    h = harness
    reply = await h.slash(h.alice, "table create", **options)
    assert reply.ephemeral and words in reply.text, reply
    assert h.bot.registry.find(h.channel.id) is None and not h.public_messages()


async def test_the_games_option_completes_the_game_being_typed(harness: Harness) -> None:
    h = harness
    offered = await h.alice.autocomplete(h.channel, "table create", "games", "NLHE, pl")
    assert [c["value"] for c in offered][:3] == ["NLHE, PLO", "NLHE, PLO8", "NLHE, PLO5"]
    assert all(c["name"] == c["value"] for c in offered)


async def test_a_rotation_says_what_is_dealt_now_and_what_comes_next(harness: Harness) -> None:
    """NLHE and PLO, two hands each: the turn message names the game and the next one, with
    how many hands to go; the channel is told when a game begins; the hand list filters
    each hand under its own game; a new list starts from its first game."""
    h = harness
    reply = await open_table(h, games="NLHE, PLO", every=2)
    assert "Games: No Limit Texas Hold'em and Pot Limit Omaha · rotation, 2 hands each" \
        in reply.text, reply
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="200")
    table = h.bot.registry.in_channel(h.channel.id)
    heads = []
    for _ in range(3):
        await h.advance(PAUSE + 0.1)
        heads.append(turn_message(h).content.splitlines()[0])
        await finish_hand(h, table)
    assert "No Limit Texas Hold'em 1/2 · next: Pot Limit Omaha in 2 hands" in heads[0], heads
    assert "No Limit Texas Hold'em 1/2 · next hand: Pot Limit Omaha" in heads[1], heads
    assert "Pot Limit Omaha 1/2 · next: No Limit Texas Hold'em in 2 hands" in heads[2], heads
    said = [m.content for m in h.public_messages() if "Now dealing" in m.content]
    assert len(said) == 2 and "Pot Limit Omaha: 2 hands" in said[1], said
    only = await h.slash(h.bob, "hands", variant="holdem")
    assert only.ephemeral and "#2" in only.text and "#1" in only.text and "#3" not in only.text
    changed = await h.slash(h.alice, "table settings", games="PLO8, LHE")
    assert "Games: Pot Limit Omaha Hi-Lo and Fixed Limit Texas Hold'em" in changed.text, changed
    await h.advance(PAUSE + 0.1)
    assert table.current is not None and table.current.hand.config.variant.key == "omaha_hilo"
    info = await h.slash(h.carol, "table info")
    assert "Games: Pot Limit Omaha Hi-Lo and Fixed Limit Texas Hold'em" in info.text, info
    await h.audit()
