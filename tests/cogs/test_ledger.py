"""The night's ledger and seasons through the offline Discord (issue 32)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from bot.adapter import leaderboard
from bot.adapter.night_ledger import CSV_HEADER
from bot.i18n import escaped
from bot.render import LeaderboardView
from tests.cogs.test_economy import play_heads_up
from tests.cogs.test_table import PAUSE, open_table, play_out
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio

#: Names a spreadsheet would run as a formula, and one that needs CSV quoting.
FORMULA = "=HYPERLINK(\"http://x\",\"win\")"
AT_SUM = "@SUM(A1:A9)"
QUOTED = 'Jo, "the rock"'


def _rows(data: bytes) -> list[list[str]]:
    text = data.decode("utf-8")
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")  # CRLF line ends
    return list(csv.reader(io.StringIO(text, newline="")))


async def _night(h: Harness) -> tuple[Any, ...]:
    """Alice's table: three players (two with names a spreadsheet would run), a hand, a
    top-up; the players."""
    await open_table(h)
    mallory, eve = h.add_member(FORMULA), h.add_member(QUOTED)
    for actor, chips in ((h.alice, "200"), (mallory, "150"), (eve, "200")):
        await h.slash(actor, "table join", buyin=chips)
    await h.advance(PAUSE + 0.1)
    await play_out(h)
    topped = await h.slash(mallory, "table topup", amount="30")
    assert topped.ephemeral, topped
    return mallory, eve


async def test_the_ledger_shows_exports_and_is_posted_at_the_close(harness: Harness) -> None:
    """``/table ledger`` lists each player's figures best net first with a zero total; its
    CSV parses back to the same figures as the chip ledger, with the formula names guarded;
    the close posts the ledger in the channel, every stack cashed out, still readable."""
    h = harness
    mallory, eve = await _night(h)
    table_id = h.bot.registry.find(h.channel.id).table_id
    stored = await h.bot.db.sessions.ledger(table_id)
    assert stored.total == 0 and len(stored.lines) == 3

    shown = await h.slash(h.bob, "table ledger")
    assert shown.ephemeral
    assert "**Night's ledger** · table" in shown.text and "session 1" in shown.text
    assert "Total 0: chips only move between the players" in shown.text
    assert "top-ups 30" in shown.text
    names = {h.alice.id: "alice", mallory.id: FORMULA, eve.id: QUOTED}
    shown_as = {h.alice.id: "alice", mallory.id: escaped(FORMULA), eve.id: escaped(QUOTED)}
    lines = shown.text.splitlines()[1:-1]
    assert [line.split("**")[1] for line in lines] == [shown_as[x.user_id]
                                                      for x in stored.lines]  # best net first
    assert lines[0].startswith("1. ") and lines[2].startswith("3. ")

    exported = await h.slash(h.bob, "table ledger", export=True)
    [(filename, data)] = await exported.files()
    assert filename == f"ledger-table-{table_id}-session-1.csv"
    header, *rows = _rows(data)
    assert tuple(header) == CSV_HEADER
    guard = {FORMULA: "'" + FORMULA, QUOTED: QUOTED, "alice": "alice"}
    assert rows == [[guard[names[x.user_id]], str(x.user_id), str(x.buy_ins), str(x.top_ups),
                     str(x.cash_outs), str(x.stack), str(x.net)] for x in stored.lines]
    assert sum(int(r[6]) for r in rows) == 0
    seats = {s.user_id: s.stack for s in await h.bot.db.tables.seats(table_id)}
    assert {int(r[1]): int(r[5]) for r in rows} == seats

    closed = await h.slash(h.alice, "table close")
    assert closed.ephemeral
    public = [m.content for m in h.public_messages()]
    at = next(i for i, t in enumerate(public) if t.startswith("The table is closed"))
    post = public[at + 1]
    assert post.startswith("**Night's ledger** · table") and " to <t:" in post
    assert "Total 0" in post and "stack 0" in post
    after = await h.slash(h.bob, "table ledger", export=True, public=True)
    assert not after.ephemeral and " to <t:" in after.text
    [(_, data)] = await after.files()
    assert all(int(r[5]) == 0 for r in _rows(data)[1:])
    assert sum(int(r[4]) for r in _rows(data)[1:]) == sum(x.stack + x.cash_outs
                                                          for x in stored.lines)


async def test_a_new_session_by_the_creator_or_a_manager(harness: Harness) -> None:
    """Only the table's creator or a manager starts a session (a refusal changes nothing);
    the ended session is posted; the new one counts the stacks as its buy-ins; a restart
    keeps it."""
    h = harness
    await open_table(h)
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await play_out(h)
    table_id = h.bot.registry.find(h.channel.id).table_id
    refused = await h.slash(h.bob, "table session new")
    assert refused.ephemeral and "Only the table's creator or a server manager" in refused.text
    assert (await h.bot.db.sessions.ledger(table_id)).number == 1

    before = await h.bot.db.sessions.ledger(table_id)
    started = await h.slash(h.alice, "table session new")
    assert not started.ephemeral
    assert started.text.startswith("alice started session 2 of the night's ledger")
    assert "session 1 · <t:" in started.text and " to <t:" in started.text
    assert "Total 0" in started.text
    now = await h.bot.db.sessions.ledger(table_id)
    assert now.number == 2 and now.total == 0
    assert {x.user_id: x.buy_ins for x in now.lines} == {x.user_id: x.stack
                                                        for x in before.lines}
    assert all(x.net == 0 for x in now.lines)
    by_manager = await h.slash(h.manager, "table session new")
    assert "started session 3" in by_manager.text
    assert "session 3" in (await h.slash(h.bob, "table ledger")).text
    await h.restart()  # the markers are stored: the session goes on after a restart
    again = await h.slash(h.bob, "table ledger")
    assert "session 3" in again.text and "Total 0" in again.text


async def test_no_ledger_where_no_cash_table_was(harness: Harness) -> None:
    h = harness
    reply = await h.slash(h.bob, "table ledger")
    assert reply.ephemeral and "has had no cash table yet" in reply.text
    reply = await h.slash(h.alice, "table session new")
    assert reply.ephemeral and reply.text
    assert await h.bot.db.sessions.newest_table(h.channel.id) is None


async def test_seasons_split_results_and_keep_past_standings(
    harness: Harness, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only managers start seasons; the leaderboard then ranks the running season by
    default; a new season ends the last, whose final standings stay readable by name."""
    h = harness
    drawn: list[LeaderboardView] = []
    real = leaderboard.render_leaderboard_async

    async def spy(view: LeaderboardView, *args: Any) -> bytes:
        drawn.append(view)
        return await real(view, *args)

    monkeypatch.setattr(leaderboard, "render_leaderboard_async", spy)

    def ranked() -> list[tuple[str, int | str]]:
        return [(r.name, r.value) for r in drawn[-1].rows]

    refused = await h.slash(h.bob, "season start", name="Spring 2027")
    assert refused.ephemeral and "Manage Server" in refused.text
    assert h.bot.seasons.of(h.guild.id) == []
    none = await h.slash(h.bob, "season show")
    assert none.ephemeral and "No season has started" in none.text

    await play_heads_up(h, h.bob, h.alice, 150)  # before any season
    await h.advance(60)
    started = await h.slash(h.manager, "season start", name="Spring 2027")
    assert not started.ephemeral and "Season **Spring 2027** starts now" in started.text
    await h.advance(60)
    await play_heads_up(h, h.alice, h.bob, 40)
    await h.slash(h.carol, "leaderboard")
    assert drawn[-1].title.startswith("Net won") and drawn[-1].subtitle.startswith(
        "Season Spring 2027 · ")
    assert ranked() == [("alice", 40), ("bob", -40)]
    await h.slash(h.carol, "leaderboard", metric="net_won", period="all_time")
    assert ranked() == [("bob", 110), ("alice", -110)]
    await h.slash(h.carol, "leaderboard", metric="balance")
    assert drawn[-1].subtitle.startswith("Current balances")

    for options, words in (({"metric": "balance", "season": "Spring 2027"}, "not seasonal"),
                           ({"season": "Spring 2027", "period": "week"}, "not both"),
                           ({"season": "Winter"}, "no season named Winter")):
        count = len(drawn)
        reply = await h.slash(h.carol, "leaderboard", **options)
        assert reply.ephemeral and words in reply.text, reply
        assert len(drawn) == count

    taken = await h.slash(h.manager, "season start", name="spring 2027")
    assert taken.ephemeral and "already had a season named" in taken.text
    await h.advance(60)
    summer = await h.slash(h.manager, "season start", name="Summer")
    assert "Season **Spring 2027** is over" in summer.text
    await h.advance(60)
    await play_heads_up(h, h.bob, h.alice, 500)

    past = await h.slash(h.dave, "season show", name="spring 2027")
    assert past.ephemeral and "final standings" in past.text
    assert "Net won: 1. **alice** +40 · 2. **bob** -40" in past.text
    assert "Tournament profit: no results yet" in past.text
    running = await h.slash(h.dave, "season show")
    assert "**Season Summer**" in running.text and "1. **bob** +500" in running.text
    assert "Other seasons: Spring 2027" in running.text
    await h.slash(h.dave, "leaderboard", season="Spring 2027")
    assert ranked() == [("alice", 40), ("bob", -40)]
    await h.slash(h.dave, "leaderboard")
    assert ranked() == [("bob", 500), ("alice", -500)]
    offered = await h.dave.autocomplete(h.channel, "leaderboard", "season", "spr")
    assert [c["value"] for c in offered] == ["Spring 2027"]
    offered = await h.dave.autocomplete(h.channel, "season show", "name", "")
    assert [c["value"] for c in offered] == ["Summer", "Spring 2027"]


async def test_seasons_survive_a_restart(harness: Harness) -> None:
    h = harness
    await h.slash(h.manager, "season start", name="Autumn")
    await h.restart()
    running = h.bot.seasons.running(h.guild.id)
    assert running is not None and running.name == "Autumn"
