"""Scripted Texas Hold'em hands against PokerKit 0.7.7 (RULES.md 9 with sections 3 to 6).

Each hand is played in our Hand and in a PokerKit ``State`` of the same game by
``play_hand_both`` (``test_pokerkit_diff.py``): before every action both engines
agree on who acts, what a call costs and the raise range; at the end our stacks
equal an independent settlement by RULES.md (PokerKit's ``StandardHighHand``
ranks the hands) and, where PokerKit follows the rules, PokerKit's own stacks.
Where it does not (a split pot's odd chips: PokerKit gives the whole remainder to
one player), RULES.md is right and the test says so. Random Hold'em hands in
every structure are in ``test_pokerkit_diff.py``; here, PHH both ways too.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence

import pytest

from bot.engine import phh
from bot.engine.hand import Action, Hand, LegalActions
from bot.engine.variants import VARIANTS, GameConfig, Structure
from tests.engine.conftest import new_hand
from tests.engine.test_pokerkit_diff import (
    AUTOMATIONS,
    Chooser,
    Settlement,
    Tally,
    phh_both_ways,
    play_both,
    play_hand_both,
)

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import (  # noqa: E402
    FixedLimitTexasHoldem,
    Mode,
    NoLimitTexasHoldem,
    State,
)

Step = str | tuple[str, int]


def scripted(steps: Sequence[Step]) -> Chooser:
    """An action chooser that plays ``steps``: ``"f"`` fold, ``"c"`` check or call, ``"a"``
    all-in (the largest raise, else a call), ``("r", to)`` bet or raise to ``to``."""
    todo = iter(steps)

    def pick(legal: LegalActions, pk: State) -> Action:
        step = next(todo)
        if step == "f":
            return Action.fold()
        if step == "c":
            return Action.call()
        if step == "a":
            top = legal.max_raise_to
            return Action.call() if top is None else Action.raise_to(top)
        assert isinstance(step, tuple)
        return Action.raise_to(step[1])

    return pick


def both(stacks: list[int], holes: dict[int, str], board: str, steps: Sequence[Step],
         structure: Structure = Structure.NO_LIMIT, **kwargs: object
         ) -> tuple[Hand, Settlement, State]:
    hand = new_hand(stacks, variant="holdem", structure=structure, holes=holes, board=board,
                    start=False, **kwargs)  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return play_hand_both(hand, Tally(), scripted(steps))


def stacks_of(hand: Hand) -> list[int]:
    return [hand.result.final_stacks[s] for s in hand.seat_order]


def test_board_plays_heads_up_split_evenly() -> None:
    hand, rules, pk = both([100, 100], {1: "2c3d", 2: "4h5s"}, "AsKdQhJcTs",
                           ["c", "c", "c", "c", "c", "c", "c", "c"])
    assert not rules.pokerkit_differs and stacks_of(hand) == list(pk.stacks) == [100, 100]


def test_board_plays_three_ways_odd_chips_rules_against_pokerkit() -> None:
    """32 among three tied hands: RULES.md 11, 11, 10 clockwise from the first seat after
    the button; PokerKit gives the two odd chips to one player (its deviation)."""
    hand, rules, pk = both([100] * 4, {1: "2c3d", 2: "9s9h", 3: "4h5s", 4: "6d7c"},
                           "AsKdQhJcTs", [("r", 10), "c", "c", "f", *["c"] * 9])
    assert rules.pokerkit_differs
    assert hand.result.payouts == {1: 11, 2: 0, 3: 11, 4: 10}
    assert sum(pk.stacks) == sum(stacks_of(hand)) and list(pk.stacks) != stacks_of(hand)


def test_kickers_and_side_pots_match_pokerkit() -> None:
    """Four players, three all-in for different amounts; kickers decide two of the pots."""
    hand, rules, pk = both([40, 100, 70, 100], {1: "AhKc", 2: "AdQc", 3: "AcJd", 4: "KsKd"},
                           "As9d7c4h2s", ["a", "a", "a", "c"])
    assert not rules.pokerkit_differs and stacks_of(hand) == list(pk.stacks)
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [
        (160, (1, 2, 3, 4)), (90, (2, 3, 4)), (60, (2, 4))]
    assert hand.result.final_stacks == {1: 160, 2: 150, 3: 0, 4: 0}


def test_incomplete_all_in_raise_does_not_reopen_in_both() -> None:
    """Bet 10, call, all-in to 15: both engines let the bettor and the caller only call."""
    hand, rules, pk = both([100, 100, 100, 17], {}, "",
                           ["c", "c", "c", "c", ("r", 10), "c", "f", "a", "c", "c", *["c"] * 4])
    assert not rules.pokerkit_differs and stacks_of(hand) == list(pk.stacks)


def test_heads_up_and_fixed_limit_cap() -> None:
    """Heads-up fixed limit 2-4: the button (small blind) opens, the cap is four bets."""
    steps: list[Step] = [("r", 4), ("r", 6), ("r", 8), "c", *["c"] * 6]
    hand, rules, pk = both([100, 100], {1: "AhAd", 2: "KsKd"}, "2c7h9dJc3s", steps,
                           structure=Structure.FIXED_LIMIT)
    assert not rules.pokerkit_differs and stacks_of(hand) == list(pk.stacks) == [108, 92]


@pytest.mark.parametrize("structure", [Structure.NO_LIMIT, Structure.FIXED_LIMIT])
def test_phh_both_ways_with_pokerkit(structure: Structure) -> None:
    """Random NT and FT hands: PokerKit's loader replays our PHH, ours replays PokerKit's."""
    rng = random.Random(f"holdem-loader-{structure.letter}")
    variant = VARIANTS["holdem"]
    game: FixedLimitTexasHoldem | NoLimitTexasHoldem
    if structure is Structure.FIXED_LIMIT:
        config = GameConfig.fixed_limit(variant, 2)
        game = FixedLimitTexasHoldem(AUTOMATIONS, True, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME)
    else:
        config = GameConfig(variant, structure, 1, 2)
        game = NoLimitTexasHoldem(AUTOMATIONS, True, 0, (1, 2), 2, mode=Mode.CASH_GAME)
    compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(100):
            hand, rules, pk = play_both(rng, config, rng.randint(2, 10), Tally())
            assert phh.history_of(hand.events).variant == structure.letter + "T"
            compared += phh_both_ways(hand, rules, game, pk)
    assert compared >= 80
