"""Another member's results count only what the answer's readers may see (issue 29),
through the offline Discord (bot/adapter/visibility.py, bot/storage/stats.py).

alice and bob play in #poker (open to every member) and in #vip (hidden from @everyone,
shown to the VIP role: alice and bob). dave, who cannot view #vip, reads alice's figures,
graph and the leaderboards without the #vip hands: the numbers differ from hers exactly
by those hands. A public answer counts what every reader of its channel may view, so
bob's /stats of alice posted in #poker leaves #vip out too, and in #vip counts it; alice's
own /stats, answered to her alone, counts all her hands. Balances stay whole.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.adapter import leaderboard, stats_graphs
from bot.render import GraphView, LeaderboardView
from tests.cogs.test_economy import play_heads_up
from tests.conftest import Harness

pytestmark = pytest.mark.asyncio


async def _vip(h: Harness) -> Any:
    """#vip with its hands; alice's results: #poker -150, -150, +40; #vip +300 x 3."""
    vip = h.add_channel("vip")
    vips = h.add_role("VIP", h.alice, h.bob)
    h.overwrite(vip, None, deny=("view_channel",))
    h.overwrite(vip, vips, allow=("view_channel",))
    await play_heads_up(h, h.bob, h.alice, 150, hands=2)
    await play_heads_up(h, h.alice, h.bob, 40)
    await play_heads_up(h, h.alice, h.bob, 300, hands=3, channel=vip)
    await h.settle()
    return vip


def _spy(monkeypatch: pytest.MonkeyPatch) -> tuple[list[GraphView], list[LeaderboardView]]:
    """Record the graph and leaderboard views drawn (the real renderers still draw)."""
    graphs: list[GraphView] = []
    boards: list[LeaderboardView] = []
    draw_graphs, draw_board = stats_graphs.render_graphs_async, leaderboard.render_leaderboard_async

    async def graph_spy(view: GraphView, *args: Any) -> bytes:
        graphs.append(view)
        return await draw_graphs(view, *args)

    async def board_spy(view: LeaderboardView, *args: Any) -> bytes:
        boards.append(view)
        return await draw_board(view, *args)

    monkeypatch.setattr(stats_graphs, "render_graphs_async", graph_spy)
    monkeypatch.setattr(leaderboard, "render_leaderboard_async", board_spy)
    return graphs, boards


def _figures(text: str) -> tuple[int, int]:
    """Hands played and net chips from a /stats answer."""
    played = re.search(r"Hands played: (\d+)", text)
    net = re.search(r"Net: ([+-]?[\d,]+) chips", text)
    assert played and net, text
    return int(played[1]), int(net[1].replace(",", ""))


async def test_stats_of_a_vip_player_seen_from_outside_leave_the_vip_hands_out(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    vip = await _vip(h)
    graphs, _ = _spy(monkeypatch)
    economy = h.bot.app.economy
    every = await economy.hand_nets(h.guild.id, h.alice.id)
    in_vip = await economy.hand_nets(h.guild.id, h.alice.id, channels=[vip.id])
    assert len(every) == 6 and [n.net for n in in_vip] == [300, 300, 300]

    seen = await h.slash(h.dave, "stats", user=h.alice)
    assert not seen.ephemeral
    played, net = _figures(seen.all_text)
    assert (played, net) == (3, -260)
    mine = await h.slash(h.alice, "stats")  # her own, to her alone: every hand
    assert mine.ephemeral
    all_played, all_net = _figures(mine.all_text)
    assert all_played - played == len(in_vip)
    assert all_net - net == sum(n.net for n in in_vip)
    assert "Biggest pot won: 80 chips" in seen.all_text  # not the #vip pot of 600
    assert "Biggest pot won: 600 chips" in mine.all_text
    assert graphs[0].panels[0].lines[0].points == (-150, -300, -260)
    assert graphs[1].panels[0].lines[0].points == (-150, -300, -260, 40, 340, 640)

    # bob sees #vip, but his answer in #poker is read by all of #poker: #vip left out
    assert _figures((await h.slash(h.bob, "stats", user=h.alice)).all_text) == (3, -260)
    # in #vip, every reader sees #vip: all of it counts
    assert _figures((await h.slash(h.bob, "stats", user=h.alice, channel=vip)).all_text) == (
        6, 640)
    # alice shows her own to #poker: its readers' view, as anyone's
    shown = await h.slash(h.alice, "stats", public=True)
    assert not shown.ephemeral and _figures(shown.all_text) == (3, -260)


async def test_leaderboards_and_their_graphs_seen_from_outside(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    vip = await _vip(h)
    graphs, boards = _spy(monkeypatch)
    await h.slash(h.dave, "leaderboard", metric="net_won", graphs=True)
    assert [(r.name, r.value) for r in boards[-1].rows] == [("bob", 260), ("alice", -260)]
    assert [p.lines[0].points for p in graphs[-1].panels] == [(150, 300, 260),
                                                             (-150, -300, -260)]
    for metric, first in (("hands_won", ("bob", 2)), ("biggest_pot", ("bob", 300))):
        await h.slash(h.carol, "leaderboard", metric=metric)
        assert (boards[-1].rows[0].name, boards[-1].rows[0].value) == first
    await h.slash(h.alice, "leaderboard", metric="net_won", channel=vip)
    assert [(r.name, r.value) for r in boards[-1].rows] == [("alice", 640), ("bob", -640)]
    # balances are the server's whole: the same wherever it is asked
    await h.slash(h.dave, "leaderboard")
    outside = [(r.name, r.value) for r in boards[-1].rows]
    await h.slash(h.bob, "leaderboard", channel=vip)
    assert [(r.name, r.value) for r in boards[-1].rows] == outside
    # the balances' graphs draw hands: only the hands the channel's readers may see
    await h.slash(h.dave, "leaderboard", graphs=True)
    assert sorted(p.lines[0].points for p in graphs[-1].panels) == [(-150, -300, -260),
                                                                   (150, 300, 260)]
    await h.slash(h.bob, "leaderboard", graphs=True, channel=vip)
    assert sorted(p.lines[0].points for p in graphs[-1].panels) == [
        (-150, -300, -260, 40, 340, 640), (150, 300, 260, -40, -340, -640)]


async def test_a_thread_shares_its_channels_readers(harness: Harness) -> None:
    """Hands at a table in a public thread of #vip count in #vip and in the thread; an
    answer in a thread of #vip counts #vip's hands; #poker stays out of neither."""
    h = harness
    vip = await _vip(h)
    side = h.add_thread("side", vip)
    await play_heads_up(h, h.bob, h.alice, 7, channel=side)
    assert _figures((await h.slash(h.bob, "stats", user=h.alice, channel=vip)).all_text) == (
        7, 633)
    assert _figures((await h.slash(h.alice, "stats", user=h.bob, channel=side)).all_text) == (
        7, -633)
    assert _figures((await h.slash(h.dave, "stats", user=h.alice)).all_text) == (3, -260)


async def test_a_channel_hidden_from_one_member_is_not_open_to_everyone(
    harness: Harness,
) -> None:
    """#cards is open to @everyone, but a member overwrite hides it from dave: an answer in
    #poker (which dave reads) leaves its hands out, even asked by carol, who sees it."""
    h = harness
    room = h.add_channel("cards")
    await play_heads_up(h, h.alice, h.bob, 90, channel=room)
    assert _figures((await h.slash(h.carol, "stats", user=h.alice)).all_text) == (1, 90)
    h.overwrite(room, h.dave, deny=("view_channel",))
    await h.settle()
    assert "No hands played yet." in (await h.slash(h.carol, "stats", user=h.alice)).all_text
    in_room = await h.slash(h.carol, "stats", user=h.alice, channel=room)
    assert _figures(in_room.all_text) == (1, 90)
