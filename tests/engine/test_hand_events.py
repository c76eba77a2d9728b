"""Events as the hand's history: serialisation, privacy, replay (DESIGN.md principles)."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.cards import DECK, Deck
from bot.engine.events import (
    EVENT_TYPES,
    CardBurned,
    Event,
    HoleCardsDealt,
    PlayerActed,
    ShowRequested,
    event_from_dict,
)
from bot.engine.hand import VARIANTS, Action, GameConfig, Hand, SeatIn, Structure


def random_hand(seed: int, variant: str, structure: Structure) -> tuple[Hand, list[SeatIn]]:
    """Play a hand with random legal actions (and one show request)."""
    rng = random.Random(seed)
    v = VARIANTS[variant]
    n = rng.randint(2, v.max_seats)
    seats = [SeatIn(s, rng.choice([5, 40, 200])) for s in rng.sample(range(1, 20), n)]
    cfg = GameConfig(v, structure, 1, 2, rng.choice([0, 1])) if structure is not \
        Structure.FIXED_LIMIT else GameConfig.fixed_limit(v, 2, rng.choice([0, 1]))
    hand = Hand(cfg, seats, rng.choice(seats).seat, Deck(rng=rng))
    hand.start()
    hand.request_show(seats[0].seat)
    while not hand.is_over:
        la = hand.legal_actions()
        assert la is not None
        r = rng.random()
        if la.min_raise_to is not None and la.max_raise_to is not None and r < 0.3:
            action = Action.raise_to(rng.randint(la.min_raise_to, la.max_raise_to))
        elif r < 0.4:
            action = Action.fold()
        else:
            action = Action.check() if la.can_check else Action.call()
        hand.act(la.seat, action)
    return hand, seats


@pytest.mark.parametrize("variant", ["omaha", "omaha_hilo", "courchevel_hilo", "omaha6"])
def test_events_round_trip_through_json(variant: str) -> None:
    """to_dict -> JSON -> event_from_dict gives back equal events."""
    for seed in range(15):
        hand, _ = random_hand(seed, variant, Structure.POT_LIMIT)
        for e in hand.events:
            data = json.loads(json.dumps(e.to_dict()))
            assert data["type"] == e.type
            assert event_from_dict(data) == e


def test_every_event_type_is_registered_and_unknown_types_refused() -> None:
    """event_from_dict knows every event class and refuses others with ValueError."""
    assert set(EVENT_TYPES) == {cls.type for cls in Event.__subclasses__()}
    with pytest.raises(ValueError, match="unknown event type"):
        event_from_dict({"type": "nope"})


def test_hole_cards_and_show_requests_are_private() -> None:
    """Only hole-card deals and show requests are private, to their seat."""
    hand, _ = random_hand(3, "omaha", Structure.NO_LIMIT)
    for e in hand.events:
        if isinstance(e, HoleCardsDealt | ShowRequested):
            assert e.is_private and e.private_to == e.seat == e.to_dict()["private_to"]
        else:
            assert not e.is_private and e.private_to is None
            assert "private_to" not in e.to_dict()


def test_deck_order_never_appears_in_events_or_reprs() -> None:
    """Burned and undealt cards appear nowhere; hole cards are hidden in reprs."""
    for seed in range(10):
        hand, seats = random_hand(seed, "omaha5", Structure.NO_LIMIT)
        dealt = {str(c) for s in seats for c in hand.hole(s.seat)} | {str(c) for c in hand.board}
        text = json.dumps([e.to_dict() for e in hand.events])
        secret = {str(c) for c in DECK} - dealt
        assert not any(f'"{c}"' in text for c in secret)
        assert all("cards" not in e.to_dict() for e in hand.events if isinstance(e, CardBurned))
        for e in hand.events:
            if isinstance(e, HoleCardsDealt):
                assert not any(str(c) in repr(e) for c in e.cards)
        assert not any(str(c) in repr(hand) for c in DECK)


@pytest.mark.parametrize("structure", list(Structure))
def test_replay_from_deck_order_and_inputs_is_identical(structure: Structure) -> None:
    """Replaying the inputs on a fresh hand with the same deck gives identical events."""
    for seed in range(20):
        hand, seats = random_hand(seed, "big_o", structure)
        again = Hand.replay(hand.config, seats, hand.button, hand.deck.order, hand.events)
        assert again.events == hand.events
        assert again.result == hand.result
        assert all(isinstance(e, PlayerActed | ShowRequested) for e in hand.inputs)
        assert len(hand.actions) == sum(isinstance(e, PlayerActed) for e in hand.events)


def test_game_config_round_trips_and_phh_code() -> None:
    """GameConfig serialises to a dict and names its PHH variant code."""
    cfg = GameConfig.fixed_limit(VARIANTS["omaha_hilo"], 10, ante=1)
    assert GameConfig.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg
    assert cfg.phh_variant == "FO/8"
    assert GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 1, 2).phh_variant == "PO"


def test_seat_snapshots_carry_hole_cards_but_never_show_them_in_repr() -> None:
    """SeatState.hole is the owner's private view and stays out of the repr."""
    hand, _ = random_hand(5, "omaha", Structure.POT_LIMIT)
    for st in hand.players:
        assert st.hole == hand.hole(st.seat) and len(st.hole) == 4
        assert not any(str(c) in repr(st) for c in st.hole)
    assert sum(p.amount for p in hand.pots) == sum(a.amount for a in hand.result.pots)
