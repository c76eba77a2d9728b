"""Limits that keep one member from costing everyone (issue 22), through the offline Discord.

``/table refresh`` for seated players, once per table per 30 s; caps on open tables per
member and per server (cash tables and tournaments, issue 29), changed by a server manager
with ``/table limits`` and kept over a restart; a per-member cooldown on ``/leaderboard``,
``/stats``, ``/hands``, ``/hand show``, ``/hand replay``, ``/hand export`` and ``/hand
verify``; a few leaderboard pages and looks at one's cards at once, then the cooldown
(issue 29). Every refusal is answered at once (no deferral: no wait before it), privately,
says when to try again, and changes nothing. Time moves only by the bot's wall clock (the
harness's ``FakeWallClock``): no sleeping.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from bot.adapter import leaderboard
from bot.adapter.cooldowns import CARDS_BURST, PAGER_BURST, REFRESH_INTERVAL
from bot.offline.harness import Actor
from bot.runtime.caps import TableCaps
from bot.settings import Secret, Settings
from tests.cogs.test_table import play_out
from tests.conftest import Harness, buttons_of

pytestmark = pytest.mark.asyncio

#: Seconds between hands: parked until the test moves the loop's clock.
PAUSE = 10.0
COOLDOWN = 5.0
PER_MEMBER = 2
PER_SERVER = 3


@pytest.fixture
def bot_settings(tmp_path: Path) -> Settings:
    """Caps of 2 tables per member and 3 per server, a 5 s cooldown."""
    return Settings(token=Secret("test-token"), database_path=str(tmp_path / "test.sqlite3"),
                    tables_per_member=PER_MEMBER, tables_per_server=PER_SERVER,
                    command_cooldown=COOLDOWN)


#: Discord's interaction callback "channel message with source", and the ephemeral flag.
MESSAGE_WITH_SOURCE = 4
EPHEMERAL = 64


async def refused(h: Harness, actor: Actor, command: str, **options: Any) -> str:
    """Run ``/command`` and return its refusal, checking that the bot's only request was
    the private answer itself (no deferral: nothing waited before it; no post, edit or
    delete: nothing changed)."""
    start = len(h.requests())
    reply = await h.slash(actor, command, **options)
    await h.settle()
    made = h.requests()[start:]
    assert [(r.method, r.path.rsplit("/", 1)[-1]) for r in made] == [("POST", "callback")], made
    assert made[0].json["type"] == MESSAGE_WITH_SOURCE, made[0].json
    assert made[0].json["data"]["flags"] & EPHEMERAL, made[0].json
    return reply.text


def retry_at(text: str) -> int:
    """The Unix second of the Discord timestamp ``<t:…:R>`` in a refusal."""
    found = re.search(r"<t:(\d+):R>", text)
    assert found, text
    return int(found[1])


async def playing(h: Harness) -> None:
    """A table in #poker with a hand being played by alice, bob and carol."""
    h.bot.registry.pause = PAUSE
    await h.slash(h.alice, "table create", clock=600)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)


def live_id(h: Harness) -> int:
    for m in reversed(h.public_messages()):
        if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)):
            return m.id
    raise AssertionError("no live message")


# -- /table refresh -------------------------------------------------------------------


async def test_refresh_is_for_seated_players_only(harness: Harness) -> None:
    h = harness
    await playing(h)
    live = live_id(h)
    text = await refused(h, h.dave, "table refresh")
    assert "Only the players seated at this table" in text and "/table join" in text
    assert live_id(h) == live
    # the refusal used no turn: a seated player refreshes at once
    assert "posted again" in (await h.slash(h.bob, "table refresh")).text


async def test_refresh_once_per_table_per_30_seconds(harness: Harness) -> None:
    h = harness
    await playing(h)
    first = await h.slash(h.alice, "table refresh")
    assert first.ephemeral and "posted again" in first.text, first
    refreshed_at = h.clock()
    live = live_id(h)
    h.clock.advance(REFRESH_INTERVAL - 1)  # another seated player, 29 s later
    text = await refused(h, h.bob, "table refresh")
    assert "less than 30 seconds ago" in text
    assert retry_at(text) == math.ceil(refreshed_at + REFRESH_INTERVAL)
    assert live_id(h) == live
    h.clock.advance(1)
    again = await h.slash(h.bob, "table refresh")
    assert again.ephemeral and "posted again" in again.text, again
    assert live_id(h) != live


async def test_refresh_without_a_hand_uses_no_turn(harness: Harness) -> None:
    """Nothing to post: "no hand" is said, and the 30 s do not start."""
    h = harness
    await h.slash(h.alice, "table create")
    await h.slash(h.alice, "table join", buyin="200")
    assert "No hand" in (await h.slash(h.alice, "table refresh")).text
    assert "No hand" in (await h.slash(h.alice, "table refresh")).text


async def test_refresh_refusals_speak_the_readers_language(harness: Harness) -> None:
    h = harness
    await playing(h)
    h.set_locale(h.dave, "pt-BR")
    text = await refused(h, h.dave, "table refresh")
    assert "Só os jogadores sentados" in text and "/mesa entrar" in text
    await h.slash(h.alice, "table refresh")
    h.set_locale(h.bob, "it")
    assert "meno di 30 secondi fa" in await refused(h, h.bob, "table refresh")


# -- caps on open tables ---------------------------------------------------------------


async def test_a_member_may_have_two_open_tables_and_the_server_three(harness: Harness) -> None:
    h = harness
    rooms = [h.add_channel(f"room-{i}") for i in range(4)]
    for room in rooms[:2]:
        assert not (await h.slash(h.alice, "table create", channel=room)).ephemeral
    text = await refused(h, h.alice, "table create", channel=rooms[2])
    assert "limit of open tables per member (2)" in text and "/table close" in text
    assert h.bot.registry.find(rooms[2].id) is None
    assert not (await h.slash(h.bob, "table create", channel=rooms[2])).ephemeral
    text = await refused(h, h.carol, "table create", channel=rooms[3])
    assert "This server has reached its limit of open tables (3, tournament" in text
    assert "/table limits" in text
    assert h.bot.registry.find(rooms[3].id) is None
    assert len(await h.bot.db.tables.list_open()) == 3  # the refusals stored nothing
    # a closed table frees its place
    assert (await h.slash(h.bob, "table close", channel=rooms[2])).ephemeral
    assert not (await h.slash(h.carol, "table create", channel=rooms[3])).ephemeral
    text = await refused(h, h.alice, "table create")
    assert "per member (2)" in text
    await h.slash(h.alice, "table close", channel=rooms[0])
    assert not (await h.slash(h.alice, "table create")).ephemeral


async def test_six_sit_and_gos_are_refused_by_the_caps_and_a_cash_table_after_them(
    harness: Harness,
) -> None:
    """Issue 29: with one table per member, alice and bob each open a two-player
    sit-and-go (buy-in 1) and play both; their other four, and then a cash table each,
    are refused at once, privately, storing nothing. The server's cap (3) counts the
    sit-and-gos: carol's opens, dave's cash table does not until carol cancels hers."""
    h = harness
    await h.slash(h.manager, "table limits", per_member=1)
    rooms = [h.add_channel(f"sng-{i}") for i in range(6)]
    for n, room in enumerate(rooms):
        creator = (h.alice, h.bob)[n % 2]
        if n < 2:
            made = await h.slash(creator, "tournament create", channel=room, buy_in=1,
                                 entrants=2)
            assert not made.ephemeral, made
            for player in (h.alice, h.bob):
                await h.slash(player, "tournament join", channel=room)
            assert h.bot.registry.find(room.id) is not None  # started: a table deals
            continue
        text = await refused(h, creator, "tournament create", channel=room, buy_in=1,
                             entrants=2)
        assert "limit of open tables per member (1)" in text, text
        assert "tournaments you opened count" in text and "/table close" in text
    assert len(h.bot.tournaments.all()) == 2
    cash = h.add_channel("cash")
    for member in (h.alice, h.bob):
        assert "per member (1)" in await refused(h, member, "table create", channel=cash)
    shown = await h.slash(h.dave, "table limits")
    assert "1 per member" in shown.text and "Open now: 2" in shown.text, shown
    mine = h.add_channel("carols")
    assert not (await h.slash(h.carol, "tournament create", channel=mine, buy_in=1)).ephemeral
    text = await refused(h, h.dave, "table create", channel=cash)
    assert "This server has reached its limit of open tables (3" in text, text
    assert len(await h.bot.db.tables.list_open()) == 2  # the two sit-and-go tables
    await h.slash(h.carol, "tournament cancel", channel=mine)  # before its start: it frees
    assert not (await h.slash(h.dave, "table create", channel=cash)).ephemeral


async def test_a_multi_table_tournament_counts_its_tables(harness: Harness) -> None:
    """Registering, it counts the tables it can fill (30 players at 10 a table: 3) against
    the server's cap, and one against its creator's."""
    h = harness
    h.add_channel("spare")
    cash = h.add_channel("cash")
    await h.slash(h.bob, "table create", channel=cash)
    mtt = h.add_channel("mtt")
    text = await refused(h, h.alice, "tournament create", channel=mtt, buy_in=10,
                         entrants=30, table_size=10)
    assert "can need 3 tables" in text and "limit of open tables is 3 (1 open now" in text
    await h.slash(h.bob, "table close", channel=cash)
    made = await h.slash(h.alice, "tournament create", channel=mtt, buy_in=10, entrants=30,
                         table_size=10)
    assert not made.ephemeral, made
    assert "Open now: 3" in (await h.slash(h.carol, "table limits")).text
    assert "(3" in await refused(h, h.carol, "table create", channel=cash)
    assert "This server has reached" in await refused(h, h.alice, "table create", channel=cash)


async def test_a_manager_changes_the_caps_and_they_survive_a_restart(harness: Harness) -> None:
    h = harness
    rooms = [h.add_channel(f"room-{i}") for i in range(5)]
    shown = await h.slash(h.carol, "table limits")
    assert shown.ephemeral and "2 per member" in shown.text and "3 in all" in shown.text
    assert "Open now: 0" in shown.text
    text = await refused(h, h.carol, "table limits", per_member=9)
    assert "Only a server manager" in text
    assert h.bot.registry.caps.of(h.guild.id).per_member == PER_MEMBER
    changed = await h.slash(h.manager, "table limits", per_member=3)
    assert changed.ephemeral and "Saved" in changed.text and "3 per member" in changed.text
    assert "3 in all" in changed.text  # the server's cap still the operator's
    for room in rooms[:3]:
        assert not (await h.slash(h.alice, "table create", channel=room)).ephemeral
    assert "tables (3, " in await refused(h, h.bob, "table create", channel=rooms[3])
    await h.slash(h.manager, "table limits", per_server=4)
    await h.restart()
    caps = h.bot.registry.caps.of(h.guild.id)
    assert (caps.per_member, caps.per_server) == (3, 4)
    assert "Open now: 3" in (await h.slash(h.carol, "table limits")).text
    assert not (await h.slash(h.bob, "table create", channel=rooms[3])).ephemeral
    assert "per member (3)" in await refused(h, h.alice, "table create", channel=rooms[4])


async def test_a_manager_puts_the_caps_back_to_the_defaults(harness: Harness) -> None:
    """``reset``: the caps not given go back to the operator's (and follow them: a server
    that reset stores no cap of its own), kept over a restart; refused to a non-manager."""
    h = harness
    await h.slash(h.manager, "table limits", per_member=9, per_server=90)
    assert "Only a server manager" in await refused(h, h.carol, "table limits", reset=True)
    half = await h.slash(h.manager, "table limits", per_server=50, reset=True)
    assert half.ephemeral and "2 per member" in half.text and "50 in all" in half.text, half
    back = await h.slash(h.manager, "table limits", reset=True)
    assert "2 per member" in back.text and "3 in all" in back.text, back
    await h.restart()
    h.bot.registry.caps.defaults = TableCaps(4, 5)  # the operator changes the defaults
    caps = h.bot.registry.caps.of(h.guild.id)
    assert (caps.per_member, caps.per_server) == (4, 5)


async def test_a_managers_caps_stay_in_their_server(harness: Harness) -> None:
    h = harness
    await h.slash(h.manager, "table limits", per_member=7, per_server=70)
    assert h.bot.registry.caps.of(h.guild.id).per_server == 70
    assert h.bot.registry.caps.of(h.guild.id + 1).per_server == PER_SERVER


# -- cooldowns on the costly commands ------------------------------------------------


@pytest.mark.parametrize(("command", "options"), [
    ("leaderboard", {}), ("stats", {}), ("hands", {}), ("hand show", {}),
    ("hand export", {"last": 2}), ("hand replay", {}), ("hand verify", {"number": 1}),
])
async def test_a_costly_command_waits_its_cooldown(
    harness: Harness, command: str, options: dict[str, object]
) -> None:
    h = harness
    first = await h.slash(h.alice, command, **options)
    assert first.acknowledged and "Please wait" not in first.all_text, first
    ran_at = h.clock()
    h.clock.advance(COOLDOWN - 1)
    text = await refused(h, h.alice, command, **options)
    assert f"you can use /{command} again" in text
    assert retry_at(text) == math.ceil(ran_at + COOLDOWN)
    other = await h.slash(h.bob, command, **options)  # per member: bob is not waiting
    assert "Please wait" not in other.all_text
    h.clock.advance(1)
    again = await h.slash(h.alice, command, **options)
    assert "Please wait" not in again.all_text, again


async def test_each_command_has_its_own_cooldown(harness: Harness) -> None:
    h = harness
    await h.slash(h.alice, "stats")
    assert "Please wait" not in (await h.slash(h.alice, "leaderboard")).all_text
    assert "Please wait" in (await h.slash(h.alice, "stats")).text


async def test_a_refused_option_costs_no_turn(harness: Harness) -> None:
    """/leaderboard with options that do not go together is refused for them, and the
    corrected command runs at once."""
    h = harness
    wrong = await h.slash(h.alice, "leaderboard", metric="balance", period="week")
    assert wrong.ephemeral and "Balances have no variant or period" in wrong.text
    assert "Please wait" not in (await h.slash(h.alice, "leaderboard")).all_text


async def test_the_cooldown_refusal_speaks_the_readers_language(harness: Harness) -> None:
    h = harness
    h.set_locale(h.alice, "es-ES")
    await h.slash(h.alice, "stats")
    text = await refused(h, h.alice, "stats")
    assert "podrás usar /estadísticas de nuevo <t:" in text


async def test_the_hand_buttons_wait_with_their_commands(harness: Harness) -> None:
    """A /hands button draws what /hand show draws: clicked again within the cooldown it
    is refused privately with the moment to try again, then opens the hand; the Replay
    button waits with /hand replay."""
    h = harness
    await playing(h)
    await play_out(h)
    h.clock.advance(COOLDOWN)
    listing = await h.slash(h.bob, "hands")
    assert listing.message is not None
    [button] = [b for b in listing.buttons if b["custom_id"].startswith("omaha:hand:")]
    opened = await h.click(h.bob, listing.message, custom_id=button["custom_id"])
    assert "**Hand #1**" in opened.all_text, opened
    ran_at = h.clock()
    again = await h.click(h.bob, listing.message, custom_id=button["custom_id"])
    assert again.ephemeral and "again" in again.text, again
    assert retry_at(again.text) == math.ceil(ran_at + COOLDOWN)
    assert opened.message is not None
    replay = next(b for b in buttons_of(opened.message)
                  if str(b.custom_id).startswith("omaha:replay:"))
    played = await h.click(h.bob, opened.message, custom_id=str(replay.custom_id))
    assert "Please wait" not in played.all_text, played  # its own command's cooldown
    h.clock.advance(COOLDOWN)
    later = await h.click(h.bob, listing.message, custom_id=button["custom_id"])
    assert "**Hand #1**" in later.all_text, later


async def test_the_pager_turns_a_few_pages_at_once_then_one_per_cooldown(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PAGER_BURST pages at once; the next click is refused privately with its moment,
    draws nothing and leaves the page; then one page per COOLDOWN, and after a pause of
    PAGER_BURST cooldowns a whole burst again. Another member's click spends nothing."""
    h = harness
    for i in range(25):
        await h.bot.economy.wallet(h.guild.id, h.add_member(f"p{i:02d}").id)
    drawn = 0
    real = leaderboard.render_leaderboard_async

    async def counting(*args: Any) -> bytes:
        nonlocal drawn
        drawn += 1
        return await real(*args)

    monkeypatch.setattr(leaderboard, "render_leaderboard_async", counting)
    reply = await h.slash(h.alice, "leaderboard")
    assert reply.message is not None and drawn == 1
    assert "belong to whoever asked" in (await h.click(h.bob, reply.message, label="Next")).text
    assert PAGER_BURST == 4  # the clicks below walk the three pages
    for label in ("Next", "Next", "Previous", "Next"):
        turned = await h.click(h.alice, reply.message, label=label)
        assert not turned.ephemeral, turned
    assert drawn == 1 + PAGER_BURST and reply.buttons[1]["label"] == "Page 3 of 3"
    started = h.clock()
    edits = len(h.requests("PATCH"))
    refusal = await h.click(h.alice, reply.message, label="Previous")
    assert refusal.ephemeral and "turn the page again" in refusal.text, refusal
    assert retry_at(refusal.text) == math.ceil(started + COOLDOWN)
    assert drawn == 1 + PAGER_BURST and len(h.requests("PATCH")) == edits
    assert reply.buttons[1]["label"] == "Page 3 of 3"
    h.clock.advance(COOLDOWN)
    await h.click(h.alice, reply.message, label="Previous")
    assert reply.buttons[1]["label"] == "Page 2 of 3"
    assert (await h.click(h.alice, reply.message, label="Next")).ephemeral
    h.clock.advance(COOLDOWN * PAGER_BURST)
    for label in ("Next", "Previous", "Previous", "Next"):
        assert not (await h.click(h.alice, reply.message, label=label)).ephemeral
    assert drawn == 2 + 2 * PAGER_BURST


async def test_a_few_looks_at_ones_cards_then_the_cooldown(harness: Harness) -> None:
    """/cards and My seat (its panel) draw the hole cards outside the render gate:
    CARDS_BURST looks at once, then the wait (shared by the button and the command)."""
    h = harness
    await playing(h)
    for _ in range(CARDS_BURST - 1):
        looked = await h.slash(h.alice, "cards")
        assert looked.ephemeral and len(await looked.images()) == 1, looked
    live = next(m for m in reversed(h.public_messages())
                if any(str(b.custom_id).startswith("omaha:myseat:") for b in buttons_of(m)))
    mine = next(str(b.custom_id) for b in buttons_of(live)
                if str(b.custom_id).startswith("omaha:myseat:"))
    clicked = await h.click(h.alice, live, custom_id=mine)
    assert clicked.ephemeral and len(await clicked.images()) == 1, clicked
    started = h.clock()
    text = await refused(h, h.alice, "cards")
    assert "you can use /cards again" in text
    assert retry_at(text) == math.ceil(started + COOLDOWN)
    again = await h.click(h.alice, live, custom_id=mine)
    assert again.ephemeral and not await again.images() and "/cards again" in again.text
    assert len(await (await h.slash(h.bob, "cards")).images()) == 1  # his own looks
    h.clock.advance(COOLDOWN)
    assert len(await (await h.slash(h.alice, "cards")).images()) == 1
