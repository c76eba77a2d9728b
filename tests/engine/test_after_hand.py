"""After the pots (bot.engine.after_hand, RULES.md 10): the 7-2 bounty, showing cards once
the hand is over, the rabbit hunt."""

from __future__ import annotations

import pytest

from bot.engine.after_hand import (
    is_seven_deuce,
    rabbit_cards,
    rabbit_refusal,
    showable,
    whole_pots,
)
from bot.engine.cards import Deck, parse_cards
from bot.engine.dealing import deal_positions, deck_order_for
from bot.engine.events import (
    BountyPaid,
    CardsShown,
    HandEnded,
    HandShown,
    HandStarted,
    PotAwarded,
    event_from_dict,
)
from bot.engine.hand import VARIANTS, Action, GameConfig, Hand, IllegalAction, SeatIn, Structure


def _hand(holes: list[str], board: str = "", stacks: tuple[int, ...] = (100, 100, 100),
          bounty: int = 5, variant: str = "holdem") -> Hand:
    """Seats 1.. with ``stacks``, the button on the last; ``holes`` in deal order (from the
    small blind), blinds 1/2 no limit, the 7-2 bounty ``bounty`` big blinds."""
    cfg = GameConfig(VARIANTS[variant], Structure.NO_LIMIT, 1, 2, seven_deuce=bounty)
    order = deck_order_for(cfg.variant, [parse_cards(h) for h in holes],
                           parse_cards(board) if board else ())
    n = len(stacks)
    hand = Hand(cfg, [SeatIn(s + 1, stacks[s]) for s in range(n)], n, Deck(order=order))
    hand.start()
    return hand


def _steal(hand: Hand) -> Hand:
    """Seat 3 (the button, first to act three-handed) raises to 10, the blinds fold."""
    hand.act(3, Action.raise_to(10))
    hand.act(1, Action.fold())
    hand.act(2, Action.fold())
    return hand


def _check_down(hand: Hand) -> Hand:
    """The button calls, the small blind calls, the big blind checks; checked to the end."""
    hand.act(3, Action.call())
    hand.act(1, Action.call())
    hand.act(2, Action.check())
    while not hand.is_over:
        hand.act(hand.to_act or 0, Action.check())
    return hand


def _shove(hand: Hand) -> Hand:
    """Seat 3 (short) all-in, seat 1 all-in over it, seat 2 calls."""
    hand.act(3, Action.all_in())
    hand.act(1, Action.all_in())
    hand.act(2, Action.call())
    return hand


def test_seven_deuce_is_a_seven_and_a_deuce_of_different_suits() -> None:
    assert is_seven_deuce(parse_cards("7c2d")) and is_seven_deuce(parse_cards("2h7s"))
    assert not is_seven_deuce(parse_cards("7c2c"))
    assert not is_seven_deuce(parse_cards("7c3d"))
    assert not is_seven_deuce(parse_cards("7c2d4h5s"))  # Omaha's four cards


def test_a_seven_deuce_that_everyone_folds_to_is_shown_and_collects() -> None:
    """Won without a showdown: the bot shows the 7-2, then each other player dealt in pays
    5 big blinds from their stack; the pots' payout leaves the bounty out, the net not."""
    hand = _steal(_hand(["AsAh", "KsKh", "7c2d"]))
    types = [e.type for e in hand.events]
    assert types[-4:] == ["pot_awarded", "cards_shown", "bounty_paid", "hand_ended"]
    shown = next(e for e in hand.events if isinstance(e, CardsShown))
    assert shown == CardsShown(3, parse_cards("7c2d"), bounty=True)
    result = hand.result
    assert result.bounties == (BountyPaid(3, 20, ((1, 10), (2, 10))),)
    assert result.final_stacks == {1: 89, 2: 88, 3: 123}
    assert result.payouts[3] == 5 and result.net[3] == 23
    assert hand.shown_after == {3: parse_cards("7c2d")}
    assert showable(hand, 3) == ()  # nothing left to show
    ended = next(e for e in hand.events if isinstance(e, HandEnded))
    assert dict(ended.stacks) == result.final_stacks
    assert not hand.invariant_violations()


def test_no_bounty_for_a_suited_seven_deuce_or_outside_holdem() -> None:
    suited = _steal(_hand(["AsAh", "KsKh", "7c2c"]))
    assert suited.result.bounties == () and suited.shown_after == {}
    assert suited.result.final_stacks == {1: 99, 2: 98, 3: 103}
    omaha = _steal(_hand(["AsAhQdJd", "KsKh9d8d", "7c2d7h2s"], variant="omaha"))
    assert omaha.result.bounties == ()
    started = next(e for e in omaha.events if isinstance(e, HandStarted))
    assert started.seven_deuce == 0 and "seven_deuce" not in started.to_dict()


def test_a_seven_deuce_winning_a_showdown_alone_collects_without_a_second_showing() -> None:
    hand = _check_down(_hand(["AsKd", "QsJd", "7c2d"], "7h7d2s9cTh"))
    assert [e.seat for e in hand.events if isinstance(e, HandShown)].count(3) == 1
    assert not [e for e in hand.events if isinstance(e, CardsShown)]
    assert hand.result.bounties == (BountyPaid(3, 20, ((1, 10), (2, 10))),)
    assert hand.result.final_stacks == {1: 88, 2: 88, 3: 124}


def test_a_split_pot_pays_no_bounty() -> None:
    """The board plays (a royal flush): every player splits, the 7-2 collects nothing."""
    hand = _check_down(_hand(["7c2d", "3c4d", "5h6h"], "AsKsQsJsTs"))
    assert hand.result.bounties == ()
    assert hand.result.final_stacks == {1: 100, 2: 100, 3: 100}


def test_a_whole_side_or_main_pot_is_enough_and_an_empty_stack_pays_nothing() -> None:
    """Seat 3 (20 chips, 7-2) all-in wins the main pot alone with a full house; seat 1 wins
    the side pot from seat 2, who is left with nothing and pays nothing."""
    hand = _shove(_hand(["AsAh", "KsKh", "7c2d"], "7h7s2c9dTd", stacks=(100, 100, 20)))
    assert hand.result.bounties == (BountyPaid(3, 10, ((1, 10), (2, 0))),)
    assert hand.result.final_stacks == {1: 150, 2: 0, 3: 70}


def test_two_seven_deuces_each_winning_a_pot_alone_collect_main_pot_first() -> None:
    """Seat 3's 7c makes a club flush for the main pot, seat 1's 7h 2s a pair of deuces
    for the side pot against seat 2: seat 3 collects first, then pays seat 1's bounty."""
    hand = _shove(_hand(["7h2s", "QdJd", "7c2d"], "Kc9c4c3c2h", stacks=(100, 100, 20)))
    assert hand.result.bounties == (BountyPaid(3, 10, ((1, 10), (2, 0))),
                                    BountyPaid(1, 10, ((2, 0), (3, 10))))
    assert hand.result.final_stacks == {1: 160, 2: 0, 3: 60}


def test_a_short_stack_pays_what_it_has() -> None:
    hand = _steal(_hand(["AsAh", "KsKh", "7c2d"], stacks=(4, 100, 100)))
    assert hand.result.bounties == (BountyPaid(3, 13, ((1, 3), (2, 10))),)
    assert hand.result.final_stacks[1] == 0


def test_whole_pots_count_every_board_and_every_tied_winner() -> None:
    def award(index: int, run: int, *pairs: tuple[int, int]) -> PotAwarded:
        return PotAwarded(index, sum(c for _, c in pairs), (1, 3), tuple(pairs), run=run)

    assert whole_pots([award(0, 0, (3, 10)), award(0, 1, (3, 10))]) == [(0, 3)]
    assert whole_pots([award(0, 0, (3, 10)), award(0, 1, (1, 10))]) == []
    assert whole_pots([award(0, 0, (1, 1), (3, 0))]) == []  # a 1-chip tie is a split
    assert whole_pots([award(0, 0, (1, 5), (3, 5)), award(1, 0, (3, 8))]) == [(1, 3)]


def test_the_events_read_back_and_the_hand_replays_to_the_same_stacks() -> None:
    hand = _steal(_hand(["AsAh", "KsKh", "7c2d"]))
    hand.show_after(1, parse_cards("Ah"))
    assert [event_from_dict(e.to_dict()) for e in hand.events] == list(hand.events)
    again = Hand.replay(hand.config, [SeatIn(s, 100) for s in (1, 2, 3)], 3,
                        hand.deck.order, hand.inputs)
    assert again.result.final_stacks == hand.result.final_stacks
    assert again.shown_after == hand.shown_after == {3: parse_cards("7c2d"),
                                                     1: parse_cards("Ah")}


def test_who_may_show_what_after_the_hand() -> None:
    """A player who folded shows one card, then the other; the uncontested winner shows;
    a card shown twice, another's card, or a show before the end are refused."""
    hand = _hand(["AsAh", "KsKh", "9c8d"], bounty=0)
    with pytest.raises(IllegalAction, match="not over"):
        hand.show_after(1, parse_cards("As"))
    _steal(hand)
    assert hand.show_after(1, parse_cards("Ah")) == (CardsShown(1, parse_cards("Ah")),)
    assert showable(hand, 1) == parse_cards("As")
    with pytest.raises(IllegalAction, match="shown already"):
        hand.show_after(1, parse_cards("Ah"))
    with pytest.raises(IllegalAction, match="your own hand"):
        hand.show_after(1, parse_cards("Ks"))
    hand.show_after(1, parse_cards("As"))
    hand.show_after(3, parse_cards("8d9c"))
    assert hand.shown_after == {1: parse_cards("AsAh"), 3: parse_cards("9c8d")}
    assert hand.result.final_stacks == {1: 99, 2: 98, 3: 103}  # nothing else changes


def test_a_hand_shown_down_or_mucked_may_not_be_shown_again_a_folded_one_may() -> None:
    """Seat 1 folds on the turn; seats 2 and 3 check the river: seat 2 shows first and wins,
    seat 3's beaten hand is mucked (RULES.md 6: never revealed); neither may show after it,
    seat 1 may."""
    hand = _hand(["QsQd", "AsAh", "KsKh"], "2c5d9hJc3s", bounty=0)
    hand.act(3, Action.call())
    hand.act(1, Action.call())
    hand.act(2, Action.check())
    hand.act(1, Action.check())
    hand.act(2, Action.bet(4))
    hand.act(3, Action.call())
    hand.act(1, Action.call())
    hand.act(1, Action.check())
    hand.act(2, Action.bet(10))
    hand.act(3, Action.call())
    hand.act(1, Action.fold())
    hand.act(2, Action.check())
    hand.act(3, Action.check())
    assert hand.is_over and hand.result.mucked == (3,)
    for seat in (2, 3):
        assert showable(hand, seat) == ()
        with pytest.raises(IllegalAction, match="folded or won without a showdown"):
            hand.show_after(seat, hand.hole(seat)[:1])
    assert showable(hand, 1) == parse_cards("QsQd")


def _continued(holes: list[str], deck: tuple[object, ...]) -> tuple[object, ...]:
    """The board the same deck deals when nobody folds (checked down)."""
    cfg = GameConfig(VARIANTS["holdem"], Structure.NO_LIMIT, 1, 2)
    hand = Hand(cfg, [SeatIn(s, 100) for s in (1, 2, 3)], 3, Deck(order=deck))  # type: ignore[arg-type]
    hand.start()
    return _check_down(hand).board


def test_the_rabbit_is_the_board_that_would_have_come() -> None:
    """Folded before the flop: five cards; on the flop: the turn and river; each the cards
    the same deck deals when the hand goes on (burns skipped), at the board's places."""
    holes = ["AsAh", "KsKh", "7c2d"]
    pre = _steal(_hand(holes, bounty=0))
    board = _continued(holes, pre.deck.order)
    assert rabbit_refusal(pre) is None and rabbit_cards(pre) == board
    plan = deal_positions(3, VARIANTS["holdem"])["board"]
    assert rabbit_cards(pre) == tuple(pre.deck.order[i] for i in plan)

    flop = _hand(holes, bounty=0)
    flop.act(3, Action.call())
    flop.act(1, Action.call())
    flop.act(2, Action.check())
    flop.act(1, Action.bet(6))
    flop.act(2, Action.fold())
    flop.act(3, Action.fold())
    assert len(flop.board) == 3 and rabbit_cards(flop) == board[3:]


def test_no_rabbit_after_the_river_a_showdown_or_before_the_end() -> None:
    live = _hand(["AsAh", "KsKh", "7c2d"], bounty=0)
    assert rabbit_refusal(live) == "the hand is not over"
    down = _check_down(_hand(["AsKd", "QsJd", "9c8d"], "7h7d2s3cTh", bounty=0))
    assert rabbit_refusal(down) is not None
    with pytest.raises(ValueError, match="before the river"):
        rabbit_cards(down)


def test_a_courchevel_rabbit_skips_the_face_up_flop_card() -> None:
    cfg = GameConfig(VARIANTS["courchevel"], Structure.POT_LIMIT, 1, 2)
    hand = Hand(cfg, [SeatIn(1, 100), SeatIn(2, 100)], 2, Deck(order=Deck().order))
    hand.start()
    hand.act(2, Action.fold())  # heads-up: the button (small blind) acts first
    assert len(hand.board) == 1
    plan = deal_positions(2, cfg.variant)["board"]
    assert rabbit_cards(hand) == tuple(hand.deck.order[i] for i in plan[1:])
