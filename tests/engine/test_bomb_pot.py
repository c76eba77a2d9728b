"""Bomb pots (bot.engine.bomb_pot, RULES.md 10): the scripted cases of the rules.

Antes from everyone and no blind, no preflop betting, the flop at once, the betting on
the flop as on any flop; short stacks all-in on the ante; double board: the dealing
order, each pot halved (the odd chip to board 1), each half by RULES.md 6 (hi-lo
quartered per board), hands mucked only when they win nothing on either board, and one
board when the deck cannot hold two.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.bomb_pot import BombPot, fits_two_boards
from bot.engine.cards import DECK, Card, Deck, card
from bot.engine.dealing import deal_positions
from bot.engine.events import (
    AntePosted,
    BlindPosted,
    BoardDealt,
    CardBurned,
    HandMucked,
    HandShown,
    HandStarted,
    PotAwarded,
    event_from_dict,
)
from bot.engine.hand import VARIANTS, Action, GameConfig, Hand, SeatIn, Structure
from tests.engine.test_properties import expected_pots, expected_shares

PL, NL, FL = Structure.POT_LIMIT, Structure.NO_LIMIT, Structure.FIXED_LIMIT


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(text[i:i + 2]) for i in range(0, len(text), 2))


def bomb_hand(
    stacks: list[int], holes: list[str], board: str = "", board2: str = "", *,
    variant: str = "omaha", structure: Structure = PL, ante: int = 4, double: bool = False,
    table_ante: int = 0, run_it_twice: bool = False,
) -> Hand:
    """A started bomb pot: seats 1..n, the button on the last, ``holes`` in deal order
    (from seat 1; heads-up from the button), ``board`` (and ``board2``) as dealt."""
    n = len(stacks)
    v = VARIANTS[variant]
    plan = deal_positions(n, v, double=double and fits_two_boards(v, n))
    slots: dict[int, Card] = {}
    for k, hole in enumerate(holes):
        slots.update(zip(plan[f"hole:{k}"], cards(hole), strict=True))
    slots.update(zip(plan["board"], cards(board), strict=False))
    slots.update(zip(plan.get("board2", ()), cards(board2), strict=False))
    spare = iter(c for c in DECK if c not in slots.values())
    order = [slots[i] if i in slots else next(spare) for i in range(52)]
    if structure is FL:
        cfg = GameConfig.fixed_limit(v, 2, table_ante)
    else:
        cfg = GameConfig(v, structure, 1, 2, table_ante, run_it_twice=run_it_twice)
    seats = [SeatIn(s, stack) for s, stack in enumerate(stacks, 1)]
    hand = Hand(cfg, seats, n, Deck(order=order), BombPot(ante, double))
    hand.start()
    assert hand.invariant_violations() == []
    return hand


def act(hand: Hand, *actions: Action) -> None:
    for a in actions:
        assert hand.to_act is not None
        hand.act(hand.to_act, a)
        assert hand.invariant_violations() == []


def awards(hand: Hand) -> list[tuple[int, int, tuple[tuple[int, int], ...],
                                     tuple[tuple[int, int], ...], int]]:
    return [(a.index, a.amount, a.high, a.low, a.run)
            for a in hand.events if isinstance(a, PotAwarded)]


HOLES3 = ["AsKsQsJs", "2c3c4c5c", "7d7h8d8h"]


def test_antes_no_blinds_and_the_flop_at_once() -> None:
    """Everyone posts the bomb ante (the table's ante is not added), nobody a blind; the
    flop is out before anyone acts, and the first active player left of the button acts
    first with the minimum bet the big blind; in pot limit the antes are the pot."""
    hand = bomb_hand([100, 100, 100], HOLES3, "Ts9s2d", table_ante=1)
    events = hand.events
    assert [(e.seat, e.amount) for e in events if isinstance(e, AntePosted)] == [
        (1, 4), (2, 4), (3, 4)]
    assert not any(isinstance(e, BlindPosted) for e in events)
    started = next(e for e in events if isinstance(e, HandStarted))
    assert (started.bomb_ante, started.double_board, started.ante) == (4, False, 1)
    assert hand.street.value == "flop" and hand.board == cards("Ts9s2d")
    assert hand.to_act == 1
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.can_check, legal.min_raise_to, legal.max_raise_to, legal.pot) == (
        True, 2, 12, 12)
    act(hand, Action.bet(12), Action.fold(), Action.call())
    legal = hand.legal_actions()
    assert legal is not None and legal.seat == 1 and hand.street.value == "turn"


def test_heads_up_the_big_blind_seat_acts_first() -> None:
    """Heads-up the button acts last on the flop, as on any flop (RULES.md 3 and 4)."""
    hand = bomb_hand([50, 50], ["AsKsQsJs", "2c3c4c5c"], "Ts9s2d")
    assert hand.to_act == 1 and hand.button == 2


def test_no_limit_and_fixed_limit_bets() -> None:
    """No limit: any bet from the big blind to the stack; fixed limit: the small bet on the
    flop, the big bet on the turn, four bets a round."""
    nl = bomb_hand([100, 100, 100], HOLES3, "Ts9s2d", structure=NL)
    legal = nl.legal_actions()
    assert legal is not None and (legal.min_raise_to, legal.max_raise_to) == (2, 96)
    fl = bomb_hand([100, 100, 100], HOLES3, "Ts9s2d", structure=FL)
    act(fl, Action.bet(2), Action.raise_to(4), Action.raise_to(6), Action.raise_to(8))
    legal = fl.legal_actions()
    assert legal is not None and legal.min_raise_to is None
    act(fl, Action.call(), Action.call())
    legal = fl.legal_actions()
    assert legal is not None and legal.min_raise_to == 4 and fl.street.value == "turn"


def test_a_short_stack_posts_all_and_is_all_in() -> None:
    """Seat 2 has 3 chips: it posts 3 and is all-in; the others play on; the main pot is
    9 (3 each), the ante chip seats 1 and 3 put in beyond it a side pot of 2. Seat 1's
    king-high straight (Qs Js with Kh Ts 9s) takes both."""
    hand = bomb_hand([100, 3, 100], HOLES3, "Ts9s2dKh3h")
    posted = [(e.seat, e.amount, e.all_in) for e in hand.events if isinstance(e, AntePosted)]
    assert posted == [(1, 4, False), (2, 3, True), (3, 4, False)]
    assert hand.to_act == 1
    act(hand, *[Action.check()] * 6)
    assert hand.is_over
    assert [(p.amount, p.eligible) for p in hand.pots] == [(9, (1, 2, 3)), (2, (1, 3))]
    assert hand.result.final_stacks == {1: 96 + 11, 2: 0, 3: 96}


def test_everyone_but_one_all_in_on_the_ante_no_betting() -> None:
    """When at most one player has chips behind after the antes, nobody bets: every hand is
    shown (all-in) and the board is dealt at once. Pots 6 (2 each), 2 (seats 1 and 3) and
    seat 3's last ante chip, which comes back to it alone."""
    hand = bomb_hand([3, 2, 100], HOLES3, "Ts9s2dKh3h")
    assert hand.is_over
    shown = [e.seat for e in hand.events if isinstance(e, HandShown) and e.all_in]
    assert shown == [1, 2, 3]
    assert hand.board == cards("Ts9s2dKh3h")
    assert [(p.amount, p.eligible) for p in hand.pots] == [(6, (1, 2, 3)), (2, (1, 3)), (1, (3,))]
    assert hand.result.final_stacks == {1: 8, 2: 0, 3: 97}


def test_double_board_dealing_order() -> None:
    """Each street on board 1 (one burn, its cards), then on board 2: flop 1, flop 2, turn
    1, turn 2, river 1, river 2 (three players of Omaha: the deck's cards 12 to 27)."""
    hand = bomb_hand([100, 100, 100], HOLES3, "Ts9s2dKh3h", "QhJh6c6d9c", double=True)
    act(hand, *[Action.check()] * 9)
    dealt = [(type(e).__name__, e.street.value, e.run) for e in hand.events
             if isinstance(e, CardBurned | BoardDealt)]
    assert dealt == [(kind, street, run) for street in ("flop", "turn", "river")
                     for run in (0, 1) for kind in ("CardBurned", "BoardDealt")]
    assert hand.board == cards("Ts9s2dKh3h") and hand.second_board == cards("QhJh6c6d9c")
    assert hand.deck.position == 28
    plan = deal_positions(3, VARIANTS["omaha"], double=True)
    assert plan["burn"] == [12, 20, 24] and plan["burn2"] == [16, 22, 26]
    assert plan["board"] == [13, 14, 15, 21, 25] and plan["board2"] == [17, 18, 19, 23, 27]


def test_double_board_courchevel_dealing_order() -> None:
    """Courchevel: each board's face-up first card (with a burn), then each board's other
    two flop cards (no burn), then the turns and rivers as usual."""
    holes = ["AsKsQsJsTs", "2c3c4c5c6c", "7d7h8d8h9d"]
    hand = bomb_hand([100, 100, 100], holes, "2s3s4sKh3h", "TdTh3dQd4d", variant="courchevel",
                     double=True)
    assert hand.board == cards("2s3s4s") and hand.second_board == cards("TdTh3d")
    plan = deal_positions(3, VARIANTS["courchevel"], double=True)
    assert plan["burn"] == [15, 23, 27] and plan["board"] == [16, 19, 20, 24, 28]
    assert plan["burn2"] == [17, 25, 29] and plan["board2"] == [18, 21, 22, 26, 30]


def test_double_board_pot_halved_odd_chip_to_board_one() -> None:
    """Antes 4, 3 (all-in) and 4: the main pot of 9 is halved 5 / 4 (the odd chip to
    board 1), the side pot of 2 1 / 1. Board 1 goes to seat 1's king-high straight, board 2
    (Td 8c 8s Qd 4d) to seat 3's four eights."""
    hand = bomb_hand([100, 3, 100], HOLES3, "Ts9s2dKh3h", "Td8c8sQd4d", double=True)
    act(hand, *[Action.check()] * 6)
    assert awards(hand) == [
        (0, 5, ((1, 5),), (), 0), (1, 1, ((1, 1),), (), 0),
        (0, 4, ((3, 4),), (), 1), (1, 1, ((3, 1),), (), 1),
    ]
    assert hand.result.final_stacks == {1: 102, 2: 0, 3: 101}
    assert hand.result.second_board == cards("Td8c8sQd4d")
    assert hand.result.second_shown[3].label == "Four of a kind, eights"


def test_odd_chips_per_board_tied_winners() -> None:
    """Three players tie on both boards (each holds a 4 and a 5: an eight-high straight
    with 6 7 8): the pot of 15 is halved 8 / 7, each half split among the tied winners
    with the odd chips clockwise from the first seat after the button."""
    holes = ["2c3d4h5s", "2d3h4s5c", "2h3s4c5d"]
    hand = bomb_hand([100, 100, 100], holes, "6c7c8cKhKd", "6d7d8hJcJs", ante=5, double=True)
    act(hand, *[Action.check()] * 9)
    assert awards(hand) == [
        (0, 8, ((1, 3), (2, 3), (3, 2)), (), 0),
        (0, 7, ((1, 3), (2, 2), (3, 2)), (), 1),
    ]


def test_hi_lo_quartered_per_board() -> None:
    """Hi-lo: each board's half is split high and low again, each quarter among its tied
    winners (the odd chip to the high half, then clockwise)."""
    holes = ["As2sKdKc", "Ah2hQdQc", "7c7d9h9d"]
    hand = bomb_hand([100, 100, 100], holes, "3c4d8sJhJd", "3h5c6dTcTs", variant="omaha_hilo",
                     ante=5, double=True)
    act(hand, *[Action.check()] * 9)
    # pot 15: board 1 8, board 2 7.
    # board 1 3c4d8sJhJd: lows A-2 (seats 1 and 2) tie 8-4-3-2-A; high: seat 1 KK? pairs of
    #   jacks on board: KK+JJ two pair kings (seat 1) > QQ+JJ (seat 2) > 99+JJ (seat 3):
    #   high 4 to seat 1, low 4 split 2/2.
    # board 2 3h5c6dTcTs: lows A-2 tie 6-5-3-2-A, high KK+TT (seat 1): high 4, low 3 -> 2/1
    assert awards(hand) == [
        (0, 8, ((1, 4),), ((1, 2), (2, 2)), 0),
        (0, 7, ((1, 4),), ((1, 2), (2, 1)), 1),
    ]
    assert hand.result.final_stacks == {1: 95 + 12, 2: 95 + 3, 3: 95}


def test_double_board_hi_lo_three_all_ins_and_odd_chips() -> None:
    """The issue's case: a double-board hi-lo bomb pot with three all-ins and odd chips.

    Antes 5: seats 1 and 2 are all-in on the ante for 3 and 4, seat 3 goes all-in on the
    flop for its last 4 (9 in all) and seat 4 calls: pots 12 (everyone), 3 (seats 2, 3,
    4) and 10 (seats 3, 4), each halved with the odd chip to board 1 (side pot 1: 2 / 1).

    Board 1 (3c 4d 8s Jh 6h): seat 3's three jacks take every high half; seats 1 and 2
    tie the low with 6-4-3-2-A (the main pot's low 3: 2 to seat 1, 1 to seat 2).
    Board 2 (Ad 4c 5h 9h Kh): seat 2's ace-high flush and its wheel scoop the main pot and
    side pot 1 (its 1 chip has no low half); side pot 2 goes to seat 4's three nines.
    """
    holes = ["As2sKdKc", "Ah2h3hQd", "JcJsTcTs", "9c9d7h7d"]
    hand = bomb_hand([3, 4, 9, 100], holes, "3c4d8sJh6h", "Ad4c5h9hKh", variant="omaha_hilo",
                     ante=5, double=True)
    assert hand.to_act == 3
    act(hand, Action.all_in(), Action.call())
    assert hand.is_over
    shown = [e.seat for e in hand.events if isinstance(e, HandShown) and e.all_in]
    assert shown == [1, 2, 3, 4]
    assert [(p.amount, p.eligible) for p in hand.pots] == [
        (12, (1, 2, 3, 4)), (3, (2, 3, 4)), (10, (3, 4))]
    assert awards(hand) == [
        (0, 6, ((3, 3),), ((1, 2), (2, 1)), 0),
        (1, 2, ((3, 1),), ((2, 1),), 0),
        (2, 5, ((3, 5),), (), 0),
        (0, 6, ((2, 3),), ((2, 3),), 1),
        (1, 1, ((2, 1),), (), 1),
        (2, 5, ((4, 5),), (), 1),
    ]
    assert hand.result.final_stacks == {1: 2, 2: 9, 3: 9, 4: 96}


def test_a_hand_is_mucked_only_when_it_wins_nothing_on_either_board() -> None:
    """River checked down: seat 1 shows first; seat 2 beats it on board 2 only and shows;
    seat 3 loses on both boards and is mucked."""
    holes = ["AsAdKsKd", "QcQdJcJd", "2c3d4h6s"]
    hand = bomb_hand([100, 100, 100], holes, "AhKh9s8s7c", "QhQs9c8c7d", double=True)
    act(hand, *[Action.check()] * 9)
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [1, 2]
    assert [e.seat for e in hand.events if isinstance(e, HandMucked)] == [3]
    assert awards(hand) == [(0, 6, ((1, 6),), (), 0), (0, 6, ((2, 6),), (), 1)]


def test_too_many_players_for_two_boards_one_board() -> None:
    """Ten players of Omaha: 40 + 10 + 6 = 56 cards > 52, dealt on one board; nine fit."""
    omaha = VARIANTS["omaha"]
    assert fits_two_boards(omaha, 9) and not fits_two_boards(omaha, 10)
    assert fits_two_boards(VARIANTS["omaha6"], 6) and not fits_two_boards(VARIANTS["omaha6"], 7)
    cfg = GameConfig(omaha, PL, 1, 2)
    ten = Hand(cfg, [SeatIn(s, 100) for s in range(1, 11)], 10, Deck(rng=random.Random(1)),
               BombPot(2, True))
    ten.start()
    while not ten.is_over:
        assert ten.to_act is not None
        ten.act(ten.to_act, Action.check())
    assert not ten.double_board and ten.second_board == () and len(ten.board) == 5
    started = next(e for e in ten.events if isinstance(e, HandStarted))
    assert started.double_board is False and started.bomb_ante == 2


def test_a_double_board_is_never_run_twice_a_single_one_may_be() -> None:
    single = bomb_hand([10, 10, 100], HOLES3, "Ts9s2dKh3h", run_it_twice=True)
    act(single, Action.all_in(), Action.all_in(), Action.call())
    assert single.run_twice_voters == (1, 2, 3)
    double = bomb_hand([10, 10, 100], HOLES3, "Ts9s2dKh3h", "QhJh6c6d9c", double=True,
                       run_it_twice=True)
    act(double, Action.all_in(), Action.all_in(), Action.call())
    assert double.is_over and double.run_twice_voters == ()


def test_folded_to_one_on_the_flop() -> None:
    """Everyone folds to a flop bet: the bettor takes the antes; both boards stay at the
    flop."""
    hand = bomb_hand([100, 100, 100], HOLES3, "Ts9s2d", "QhJh6c", double=True)
    act(hand, Action.bet(2), Action.fold(), Action.fold())
    assert hand.is_over and hand.result.final_stacks == {1: 108, 2: 96, 3: 96}
    assert len(hand.board) == 3 and len(hand.second_board) == 3


def test_replay_and_events_round_trip() -> None:
    """``Hand.replay`` with the bomb pot plays the same hand; the bomb fields go to a dict
    only when set."""
    hand = bomb_hand([100, 3, 100], HOLES3, "Ts9s2dKh3h", "Td8c8sQd4d", double=True)
    act(hand, Action.bet(4), Action.call(), Action.check(), Action.check(), Action.check(),
        Action.check())
    again = Hand.replay(hand.config, [SeatIn(s, p.starting_stack) for s, p in
                                      ((p.seat, p) for p in hand.players)],
                        hand.button, hand.deck.order, hand.events, hand.bomb_pot)
    assert again.events == hand.events
    started = next(e for e in hand.events if isinstance(e, HandStarted))
    assert event_from_dict(json.loads(json.dumps(started.to_dict()))) == started
    plain = HandStarted("omaha", "pot limit", 1, 2, 0, 3, ((1, 10), (3, 10)))
    assert "bomb_ante" not in plain.to_dict() and "double_board" not in plain.to_dict()


def test_bomb_pot_value() -> None:
    assert BombPot.from_dict(BombPot(6, True).to_dict()) == BombPot(6, True)
    with pytest.raises(ValueError):
        BombPot(0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 9),
       variant=st.sampled_from(["omaha", "omaha_hilo", "big_o", "holdem"]))
def test_double_board_settles_by_the_rules(seed: int, players: int, variant: str) -> None:
    """Random double-board bomb pots: every pot halved (odd chip to board 1), each half
    awarded on its board by an independent reading of RULES.md 6."""
    rng = random.Random(seed)
    v = VARIANTS[variant]
    players = min(players, v.max_seats)
    cfg = GameConfig(v, rng.choice([PL, NL]), 1, 2)
    seats = [SeatIn(s, rng.choice([1, 3, 7, 40, 200])) for s in range(1, players + 1)]
    hand = Hand(cfg, seats, players, Deck(rng=rng), BombPot(rng.choice([2, 5]), True))
    hand.start()
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        roll = rng.random()
        if roll < 0.15 and legal.to_call:
            action = Action.fold()
        elif roll < 0.4 and legal.min_raise_to is not None and legal.max_raise_to is not None:
            action = Action.raise_to(rng.randint(legal.min_raise_to, legal.max_raise_to))
        else:
            action = Action.call()
        hand.act(legal.seat, action)
        assert hand.invariant_violations() == []
    states = hand.players
    expected = {p.seat: p.starting_stack - p.committed for p in states}
    live = [p for p in states if not p.folded]
    if len(live) == 1:
        expected[live[0].seat] += sum(p.committed for p in states)
    else:
        assert hand.double_board == fits_two_boards(v, players)
        boards = hand.boards
        for amount, owners in expected_pots(states):
            halves = (amount - amount // 2, amount // 2) if len(boards) == 2 else (amount,)
            for half, board in zip(halves, boards, strict=True):
                for seat, chips in expected_shares(half, owners, states, board, v).items():
                    expected[seat] += chips
    assert hand.result.final_stacks == expected


def test_nobody_straddles_in_a_bomb_pot() -> None:
    """A straddle is a blind: the player under the gun who chose to straddle posts only the
    bomb ante, and the betting starts on the flop left of the button as usual."""
    cfg = GameConfig(VARIANTS["omaha"], NL, 1, 2)
    seats = [SeatIn(1, 100), SeatIn(2, 100), SeatIn(3, 100, straddle=True), SeatIn(4, 100)]
    usual = Hand(cfg, seats, 4, Deck(rng=random.Random(2)))
    usual.start()
    assert usual.straddle_seat == 3
    hand = Hand(cfg, seats, 4, Deck(rng=random.Random(2)), BombPot(4))
    hand.start()
    assert hand.straddle_seat is None
    assert not any(isinstance(e, BlindPosted) for e in hand.events)
    assert hand.to_act == 1 and hand.street.value == "flop"
