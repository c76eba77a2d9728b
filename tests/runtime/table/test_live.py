"""The table runtime: seating, the hand loop, the clock, concurrency and chips."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.engine.cards import draw_order_key
from bot.engine.events import ActionKind, Street
from bot.i18n import Phrase
from bot.runtime.decisions import parse_kind
from bot.runtime.errors import (
    IllegalMove,
    InsufficientFunds,
    NoTable,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    TableError,
)
from bot.runtime.table.events import (
    ButtonDrawn,
    CardsDealt,
    HandSettled,
    Notice,
    StreetDealt,
    TableClosed,
    TimeBankStarted,
    TurnReminder,
)
from bot.runtime.table.live import PreAction, Table
from tests.runtime.conftest import CREATOR, PAUSE, World, name_of

START = 10_000


async def started(world: World, *users: int, **settings: object) -> Table:
    """A table with ``users`` seated (buy-in 200) and the first hand dealt."""
    table = await world.table(**settings)  # type: ignore[arg-type]
    await world.seat(table, *users)
    await world.deal(table)
    assert table.current is not None
    return table


async def finish_hand(world: World, table: Table) -> None:
    """Play the running hand to the end by checking or calling."""
    no = table.current.hand_no if table.current else None
    while table.current is not None and table.current.hand_no == no:
        legal = table.legal_for(world.to_act(table))
        await world.act(table, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    await table.idle()


# ---------------------------------------------------------------- seating


async def test_join_buys_in_from_the_balance(world: World) -> None:
    """Sitting down moves the buy-in from the balance to the table; default is the maximum."""
    table = await world.table()
    view = await table.join(2, "ann", 150)
    assert (view.seat, view.stack) == (1, 150)
    assert world.economy.balance(2) == START - 150
    await table.join(3, "bob")
    assert table.seat_of(3).stack == 200 and world.economy.balance(3) == START - 200


@pytest.mark.parametrize(
    "buyin, seat, message",
    [
        (39, None, "40 to 200"),
        (201, None, "40 to 200"),
        (-5, None, "40 to 200"),
        (10**30, None, "40 to 200"),
        (100, 7, "numbered 1 to 6"),
        (100, 0, "numbered 1 to 6"),
        (100, 1, "Seat 1 is taken"),
    ],
)
async def test_bad_joins_change_nothing(world: World, buyin: int, seat: int, message: str) -> None:
    """Out-of-range buy-ins and seats are refused politely; no chip moves."""
    table = await world.table()
    await table.join(2, "ann", 100, 1)
    with pytest.raises(TableError, match=message):
        await table.join(3, "bob", buyin, seat)
    assert table.seat_of(3) is None and world.economy.balance(3) == START


async def test_join_twice_full_table_and_short_balance(world: World) -> None:
    """A second seat, a full table and a short balance are each refused."""
    table = await world.table(seats=2)
    await table.join(2, "ann")
    with pytest.raises(TableError, match="already seated"):
        await table.join(2, "ann")
    world.economy.balances[3] = 50
    with pytest.raises(InsufficientFunds):
        await table.join(3, "bob", 100)
    assert table.seat_of(3) is None and world.economy.balances[3] == 50
    await table.join(4, "cy")
    with pytest.raises(TableError, match="full"):
        await table.join(5, "dee")


async def test_one_table_per_channel(world: World) -> None:
    """A second table in the same channel is refused; an empty channel has none."""
    await world.table()
    with pytest.raises(TableError, match="already has a table"):
        await world.table()
    with pytest.raises(NoTable):
        world.registry.in_channel(999)


async def test_not_seated_players_are_told(world: World) -> None:
    """Leaving, acting or topping up without a seat is refused with a hint."""
    table = await world.table()
    fold = table.act(9, ActionKind.FOLD)
    for call in (table.leave(9), fold, table.top_up(9, 10), table.sit_out(9)):
        with pytest.raises(NotSeated, match="/table join"):
            await call


# ---------------------------------------------------------------- the hand loop


async def test_section_3_first_button_is_drawn_and_shown(world: World) -> None:
    """The first hand's button goes to the highest drawn card, and the draw is shown."""
    table = await started(world, 2, 3, 4)
    [drawn] = world.observer.of(ButtonDrawn)
    cards = drawn.cards
    assert set(cards) == {1, 2, 3}
    assert drawn.button == max(cards, key=lambda s: draw_order_key(cards[s])) == table.button
    names = world.observer.names()
    assert names.index("ButtonDrawn") < names.index("HandBegan") < names.index("TurnBegan")


async def test_hole_cards_go_privately_to_each_player(world: World) -> None:
    """Every dealt-in player gets their own 4 cards through the private port, nobody else's."""
    await started(world, 2, 3, 4)
    holes = world.observer.of(CardsDealt)
    assert sorted(h.user_id for h in holes) == [2, 3, 4]
    assert all(len(h.cards.cards) == 4 and h.cards.label == "" for h in holes)
    dealt = [c for h in holes for c in h.cards.cards]
    assert len(set(dealt)) == 12
    assert not any(str(c) in repr(h) for h in holes for c in h.cards.cards)
    public = [e.table for e in world.observer.events if not isinstance(e, CardsDealt)]
    assert all(not s.shown for snap in public for s in snap.seats)


async def test_hands_start_only_with_two_ready_players(world: World) -> None:
    """One player alone, or with the other sitting out, is not dealt a hand."""
    table = await world.table()
    await world.seat(table, 2)
    await world.deal(table)
    assert table.current is None
    await world.seat(table, 3)
    await table.sit_out(3)
    await world.deal(table)
    assert table.current is None
    await table.sit_in(3)
    await world.deal(table)
    assert table.current is not None


async def test_next_hand_starts_after_a_pause_and_button_moves(world: World) -> None:
    """After a hand ends the next is dealt only when the pause has passed; the button moves."""
    table = await started(world, 2, 3, 4)
    first_button = table.button
    while table.current is not None:
        await world.act(table, ActionKind.FOLD)
    await table.idle()
    assert table.current is None
    await world.clock.advance(PAUSE - 0.5)
    assert table.current is None
    await world.clock.advance(0.5)
    assert table.current is not None and table.current.hand_no == 2
    assert table.button != first_button


async def test_hand_plays_to_showdown_and_chips_are_conserved(world: World) -> None:
    """A checked-down hand reaches the river, ends with a result, and no chip is made or lost."""
    table = await started(world, 2, 3, 4)
    total = world.chips(table)
    await finish_hand(world, table)
    [result] = [e.result for e in world.observer.of(HandSettled)]
    assert len(result.board) == 5 and result.lines and sum(result.net.values()) == 0
    assert sum(w.amount for p in result.pots for w in p.winners) == sum(result.payouts.values())
    assert sum(p.amount for p in result.pots) == 6  # three big blinds called, checked down
    assert world.chips(table) == total
    assert sum(s.stack for s in table.seats.values()) == 600
    streets = [e.street for e in world.observer.of(StreetDealt)]
    assert streets == [Street.FLOP, Street.TURN, Street.RIVER]


async def test_random_play_never_creates_or_loses_chips(world: World) -> None:
    """Twenty hands of random legal play among four keep balances + stacks constant."""
    rng = random.Random(3)
    table = await started(world, 2, 3, 4, 5, structure="no limit")
    total = world.chips(table)
    for _ in range(20):
        while table.current is not None:
            user = world.to_act(table)
            legal = table.legal_for(user)
            roll = rng.random()
            if legal.min_raise_to is not None and roll < 0.25:
                assert legal.max_raise_to is not None
                to = rng.randint(legal.min_raise_to, legal.max_raise_to)
                await table.act(user, ActionKind.RAISE, to)
            elif roll < 0.35:
                await table.act(user, ActionKind.FOLD)
            else:
                await table.act(user, ActionKind.CALL)
        await table.idle()
        for s in list(table.seats.values()):
            if s.stack == 0:
                await table.top_up(s.user_id, 100)
                await table.sit_in(s.user_id)
        await world.deal(table)
        assert world.chips(table) == total
    assert len(world.hands.settled) >= 20


# ---------------------------------------------------------------- acting


async def test_acting_out_of_turn_changes_nothing(world: World) -> None:
    """A player who acts when it is not their turn is told whose turn it is."""
    table = await started(world, 2, 3, 4)
    actor = world.to_act(table)
    other = next(u for u in (2, 3, 4) if u != actor)
    stored = len(world.hands.actions[1])
    with pytest.raises(NotYourTurn, match=f"waiting for p{actor}"):
        await table.act(other, ActionKind.FOLD)
    assert len(world.hands.actions[1]) == stored and world.to_act(table) == actor


@pytest.mark.parametrize(
    "kind, amount, message",
    [
        ("check", None, "cannot check"),
        ("raise", None, "how much"),
        ("raise", 3, "raise"),
        ("raise", 10**9, "[0-9]"),
        ("raise", -4, "positive"),
        ("bet", 0, "positive"),
        ("dance", None, "Unknown action"),
    ],
)
async def test_illegal_amounts_are_explained(
    world: World, kind: str, amount: int | None, message: str
) -> None:
    """Checks facing a bet and raises out of range are refused with a reason."""
    table = await started(world, 2, 3, 4)
    actor = world.to_act(table)
    with pytest.raises(IllegalMove, match=message):
        await table.act(actor, parse_kind(kind), amount)
    assert world.to_act(table) == actor and world.hands.actions[1] == []


async def test_two_clicks_at_once_apply_exactly_one(world: World) -> None:
    """Two simultaneous clicks of the same button: one call happens, the other is refused."""
    table = await started(world, 2, 3, 4)
    actor, token = world.to_act(table), table.turn_token
    results = await asyncio.gather(
        table.act(actor, ActionKind.CALL, token=token),
        table.act(actor, ActionKind.CALL, token=token),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert sum(isinstance(r, NotYourTurn) for r in results) == 1
    assert len(world.hands.actions[1]) == 1


async def test_stale_buttons_are_refused(world: World) -> None:
    """A button from an earlier decision cannot act on a later one."""
    table = await started(world, 2, 3)
    token = table.turn_token
    await world.act(table, ActionKind.CALL)
    with pytest.raises(NotYourTurn, match="earlier decision"):
        await table.act(world.to_act(table), ActionKind.CHECK, token=token)


async def test_action_is_stored_before_it_is_acknowledged(world: World) -> None:
    """When storing fails the action is not applied; once stored, it is in the record."""
    table = await started(world, 2, 3, 4)
    actor = world.to_act(table)
    world.hands.fail_next_append = True
    with pytest.raises(OSError):
        await table.act(actor, ActionKind.CALL)
    assert world.to_act(table) == actor and world.hands.actions[1] == []
    view = await table.act(actor, ActionKind.CALL)
    [stored] = world.hands.actions[1]
    assert (stored.kind, stored.seat, view.kind) == ("call", table.seat_of(actor).number, "call")


# ---------------------------------------------------------------- the clock


async def test_section_8_timeout_folds_facing_a_bet_after_the_time_bank(world: World) -> None:
    """The clock, then the time bank; a reminder before the end; then the bot folds."""
    table = await started(world, 2, 3, 4, clock=20, time_bank=30)
    actor = world.to_act(table)
    await world.clock.advance(39)
    await table.idle()
    assert world.to_act(table) == actor and world.observer.of(TurnReminder) == []
    [bank] = world.observer.of(TimeBankStarted)
    assert bank.turn.user_id == actor and bank.seconds == 30
    await world.clock.advance(1)
    await table.idle()
    [reminder] = world.observer.of(TurnReminder)
    assert reminder.turn.user_id == actor and reminder.seconds_left == 10
    await world.clock.advance(9.5)
    assert world.to_act(table) == actor
    await world.clock.advance(0.6)
    await table.idle()
    assert world.to_act(table) != actor
    last = world.hands.actions[1][-1]
    assert (last.kind, last.source) == ("fold", "timeout")
    assert table.seat_of(actor).time_bank == 0


async def test_section_8_timeout_checks_when_checking_is_allowed(world: World) -> None:
    """With nothing to call, running out of time checks rather than folds."""
    table = await started(world, 2, 3, clock=10, time_bank=0)
    # heads-up: the button completes, the big blind may check
    await world.act(table, ActionKind.CALL)
    checker = world.to_act(table)
    assert table.legal_for(checker).can_check
    await world.clock.advance(11)
    await table.idle()
    last = world.hands.actions[1][-1]
    assert (last.kind, last.source, last.seat) == (
        "check",
        "timeout",
        table.seat_of(checker).number,
    )


async def test_section_8_two_timeouts_in_a_row_sit_out(world: World) -> None:
    """A player who times out twice running is sat out and not dealt the next hand."""
    table = await started(world, 2, 3, 4, clock=10, time_bank=0)
    sleepy = world.to_act(table)
    for hand_no in (1, 2):
        while world.to_act(table) != sleepy:
            legal = table.legal_for(world.to_act(table))
            await world.act(table, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
        await world.clock.advance(11)
        await table.idle()
        assert table.seat_of(sleepy).timeouts == hand_no
        assert table.seat_of(sleepy).sitting_out == (hand_no == 2)
        await finish_hand(world, table)
        await world.deal(table)
    assert any("timed out twice" in e.text for e in world.observer.of(Notice))
    assert table.current is not None and table.current.hand_no == 3
    assert table.seat_of(sleepy).number not in table.current.dealt


async def test_time_bank_is_spent_only_past_the_clock(world: World) -> None:
    """Acting within the clock keeps the bank; acting 5 s late spends 5 s of it."""
    table = await started(world, 2, 3, 4, clock=10, time_bank=30)
    first = world.to_act(table)
    await world.clock.advance(4)
    await table.act(first, ActionKind.CALL)
    assert table.seat_of(first).time_bank == 30
    second = world.to_act(table)
    await world.clock.advance(15)
    await table.act(second, ActionKind.CALL)
    assert table.seat_of(second).time_bank == 25


async def test_a_click_racing_the_timeout_does_one_thing(world: World) -> None:
    """A call arriving as time runs out: either the call or the fold happens, never both."""
    table = await started(world, 2, 3, 4, clock=10, time_bank=0)
    actor = world.to_act(table)
    await world.clock.advance(9.999)
    results = await asyncio.gather(
        world.clock.advance(0.01), table.act(actor, ActionKind.CALL), return_exceptions=True
    )
    await table.idle()
    mine = [a for a in world.hands.actions[1] if a.seat == table.seat_of(actor).number]
    assert len(mine) == 1
    if isinstance(results[1], Exception):
        assert isinstance(results[1], NotYourTurn) and mine[0].source == "timeout"
    else:
        assert mine[0].kind == "call"


# ---------------------------------------------------------------- leaving, sitting out, top-ups


async def test_section_7_leaving_mid_hand_folds_at_the_turn_and_pays_after(world: World) -> None:
    """Leaving during a hand folds when the turn comes; the stack goes back after the hand."""
    table = await started(world, 2, 3, 4)
    actor = world.to_act(table)
    leaver = next(u for u in (2, 3, 4) if u != actor)
    text = str(await table.leave(leaver))
    assert "when the turn reaches you" in text or "folded" in text
    assert table.seat_of(leaver) is not None and world.economy.balance(leaver) == START - 200
    await finish_hand(world, table)
    assert table.seat_of(leaver) is None
    folds = [a for a in world.hands.actions[1] if a.source == "leave"]
    assert len(folds) == 1 and folds[0].kind == "fold"
    stack_back = world.economy.balance(leaver) - (START - 200)
    assert stack_back > 0


async def test_leaving_between_hands_pays_at_once(world: World) -> None:
    """Without a hand in progress, leaving returns the whole stack immediately."""
    table = await world.table()
    await world.seat(table, 2)
    text = str(await table.leave(2))
    assert "200 chips" in text and world.economy.balance(2) == START


async def test_section_7_top_up_between_hands_up_to_the_maximum(world: World) -> None:
    """Top-ups are refused in a hand and past the maximum buy-in; allowed between hands."""
    table = await world.table()
    await table.join(2, "ann", 100)
    await table.join(3, "bob", 100)
    await world.deal(table)
    with pytest.raises(TableError, match="between hands"):
        await table.top_up(2, 50)
    while table.current is not None:
        await world.act(table, ActionKind.FOLD)
    await table.idle()
    stack = table.seat_of(2).stack
    with pytest.raises(TableError, match="at most"):
        await table.top_up(2, 200 - stack + 1)
    for bad in (0, -10):
        with pytest.raises(TableError, match="positive"):
            await table.top_up(2, bad)
    assert await table.top_up(2, 200 - stack) == Phrase("reply.topped_up", count=200)
    assert table.seat_of(2).stack == 200
    assert world.economy.balance(2) == START - 100 - (200 - stack)


async def test_sitting_out_mid_hand_takes_effect_next_hand(world: World) -> None:
    """A player who sits out during a hand plays it out and is skipped from the next."""
    table = await started(world, 2, 3, 4)
    msg = str(await table.sit_out(2))
    assert "next hand" in msg
    await finish_hand(world, table)
    await world.deal(table)
    assert table.seat_of(2).number not in table.current.dealt


# ---------------------------------------------------------------- newcomers (RULES section 3)


async def test_section_3_newcomer_waits_for_the_big_blind(world: World) -> None:
    """A player who joins a running game without posting is dealt in first as the big blind."""
    table = await started(world, 2, 3, 4)
    await table.join(5, "newbie")
    newbie = table.seat_of(5)
    dealt_as_bb = False
    for _ in range(6):
        while table.current is not None:
            await world.act(table, ActionKind.FOLD)
        await table.idle()
        await world.deal(table)
        if newbie.number in table.current.dealt:
            start = world.hands.starts[max(world.hands.starts)]
            seats = [s.seat for s in start.seats]
            order = sorted(seats)
            i = order.index(start.button)
            bb = order[(i + 2) % len(order)]
            dealt_as_bb = bb == newbie.number
            break
    assert dealt_as_bb


async def test_section_3_newcomer_may_post_a_big_blind_at_once(world: World) -> None:
    """A newcomer who chooses to post is dealt in on the next hand with a live big blind."""
    table = await started(world, 2, 3, 4, 6)
    await table.join(5, "eager", post_big_blind=True)
    while table.current is not None:
        await world.act(table, ActionKind.FOLD)
    await table.idle()
    await world.deal(table)
    n = table.seat_of(5).number
    assert n in table.current.dealt
    start = world.hands.starts[2]
    [me] = [s for s in start.seats if s.seat == n]
    order = sorted(s.seat for s in start.seats)
    i = order.index(start.button)
    blinds = {order[(i + 1) % len(order)], order[(i + 2) % len(order)]}
    assert me.posts_big_blind == (n not in blinds)
    assert table.current.hand.player(n).committed == 2


# ---------------------------------------------------------------- pre-actions


async def test_pre_action_call_any_is_cancelled_when_the_bet_changes(world: World) -> None:
    """'Call any' is dropped (and the player told) when someone raises before their turn."""
    table = await started(world, 2, 3, 4, 5)
    actor = world.to_act(table)
    order = sorted(table.current.dealt)
    later = [table.seats[n].user_id for n in order if table.seats[n].user_id != actor]
    waiting = later[-1]
    await table.set_pre_action(waiting, PreAction.CALL_ANY)
    legal = table.legal_for(actor)
    await table.act(actor, ActionKind.RAISE, legal.min_raise_to)
    await table.idle()
    assert table.seat_of(waiting).pre_action is None
    assert ("The bet changed: your pre-action (call any) is cancelled.", waiting) in [
        (e.text, e.user_id) for e in world.observer.of(Notice)
    ]


async def test_pre_action_check_fold_folds_to_the_standing_bet(world: World) -> None:
    """A 'check/fold' set facing the big blind folds when the turn comes, without asking."""
    table = await started(world, 2, 3, 4)
    actor = world.to_act(table)
    nxt_seat = table.current.hand.to_act
    others = [u for u in (2, 3, 4) if u != actor]
    target = others[0]
    await table.set_pre_action(target, PreAction.CHECK_FOLD)
    await table.act(actor, ActionKind.CALL)
    while (
        table.current is not None
        and target in (table.seats[n].user_id for n in table.current.dealt)
        and world.to_act(table) != target
    ):
        if any(a.seat == table.seat_of(target).number for a in world.hands.actions[1]):
            break
        await world.act(table, ActionKind.CALL)
    mine = [a for a in world.hands.actions[1] if a.seat == table.seat_of(target).number]
    assert nxt_seat is not None and mine and mine[0].source == "pre-action"
    assert mine[0].kind in ("fold", "check")


async def test_pre_actions_are_refused_on_your_own_turn(world: World) -> None:
    """Setting a pre-action when it is already your turn is refused."""
    table = await started(world, 2, 3, 4)
    with pytest.raises(TableError, match="your turn"):
        await table.set_pre_action(world.to_act(table), PreAction.CALL_ANY)


# ---------------------------------------------------------------- closing and settings


async def test_close_returns_every_stack(world: World) -> None:
    """Closing between hands sends every stack back and frees the channel."""
    table = await world.table()
    await world.seat(table, 2, 3)
    with pytest.raises(NotAllowed):
        await table.close(2)
    await table.close(CREATOR)
    await table.idle()
    assert world.economy.balance(2) == START and world.economy.balance(3) == START
    assert [e.returned for e in world.observer.of(TableClosed)] == [{2: 200, 3: 200}]
    with pytest.raises(NoTable):
        world.registry.in_channel(table.channel_id)


async def test_close_mid_hand_waits_for_the_end(world: World) -> None:
    """A manager's close during a hand takes effect when the hand ends; chips all return."""
    table = await started(world, 2, 3)
    total = world.chips(table)
    assert "when this hand ends" in str(await table.close(99, is_manager=True))
    with pytest.raises(TableError, match="closing"):
        await table.join(4, "late")
    while table.current is not None:
        await world.act(table, ActionKind.FOLD)
    await table.idle()
    assert table.closed and world.economy.seated == {}
    assert world.economy.total() == total


async def test_settings_change_only_between_hands_by_the_creator(world: World) -> None:
    """Settings can be changed by the creator between hands, not by others or mid-hand."""
    table = await started(world, 2, 3)
    with pytest.raises(NotAllowed, match="between hands"):
        await table.update_settings(CREATOR, big_blind=4)
    while table.current is not None:
        await world.act(table, ActionKind.FOLD)
    await table.idle()
    with pytest.raises(NotAllowed, match="creator"):
        await table.update_settings(2, big_blind=4)
    new = await table.update_settings(CREATOR, big_blind=4, clock=15)
    assert (new.small_blind, new.big_blind, new.clock) == (2, 4, 15)
    assert world.tables.tables[table.table_id]["config"]["big_blind"] == 4


# ---------------------------------------------------------------- recovery


async def test_unfinished_hand_resumes_on_the_same_deck(world: World) -> None:
    """After a restart the hand continues where it was, with the same cards."""
    table = await started(world, 2, 3, 4)
    await world.act(table, ActionKind.CALL)
    await world.act(table, ActionKind.CALL)
    before = table.snapshot()
    holes = {n: table.current.hand.player(n).hole for n in table.current.dealt}
    to_act = world.to_act(table)
    await table.shutdown()
    fresh = World(
        world.clock,
        world.economy,
        world.hands,
        world.tables,
        world.observer,
        type(world.registry)(
            economy=world.economy,
            hands=world.hands,
            tables=world.tables,
            observer=world.observer,
            clock=world.clock,
            pause=PAUSE,
            names=name_of,
        ),
    )
    [again] = await fresh.registry.restore()
    assert again.current is not None and fresh.to_act(again) == to_act
    assert {n: again.current.hand.hole(n) for n in again.current.dealt} == holes
    assert again.snapshot().pot == before.pot
    await finish_hand(fresh, again)
    assert 1 in world.hands.settled


async def test_unreadable_unfinished_hand_is_cancelled(world: World) -> None:
    """A hand whose record cannot be replayed is cancelled: stacks stay as before it."""
    table = await started(world, 2, 3, 4)
    await table.shutdown()
    start = world.hands.starts[1]
    world.hands.starts[1] = type(start)(
        start.table_id, start.hand_no, start.config, start.seats, start.button, start.deck[:10]
    )
    registry = type(world.registry)(
        economy=world.economy,
        hands=world.hands,
        tables=world.tables,
        observer=world.observer,
        clock=world.clock,
        pause=PAUSE,
    )
    [again] = await registry.restore()
    assert again.current is None and 1 in world.hands.cancelled
    assert sorted(s.stack for s in again.seats.values()) == [200, 200, 200]

