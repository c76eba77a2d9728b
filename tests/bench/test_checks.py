"""The benchmarks' agreement checks catch a peer that disagrees (bench/, issue 10).

Each benchmark refuses to print a ratio as good when the two sides did not
do the same work; these tests feed the checks real results, then results
with one answer wrong, and insist the wrong one is caught.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_evaluate
import bench_holdem
import bench_render
import bench_replay
from hand_views import hand_views
from PIL import Image

from bot.engine.evaluate import high_value, low_value
from bot.engine.variants import HandRule
from bot.render.table import draw_table

pokerkit = pytest.importorskip("pokerkit")


def _pokerkit_args(deals: list[bench_evaluate.Deal]) -> list[tuple[object, ...]]:
    def convert(cards: tuple[object, ...]) -> tuple[object, ...]:
        return tuple(pokerkit.Card.parse("".join(map(str, cards))))

    return [(convert(hole[:4]), convert(board)) for hole, board in deals]


def test_evaluators_that_agree_pass_and_one_wrong_value_is_caught() -> None:
    """Ours and PokerKit's lookup agree on 300 deals; one value moved past another fails."""
    deals = bench_evaluate.make_deals(300, 5)
    args = _pokerkit_args(deals)
    high = bench_evaluate.pokerkit_high(pokerkit.OmahaHoldemHand.lookup)
    ours = [high_value(hole[:4], board, HandRule.OMAHA) for hole, board in deals]
    theirs: list[int | None] = [high(*a) for a in args]
    assert bench_evaluate.disagreement(ours, theirs) is None
    best = max(range(len(ours)), key=ours.__getitem__)
    worst = min(range(len(ours)), key=ours.__getitem__)
    theirs[best], theirs[worst] = theirs[worst], theirs[best]
    assert bench_evaluate.disagreement(ours, theirs) is not None


def test_seven_card_peers_agree_and_one_wrong_value_is_caught() -> None:
    """Ours and phevaluator (C and wrapper) agree on 300 Hold'em deals; treys too; one of
    phevaluator's values moved past another fails."""
    deals = bench_holdem.make_deals(300, 5)
    sides = [*bench_holdem.ours(deals), *bench_holdem.phevaluator_sides(deals),
             bench_holdem.treys_side(deals)]
    _rates, values = bench_evaluate.race(sides, 1)
    ours = values[0]
    assert values[1] == ours  # the engine's entry and the function it calls
    for side, vals in zip(sides[2:], values[2:], strict=True):
        assert bench_evaluate.disagreement(ours, [side.order(v) for v in vals]) is None
    theirs = [sides[2].order(v) for v in values[2]]
    best = max(range(len(ours)), key=ours.__getitem__)
    worst = min(range(len(ours)), key=ours.__getitem__)
    theirs[best], theirs[worst] = theirs[worst], theirs[best]
    assert bench_evaluate.disagreement(ours, theirs) is not None


def test_cold_empties_the_holdem_tables_back_to_their_import() -> None:
    deals = bench_holdem.make_deals(50, 6)
    before = [high_value(hole, board, HandRule.HOLDEM) for hole, board in deals]
    bench_holdem.cold()
    assert set(bench_holdem.holdem_eval.RANKS) == bench_holdem.FIVES
    assert [high_value(hole, board, HandRule.HOLDEM) for hole, board in deals] == before


def test_a_low_found_on_one_side_only_is_caught() -> None:
    """The low check compares who has a low, and reads PokerKit's smaller index as better."""
    deals = bench_evaluate.make_deals(300, 6)
    low = bench_evaluate.pokerkit_low(pokerkit.OmahaEightOrBetterLowHand.lookup)
    ours = [low_value(hole[:4], board) for hole, board in deals]
    theirs = [bench_evaluate.negate(low(*a)) for a in _pokerkit_args(deals)]
    assert bench_evaluate.disagreement(ours, theirs) is None
    # Not reversing PokerKit's index: the order is wrong.
    assert bench_evaluate.disagreement(ours, [low(*a) for a in _pokerkit_args(deals)])
    missing = list(theirs)
    missing[next(i for i, v in enumerate(ours) if v is not None)] = None
    assert bench_evaluate.disagreement(ours, missing) is not None


def test_race_gives_every_side_the_same_passes_and_returns_every_value() -> None:
    calls = {"a": 0, "b": 0}

    def side(name: str) -> bench_evaluate.Side:
        def fn(x: int) -> int:
            calls[name] += 1
            return x * 2

        return bench_evaluate.Side(name, fn, [(i,) for i in range(10)])

    _rates, values = bench_evaluate.race([side("a"), side("b")], 3)
    assert calls == {"a": 30, "b": 30}
    assert values == [[i * 2 for i in range(10)]] * 2


def test_replays_that_differ_by_more_than_odd_chips_fail() -> None:
    assert bench_replay.odd_chips_only((101, 99, 200), (100, 100, 200))
    assert not bench_replay.odd_chips_only((110, 90, 200), (100, 100, 200))
    assert not bench_replay.odd_chips_only((101, 100, 200), (100, 100, 200))  # a chip made
    played = [(100, 100, 200), (150, 50, 200)]
    assert bench_replay.compare("t", played, played, played, "ours") == []
    failures = bench_replay.compare("t", played, played, [(100, 100, 200), (50, 150, 200)],
                                    "ours")
    assert failures == ["t: the replays differ by more than odd chips in 1 hands"]


def test_pokerkit_written_hands_replay_alike_on_both_sides() -> None:
    """A few hands played and written by PokerKit: our replay ends where PokerKit did."""
    hands = bench_replay.make_pokerkit_hands(15, 3)
    assert bench_replay.run_ours([t for t, _ in hands]) == [s for _, s in hands]


def test_the_render_peer_must_show_our_cards() -> None:
    """A peer pasting our cards passes; a peer with one card changed is caught."""
    tables, holes = hand_views(1)
    assert len({(v.board, v.to_act, v.pots) for v in tables}) > 20  # a changing table
    assert len(holes) >= 10
    cv = draw_table(tables[-1])
    peer = bench_render.baseline(cv)()
    assert bench_render.same_cards(cv, peer) is None
    face = next(p for p in cv.placed if p.kind == "card" and p.card is not None)
    other = next(p for p in cv.placed if p.kind == "card" and p.card not in (None, face.card))
    sprite = bench_render.sprite_of(other, cv)
    wrong = peer.copy()
    wrong.paste(sprite, face.extent[:2], sprite)
    assert bench_render.same_cards(cv, wrong) is not None
    assert bench_render.same_cards(cv, Image.new("RGB", (10, 10))) is not None


def test_hand_views_are_repeatable() -> None:
    """The same seed gives the same hand, so runs of the render bench are comparable."""
    assert hand_views(1) == hand_views(1)
    assert hand_views(1) != hand_views(2)
