"""Asking an all-in run-out whether to run it twice (bot.runtime.table.run_twice)."""

from __future__ import annotations

import pytest

from bot.engine.events import ActionKind
from bot.i18n import Phrase
from bot.runtime.errors import NotAllowed, NotSeated, NotYourTurn
from bot.runtime.registry import TableRegistry
from bot.runtime.table.events import HandSettled, Notice, RunTwiceAsked, StreetDealt
from bot.runtime.table.live import Table
from tests.runtime.conftest import CREATOR, PAUSE, World, name_of

USERS = (2, 3, 4)


async def all_in(world: World, **settings: object) -> Table:
    """Three players of no-limit Omaha all-in before the flop (200 each)."""
    table = await world.table(structure="no limit", **settings)  # type: ignore[arg-type]
    await world.seat(table, *USERS)
    await world.deal(table)
    await world.act(table, ActionKind.ALL_IN)
    await world.act(table, ActionKind.CALL)
    await world.act(table, ActionKind.CALL)
    await table.idle()
    return table


def stored_kinds(world: World, hand_id: int = 1) -> list[tuple[int, str, str]]:
    return [(a.seat, a.kind, a.source) for a in world.hands.actions[hand_id]
            if a.kind in ("twice", "once")]


async def test_everyone_agrees_two_boards(world: World) -> None:
    """All three agree: two boards, each street told per board, every chip kept."""
    chips = len(USERS) * world.economy.default_balance
    table = await all_in(world, run_it_twice=True)
    cur = table.current
    assert cur is not None and cur.question is not None
    [asked] = world.observer.of(RunTwiceAsked)
    assert sorted(asked.users.values()) == list(USERS) and asked.token == cur.question.token
    assert asked.clock == table.config.clock and asked.table.board == ()
    for user in USERS:
        text = await table.answer_run_twice(user, True, asked.token)
        assert text == Phrase("reply.run_twice.twice")
        assert str(text) == "You agreed to run it twice."
    await table.idle()
    assert table.current is None
    [over] = world.observer.of(HandSettled)
    assert len(over.table.second_board) == 5 and over.table.second_board != over.table.board
    streets = world.observer.of(StreetDealt)
    assert [(s.run, len(s.board)) for s in streets] == [(0, 3), (0, 4), (0, 5),
                                                         (1, 3), (1, 4), (1, 5)]
    assert all(s.run_out for s in streets)
    assert world.chips(table) == chips
    assert sum(world.hands.settled[1].values()) == 600
    assert [k for _, k, _ in stored_kinds(world)] == ["twice"] * 3


async def test_one_once_runs_it_once(world: World) -> None:
    """The first "once" deals the board once at once; a later click is refused."""
    table = await all_in(world, run_it_twice=True)
    await table.answer_run_twice(USERS[0], True)
    text = await table.answer_run_twice(USERS[1], False)
    assert str(text) == "You chose to run it once."
    await table.idle()
    assert table.current is None
    [over] = world.observer.of(HandSettled)
    assert over.table.second_board == () and len(over.table.board) == 5
    with pytest.raises(NotYourTurn, match="question is over"):
        await table.answer_run_twice(USERS[2], True)
    notices = [n.text for n in world.observer.of(Notice)]
    assert "p2 agrees to run it twice." in notices and "p3 wants to run it once." in notices


async def test_silence_means_once(world: World) -> None:
    """Nobody answers: when the clock runs out the board is run once; nobody is sat out."""
    table = await all_in(world, run_it_twice=True)
    await table.answer_run_twice(USERS[2], True)
    await world.clock.advance(table.config.clock - 1)
    assert table.current is not None
    await world.clock.advance(1)
    await table.idle()
    assert table.current is None and world.observer.of(HandSettled)[0].table.second_board == ()
    assert stored_kinds(world)[-1][1:] == ("once", "timeout")
    assert all(s.timeouts == 0 and not s.clock_sat_out for s in table.seats.values())
    assert any("(time ran out)" in n.text for n in world.observer.of(Notice))


async def test_refusals_change_nothing(world: World) -> None:
    """A stranger, a second answer, a stale button and a bet during the question."""
    table = await all_in(world, run_it_twice=True)
    with pytest.raises(NotSeated):
        await table.answer_run_twice(99, True)
    await table.answer_run_twice(USERS[0], True)
    with pytest.raises(NotYourTurn, match="already answered"):
        await table.answer_run_twice(USERS[0], False)
    with pytest.raises(NotYourTurn, match="question is over"):
        await table.answer_run_twice(USERS[1], True, "1.0")
    with pytest.raises(NotYourTurn, match="all-in"):
        await table.act(USERS[1], ActionKind.CHECK)

    assert len(stored_kinds(world)) == 1 and table.current is not None


async def test_the_player_who_covers_is_asked_too(world: World) -> None:
    """Two short stacks all-in, the big stack calls and still has chips: all three are
    asked; the big stack's bet is refused with the reason."""
    table = await world.table(structure="no limit", run_it_twice=True)
    await world.seat(table, 2, 3, buyin=100)
    await world.seat(table, 4, buyin=200)
    await world.deal(table)
    while table.current is not None and table.current.hand.to_act is not None:
        await world.act(table, ActionKind.ALL_IN if table.legal_for(
            world.to_act(table)).max_raise_to else ActionKind.CALL)
    cur = table.current
    assert cur is not None and cur.question is not None
    assert len(cur.hand.run_twice_voters) == 3
    covering = next(s for s in table.seats.values() if not cur.hand.player(s.number).all_in)
    with pytest.raises(NotYourTurn, match="choosing whether to run the board twice"):
        await table.act(covering.user_id, ActionKind.CHECK)


async def test_table_that_does_not_allow_it_never_asks(world: World) -> None:
    table = await all_in(world)
    assert table.current is None and world.observer.of(RunTwiceAsked) == []
    assert world.observer.of(HandSettled)[0].table.second_board == ()


async def test_settings_turn_it_on_and_off_between_hands(world: World) -> None:
    """run_it_twice is a setting like the others: the creator changes it between hands
    (stored with the table), not during a hand; the next all-in follows it."""
    on = await world.table(channel=101, structure="no limit")
    off = await world.table(channel=102, structure="no limit", run_it_twice=True)
    assert (await on.update_settings(CREATOR, run_it_twice=True)).run_it_twice
    assert not (await off.update_settings(CREATOR, run_it_twice=False)).run_it_twice
    assert world.tables.tables[on.table_id]["config"]["run_it_twice"] is True
    assert world.tables.tables[off.table_id]["config"]["run_it_twice"] is False
    for table, users in ((on, USERS), (off, (5, 6, 7))):
        await world.seat(table, *users)
    await world.deal(on)
    for table in (on, off):
        for kind in (ActionKind.ALL_IN, ActionKind.CALL, ActionKind.CALL):
            await world.act(table, kind)
        await table.idle()
    [asked] = world.observer.of(RunTwiceAsked)
    assert asked.table.table_id == on.table_id
    assert off.current is None and on.current is not None
    with pytest.raises(NotAllowed, match="between hands"):
        await on.update_settings(CREATOR, run_it_twice=False)
    assert on.config.run_it_twice


async def test_restart_during_the_question_keeps_answers_chips_and_commitment(
    world: World,
) -> None:
    """A restart while asked: the hand resumes with its commitment root, the stored answer
    stands, the question is asked again, and the hand ends with every chip."""
    chips = len(USERS) * world.economy.default_balance
    table = await all_in(world, run_it_twice=True)
    root = table.current.commitment if table.current else ""
    await table.answer_run_twice(USERS[0], True)
    await table.shutdown()
    registry = TableRegistry(economy=world.economy, hands=world.hands, tables=world.tables,
                             observer=world.observer, clock=world.clock, pause=PAUSE,
                             names=name_of)
    [again] = await registry.restore()
    await again.idle()
    cur = again.current
    assert cur is not None and cur.question is not None and len(root) == 64
    assert cur.commitment == root
    assert set(cur.hand.run_twice_voters) == {
        s for s in cur.dealt if again.seats[s].user_id != USERS[0]}
    asked = world.observer.of(RunTwiceAsked)[-1]
    for user in USERS[1:]:
        await again.answer_run_twice(user, True, asked.token)
    await again.idle()
    assert again.current is None and world.observer.of(HandSettled)[-1].table.second_board
    assert world.chips(again) == chips
    assert [k for _, k, _ in stored_kinds(world)] == ["twice"] * 3


async def test_resumed_hand_keeps_its_commitment_root(world: World) -> None:
    """Issue 11 leftover: a hand resumed after a restart posts the root it had."""
    table = await world.table()
    await world.seat(table, *USERS)
    await world.deal(table)
    await world.act(table, ActionKind.CALL)
    root = table.current.commitment if table.current else ""
    before = table.snapshot().commitment
    await table.shutdown()
    registry = TableRegistry(economy=world.economy, hands=world.hands, tables=world.tables,
                             observer=world.observer, clock=world.clock, pause=PAUSE,
                             names=name_of)
    [again] = await registry.restore()
    assert len(root) == 64 and before == root
    assert again.current is not None and again.current.commitment == root
    assert again.snapshot().commitment == root
