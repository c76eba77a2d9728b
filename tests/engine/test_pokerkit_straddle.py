"""Straddles (RULES.md 10) against PokerKit 0.7.7's ``blinds_or_straddles``.

Random no-limit and pot-limit hands, Omaha and Texas Hold'em, where players
chose to straddle: each is played in our Hand and in a PokerKit ``State`` whose
blinds are ``(small, big, 2 x big)`` when our Hand posts the straddle (a short
stack under the gun does not: then ``(small, big)``), by ``play_hand_both``
(``test_pokerkit_diff.py``): before every action both engines agree on who acts
(left of the straddler first, the straddler last), what a call costs and the
raise range; at the end our stacks equal the settlement by RULES.md and, where
PokerKit follows it, PokerKit's own. PokerKit keeps the big blind as the
minimum raise over its straddles; RULES.md makes the straddle count as the big
blind (blinds 1-2, straddle 4: the minimum raise is to 8), so the preflop
street of PokerKit's game is given the straddle as its minimum.

The hand histories: our PHH of each hand records the straddle in
``blinds_or_straddles``, replays in our engine to the same stacks, and loads in
PokerKit's own loader (whose straddle is the same bet and order; its minimum
raise is lower, so our legal raises are legal there too).
"""

from __future__ import annotations

import random
import warnings
from collections import deque

import pytest

from bot.engine import phh
from bot.engine.cards import Deck
from bot.engine.hand import Hand, SeatIn
from bot.engine.variants import VARIANTS, GameConfig, Structure
from tests.engine.test_pokerkit_diff import Tally, choose, play_hand_both, random_seats

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import HandHistory  # noqa: E402

GAMES = [
    ("omaha", Structure.NO_LIMIT, 300),
    ("omaha", Structure.POT_LIMIT, 300),
    ("holdem", Structure.NO_LIMIT, 300),
    ("holdem", Structure.POT_LIMIT, 200),
]


def straddling_hand(rng: random.Random, config: GameConfig) -> Hand:
    """3 or more random seats (stacks from just above ante + big blind: some cannot cover
    the straddle), most of whom chose to straddle."""
    seats, button = random_seats(rng, config, rng.randint(3, config.variant.max_seats))
    wished = [SeatIn(s.seat, s.stack, straddle=rng.random() < 0.8) for s in seats]
    return Hand(config, wished, button, Deck(rng=rng))


@pytest.mark.parametrize(("variant_key", "structure", "hands"), GAMES,
                         ids=[f"{v}-{s.letter}" for v, s, _ in GAMES])
def test_random_straddled_hands_match_pokerkit(
    variant_key: str, structure: Structure, hands: int
) -> None:
    rng = random.Random(f"straddle-{variant_key}-{structure.letter}")
    tally = Tally()
    straddled = short = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns on a fold when a check is possible
        for _ in range(hands):
            big = rng.choice([2, 4, 10])
            config = GameConfig(VARIANTS[variant_key], structure, big // 2, big,
                                rng.choice([0, 0, 1]))
            hand = straddling_hand(rng, config)
            play_hand_both(hand, tally, lambda legal, pk: choose(rng, legal, pk, tally))
            utg = hand.players[2]
            if hand.straddle_seat is not None:
                straddled += 1
            elif utg.starting_stack - min(config.ante, utg.starting_stack) < 2 * big:
                short += 1
    assert tally.hands == hands
    assert straddled >= hands * 6 // 10, straddled
    assert short >= hands // 50, short
    assert tally.direct >= hands // 2, tally
    assert tally.all_in_hands >= hands // 10, tally


def test_phh_records_straddles_replays_them_and_pokerkit_loads_them() -> None:
    rng = random.Random("straddle-phh")
    tally = Tally()
    written = compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(120):
            structure = rng.choice([Structure.NO_LIMIT, Structure.POT_LIMIT])
            variant = "omaha" if structure is Structure.POT_LIMIT else "holdem"
            config = GameConfig(VARIANTS[variant], structure, 1, 2)
            hand = straddling_hand(rng, config)
            _, rules, _ = play_hand_both(
                hand, tally, lambda legal, pk: choose(rng, legal, pk, tally))
            hh = phh.history_of(hand.events)
            n = len(hand.seat_order)
            straddle = (4,) if hand.straddle_seat is not None else (0,)
            assert hh.blinds_or_straddles == (1, 2, *straddle, *(0,) * (n - 3))
            again = phh.replay(phh.loads(phh.dumps(hh)))
            assert again.finishing_stacks == hh.finishing_stacks
            assert again.hand.straddle_seat == hand.straddle_seat
            written += hand.straddle_seat is not None
            # PokerKit knows no no-limit Omaha code: PO and NT load there.
            if hh.variant in ("PO", "NT"):
                state = deque(HandHistory.loads(phh.dumps(hh)), maxlen=1)[0]
                assert not state.status
                if not rules.pokerkit_differs:
                    assert tuple(state.stacks) == hh.finishing_stacks
                    compared += 1
    assert written >= 70 and compared >= 60, (written, compared)
