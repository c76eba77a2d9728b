"""A board run twice in PHH (bot.engine.phh.second_run): export, replay, verify, PokerKit."""

from __future__ import annotations

import random
import re
import warnings

import pytest

from bot.engine import phh
from bot.engine.cards import DECK, Deck
from bot.engine.commitment import commit
from bot.engine.hand import VARIANTS, Action, GameConfig, Hand, SeatIn, Structure
from bot.engine.phh.proof import verify_text, with_proof
from tests.engine.test_run_twice import _deck, _worked_hand


def _twice() -> Hand:
    hand = _worked_hand()
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    return hand


def _export(hand: Hand, viewer: int | None = 1) -> str:
    hh = phh.history_of(hand.events, public=viewer is not None, viewer=viewer)
    return phh.dumps(with_proof(hh, hand.deck.order, commit(hand.deck.order)))


def test_the_second_board_goes_to_run_twice_field() -> None:
    text = _export(_twice())
    assert '_run_twice = ["d db QcJh5s", "d db 4h", "d db 8d"]' in text
    assert text.count('\n  "d db ') == 3  # the first board's three deals, in actions
    assert "finishing_stacks = [24, 23, 115]" in text


@pytest.mark.parametrize("viewer", [1, 2, 3, None])
def test_export_replays_to_the_recorded_stacks_and_verifies(viewer: int | None) -> None:
    hand = _twice()
    text = _export(hand, viewer)
    played = phh.replay(phh.loads(text))
    assert played.finishing_stacks == (24, 23, 115)
    assert played.hand.second_board == hand.second_board
    assert verify_text(text).ok


def _random_twice(seed: int) -> Hand:
    rng = random.Random(seed)
    key = rng.choice(["omaha", "omaha_hilo", "big_o", "courchevel", "courchevel_hilo"])
    n = rng.randint(2, 6)
    cfg = GameConfig(VARIANTS[key], Structure.NO_LIMIT, 1, 2, rng.choice([0, 1]),
                     run_it_twice=True)
    seats = [SeatIn(k + 1, rng.randint(1, 200)) for k in range(n)]
    hand = Hand(cfg, seats, rng.randint(1, n), Deck(rng=rng))
    hand.start()
    while hand.to_act is not None:
        la = hand.legal_actions()
        assert la is not None
        moves = [Action.call()] + ([Action.raise_to(la.max_raise_to)] if la.max_raise_to else [])
        hand.act(la.seat, rng.choice(moves))
    for seat in hand.run_twice_voters:
        hand.vote_run_twice(seat, True)
    return hand


def test_random_hands_run_twice_round_trip() -> None:
    """Exports of random hands run twice (side pots, hi-lo, Courchevel) replay and verify."""
    done = 0
    for seed in range(60):
        hand = _random_twice(seed)
        if not hand.second_board:
            continue
        done += 1
        seats = hand.seat_order
        for viewer in (seats[0], None):
            text = _export(hand, viewer)
            played = phh.replay(phh.loads(text))
            assert played.finishing_stacks == tuple(hand.result.final_stacks[s] for s in seats)
            assert verify_text(text).ok, verify_text(text).reason
    assert done >= 30


def test_verify_catches_a_changed_second_board_card() -> None:
    hand = _twice()
    unused = next(str(c) for c in DECK if c not in hand.deck.order[:28])
    text = _export(hand).replace('"d db 4h"', f'"d db {unused}"')
    verdict = verify_text(text)
    assert not verdict.ok
    assert re.fullmatch(rf"the second board card {unused} comes from deck position 25, "
                        r"committed to 4h", verdict.reason), verdict.reason


def test_verify_catches_second_board_cards_swapped() -> None:
    text = _export(_twice()).replace('"d db 4h", "d db 8d"', '"d db 8d", "d db 4h"')
    verdict = verify_text(text)
    assert verdict.reason == ("the second board card 8d comes from deck position 25, "
                              "committed to 4h")


def test_a_record_without_the_field_settles_on_one_board() -> None:
    """Without _run_twice the same actions are a hand dealt once (the stacks of one board),
    and verify refuses the file: its reveals open the second board's positions."""
    text = re.sub(r"_run_twice = .*\n", "", _export(_twice()))
    assert phh.replay(phh.loads(text)).finishing_stacks == (47, 46, 69)
    assert verify_text(text).reason == (
        "deck position 21 is revealed, but the hand deals no known card from it")


@pytest.mark.parametrize(("value", "reason"), [
    ('["p1 cc"]', "which is not a board deal"),
    ("3", "is not a list of board deals"),
    ('["d db QcJh5s4h8d9d"]', "deals 6 cards"),
    ('["d db Qc"]', "the second board is not run after the cards it shares"),
    ('["d db QcJh5s4h"]', "cannot run a board twice after 1 cards"),
    ('["d db AcJh5s", "d db 4h", "d db 8d"]', "already dealt"),
])
def test_a_bad_run_twice_field_is_refused(value: str, reason: str) -> None:
    text = _export(_twice(), None).replace(
        '["d db QcJh5s", "d db 4h", "d db 8d"]', value)
    with pytest.raises(phh.HandError, match=re.escape(reason)):
        phh.replay(phh.loads(text))


def test_the_export_loads_in_pokerkit_which_settles_one_board() -> None:
    """PokerKit 0.7.7 reads the export and keeps _run_twice aside; PHH notation has no
    action choosing the number of runs, so its replay settles on the first board only:
    the stacks of the same hand dealt once, not the recorded ones."""
    from pokerkit import HandHistory as PKHandHistory

    # The worked hand at pot limit (PokerKit knows no no-limit Omaha): stacks 7, 7, 100,
    # seat 3 raises the pot to 7, both call all-in; pot 21: 11 on board 1 (6 and 5), 10 on 2.
    deck = _deck("omaha", 3, ["AsKs7c7d", "AhKh6c6d", "QhQdJcJd"], "AcKd2h3s9c",
                 "QcJh5s4h8d", 0)
    cfg = GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 1, 2, run_it_twice=True)
    hand = Hand(cfg, [SeatIn(1, 7), SeatIn(2, 7), SeatIn(3, 100)], 3, Deck(order=deck))
    hand.start()
    for seat, action in ((3, Action.raise_to(7)), (1, Action.call()), (2, Action.call())):
        hand.act(seat, action)
    for seat in (1, 2, 3):
        hand.vote_run_twice(seat, True)
    text = _export(hand, 2)
    assert phh.replay(phh.loads(text)).finishing_stacks == (6, 5, 103)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = PKHandHistory.loads(text)
    assert loaded.user_defined_fields["_run_twice"] == ["d db QcJh5s", "d db 4h", "d db 8d"]
    assert list(loaded)[-1].stacks == [11, 10, 93]
