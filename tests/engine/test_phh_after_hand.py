"""The 7-2 bounty and the cards shown after a hand in PHH (bot.engine.phh.after_hand):
export, replay, verify, and PokerKit's loader, which keeps the fields aside."""

from __future__ import annotations

import random
import warnings
from collections import deque
from dataclasses import replace

import pytest

from bot.engine import phh
from bot.engine.after_hand import is_seven_deuce, showable, whole_pots
from bot.engine.cards import DECK, Deck, parse_cards
from bot.engine.commitment import commit
from bot.engine.dealing import deck_order_for
from bot.engine.events import PotAwarded
from bot.engine.hand import VARIANTS, Action, GameConfig, Hand, SeatIn, Structure
from bot.engine.phh.proof import verify_text, with_proof
from tests.engine.test_after_hand import _hand, _steal


def _bounty_hand() -> Hand:
    """Seat 3's 7c 2d steals the blinds at a 5-big-blind 7-2 table; seat 2 then shows Kh."""
    hand = _steal(_hand(["AsAh", "7sKh", "7c2d"]))
    hand.show_after(2, parse_cards("Kh"))
    return hand


def _export(hand: Hand, viewer: int | None = -1) -> str:
    hh = phh.history_of(hand.events, public=viewer is not None, viewer=viewer)
    return phh.dumps(with_proof(hh, hand.deck.order, commit(hand.deck.order)))


def test_the_fields_of_a_bounty_and_of_cards_shown_after_the_hand() -> None:
    """Publicly: the 7-2 and the card shown are in their ``d dh`` lines, every other card
    stays ``??``; the fields say the bounty, what it moved and what was shown."""
    text = _export(_bounty_hand())
    assert '"d dh p1 ????"' in text and '"d dh p2 ??Kh"' in text and '"d dh p3 7c2d"' in text
    assert "_seven_deuce = 5\n" in text
    assert '_bounties = ["p1 pays p3 10", "p2 pays p3 10"]' in text
    assert '_shown_after = ["p3 sm 7c2d", "p2 sm ??Kh"]' in text
    assert "finishing_stacks = [89, 88, 123]" in text
    assert "As" not in text.split("_deck_hashes")[0]  # seat 1's hidden cards stay hidden


@pytest.mark.parametrize("viewer", [1, 2, 3, -1, None])
def test_the_export_replays_to_the_bounty_and_verifies(viewer: int | None) -> None:
    text = _export(_bounty_hand(), viewer)
    assert phh.replay(phh.loads(text)).finishing_stacks == (89, 88, 123)
    assert verify_text(text).ok


def test_a_table_without_the_bounty_writes_none_of_it() -> None:
    hand = _steal(_hand(["AsAh", "KsKh", "7c2d"], bounty=0))
    text = _export(hand)
    assert "_seven_deuce" not in text and "_bounties" not in text and "_shown_after" not in text
    assert phh.replay(phh.loads(text)).finishing_stacks == (99, 98, 103)


def test_a_record_whose_bounties_do_not_match_is_an_error() -> None:
    hh = phh.loads(_export(_bounty_hand()))
    wrong = replace(hh, extra=tuple((k, ["p1 pays p3 10"] if k == "_bounties" else v)
                                    for k, v in hh.extra))
    with pytest.raises(phh.HandError, match="_bounties"):
        phh.replay(wrong)
    unread = replace(hh, extra=tuple((k, "five" if k == "_seven_deuce" else v)
                                     for k, v in hh.extra))
    with pytest.raises(phh.HandError, match="_seven_deuce"):
        phh.replay(unread)


def test_a_hidden_card_never_makes_a_seven_deuce_on_replay() -> None:
    """The uncontested winner (7h 9c: no bounty) shows only the 7h; the hidden card would be
    filled with the weakest card left, a deuce: the replay keeps it off a 7-2, which the
    record would have shown."""
    hand = _steal(_hand(["AsAh", "KsKh", "7h9c"]))
    hand.show_after(3, parse_cards("7h"))
    text = _export(hand)
    assert '"d dh p3 7h??"' in text and "_bounties" not in text
    played = phh.replay(phh.loads(text))
    assert played.finishing_stacks == (99, 98, 103)
    assert played.hand.result.bounties == ()


def test_pokerkit_loads_the_record_and_ignores_the_bounty() -> None:
    """PokerKit keeps the user fields aside: its stacks are the pots' alone (a deviation
    to list, like the second board of a hand run twice)."""
    pokerkit = pytest.importorskip("pokerkit")
    text = _export(_bounty_hand())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = pokerkit.HandHistory.loads(text)
        state = deque(loaded, maxlen=1)[0]
    assert loaded.user_defined_fields["_bounties"] == ["p1 pays p3 10", "p2 pays p3 10"]
    assert list(state.stacks) == [99, 98, 103]  # ours: [89, 88, 123]


def _random_bounty_hand(seed: int) -> Hand:
    """A random Hold'em hand at a 7-2 table (2 to 9 players, random stacks and moves), a
    random player dealt a 7 and a 2 of different suits; then every folded player and the
    winner of a hand won without a showdown show a random part of their hand."""
    rng = random.Random(f"seven-deuce-{seed}")
    n = rng.randint(2, 9)
    deck = list(DECK)
    rng.shuffle(deck)
    seven = next(c for c in deck if c.rank == 7)
    deuce = next(c for c in deck if c.rank == 2 and c.suit != seven.suit)
    lucky = rng.randrange(n)
    rest = [c for c in deck if c not in (seven, deuce)]
    holes = [[seven, deuce] if k == lucky else [rest.pop(), rest.pop()] for k in range(n)]
    order = deck_order_for(VARIANTS["holdem"], holes, rest[:5])
    cfg = GameConfig(VARIANTS["holdem"], Structure.NO_LIMIT, 1, 2, seven_deuce=rng.randint(1, 10))
    hand = Hand(cfg, [SeatIn(k + 1, rng.randint(3, 120)) for k in range(n)], n,
                Deck(order=order))
    hand.start()
    while hand.to_act is not None:
        la = hand.legal_actions()
        assert la is not None
        moves = [Action.fold(), Action.call(), Action.call()]
        if la.max_raise_to:
            moves.append(Action.raise_to(rng.choice([la.min_raise_to or 0, la.max_raise_to])))
        hand.act(la.seat, rng.choice(moves))
    for seat in hand.seat_order:
        left = showable(hand, seat)
        if left:
            hand.show_after(seat, rng.sample(left, rng.randint(1, len(left))))
    return hand


def test_random_bounty_hands_keep_every_chip_and_replay_from_their_records() -> None:
    """Chips are conserved, a bounty goes only to a 7-2 that won a pot alone, and every
    record (public, or a player's own) replays to the same stacks and verifies."""
    paid = 0
    for seed in range(200):
        hand = _random_bounty_hand(seed)
        result = hand.result
        assert sum(result.final_stacks.values()) == sum(result.starting_stacks.values())
        alone = {seat for _, seat in whole_pots(
            [e for e in hand.events if isinstance(e, PotAwarded)])}
        for bounty in result.bounties:
            assert bounty.seat in alone and is_seven_deuce(hand.hole(bounty.seat))
            paid += 1
        for viewer in (hand.seat_order[0], None):
            text = _export(hand, viewer)
            replayed = phh.replay(phh.loads(text))
            assert replayed.finishing_stacks == tuple(
                result.final_stacks[s] for s in hand.seat_order), seed
            assert verify_text(text).ok, seed
    assert paid >= 15
