"""All-in run-outs, side pots, showdown order, mucking, splits and hi-lo (RULES.md section 6)."""

from __future__ import annotations

import pytest

from bot.engine.events import (
    BetReturned,
    BoardDealt,
    Event,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
)
from bot.engine.hand import IllegalAction
from bot.engine.pots import build_pots, split_evenly, split_hi_lo
from tests.engine.conftest import PL, check_down, new_hand, play


def shows(events: list[Event] | tuple[Event, ...]) -> list[tuple[str, int]]:
    """The showdown as ("show"|"muck", seat) in order."""
    out = []
    for e in events:
        if isinstance(e, HandShown):
            out.append(("show", e.seat))
        elif isinstance(e, HandMucked):
            out.append(("muck", e.seat))
    return out


def awards(events: list[Event] | tuple[Event, ...]) -> list[PotAwarded]:
    return [e for e in events if isinstance(e, PotAwarded)]


STRAIGHT_BOARD = "9cTdJh2s3c"


def test_section_6_odd_chips_32_among_three_go_11_11_10_clockwise_from_button() -> None:
    """Three tied winners of 32: 11, 11, 10, odd chips from the first seat after the button."""
    hand = new_hand(
        [100] * 4,
        holes={1: "QsKs4d5h", 2: "7s7d8s8d", 3: "QhKh4c6d", 4: "QdKd5c6h"},
        board=STRAIGHT_BOARD,
    )
    play(hand, ("raise", 10), "call", "call", "fold")
    assert hand.pot_total == 32
    events = check_down(hand)
    assert awards(events) == [PotAwarded(0, 32, (1, 3, 4), ((1, 11), (3, 11), (4, 10)))]
    assert hand.result.payouts == {1: 11, 2: 0, 3: 11, 4: 10}
    assert split_evenly(32, [2, 0, 1]) == [(0, 11), (1, 11), (2, 10)]


def test_section_6_each_pot_awarded_on_its_own_even_with_the_same_winners() -> None:
    """Main pot 17 and side pot 19 tied by the same two: 9+10 and 8+9, not 18 each."""
    hand = new_hand(
        [100, 100, 100, 100, 4],
        holes={2: "QsKs4d5h", 4: "QhKh4c6d", 5: "7s7d8s8d"},
        board=STRAIGHT_BOARD,
    )
    play(hand, "call", "call", "allin", "fold", "call", "call", "call")
    play(hand, "check", ("bet", 3), "call", "call")  # flop
    play(hand, ("bet", 5), "fold", "call")  # turn: seat 3 folds with 7 in
    assert [(p.amount, p.eligible) for p in hand.pots] == [(17, (2, 4, 5)), (19, (2, 4))]
    events = check_down(hand)
    assert shows(events) == [("show", 2), ("show", 4), ("muck", 5)]
    assert awards(events) == [
        PotAwarded(0, 17, (2, 4, 5), ((2, 9), (4, 8))),
        PotAwarded(1, 19, (2, 4), ((2, 10), (4, 9))),
    ]
    assert hand.result.final_stacks == {1: 99, 2: 107, 3: 93, 4: 105, 5: 0}


def test_section_6_hi_lo_quartered_pot_odd_chip_to_the_high_half() -> None:
    """Pot 11: high half 6 to the trips, low half 5 quartered between two equal lows (3, 2)."""
    hand = new_hand(
        [100] * 3,
        variant="omaha_hilo",
        structure=PL,
        holes={2: "As4d9d9c", 3: "Ah4hKdQc"},
        board="2c3d8hKcKs",
    )
    play(hand, ("raise", 5), "fold", "call")
    events = check_down(hand)
    assert awards(events) == [PotAwarded(0, 11, (2, 3), ((3, 6),), ((2, 3), (3, 2)))]
    assert hand.result.net == {1: -1, 2: -2, 3: 3}
    assert split_hi_lo(11) == (6, 5)


def test_section_6_side_pot_with_no_low_among_its_players_goes_to_its_high() -> None:
    """The short stack's low takes half the main pot only; the side pot has no low: all high."""
    hand = new_hand(
        [100, 100, 10],
        variant="omaha_hilo",
        holes={1: "KdKhJcJd", 2: "QdQhTcTd", 3: "Ah3h9s9d"},
        board="2c5d7hKcQs",
    )
    play(hand, "allin", "call", "call")
    play(hand, ("bet", 20), "call")
    events = check_down(hand)
    assert shows(events) == [("show", 1), ("muck", 2), ("show", 3)]
    assert awards(events) == [
        PotAwarded(0, 30, (1, 2, 3), ((1, 15),), ((3, 15),)),
        PotAwarded(1, 40, (1, 2), ((1, 40),), ()),
    ]


def test_section_6_hi_lo_without_any_low_high_scoops() -> None:
    """No qualifying low in the pot: the best high takes all of it."""
    hand = new_hand([100] * 2, variant="omaha_hilo", holes={1: "KdKhJcJd", 2: "QdQhTcTd"},
                    board="2c9d7hKcQs")
    events = check_down(hand)
    assert awards(events) == [PotAwarded(0, 4, (1, 2), ((1, 4),), ())]


def test_section_6_showdown_order_last_river_bettor_first_then_clockwise_muck_losers() -> None:
    """River bettor shows first; a hand that cannot beat or tie what is shown is mucked."""
    holes = {1: "JhJd8s8h", 2: "3h3d4s5s", 3: "KhKd6s6h"}
    hand = new_hand([100] * 3, holes=holes, board="2c7d9hJcKs")
    play(hand, "call", "call", "check")
    play(hand, "check", "check", "check", "check", "check", "check")
    play(hand, "check", ("bet", 4), "call")
    events = play(hand, "call")
    assert shows(events) == [("show", 2), ("show", 3), ("muck", 1)]
    assert hand.result.mucked == (1,) and set(hand.result.shown) == {2, 3}
    assert hand.result.shown[3].high.description.startswith("Three of a kind")
    assert hand.result.shown[3].label == hand.result.shown[3].high.description
    public = [e for e in hand.events if not isinstance(e, HoleCardsDealt)]
    jacks = set(hand.hole(1))
    assert not any(jacks & set(getattr(e, "cards", ())) for e in public)


def test_section_6_owner_may_ask_to_show_a_hand_the_bot_would_muck() -> None:
    """request_show makes the bot show a beaten hand instead of mucking it."""
    holes = {1: "JhJd8s8h", 2: "3h3d4s5s", 3: "KhKd6s6h"}
    hand = new_hand([100] * 3, holes=holes, board="2c7d9hJcKs")
    assert hand.request_show(2)[0].private_to == 2
    assert hand.request_show(2) == ()
    play(hand, "call", "call", "check")
    events = check_down(hand)
    assert shows(events) == [("show", 1), ("show", 2), ("show", 3)]
    assert hand.result.mucked == ()


def test_section_6_no_river_bet_first_active_left_of_button_shows_first() -> None:
    """Without a river bet the first live player after the button shows first."""
    holes = {1: "KhKd6s6h", 2: "3h3d4s5s", 3: "JhJd8s8h", 4: "2d2h3s4c"}
    hand = new_hand([100] * 4, holes=holes, board="2c7d9hJcKs")
    play(hand, "call", "call", "fold", "check")  # small blind (seat 1) folds
    events = check_down(hand)
    assert shows(events) == [("show", 2), ("show", 3), ("muck", 4)]


def test_section_6_tied_hand_is_always_shown() -> None:
    """A hand that ties the best shown hand must be shown (it wins part of the pot)."""
    hand = new_hand([100] * 2, holes={1: "QsKs4d5h", 2: "QhKh4c6d"}, board=STRAIGHT_BOARD)
    events = check_down(hand)
    assert shows(events) == [("show", 1), ("show", 2)]
    assert awards(events)[0].high == ((1, 2), (2, 2))


def test_section_6_all_in_run_out_shows_every_live_hand_before_the_board() -> None:
    """After an all-in and call preflop, both hands are face up before the flop is dealt."""
    hand = new_hand([50, 50, 50], holes={1: "JhJd8s8h", 3: "3h3d4s5s"}, board="2c7d9hJcKs")
    events = play(hand, "allin", "allin", "fold")
    kinds = [type(e).__name__ for e in events if isinstance(e, HandShown | BoardDealt)]
    assert kinds == ["HandShown", "HandShown", "BoardDealt", "BoardDealt", "BoardDealt"]
    assert all(e.all_in for e in events if isinstance(e, HandShown))
    assert shows(events) == [("show", 1), ("show", 3)]  # even the loser: no muck in a run-out
    assert hand.is_over and hand.result.final_stacks == {1: 102, 2: 48, 3: 0}


def test_section_6_run_out_when_only_one_player_can_still_bet() -> None:
    """One player all-in and one caller with chips left: no more betting, the board runs out."""
    hand = new_hand([100, 100, 30])
    events = play(hand, "allin", "fold", "call")
    assert hand.is_over and len(hand.board) == 5
    assert len([e for e in events if isinstance(e, HandShown)]) == 2


def test_section_6_only_player_left_wins_without_showing() -> None:
    """Everyone else folds: the last player wins without showing."""
    hand = new_hand([100] * 3)
    events = play(hand, ("raise", 6), "fold", "fold")
    assert not any(isinstance(e, HandShown | HandMucked) for e in events)
    assert awards(events) == [PotAwarded(0, 5, (3,), ((3, 5),), (), True)]
    assert hand.result.shown == {}


def test_section_6_side_pots_cut_at_all_in_amounts_with_folded_chips() -> None:
    """Pots are cut at each live all-in; folded chips fall into the pots they reach."""
    pots = build_pots([10, 30, 50, 50, 20], [True, True, True, True, False],
                      [True, True, False, False, False])
    assert [(p.amount, p.eligible) for p in pots] == [(50, (0, 1, 2, 3)), (70, (1, 2, 3)),
                                                      (40, (2, 3))]
    assert sum(p.amount for p in pots) == 160
    hand = new_hand([100, 20, 60, 100])
    play(hand, "allin", "allin", "call", "fold")  # seats 3 (60), 4 (100), 1 (100); 2 folds
    assert hand.is_over
    assert [(a.amount, a.eligible) for a in hand.result.pots] == [(182, (1, 3, 4)), (80, (1, 4))]


def test_section_6_request_show_refused_when_folded_or_over() -> None:
    """A folded player cannot ask to show; nor can anyone after the hand."""
    hand = new_hand([100] * 3)
    play(hand, "fold")
    with pytest.raises(IllegalAction, match="folded"):
        hand.request_show(3)
    play(hand, "fold")
    with pytest.raises(IllegalAction, match="over"):
        hand.request_show(2)


def test_section_6_all_in_called_on_the_river_shows_every_live_hand() -> None:
    """River bet called all-in: one player can still bet, so both hands are shown, no muck."""
    holes = {1: "KhKd6s6h", 3: "3h3d4s5s"}
    hand = new_hand([100, 100, 30], holes=holes, board="2c7d9hJcKs")
    play(hand, "call", "call", "check")
    play(hand, "check", "check", "check", "check", "check", "check")
    events = play(hand, ("bet", 40), "fold", "allin")  # seat 3 calls all-in for 28
    assert returned(events) == [(1, 12)]
    assert shows(events) == [("show", 1), ("show", 3)]
    assert all(e.all_in for e in events if isinstance(e, HandShown))
    assert hand.result.mucked == () and hand.result.final_stacks == {1: 132, 2: 98, 3: 0}


def test_section_6_all_in_player_may_muck_when_two_others_bet_to_the_river() -> None:
    """Two players still able to bet at the river: a normal showdown, beaten hands mucked."""
    holes = {1: "KhKd6s6h", 2: "JhJd8s8h", 3: "3h3d4s5s"}
    hand = new_hand([100, 100, 10], holes=holes, board="2c7d9hJcKs")
    play(hand, "allin", "call", "call")
    events = check_down(hand)
    assert shows(events) == [("show", 1), ("muck", 2), ("muck", 3)]
    assert not any(e.all_in for e in events if isinstance(e, HandShown))
    assert hand.result.final_stacks == {1: 120, 2: 90, 3: 0}


def returned(events: list[Event]) -> list[tuple[int, int]]:
    """(seat, chips) of every uncalled bet returned."""
    return [(e.seat, e.amount) for e in events if isinstance(e, BetReturned)]


def test_section_6_hi_lo_beaten_high_with_best_low_is_shown_beaten_both_is_mucked() -> None:
    """Hi-lo: a hand that can still win the low is shown; one beaten high and low is mucked."""
    holes = {1: "KdKhJcJd", 2: "Ah3h9s9d", 3: "Ad4d8c8s"}
    hand = new_hand([100] * 3, variant="omaha_hilo", structure=PL, holes=holes,
                    board="2c5d7hKcQs")
    events = check_down(hand)
    assert shows(events) == [("show", 1), ("show", 2), ("muck", 3)]
    assert awards(events) == [PotAwarded(0, 6, (1, 2, 3), ((1, 3),), ((2, 3),))]
    assert hand.result.shown[2].low is not None and hand.result.shown[1].low is None


def test_section_6_hi_lo_tied_low_is_shown_and_splits_the_low_half() -> None:
    """Hi-lo: a low equal to the best shown low must be shown and shares the low half."""
    holes = {1: "KdKhJcJd", 2: "Ah3h9s9d", 3: "As3d8c8s"}
    hand = new_hand([100] * 3, variant="omaha_hilo", structure=PL, holes=holes,
                    board="2c5d7hKcQs")
    events = check_down(hand)
    assert shows(events) == [("show", 1), ("show", 2), ("show", 3)]
    assert awards(events) == [PotAwarded(0, 6, (1, 2, 3), ((1, 3),), ((2, 2), (3, 1)))]


def test_section_6_three_all_ins_make_three_pots_each_awarded_separately() -> None:
    """Stacks 10, 25, 60 all-in, 100 calls: pots cut at 10, 25 and 60, each its own award."""
    hand = new_hand([10, 25, 60, 100], seed=4)
    play(hand, "allin", "call", "allin", "allin")
    assert hand.is_over
    pots = [(a.amount, a.eligible) for a in hand.result.pots]
    assert pots == [(40, (1, 2, 3, 4)), (45, (2, 3, 4)), (70, (3, 4))]
    assert hand.result.returned == {} and hand.result.final_stacks[4] >= 40
    assert len(awards(hand.events)) == 3
    assert sum(hand.result.final_stacks.values()) == 195
