"""A run-out street's post (bot/adapter/run_out.py): the hands face up, their chances."""

from __future__ import annotations

from bot.adapter.run_out import run_out_stage
from bot.adapter.scenes import Live
from bot.engine.cards import parse_cards
from bot.runtime.config import TableConfig
from bot.runtime.table.views import SeatSnapshot, TableSnapshot


def _all_in(board: str) -> Live:
    """Heads-up, both all-in and shown: aces against a low rundown."""
    config = TableConfig.create("omaha")
    seats = (SeatSnapshot(1, 11, "alice", 0, committed=100, in_hand=True, dealt_in=True,
                          all_in=True, shown=parse_cards("AsAhKdQc")),
             SeatSnapshot(2, 12, "bob", 0, committed=100, in_hand=True, dealt_in=True,
                          all_in=True, shown=parse_cards("2c3d4h7s")))
    snap = TableSnapshot(table_id=3, guild_id=1, channel_id=2, creator_id=4, config=config,
                         seats=seats, hand_no=9)
    live = Live(snap, ["alice raises to 100", "bob calls 100"])
    live.board = parse_cards(board)
    return live


async def test_a_flop_stage_names_both_players_and_their_chances() -> None:
    live = _all_in("AdKs8c")
    stage = await run_out_stage(live, "Flop", live.board)
    first = stage.content.splitlines()
    assert "Hand #9" in first[0] and "Flop" in first[0]
    chances = first[1]
    assert "alice" in chances and "bob" in chances and "%" in chances
    assert "> bob calls 100" in stage.content  # the hand's last lines follow
    assert stage.view.board == live.board


async def test_the_river_stage_has_no_chances_left_to_tell() -> None:
    live = _all_in("AdKs8c5h6d")
    stage = await run_out_stage(live, "River", live.board)
    assert "%" not in stage.content
    assert stage.content.splitlines()[1] == "> alice raises to 100"
