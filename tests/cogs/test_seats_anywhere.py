"""Players see and leave their seats from any channel (bot/adapter/my_tables.py), offline."""

from __future__ import annotations

from typing import Any

from tests.cogs.test_options import two_tables
from tests.conftest import Harness


async def test_leave_from_elsewhere_takes_the_players_only_table(harness: Harness) -> None:
    """bob sits only at #cash: /table leave in #lobby, with no option, leaves it."""
    h = harness
    cash = await two_tables(h)
    lobby = h.add_channel("lobby")
    before = await h.balance(h.bob)
    reply = await h.slash(h.bob, "table leave", channel=lobby)
    assert reply.ephemeral and "120 chips went back" in reply.text, reply
    assert await h.balance(h.bob) == before + 120
    assert h.bot.registry.in_channel(cash.id).seat_of(h.bob.id) is None


async def test_leave_from_elsewhere_with_several_seats_asks_which(harness: Harness) -> None:
    """alice sits at two tables: /table leave in #lobby lists them and changes nothing."""
    h = harness
    cash = await two_tables(h)
    lobby = h.add_channel("lobby")
    before = await h.balance(h.alice)
    reply = await h.slash(h.alice, "table leave", channel=lobby)
    assert reply.ephemeral and "seats at 2 tables" in reply.text, reply
    assert f"<#{h.channel.id}>" in reply.text and f"<#{cash.id}>" in reply.text
    assert "/table leave table:" in reply.text
    assert await h.balance(h.alice) == before
    assert len(h.bot.registry.tables_of(h.alice.id)) == 2


async def test_leave_and_info_without_any_seat_are_refused_politely(harness: Harness) -> None:
    """dave sits nowhere: both commands in #lobby say so privately."""
    h = harness
    await two_tables(h)
    lobby = h.add_channel("lobby")
    for command in ("table leave", "table info"):
        reply = await h.slash(h.dave, command, channel=lobby)
        assert reply.ephemeral and "no seat at a table in this server" in reply.text, reply


async def test_info_from_elsewhere_shows_the_players_table_or_the_one_asked(
    harness: Harness,
) -> None:
    """/table info in #lobby: bob's only table; with a table option, any of this server."""
    h = harness
    cash = await two_tables(h)
    lobby = h.add_channel("lobby")
    cash_id = h.bot.registry.in_channel(cash.id).table_id
    poker_id = h.bot.registry.in_channel(h.channel.id).table_id
    reply = await h.slash(h.bob, "table info", channel=lobby)
    assert reply.ephemeral and f"Table {cash_id} in <#{cash.id}>" in reply.text, reply
    assert "bob · 120 chips" in reply.text
    reply = await h.slash(h.bob, "table info", channel=lobby, table=poker_id)
    assert f"Table {poker_id} in <#{h.channel.id}>" in reply.text and "alice" in reply.text
    offered = await h.bob.autocomplete(lobby, "table info", "table", "")
    assert [c["value"] for c in offered] == [cash_id, poker_id]  # bob's own table first


async def test_mine_lists_every_seat_with_a_link(harness: Harness) -> None:
    """/table mine: one line per seat, with the channel's link, stack and status; after a
    channel is deleted its seat is gone from the list and its chips are back."""
    h = harness
    cash = await two_tables(h)
    lobby = h.add_channel("lobby")
    reply = await h.slash(h.alice, "table mine", channel=lobby)
    assert reply.ephemeral and "Your seats (2)" in reply.text, reply
    guild = h.guild.id
    for channel, stack in ((h.channel, 100), (cash, 150)):
        link = f"https://discord.com/channels/{guild}/{channel.id}"
        line = next(x for x in reply.text.splitlines() if link in x)
        assert f"<#{channel.id}>" in line and f"{stack:,} chips" in line, line
    before = await h.balance(h.alice)
    h.delete_channel(cash)
    await h.settle()
    assert await h.balance(h.alice) == before + 150
    reply = await h.slash(h.alice, "table mine", channel=lobby)
    assert "Your seats (1)" in reply.text and str(cash.id) not in reply.text, reply
    nobody = await h.slash(h.dave, "table mine", channel=lobby)
    assert nobody.ephemeral and "no seat at any table" in nobody.text


async def test_mine_lists_only_this_servers_seats(harness: Harness) -> None:
    """A seat in another server is not listed here (nor offered)."""
    h = harness
    other = h.env.create_guild("Other Club")
    there = other.create_text_channel("poker")
    alice_there: Any = other.add_member(h.alice.user)
    await alice_there.slash(there, "table create")
    await alice_there.slash(there, "table join", buyin="100")
    reply = await h.slash(h.alice, "table mine")
    assert "no seat at any table" in reply.text, reply
