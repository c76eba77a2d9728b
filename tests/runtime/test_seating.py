"""The seating core (RULES.md section 3): who is dealt in, the button, entering players' blinds.

Plain functions over plain dataclasses: no asyncio here. The scenarios are
the ones players met; the property test plays thousands of random hands on
the real engine with random joins, leaves, sit-outs, sit-ins, busts and
post/wait choices, and checks every deal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from bot.engine.betting import Action
from bot.engine.cards import Card, Deck, draw_for_button
from bot.engine.events import BlindPosted
from bot.engine.hand import Hand, SeatIn
from bot.engine.variants import VARIANTS, GameConfig, Structure
from bot.runtime.seating import (
    Dealer,
    DealPlan,
    Draw,
    Seat,
    cash_ready,
    clockwise_from,
    drawn_plan,
    next_clockwise,
    plan_deal,
    ready_to_deal,
    rebuy,
    record_plan,
    seat_down,
    strictly_between,
    tournament_ready,
)

BIG_BLIND = 2


def seat(n: int, stack: int = 200, **flags: bool) -> Seat:
    return Seat(number=n, user_id=100 + n, name=f"p{n}", stack=stack, time_bank=30.0, **flags)


def table(*numbers: int) -> dict[int, Seat]:
    return {n: seat(n) for n in numbers}


def deal(seats: dict[int, Seat], dealer: Dealer) -> DealPlan:
    """Plan the next hand (it must not need a draw) and record it."""
    plan = plan_deal(seats, dealer)
    assert isinstance(plan, DealPlan)
    record_plan(seats, dealer, plan)
    return plan


def test_positions_wrap_clockwise() -> None:
    """Seats ascend clockwise and wrap after the highest."""
    assert clockwise_from(5, [2, 5, 9]) == [5, 9, 2]
    assert next_clockwise(9, [2, 5, 9]) == 2 and next_clockwise(3, [2, 5, 9]) == 5
    assert strictly_between(8, 1, 3) and not strictly_between(8, 3, 3)


def test_first_hand_draws_and_deals_everyone() -> None:
    """No button yet: the button is drawn among the ready players, all dealt in, nobody owes."""
    seats = table(1, 4, 6)
    assert plan_deal(seats, Dealer()) == Draw((1, 4, 6))


def test_fewer_than_two_ready_stops_the_table() -> None:
    """One ready player: no deal, and the next hand draws for the button again (RULES 3)."""
    seats = table(1, 2)
    dealer = Dealer(button=1, last_big_blind=1, last_dealt=2)
    seats[2].sitting_out = True
    assert plan_deal(seats, dealer) is None
    assert not ready_to_deal(seats, dealer) and dealer.button is None
    seats[2].sitting_out = False
    assert plan_deal(seats, dealer) == Draw((1, 2))


def test_newcomer_posting_where_the_small_blind_falls_waits_a_hand() -> None:
    """Seen by players: a poster on the small blind paid only 1. Now they wait for the button."""
    seats = table(1, 3, 5)
    dealer = Dealer(button=5, last_big_blind=3, last_dealt=3)
    seats[2] = seat(2, needs_big_blind=True, post_big_blind=True)
    plan = deal(seats, dealer)  # button 1: seat 2 would be the small blind
    assert plan.button == 1 and 2 not in plan.dealt
    assert (plan.small_blind, plan.big_blind) == (3, 5)
    plan = deal(seats, dealer)  # button 3: the button has passed seat 2, who posts
    assert plan.button == 3 and 2 in plan.dealt and plan.posts == {2}
    assert (plan.small_blind, plan.big_blind) == (5, 1)


def test_poster_elsewhere_is_dealt_in_at_once_with_a_big_blind() -> None:
    """A poster behind the blinds is dealt in next hand, paying a live big blind."""
    seats = table(1, 3, 5)
    seats[6] = seat(6, needs_big_blind=True, post_big_blind=True)
    plan = deal(seats, Dealer(button=5, last_big_blind=3, last_dealt=3))
    assert plan.button == 1 and plan.posts == {6} and (plan.small_blind, plan.big_blind) == (3, 5)


def test_waiting_newcomer_enters_as_the_big_blind() -> None:
    """A waiting player is dealt in on the hand their seat is the big blind, as the big blind."""
    seats = table(1, 3, 5)
    seats[4] = seat(4, needs_big_blind=True)
    dealer = Dealer(button=5, last_big_blind=3, last_dealt=3)
    plan = deal(seats, dealer)  # would-be: button 1, sb 3, bb 4
    assert plan.dealt == (1, 3, 4, 5) and plan.big_blind == 4 and not plan.posts
    assert not seats[4].needs_big_blind


def test_heads_up_two_waiting_newcomers_enter_one_at_a_time_as_big_blinds() -> None:
    """Seen by players: both were dealt in at once, paying nothing and a small blind."""
    seats = table(1, 2)
    dealer = Dealer(button=1, last_big_blind=2, last_dealt=2)
    seats[3] = seat(3, needs_big_blind=True)
    seats[4] = seat(4, needs_big_blind=True)
    first = deal(seats, dealer)  # would-be: button 2, sb 3 (waiting): seat 4 would be the sb
    assert first.dealt == (1, 2) and first.button == 2
    second = deal(seats, dealer)  # button 1, sb 2, bb 3: seat 3 comes in as the big blind
    assert second.dealt == (1, 2, 3) and second.button == 1 and second.big_blind == 3
    third = deal(seats, dealer)
    assert third.dealt == (1, 2, 3, 4) and third.button == 2 and third.big_blind == 4


def test_heads_up_waiting_third_player_enters_when_the_big_blind_reaches_them() -> None:
    """Heads-up, the two play on until the would-be big blind is the waiting seat."""
    seats = table(2, 3)
    seats[1] = seat(1, needs_big_blind=True)
    dealer = Dealer(button=2, last_big_blind=3, last_dealt=2)
    plan = deal(seats, dealer)  # button 3: would-be sb 1 (waiting), the two go on
    assert plan.dealt == (2, 3)
    plan = deal(seats, dealer)  # button 2: would-be sb 3, bb 1
    assert plan.dealt == (1, 2, 3) and plan.button == 2 and plan.big_blind == 1


def test_becoming_heads_up_the_last_big_blind_takes_the_button() -> None:
    """Nobody posts the big blind twice in a row when play becomes heads-up."""
    seats = table(1, 2, 3)
    dealer = Dealer(button=1, last_big_blind=3, last_dealt=3)
    del seats[1]
    plan = deal(seats, dealer)
    assert plan.button == 3 and plan.big_blind == 2


def test_sitting_out_player_owes_a_big_blind_once_it_passes_them() -> None:
    """Missing the big blind while sitting out makes a player an entering player."""
    seats = table(1, 2, 3, 4)
    seats[3].sitting_out = True
    dealer = Dealer(button=4, last_big_blind=2, last_dealt=4)
    plan = deal(seats, dealer)  # button 1, sb 2, bb 4: the big blind passed seat 3
    assert plan.big_blind == 4 and seats[3].needs_big_blind
    assert not seats[1].needs_big_blind


def test_a_sitting_out_player_keeps_the_big_blind_owed_across_a_fresh_start() -> None:
    """RULES.md 3 (issue 32's case): seats 1, 3, 5, 6; seat 6 sits out while the big blind
    passes; the table stops and starts again on a drawn button: seat 6 still owes a big
    blind when they come back, so they are never dealt in on the small blind for 1."""
    seats = table(1, 3, 5, 6)
    seats[6].sitting_out = True
    dealer = Dealer(button=1, last_big_blind=5, last_dealt=3)
    plan = deal(seats, dealer)  # button 3, sb 5, bb 1: the big blind passed seat 6
    assert plan.big_blind == 1 and seats[6].needs_big_blind
    for n in (3, 5):  # the table stops: one ready player left
        seats[n].sitting_out = True
    assert plan_deal(seats, dealer) is None and dealer.button is None
    seats[3].sitting_out = seats[5].sitting_out = False
    draw = plan_deal(seats, dealer)
    assert draw == Draw((1, 3, 5))
    record_plan(seats, dealer, drawn_plan(
        {1: Card.parse("2c"), 3: Card.parse("Ah"), 5: Card.parse("7d")}, button=3))
    assert seats[6].needs_big_blind  # kept what they owed
    assert not any(seats[n].needs_big_blind for n in (1, 3, 5))
    seats[6].sitting_out = False
    for _ in range(6):  # whenever seat 6 is dealt in, it is as a big blind
        plan = deal(seats, dealer)
        if 6 in plan.dealt:
            assert plan.small_blind != 6 and plan.button != 6
            assert plan.big_blind == 6 or 6 in plan.posts
            break
    else:
        raise AssertionError("seat 6 was never dealt in")


def test_tournament_deals_in_sitting_out_players() -> None:
    """In a tournament everyone with chips is ready, sitting out or not (RULES 8)."""
    seats = table(1, 2, 3)
    seats[2].sitting_out = True
    plan = plan_deal(seats, Dealer(button=1, last_big_blind=3, last_dealt=3), tournament_ready)
    assert isinstance(plan, DealPlan) and plan.dealt == (1, 2, 3)


# ---------------------------------------------------------------- the property test


@dataclass
class Sim:
    """A cash table driven by random players, dealt by the seating core, played by the engine.

    Players act through the seating core's own transitions (:func:`seat_down`,
    :func:`rebuy`, sitting out and in); the checks keep their own record of who
    must enter paying a big blind (``owes``) and of the table stopping, so a
    transition that forgets a rule is caught, not copied.
    """

    rng: random.Random
    seats: dict[int, Seat] = field(default_factory=dict)
    dealer: Dealer = field(default_factory=Dealer)
    balance: int = 0  # chips of players who left
    entered: int = 0
    came_back: int = 0  # busted players who topped up and were dealt in again
    restarts: int = 0  # deals after the table stopped during the pause
    waited: dict[int, int] = field(default_factory=dict)  # user -> hands waited while ready
    owes: set[int] = field(default_factory=set)  # users who must enter with a big blind
    rebought: set[int] = field(default_factory=set)
    stopped: bool = False  # the last deal found fewer than two players
    next_user: int = 1
    config: GameConfig = field(
        default_factory=lambda: GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 1, BIG_BLIND)
    )

    def chips(self) -> int:
        return self.balance + sum(s.stack for s in self.seats.values())

    def between_hands(self) -> None:
        """Requests after a hand (the table then looks whether it can go on), then more
        during the pause, which the deal finds when it comes (RULES.md 3: either way a
        table left with fewer than two players stops)."""
        rng = self.rng
        for _ in range(rng.choice((0, 0, 1, 2))):
            self.random_event()
        if not ready_to_deal(self.seats, self.dealer):
            self.stopped = True
        for _ in range(rng.choice((0, 0, 0, 1, 2))):
            self.random_event()

    def random_event(self) -> None:
        rng, seats = self.rng, self.seats
        free = [n for n in range(1, 10) if n not in seats]
        roll = rng.random()
        if roll < 0.35 and free:
            self.sit_down(rng.choice(free))
        elif roll < 0.55 and seats:
            n = rng.choice(sorted(seats))
            self.balance += seats.pop(n).stack
        elif roll < 0.7 and seats:
            rng.choice(list(seats.values())).sitting_out = True
        elif seats:
            self.come_back(rng.choice(list(seats.values())))

    def sit_down(self, n: int) -> None:
        rng = self.rng
        if self.dealer.button is not None and not self.stopped:
            self.owes.add(self.next_user)
        self.seats[n] = seat_down(
            n, self.next_user, f"u{self.next_user}", rng.choice((1, 60, 200, 400)), 30.0,
            self.dealer, post_big_blind=rng.random() < 0.5,
        )
        self.next_user += 1

    def come_back(self, s: Seat) -> None:
        """A busted player tops up (and enters again); a player sitting out sits in."""
        if s.stack == 0:
            if self.dealer.button is not None and not self.stopped:
                self.owes.add(s.user_id)
            self.rebought.add(s.user_id)
            rebuy(s, 200, self.dealer)
            self.balance -= 200
        elif s.sitting_out:
            s.sitting_out = False
            s.post_big_blind = self.rng.random() < 0.5

    def play(self) -> bool:
        """Deal and play one hand, checking the deal; False when no hand could be dealt."""
        before = self.chips()
        previous = Dealer(self.dealer.button, self.dealer.last_big_blind, self.dealer.last_dealt)
        entering = {n for n, s in self.seats.items() if cash_ready(s) and s.needs_big_blind}
        plan = plan_deal(self.seats, self.dealer)
        if plan is None:
            self.stopped = True
            return False
        if isinstance(plan, Draw):
            button, cards = draw_for_button(list(plan.seats), rng=self.rng)
            plan = drawn_plan(cards, button)
        ready = [n for n, s in self.seats.items() if cash_ready(s)]
        self.track_waiting(ready, plan)
        self.check_restart(plan)
        record_plan(self.seats, self.dealer, plan)
        hand = Hand(
            self.config,
            [SeatIn(n, self.seats[n].stack, n in plan.posts) for n in plan.dealt],
            plan.button,
            Deck(rng=self.rng),
        )
        events = hand.start()
        self.check_deal(plan, previous, entering, hand, events)
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None and hand.to_act is not None
            roll = self.rng.random()
            if legal.min_raise_to is not None and roll < 0.15:
                action = Action.raise_to(legal.min_raise_to)
            elif roll < 0.35:
                action = Action.fold()
            else:
                action = Action.call()
            hand.act(hand.to_act, action)
        for n, stack in hand.result.final_stacks.items():
            self.seats[n].stack = stack
            if stack == 0:
                self.seats[n].sitting_out = True
        assert self.chips() == before, "chips were created or lost"
        return True

    def check_restart(self, plan: DealPlan) -> None:
        """A table that stopped, however it stopped, draws the button again (RULES.md 3)."""
        if self.stopped:
            assert plan.drawn, "a stopped table started again without drawing the button"
            self.restarts += 1
            # everyone dealt in owes nothing (check_deal); a player sitting out keeps
            # what they owed
        self.stopped = False

    def check_deal(
        self, plan: DealPlan, previous: Dealer, entering: set[int], hand: Hand, events: tuple
    ) -> None:
        blinds = {e.seat: e for e in events if isinstance(e, BlindPosted)}
        coming_in = entering & set(plan.dealt)
        owing = {n for n in plan.dealt if self.seats[n].user_id in self.owes}
        self.came_back += len({self.seats[n].user_id for n in plan.dealt} & self.rebought)
        self.rebought -= {self.seats[n].user_id for n in plan.dealt}
        self.owes -= {self.seats[n].user_id for n in plan.dealt}
        if plan.drawn:
            return
        assert owing <= coming_in, f"seats {owing - coming_in} entered owing nothing"
        self.entered += len(coming_in)
        for n in coming_in:
            assert n not in (hand.button, hand.small_blind_seat), "entering on button or sb"
            paid = blinds[n]
            assert paid.blind in ("big", "newcomer"), f"seat {n} entered paying {paid.blind}"
            assert paid.amount == min(BIG_BLIND, hand.starting_stacks[n]), "not a full big blind"
        regulars = [n for n in plan.dealt if n not in coming_in]
        heads_up_switch = (
            len(plan.dealt) == 2
            and previous.last_dealt > 2
            and previous.last_big_blind in regulars
        )
        assert previous.button is not None
        expected = (
            previous.last_big_blind
            if heads_up_switch
            else next_clockwise(previous.button, regulars)
        )
        assert plan.button == expected, "the button did not move to the next seat dealt in"

    def track_waiting(self, ready: list[int], plan: DealPlan) -> None:
        """Nobody waits for ever: an entering player ready hand after hand gets in."""
        for n in ready:
            s = self.seats[n]
            if n in plan.dealt:
                self.waited.pop(s.user_id, None)
            elif s.needs_big_blind:
                self.waited[s.user_id] = self.waited.get(s.user_id, 0) + 1
                assert self.waited[s.user_id] <= 3 * 9, "an entering player waited for ever"
        for user in list(self.waited):
            if all(s.user_id != user or not cash_ready(s) for s in self.seats.values()):
                del self.waited[user]


@pytest.mark.parametrize("seed", range(4))
def test_every_deal_follows_section_3_over_random_hands(seed: int) -> None:
    """Thousands of hands with joins, leaves, sit-outs, sit-ins, busts, post/wait choices."""
    sim = Sim(random.Random(seed))
    hands = 0
    for _ in range(1_500):
        sim.between_hands()
        hands += sim.play()
    assert hands > 1_000 and sim.entered > 100
    assert sim.came_back > 20 and sim.restarts > 10
