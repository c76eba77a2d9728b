"""A replay's bound: a hand of any length in at most MAX_FRAMES frames, a betting war
squeezed into frames that say how many actions and raises they hold, in every language."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from bot.engine.events import ActionKind, PlayerActed
from bot.i18n import LOCALES, translate
from bot.runtime.hand_history import PastHand
from bot.runtime.replay_frames import replay_view
from bot.runtime.replay_squeeze import EDGE, MAX_FRAMES, MERGED, squeeze
from tests.runtime.replay_hands import busy, play, war

NAMES = {s: f"p{s}" for s in range(1, 11)}
KINDS = ("deal", "action", "board", "show", "vote", "award", "end")


def _check(kinds: list[str], groups: list[range], limit: int) -> None:
    """Every step once, in order; a group of several steps is one mergeable kind."""
    assert [i for g in groups for i in g] == list(range(len(kinds)))
    assert len(groups) <= limit
    for g in groups:
        if len(g) > 1:
            assert {kinds[i] for i in g} <= MERGED and len({kinds[i] for i in g}) == 1


def test_a_hand_that_fits_keeps_a_frame_per_step() -> None:
    kinds = ["deal", *["action"] * 30, "board", "action", "action", "show", "award", "end"]
    assert squeeze(kinds) == [range(i, i + 1) for i in range(len(kinds))]


def test_a_betting_war_is_squeezed_and_the_short_rounds_stay_whole() -> None:
    kinds = ["deal", *["action"] * 2000, "board", *["action"] * 5, "board", "action",
             "action", "show", "show", "award", "end"]
    groups = squeeze(kinds, 60)
    _check(kinds, groups, 60)
    assert len(groups) == 60
    war = [g for g in groups if g[0] >= 1 and g[-1] <= 2000]
    assert len(war) == 60 - (len(kinds) - 2000)  # everything else has a frame of its own
    assert all(len(g) == 1 for g in war[:EDGE] + war[-EDGE:])  # how it began and ended
    middle = [len(g) for g in war[EDGE:-EDGE]]
    assert max(middle) - min(middle) <= 1  # a fast-forward at an even pace


def test_the_frames_left_go_to_the_longest_runs() -> None:
    """Water-filling: with two wars, a 9-action round stays whole when there is room."""
    kinds = ["deal", *["action"] * 500, "board", *["action"] * 9, "board",
             *["action"] * 300, "end"]
    groups = squeeze(kinds, 50)
    _check(kinds, groups, 50)
    runs = [sum(1 for g in groups if lo <= g[0] and g[-1] < hi)
            for lo, hi in ((1, 501), (502, 511), (512, 812))]
    assert runs[1] == 9 and runs[0] + runs[2] == 50 - 9 - 4
    assert abs(runs[0] - runs[2]) <= 1


@pytest.mark.parametrize("seed", range(40))
def test_any_sequence_of_steps_fits_its_bound(seed: int) -> None:
    rng = random.Random(seed)
    kinds = [rng.choice(KINDS) if rng.random() < 0.2 else rng.choice(sorted(MERGED))
             for _ in range(rng.randint(1, 3000))]
    runs = 1 + sum(1 for a, b in pairwise(kinds)
                   if a != b or a not in MERGED)
    limit = rng.randint(1, 120)
    groups = squeeze(kinds, limit)
    assert [i for g in groups for i in g] == list(range(len(kinds)))
    if runs <= limit:
        _check(kinds, groups, limit)
    else:  # more runs than frames: each run one frame, no fewer
        assert len(groups) == runs


def _war() -> tuple[PastHand, list[PlayerActed]]:
    """A 2,000-action hand: heads-up no limit, 10M chips each, raised by the minimum."""
    past = play(2, policy=war(2000), stacks=[10**7, 10**7], steps=2100)
    acted = [e for e in past.hand.events if isinstance(e, PlayerActed)]
    assert len(acted) >= 2000
    return past, acted


@pytest.mark.parametrize("locale", LOCALES)
def test_a_two_thousand_action_hand_is_within_the_bound_and_says_what_it_holds(
    locale: str,
) -> None:
    past, acted = _war()
    full = replay_view(past, NAMES, 1, locale, limit=10**6).frames
    view = replay_view(past, NAMES, 1, locale)
    assert len(full) > 2000 and len(view.frames) == MAX_FRAMES
    groups = squeeze([f.kind for f in full])
    step_of = iter(acted)
    event = {i: next(step_of) for i, f in enumerate(full) if f.kind == "action"}
    held, raises = 0, 0
    for frame, g in zip(view.frames, groups, strict=True):
        last = full[g[-1]]
        assert frame.table == last.table and frame.kind == last.kind  # the table after it
        assert frame.actor == last.actor and frame.hold == last.hold
        if len(g) == 1:
            assert frame.caption == last.caption
            if frame.kind == "action":
                held, raises = held + 1, raises + (event[g[0]].kind is ActionKind.RAISE)
            continue
        assert frame.caption.endswith(last.caption), frame.caption
        assert frame.caption.startswith(translate(locale, "replay.actions", count=len(g)))
        r = sum(1 for i in g if event[i].kind is ActionKind.RAISE)
        assert translate(locale, "replay.raises", count=r) in frame.caption
        held, raises = held + len(g), raises + r
    assert held == len(acted)
    assert raises == sum(1 for e in acted if e.kind is ActionKind.RAISE)


def test_plurals_are_worded_per_language() -> None:
    assert translate("en", "replay.raises", count=1) == "1 raise"
    assert translate("en", "replay.raises", count=2) == "2 raises"
    assert translate("pt-BR", "replay.actions", count=1) == "1 ação"
    assert translate("pt-BR", "replay.actions", count=1000) == "1.000 ações"
    assert translate("it", "replay.raises", count=3) == "3 rilanci"
    assert translate("es-ES", "replay.actions", count=2) == "2 acciones"
    assert translate("es-419", "replay.more_awarded", count=2) == "+2 pozos más repartidos"


def test_ordinary_hands_are_not_squeezed() -> None:
    """The longest ordinary hands (ten seats, hi-lo, run twice) keep a frame per step."""
    past = play(10, variant="omaha_hilo", policy=busy, twice=True, seed=3)
    view = replay_view(past, NAMES, 1)
    assert len(view.frames) == len(replay_view(past, NAMES, 1, limit=10**6).frames) < MAX_FRAMES
