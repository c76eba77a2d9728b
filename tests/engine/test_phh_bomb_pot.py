"""A bomb pot in PHH (bot.engine.phh.bomb_pot): the record, its replay and its deal proof."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.engine import phh
from bot.engine.bomb_pot import BombPot
from bot.engine.cards import Deck
from bot.engine.commitment import commit
from bot.engine.hand import VARIANTS, Action, GameConfig, Hand, SeatIn, Structure
from bot.engine.phh import deck, replaying
from bot.engine.phh.proof import verify_text, with_proof
from tests.engine.test_bomb_pot import HOLES3, act, bomb_hand


def _double() -> Hand:
    """Seat 2 all-in on the ante for 3; seat 1 bets 4 on the flop, seat 3 calls; checked
    down. Pots 9 and 10, each halved: seat 1's straight takes board 1's 5 + 5, seat 3's
    four eights board 2's 4 + 5."""
    hand = bomb_hand([100, 3, 100], HOLES3, "Ts9s2dKh3h", "Td8c8sQd4d", double=True)
    act(hand, Action.bet(4), Action.call(), *[Action.check()] * 4)
    assert hand.is_over
    return hand


def _export(hand: Hand, viewer: int | None = 1) -> str:
    hh = phh.history_of(hand.events, public=viewer is not None, viewer=viewer)
    return phh.dumps(with_proof(hh, hand.deck.order, commit(hand.deck.order)))


def test_the_record_of_a_double_board_bomb_pot() -> None:
    """The bomb antes in ``antes``, no blinds, ``_bomb_pot`` and board 2's deals in
    ``_double_board``; the actions start on the flop."""
    hand = _double()
    text = phh.dumps(phh.history_of(hand.events))
    assert "antes = [4, 4, 4]" in text and "blinds_or_straddles = [0, 0, 0]" in text
    assert "min_bet = 2" in text and "_bomb_pot = true" in text
    assert '_double_board = ["d db Td8c8s", "d db Qd", "d db 4d"]' in text
    assert '"d db Ts9s2d",\n  "p1 cbr 4",' in text
    assert "finishing_stacks = [102, 0, 101]" in text
    assert hand.result.final_stacks == {1: 102, 2: 0, 3: 101}


@pytest.mark.parametrize("viewer", [1, 2, 3, None])
def test_export_replays_to_the_same_stacks_and_verifies(viewer: int | None) -> None:
    """Every player's export (and the full record) replays on both boards to the recorded
    stacks, and its deal proof checks: board 2 sits where the double board deals it."""
    hand = _double()
    text = _export(hand, viewer)
    played = phh.replay(phh.loads(text))
    assert played.finishing_stacks == (102, 0, 101)
    assert played.hand.double_board and played.hand.second_board == hand.second_board
    assert played.hand.bomb_pot == BombPot(4, True)
    assert verify_text(text).ok


def test_a_moved_board_two_card_fails_the_proof() -> None:
    text = _export(_double()).replace('"d db Qd", "d db 4d"', '"d db 4d", "d db Qd"')
    verdict = verify_text(text)
    assert not verdict.ok and "second board card" in verdict.reason


def play_randomly(hand: Hand, rng: random.Random, *, folds: float, raises: float) -> Hand:
    """Start ``hand`` and play it out: facing a bet a player folds with chance ``folds``,
    else makes the smallest raise with chance ``raises``, else checks or calls."""
    hand.start()
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        roll = rng.random()
        if roll < folds and legal.to_call:
            hand.act(legal.seat, Action.fold())
        elif roll < folds + raises and legal.min_raise_to is not None:
            hand.act(legal.seat, Action.raise_to(legal.min_raise_to))
        else:
            hand.act(legal.seat, Action.call())
    return hand


@pytest.mark.parametrize("double", [False, True])
def test_random_bomb_pots_replay(double: bool) -> None:
    """Random bomb pots of every variant and structure: the full record replays to the
    recorded stacks, on the same boards."""
    rng = random.Random(f"phh-bomb-{double}")
    for _ in range(80):
        variant = VARIANTS[rng.choice(list(VARIANTS))]
        structure = rng.choice(list(Structure))
        cfg = (GameConfig.fixed_limit(variant, 4) if structure is Structure.FIXED_LIMIT
               else GameConfig(variant, structure, 2, 4))
        n = rng.randint(2, variant.max_seats)
        seats = [SeatIn(s, rng.choice([3, 8, 60, 400])) for s in range(1, n + 1)]
        hand = Hand(cfg, seats, rng.randint(1, n), Deck(rng=rng), BombPot(8, double))
        play_randomly(hand, rng, folds=0.15, raises=0.2)
        record = phh.history_of(hand.events)
        played = phh.replay(phh.loads(phh.dumps(record)))
        assert played.finishing_stacks == record.finishing_stacks
        assert played.hand.boards == hand.boards


def test_records_that_are_not_bomb_pots_of_ours() -> None:
    """Blinds in a bomb pot, antes that differ, a double board without ``_bomb_pot``."""
    record = phh.history_of(_double().events)
    blinds = replace(record, blinds_or_straddles=(1, 2, 0))
    with pytest.raises(phh.HandError, match="nobody posts a blind"):
        phh.replay(blinds)
    antes = replace(record, antes=(4, 3, 4))
    with pytest.raises(phh.HandError, match="the same ante"):
        phh.replay(antes)
    unmarked = replace(record, extra=tuple((k, v) for k, v in record.extra if k != "_bomb_pot"))
    with pytest.raises(phh.HandError, match="_double_board is written only with _bomb_pot"):
        phh.replay(unmarked)


def _export_case(seed: int) -> Hand:
    """A random double-board bomb pot (Omaha, Omaha Hi-Lo or Big O, 3 to 7 players)."""
    rng = random.Random(f"export-{seed}")
    variant = VARIANTS[rng.choice(["omaha_hilo", "big_o", "omaha"])]
    n = rng.randint(3, 7 if variant.hole_cards == 4 else 6)
    seats = [SeatIn(s, rng.choice([3, 10, 50, 200])) for s in range(1, n + 1)]
    hand = Hand(GameConfig(variant, Structure.POT_LIMIT, 1, 2), seats, n, Deck(rng=rng),
                BombPot(4, True))
    return play_randomly(hand, rng, folds=0.1, raises=0.2)


#: Hands where the first filling of a mucked hand still wins on one board (found by a
#: wider search): the replay tries other fillings.
REFILLED = (273, 336)


#: Hands where a mucked hand's first filling loses the main pot but wins a side pot whose
#: known winner is weaker than the main pot's: the later fillings aim under each pot's winner.
SIDE_POTS = (490, 708, 741)

#: A hand where the weakest fillings of the first three mucked hands leave the fourth only
#: cards that fill up on board 1 (a pair of deuces): later attempts draw losing ones.
SQUEEZED = (2130,)


@pytest.mark.parametrize("seeds", [(*range(40), 93, 95), REFILLED, SIDE_POTS, SQUEEZED])
def test_every_players_export_replays(seeds: tuple[int, ...]) -> None:
    """What each player may see (mucked hands ``??``) replays to the recorded stacks: the
    filled hands lose on both boards, high and low."""
    for seed in seeds:
        hand = _export_case(seed)
        stacks = phh.history_of(hand.events).finishing_stacks
        for viewer in hand.seat_order:
            public = phh.history_of(hand.events, public=True, viewer=viewer)
            assert phh.replay(public).finishing_stacks == stacks, (seed, viewer)


def test_the_replay_tries_other_fillings(monkeypatch: pytest.MonkeyPatch) -> None:
    """With one filling only, the hands of REFILLED do not replay: a filled hand wins."""
    monkeypatch.setattr(replaying, "FILL_TRIES", 1)
    failed = 0
    for seed in REFILLED:
        hand = _export_case(seed)
        for viewer in hand.seat_order:
            try:
                phh.replay(phh.history_of(hand.events, public=True, viewer=viewer))
            except phh.HandError as exc:
                assert "could win at the showdown" in str(exc)
                failed += 1
    assert failed >= len(REFILLED)


def test_side_pot_winners_bar_the_fillings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Measured against the best known hand of all only, the SIDE_POTS hands do not replay:
    a filled hand wins the side pot it is in (with the weakest fillings only)."""
    monkeypatch.setattr(replaying, "_contested", lambda hand, player_of: [])
    monkeypatch.setattr(deck, "SAMPLED_FROM", replaying.FILL_TRIES)
    failed = set()
    for seed in SIDE_POTS:
        hand = _export_case(seed)
        for viewer in hand.seat_order:
            try:
                phh.replay(phh.history_of(hand.events, public=True, viewer=viewer))
            except phh.HandError as exc:
                assert "could win at the showdown" in str(exc)
                failed.add(seed)
    assert failed == set(SIDE_POTS)


def test_random_fillings_free_the_last_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the random draws, the SQUEEZED hands do not replay."""
    monkeypatch.setattr(deck, "SAMPLED_FROM", replaying.FILL_TRIES)
    for seed in SQUEEZED:
        hand = _export_case(seed)
        with pytest.raises(phh.HandError, match="could win at the showdown"):
            phh.replay(phh.history_of(hand.events, public=True, viewer=3))
