"""Slash-command options: one style of description, defaults that are true, autocomplete."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.runtime.config import TableConfig
from tests.conftest import Harness

#: Options that are amounts of chips, and options that are durations.
CHIP_OPTIONS = {
    "small_blind", "big_blind", "ante", "min_buyin", "max_buyin", "buyin", "amount", "to",
    "buy_in", "starting_balance", "daily_base", "daily_step",
}
TIME_OPTIONS = {"clock", "time_bank"}


def every_option(h: Harness) -> list[tuple[str, app_commands.Parameter]]:
    return [
        (command.qualified_name, p)
        for command in h.bot.tree.walk_commands()
        if isinstance(command, app_commands.Command)
        for p in command.parameters
    ]


async def test_option_descriptions_share_one_style(harness: Harness) -> None:
    """Capitalised, no final stop, within 100 characters; units named; every optional
    option says its default and no required one pretends to have one."""
    options = every_option(harness)
    assert len(options) > 40
    problems = []
    for command, p in options:
        where = f"/{command} {p.name}: {p.description!r}"
        text = p.description
        if not (text[:1].isupper() and not text.endswith(".") and len(text) <= 100):
            problems.append(f"{where} breaks the style")
        if p.required == ("(default " in text):
            problems.append(f"{where} " + ("has a default" if p.required else "lacks a default"))
        if p.name in CHIP_OPTIONS and "chips" not in text.lower():
            problems.append(f"{where} does not say chips")
        if p.name in TIME_OPTIONS and "seconds" not in text.lower():
            problems.append(f"{where} does not say seconds")
    assert not problems, "\n".join(problems)


def default_of(h: Harness, command: str, option: str) -> str:
    found = next(p for c, p in every_option(h) if c == command and p.name == option)
    match = re.search(r"\(default ([^)]*)\)", found.description)
    assert match is not None, found.description
    return match.group(1)


async def test_described_table_defaults_are_the_real_ones(harness: Harness) -> None:
    """The numbers /table create promises are what a table gets when the option is left out."""
    h = harness
    config = TableConfig.create()
    bb = config.big_blind
    assert default_of(h, "table create", "big_blind") == str(bb)
    assert default_of(h, "table create", "ante") == str(config.ante)
    assert default_of(h, "table create", "seats") == str(config.seats)
    assert default_of(h, "table create", "clock") == str(config.clock)
    assert default_of(h, "table create", "time_bank") == str(config.time_bank)
    assert default_of(h, "table create", "min_buyin") == f"{config.min_buyin // bb} big blinds"
    assert default_of(h, "table create", "max_buyin") == f"{config.max_buyin // bb} big blinds"
    assert default_of(h, "table create", "small_blind") == "half the big blind"
    assert config.small_blind == bb // 2
    assert default_of(h, "table create", "variant") == config.variant.name
    structure, holdem = default_of(h, "table create", "structure").split("; ")
    created = await h.slash(h.alice, "table create")
    assert f"{structure} {config.variant.name} 1/2" in created.text
    assert f"{config.seats} seats" in created.text and f"{config.clock} s per" in created.text
    assert holdem == "No Limit for Texas Hold'em"  # and so it is:
    other = await h.slash(h.bob, "table create", channel=h.add_channel("holdem"),
                          variant="holdem")
    assert "**No Limit Texas Hold'em 1/2**" in other.text, other


# -- /table leave from another channel ------------------------------------------------------


async def two_tables(h: Harness) -> Any:
    """alice sits at #poker's table and at #cash's; bob only at #cash's."""
    cash = h.add_channel("cash")
    await h.slash(h.alice, "table create")
    await h.slash(h.carol, "table create", channel=cash, structure="no limit",
                  variant="omaha_hilo")
    await h.slash(h.alice, "table join", buyin="100")
    await h.slash(h.alice, "table join", channel=cash, buyin="150")
    await h.slash(h.bob, "table join", channel=cash, buyin="120")
    return cash


async def test_leave_offers_the_players_tables_in_this_server(harness: Harness) -> None:
    """Typing in /table leave's table option lists only the tables the player sits at here."""
    h = harness
    cash = await two_tables(h)
    lobby = h.add_channel("lobby")
    poker_id = h.bot.registry.in_channel(h.channel.id).table_id
    cash_id = h.bot.registry.in_channel(cash.id).table_id
    offered = await h.alice.autocomplete(lobby, "table leave", "table", "")
    assert {(c["name"], c["value"]) for c in offered} == {
        (f"#poker · Pot Limit Omaha 1/2 (table {poker_id})", poker_id),
        (f"#cash · No Limit Omaha Hi-Lo 1/2 (table {cash_id})", cash_id),
    }
    typed = await h.alice.autocomplete(lobby, "table leave", "table", "Hi-Lo")
    assert [c["value"] for c in typed] == [cash_id]
    assert [c["value"] for c in await h.bob.autocomplete(lobby, "table leave", "table", "")] == [
        cash_id
    ]
    assert await h.dave.autocomplete(lobby, "table leave", "table", "") == []


async def test_table_choices_speak_the_readers_language(harness: Harness) -> None:
    """Issue 23: the tables offered as the member types are named in their language."""
    h = harness
    cash = await two_tables(h)
    cash_id = h.bot.registry.in_channel(cash.id).table_id
    h.set_locale(h.bob, "it")
    [offered] = await h.bob.autocomplete(h.add_channel("lobby"), "table leave", "table", "")
    assert offered["value"] == cash_id
    assert offered["name"].startswith("#cash · ") and f"(tavolo {cash_id})" in offered["name"]
    assert "Omaha High/Low No-limit 1/2" in offered["name"] and offered["name"] != (
        f"#cash · No Limit Omaha Hi-Lo 1/2 (table {cash_id})")


async def test_leave_a_table_from_another_channel(harness: Harness) -> None:
    """Leaving #cash's table from #lobby returns that stack and keeps the other seat."""
    h = harness
    cash = await two_tables(h)
    lobby = h.add_channel("lobby")
    cash_table = h.bot.registry.in_channel(cash.id)
    before = await h.balance(h.alice)
    reply = await h.slash(h.alice, "table leave", channel=lobby, table=cash_table.table_id)
    assert reply.ephemeral and "150 chips went back" in reply.text, reply
    assert await h.balance(h.alice) == before + 150
    assert cash_table.seat_of(h.alice.id) is None
    assert h.bot.registry.in_channel(h.channel.id).seat_of(h.alice.id) is not None


@pytest.mark.parametrize("who, table, words", [
    ("alice", 9999, "no such table in this server"),
    ("dave", None, "not seated"),
])
async def test_leave_a_wrong_table_is_refused_politely(
    harness: Harness, who: str, table: int | None, words: str
) -> None:
    """An unknown table id, or a table the player does not sit at: a private no, no change."""
    h = harness
    cash = await two_tables(h)
    lobby = h.add_channel("lobby")
    table_id = table if table is not None else h.bot.registry.in_channel(cash.id).table_id
    balances = [await h.balance(a) for a in (h.alice, h.bob, h.dave)]
    reply = await h.slash(h.members[who], "table leave", channel=lobby, table=table_id)
    assert reply.ephemeral and words in reply.text, reply
    assert [await h.balance(a) for a in (h.alice, h.bob, h.dave)] == balances
    assert h.bot.registry.in_channel(cash.id).seat_of(h.alice.id) is not None


async def test_leave_a_table_of_another_server_is_refused(harness: Harness) -> None:
    """A table id from another server is not offered and cannot be left from here."""
    h = harness
    other = h.env.create_guild("Other Club")
    there = other.create_text_channel("poker")
    alice_there = other.add_member(h.alice.user)
    await alice_there.slash(there, "table create")
    await alice_there.slash(there, "table join", buyin="100")
    theirs = h.bot.registry.in_channel(there.id).table_id
    assert await h.alice.autocomplete(h.channel, "table leave", "table", "") == []
    reply = await h.slash(h.alice, "table leave", table=theirs)
    assert reply.ephemeral and "no such table in this server" in reply.text
    assert h.bot.registry.in_channel(there.id).seat_of(h.alice.id) is not None


async def test_join_offers_the_free_seats(harness: Harness) -> None:
    """Typing /table join's seat lists this table's free seats (none where there is none)."""
    h = harness
    await h.slash(h.alice, "table create", seats=4)
    await h.slash(h.alice, "table join", buyin="100", seat=2)
    offered = await h.bob.autocomplete(h.channel, "table join", "seat", "")
    assert [(c["name"], c["value"]) for c in offered] == [("Seat 1", 1), ("Seat 3", 3),
                                                          ("Seat 4", 4)]
    h.set_locale(h.bob, "es-ES")
    assert [c["name"] for c in await h.bob.autocomplete(h.channel, "table join", "seat", "3")
            ] == ["Asiento 3"]
    assert await h.bob.autocomplete(h.add_channel("lobby"), "table join", "seat", "") == []


def test_no_option_makes_a_player_type_an_id(harness: Harness) -> None:
    """Issue 23, walking the tree: every option that names a table, a hand or a seat by
    number offers choices as the player types (autocomplete); every option that names a
    player is Discord's member picker (a user option, which Discord completes itself from
    the server's members and which cannot take an autocomplete)."""
    numbered = {"table", "number", "seat"}
    seen = set()
    for command in harness.bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for p in command.parameters:
            where = f"/{command.qualified_name} {p.name}"
            if p.name in numbered:
                assert p.type is discord.AppCommandOptionType.integer, where
                assert p.autocomplete, where
                seen.add(where)
            if p.name in ("user", "player"):
                assert p.type is discord.AppCommandOptionType.user, where
                seen.add(where)
    assert {"/table leave table", "/table info table", "/hand show number",
            "/hand export number", "/hand verify number", "/table join seat",
            "/hands player", "/balance user", "/stats user"} <= seen
