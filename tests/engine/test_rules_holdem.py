"""Texas Hold'em played by the Hand (RULES.md section 9, with sections 3 to 6 unchanged)."""

from __future__ import annotations

import random

import pytest

from bot.engine import phh
from bot.engine.cards import Deck, parse_cards
from bot.engine.events import (
    BlindPosted,
    Event,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PotAwarded,
    Street,
)
from bot.engine.hand import VARIANTS, Action, GameConfig, Hand, IllegalAction, SeatIn
from bot.engine.variants import HandRule, Variant
from tests.engine.conftest import FL, NL, PL, check_down, new_hand, play

HOLDEM = VARIANTS["holdem"]


def holdem(stacks: list[int], **kwargs: object) -> Hand:
    return new_hand(stacks, variant="holdem", **kwargs)  # type: ignore[arg-type]


def awards(events: list[Event]) -> list[PotAwarded]:
    return [e for e in events if isinstance(e, PotAwarded)]


def test_section_9_two_hole_cards_each_and_up_to_ten_seats() -> None:
    """Ten players get two cards each, dealt one at a time; an eleventh is refused."""
    cfg = GameConfig(HOLDEM, NL, 1, 2)
    assert HOLDEM.max_seats == 10 and cfg.phh_variant == "NT"
    hand = Hand(cfg, [SeatIn(s, 50) for s in range(1, 11)], 10, Deck(rng=random.Random(2)))
    events = hand.start()
    dealt = [e for e in events if isinstance(e, HoleCardsDealt)]
    assert len(dealt) == 10 and all(len(e.cards) == 2 for e in dealt)
    with pytest.raises(ValueError, match="at most 10"):
        Hand(cfg, [SeatIn(s, 50) for s in range(1, 12)], 11, Deck(rng=random.Random(2)))
    with pytest.raises(ValueError, match="Omaha games"):  # RULES.md 9: high only
        Variant("holdem_hilo", "Hold'em Hi-Lo", 2, hi_lo=True, rule=HandRule.HOLDEM)


def test_section_9_board_plays_three_way_split_odd_chips_clockwise() -> None:
    """A royal-straight board plays for everyone: 32 among three is 11, 11, 10 from the
    first seat after the button, and every hand is shown with both its cards."""
    hand = holdem([100] * 4, holes={1: "2c3d", 2: "9s9h", 3: "4h5s", 4: "6d7c"},
                  board="AsKdQhJcTs")
    play(hand, ("raise", 10), "call", "call", "fold")  # seats 3, 4, 1; the big blind folds
    assert hand.pot_total == 32
    events = check_down(hand)
    shown = [e for e in events if isinstance(e, HandShown)]
    assert [e.seat for e in shown] == [1, 3, 4]
    assert all(len(e.cards) == 2 for e in shown) and not any(
        isinstance(e, HandMucked) for e in events)
    assert awards(events) == [PotAwarded(0, 32, (1, 3, 4), ((1, 11), (3, 11), (4, 10)))]
    result = hand.result
    assert {s: h.label for s, h in result.shown.items()} == dict.fromkeys(
        (1, 3, 4), "Straight, ace high")
    assert all(h.high.hole_used == () for h in result.shown.values())


def test_section_9_one_hole_card_beats_the_board() -> None:
    """A board straight to the king: the player holding an ace plays one card and wins."""
    hand = holdem([100, 100], holes={1: "Ah2c", 2: "3d4d"}, board="KsQdJhTc5s")
    events = check_down(hand)
    assert awards(events) == [PotAwarded(0, 4, (1, 2), ((1, 4),))]
    assert hand.result.shown[1].high.hole_used == parse_cards("Ah")


def test_section_9_kickers_decide_and_are_named() -> None:
    """Same pair of aces: the king kicker wins; the labels name the deciding kicker; the
    eights, beaten by a hand already shown, are mucked."""
    hand = holdem([100, 100, 100], holes={1: "AdQc", 2: "AhKc", 3: "8c8d"},
                  board="As9d7c4h2s")
    events = check_down(hand)
    assert [(a.high, a.low) for a in awards(events)] == [(((2, 6),), ())]
    labels = {s: h.label for s, h in hand.result.shown.items()}
    assert labels == {1: "Pair of aces, kicker queen", 2: "Pair of aces, kicker king"}
    assert hand.result.mucked == (3,)


def test_section_6_all_in_side_pots_in_holdem() -> None:
    """A short all-in wins the main pot; the side pot goes to the better of the two others."""
    hand = holdem([30, 100, 100], holes={1: "AsAd", 2: "KsKd", 3: "QsQd"},
                  board="2c7h9dJc3s")
    # the button calls, the small blind (30) goes all-in, the big blind all-in, the button calls
    events = play(hand, "call", "allin", "allin", "call")
    pots = awards(events)
    assert [(p.amount, p.eligible) for p in pots] == [(90, (1, 2, 3)), (140, (2, 3))]
    assert [p.high for p in pots] == [((1, 90),), ((2, 140),)]
    assert hand.result.final_stacks == {1: 90, 2: 140, 3: 0}


def test_section_6_side_pot_split_on_a_board_that_plays() -> None:
    """Three all-in for different amounts on a board that plays: every pot splits on its own,
    each odd chip to the first seat after the button."""
    hand = holdem([11, 50, 50, 24], holes={1: "2c3c", 2: "2d3d", 3: "4c5c", 4: "4d5d"},
                  board="AhKhQsJdTc")
    events = play(hand, "allin", "allin", "allin", "call")  # seats 3, 4, 1, the big blind
    pots = awards(events)
    assert [(p.amount, p.eligible) for p in pots] == [
        (44, (1, 2, 3, 4)), (39, (2, 3, 4)), (52, (2, 3))]
    assert [p.high for p in pots] == [
        ((1, 11), (2, 11), (3, 11), (4, 11)), ((2, 13), (3, 13), (4, 13)), ((2, 26), (3, 26))]


def test_section_5_incomplete_all_in_raise_does_not_reopen_in_holdem() -> None:
    """No limit: bet 10, call, all-in to 15 (less than a full raise): no raise for the others."""
    hand = holdem([100, 100, 100, 17])
    play(hand, "call", "call", "call", "check")
    play(hand, ("bet", 10), "call", "fold", "allin")
    la = hand.legal_actions()
    assert la is not None and la.seat == 1 and la.to_call == 5 and la.min_raise_to is None
    with pytest.raises(IllegalAction, match="did not reopen"):
        hand.check(1, Action.raise_to(25))


def test_section_3_heads_up_button_is_the_small_blind_in_holdem() -> None:
    hand = holdem([100, 100], seats=[3, 7], button=7)
    assert hand.small_blind_seat == 7 and hand.big_blind_seat == 3 and hand.to_act == 7
    play(hand, "call", "check")
    assert hand.street is Street.FLOP and hand.to_act == 3


def test_section_3_entering_player_posts_a_live_big_blind_in_holdem() -> None:
    hand = holdem([100] * 5, newcomers=[4])
    posts = [(e.seat, e.amount, e.blind) for e in hand.events if isinstance(e, BlindPosted)]
    assert posts == [(1, 1, "small"), (2, 2, "big"), (4, 2, "newcomer")]
    play(hand, "call")
    la = hand.legal_actions()
    assert la is not None and la.seat == 4 and la.can_check


@pytest.mark.parametrize(("structure", "code", "blinds"), [
    (NL, "NT", (1, 2)), (PL, "PT", (1, 2)), (FL, "FT", (1, 2))])
def test_phh_codes_and_round_trip(structure: object, code: str, blinds: tuple[int, int]) -> None:
    """A Hold'em hand writes NT, PT or FT (no _hole_cards field) and replays to the chip."""
    hand = holdem([60, 80, 100], structure=structure, blinds=blinds,
                  holes={1: "AhKh", 2: "QsQd", 3: "7c2d"}, board="Qh9h3c4s8h")
    play(hand, "call", "call", "check")
    check_down(hand)
    record = phh.history_of(hand.events)
    text = phh.dumps(record)
    assert f'variant = "{code}"' in text and "_hole_cards" not in text
    again = phh.replay(phh.loads(text))
    assert again.finishing_stacks == record.finishing_stacks
    assert again.hand.config.variant is HOLDEM
