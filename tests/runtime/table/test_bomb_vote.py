"""Bomb pots at a live table (RULES.md 10): scheduled every N hands, proposed and agreed
(bot.runtime.table.bomb_vote), dealt through the runtime (no Discord)."""

from __future__ import annotations

import pytest

from bot.engine.bomb_pot import BombPot
from bot.engine.events import ActionKind, AntePosted, BlindPosted
from bot.i18n import Listed, Name, Phrase
from bot.runtime.bomb_pots import stored_bomb_pot
from bot.runtime.errors import NotAllowed, NotSeated, TableError
from bot.runtime.hand_history import rebuild
from bot.runtime.table import bomb_vote
from bot.runtime.table.events import HandBegan, Notice, StreetDealt
from bot.runtime.table.live import Table
from tests.runtime.conftest import PAUSE, World, name_of

USERS = (2, 3, 4)


async def finish_hand(world: World, table: Table) -> None:
    """Play the running hand to its end by checking or calling."""
    no = table.current.hand_no if table.current else None
    while table.current is not None and table.current.hand_no == no:
        legal = table.legal_for(world.to_act(table))
        await world.act(table, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    await table.idle()


async def seated(world: World, **settings: object) -> Table:
    table = await world.table(**settings)  # type: ignore[arg-type]
    await world.seat(table, *USERS)
    return table


def notices(world: World) -> list[str]:
    return [n.text for n in world.observer.of(Notice)]


async def test_every_n_hands_a_bomb_pot(world: World) -> None:
    """Every second hand: antes from everyone (2 big blinds), no blind, the flop dealt with
    the hole cards, the settings stored with the hand; the others are usual hands."""
    table = await seated(world, bomb_pot_every=2)
    chips = world.chips(table)
    await world.deal(table)
    assert table.current is not None and table.current.hand.bomb_pot is None
    await finish_hand(world, table)
    await world.deal(table)
    cur = table.current
    assert cur is not None and cur.hand_no == 2 and cur.hand.bomb_pot == BombPot(4)
    antes = [(e.seat, e.amount) for e in cur.hand.events if isinstance(e, AntePosted)]
    assert sorted(antes) == [(1, 4), (2, 4), (3, 4)]
    assert not any(isinstance(e, BlindPosted) for e in cur.hand.events)
    began = world.observer.of(HandBegan)[-1].table
    assert (began.bomb_ante, began.small_blind, began.big_blind) == (4, None, None)
    assert len(began.board) == 3 and began.pot == 12
    assert stored_bomb_pot(world.hands.starts[cur.hand_id].config) == BombPot(4)
    legal = table.legal_for(world.to_act(table))
    assert (legal.min_raise_to, legal.max_raise_to, legal.pot) == (2, 12, 12)
    await finish_hand(world, table)
    await world.deal(table)
    assert table.current is not None and table.current.hand.bomb_pot is None
    assert world.chips(table) == chips


async def test_double_board_streets_and_settings_shown(world: World) -> None:
    """A double board: each street told on board 1 then board 2; the snapshot says so."""
    table = await seated(world, bomb_pot_every=1, bomb_pot_ante=3, double_board=True)
    await world.deal(table)
    began = world.observer.of(HandBegan)[-1].table
    assert (began.bomb_ante, began.double_board, len(began.second_board)) == (6, True, 3)
    await finish_hand(world, table)
    streets = [(s.run, len(s.board)) for s in world.observer.of(StreetDealt)]
    assert streets == [(0, 3), (1, 3), (0, 4), (1, 4), (0, 5), (1, 5)]
    assert sum(world.hands.settled[1].values()) == 600


async def test_everyone_all_in_on_the_antes(world: World) -> None:
    """Stacks below the ante: nobody bets, every street is told in turn as a run-out, and
    the hand is settled at once."""
    table = await world.table(bomb_pot_every=1, bomb_pot_ante=50)  # 100 chips each
    for user in USERS:
        await table.join(user, f"p{user}", 40)
    await world.deal(table)
    streets = world.observer.of(StreetDealt)
    assert [len(s.board) for s in streets] == [3, 4, 5] and all(s.run_out for s in streets)
    assert table.current is None and sum(world.hands.settled[1].values()) == 120


async def test_players_waiting_to_enter_are_not_dealt_in(world: World) -> None:
    """A player who sat down during the game waits out the bomb pot and still owes their
    big blind; the button moves as usual."""
    table = await seated(world, bomb_pot_every=2)
    await world.deal(table)
    await table.join(5, "p5", None, post_big_blind=True)
    first_button = table.button
    await finish_hand(world, table)
    await world.deal(table)
    cur = table.current
    assert cur is not None and cur.hand.bomb_pot is not None
    assert cur.dealt == (1, 2, 3) and table.button != first_button
    assert table.seats[4].needs_big_blind
    await finish_hand(world, table)
    await world.deal(table)
    assert table.current is not None and 4 in table.current.dealt  # posts now


async def test_a_proposal_everyone_agrees_to(world: World) -> None:
    """Proposed during hand 1: hand 2 is a bomb pot once the other two agree."""
    table = await seated(world, bomb_pot_ante=5)  # proposals only
    await world.deal(table)
    proposal = await bomb_vote.propose(table, 2)
    assert (proposal.hand_no, sorted(proposal.voters), proposal.agreed) == (2, [2, 3, 4], {2})
    assert await bomb_vote.answer(table, 3, True, proposal.token) == Phrase(
        "reply.bomb_pot.agreed")
    with pytest.raises(TableError, match="already agreed"):
        await bomb_vote.answer(table, 3, True, proposal.token)
    await bomb_vote.answer(table, 4, True, proposal.token)
    await table.idle()
    assert "Everyone agreed: hand 2 is a bomb pot, every player posts 10." in notices(world)
    with pytest.raises(TableError, match="over"):
        await bomb_vote.answer(table, 4, True, proposal.token)
    with pytest.raises(TableError, match="Hand 2 is a bomb pot already"):
        bomb_vote.check_propose(table, 3)
    await finish_hand(world, table)
    await world.deal(table)
    assert table.current is not None and table.current.hand.bomb_pot == BombPot(10)
    await finish_hand(world, table)
    await world.deal(table)
    assert table.current is not None and table.current.hand.bomb_pot is None  # hand 3


async def test_silence_refuses_and_the_deal_waits(world: World) -> None:
    """Proposed in the pause: the next hand waits for the answer; when the 20 seconds pass
    without everyone's yes the bomb pot is off and the hand is dealt as usual."""
    table = await seated(world, bomb_pot_every=10)
    await world.deal(table)
    await finish_hand(world, table)
    proposal = await bomb_vote.propose(table, 3)
    await bomb_vote.answer(table, 2, True, proposal.token)
    await world.clock.advance(PAUSE)
    await table.idle()
    assert table.current is None  # waiting for user 4
    await world.clock.advance(bomb_vote.VOTE_SECONDS)
    await table.idle()
    assert "No bomb pot: no answer in time from p4." in notices(world)
    assert table.current is not None and table.current.hand_no == 2
    assert table.current.hand.bomb_pot is None
    again = await bomb_vote.propose(table, 2)  # hand 2 is dealt: one for hand 3 may come
    assert again.hand_no == 3


async def test_a_refusal_ends_it(world: World) -> None:
    table = await seated(world, bomb_pot_every=10)
    await world.deal(table)
    proposal = await bomb_vote.propose(table, 2)
    assert await bomb_vote.answer(table, 4, False, proposal.token) == Phrase(
        "reply.bomb_pot.refused")
    await table.idle()
    assert "p4 refused the bomb pot: the next hand is dealt as usual." in notices(world)
    with pytest.raises(TableError, match="already proposed for hand 2"):
        await bomb_vote.propose(table, 3)
    await finish_hand(world, table)
    await world.deal(table)
    assert table.current is not None and table.current.hand.bomb_pot is None


async def test_refusals(world: World) -> None:
    """Bomb pots off; not seated; waiting to enter; an open proposal; not asked."""
    off = await world.table(channel=200)
    await world.seat(off, *USERS)
    with pytest.raises(NotAllowed, match="Bomb pots are off"):
        await bomb_vote.propose(off, 2)
    table = await seated(world, bomb_pot_every=5)
    with pytest.raises(NotSeated):
        await bomb_vote.propose(table, 9)
    await world.deal(table)
    await table.join(5, "p5", None)  # waits for the big blind
    with pytest.raises(TableError, match="Only a player who will be dealt"):
        await bomb_vote.propose(table, 5)
    proposal = await bomb_vote.propose(table, 2)
    assert 5 not in proposal.voters
    with pytest.raises(TableError, match="already proposed: answer it"):
        await bomb_vote.propose(table, 3)
    with pytest.raises(TableError, match="You were not asked"):
        await bomb_vote.answer(table, 5, True, proposal.token)
    with pytest.raises(TableError, match="over"):
        await bomb_vote.answer(table, 3, True, "1.999")


async def test_a_player_back_since_turns_it_into_a_usual_hand(world: World) -> None:
    """Agreed by 2 and 3 while 4 sat out; 4 is back before the deal (owing nothing): the
    hand is dealt as usual and the table is told why."""
    table = await seated(world, bomb_pot_every=10)
    await world.deal(table)
    await table.sit_out(4)
    await finish_hand(world, table)
    proposal = await bomb_vote.propose(table, 2)
    assert sorted(proposal.voters) == [2, 3]
    await bomb_vote.answer(table, 3, True, proposal.token)
    table.seats[3].sitting_out = False  # back between the answer and the deal
    await world.deal(table)
    assert table.current is not None and table.current.hand.bomb_pot is None
    assert world.observer.of(Notice)[-1].phrase == Phrase(
        "notice.bomb_pot.not_agreed", names=Listed([Name("p4")]))


async def test_a_bomb_pot_resumes_after_a_restart_and_replays(world: World) -> None:
    """The hand's stored settings carry its bomb pot: a restart resumes it as one, and the
    history plays it again to the same stacks."""
    table = await seated(world, bomb_pot_every=1, double_board=True)
    await world.deal(table)
    await world.act(table, ActionKind.BET, 2)
    before = table.snapshot()
    await table.shutdown()
    registry = type(world.registry)(
        economy=world.economy, hands=world.hands, tables=world.tables,
        observer=world.observer, clock=world.clock, pause=PAUSE, names=name_of)
    [again] = await registry.restore()
    cur = again.current
    assert cur is not None and cur.hand.bomb_pot == BombPot(4, True)
    assert again.snapshot().second_board == before.second_board and cur.hand.double_board
    again_world = World(world.clock, world.economy, world.hands, world.tables, world.observer,
                        registry)
    await finish_hand(again_world, again)
    start = world.hands.starts[1]
    past = rebuild(
        hand_id=1, table_id=start.table_id, number=1, ended_at=None, settings=start.config,
        button=start.button,
        seats=[(s.seat, s.user_id, s.stack, s.posts_big_blind) for s in start.seats],
        actions=[{"seat": a.seat, "kind": a.kind, "amount": a.amount}
                 for a in world.hands.actions[1]],
        deck=start.deck)
    assert past.hand.double_board
    assert past.hand.result.final_stacks == cur.hand.result.final_stacks
