"""A replay's frame plan against the hand's own record: a frame per action, the board and
the pots as the engine had them, the winning cards lit, and no card the reader may not see."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.bomb_pot import BombPot
from bot.engine.cards import Card
from bot.engine.events import BoardDealt, HandShown, PlayerActed
from bot.render import ReplayView, TableView
from bot.runtime.hand_history import PastHand
from bot.runtime.replay_frames import final_table, replay_view
from bot.runtime.table.snapshot import collected_pots
from tests.runtime.replay_hands import busy, calling, engine_after, play, played, war

NAMES = {s: f"p{s}" for s in range(1, 11)}


def _actions(view: ReplayView) -> list[Any]:
    return [f for f in view.frames if f.kind == "action"]


@pytest.mark.parametrize(("seats", "variant", "twice", "seed"), [
    (3, "omaha", False, 1), (6, "omaha_hilo", False, 2), (10, "omaha_hilo", True, 3),
    (8, "big_o", True, 4), (4, "courchevel", False, 5),
])
def test_a_frame_per_action_with_its_amount(seats: int, variant: str, twice: bool,
                                            seed: int) -> None:
    past = play(seats, variant=variant, policy=busy, twice=twice, seed=seed)
    acted = [e for e in past.hand.events if isinstance(e, PlayerActed)]
    frames = _actions(replay_view(past, NAMES, 1))
    assert [f.actor for f in frames] == [e.seat for e in acted]
    for frame, e in zip(frames, acted, strict=True):
        assert frame.caption.startswith(f"p{e.seat} ")
        if e.kind.value in ("bet", "raise"):
            assert f" {e.to:,}" in frame.caption, frame.caption
        elif e.kind.value == "call":
            assert f" {e.amount:,}" in frame.caption, frame.caption
        seat = next(s for s in frame.table.seats if s.seat == e.seat)
        assert seat.bet == e.to  # the chips in front of the seat after its action


@pytest.mark.parametrize("twice", [False, True])
def test_the_boards_come_as_the_history_deals_them(twice: bool) -> None:
    past = play(10, variant="omaha_hilo", policy=busy, twice=twice, seed=6)
    runs: list[list[Card]] = [[], list(past.hand.board)]
    expected = []
    second = past.hand.second_board
    dealt_second = [c for e in past.hand.events if isinstance(e, BoardDealt) and e.run
                    for c in e.cards]
    runs[1] = list(second[:len(second) - len(dealt_second)])
    for e in past.hand.events:
        if isinstance(e, BoardDealt):
            if e.run == 0:
                runs[0] = [*runs[0], *e.cards]
            else:
                runs[1] = [*runs[1], *e.cards]
            expected.append((tuple(runs[0]), tuple(runs[1]) if e.run else None))
    frames = [f for f in replay_view(past, NAMES, 1).frames if f.kind == "board"]
    assert len(frames) == len(expected)
    for frame, (board, board2) in zip(frames, expected, strict=True):
        assert frame.table.board == board
        if board2 is not None:
            assert frame.table.second_board == board2
    assert bool(frames[-1].table.second_board) is twice
    if twice:
        assert frames[-1].table.second_board == second


@pytest.mark.parametrize(("variant", "twice", "seed"), [
    ("omaha", False, 11), ("omaha_hilo", True, 12), ("big_o", False, 13),
])
def test_stacks_bets_and_pots_are_the_engines_before_each_action(
    variant: str, twice: bool, seed: int
) -> None:
    """Each stored action played again on a fresh hand: while the engine waits for that
    player, the frame before the action shows its stacks, bets, board and pots."""
    past, stored = played(7, variant=variant, policy=busy, twice=twice, seed=seed)
    view = replay_view(past, NAMES, None)
    betting = [i for i, a in enumerate(stored) if a["kind"] not in ("twice", "once")]
    frames = view.frames
    acting = [i for i, f in enumerate(frames) if f.kind == "action"]
    assert len(acting) == len(betting)
    for k, index in enumerate(acting):
        engine = engine_after(past, stored[:betting[k]])
        before: TableView = frames[index - 1].table
        assert engine.to_act == stored[betting[k]]["seat"]
        assert before.board == engine.board
        assert {s.seat: (s.stack, s.bet) for s in before.seats} == {
            p.seat: (p.stack, p.bet) for p in engine.players}
        assert [p.amount for p in before.pots] == [p.amount for p in collected_pots(engine)]
        assert sum(p.amount for p in before.pots) + sum(s.bet for s in before.seats) \
            == engine.pot_total


def _allowed(past: PastHand, viewer: int | None, shown: set[Card]) -> set[Card]:
    own = set(past.hand.hole(viewer)) if viewer is not None else set()
    return own | shown | set(past.hand.board) | set(past.hand.second_board)


@pytest.mark.parametrize("viewer", [None, 1, 2, 5])
def test_no_frame_shows_a_card_the_reader_may_not_see(viewer: int | None) -> None:
    """Own cards from the deal on; another player's only once the history shows them;
    folded and mucked hands never (the calling hand has mucks and folds)."""
    for seed in range(3):
        for policy in (busy, calling):
            past = play(6, variant="omaha_hilo", policy=policy, seed=seed)
            view = replay_view(past, NAMES, viewer)
            shows = iter([e for e in past.hand.events if isinstance(e, HandShown)])
            shown: set[Card] = set()
            for frame in view.frames:
                if frame.kind == "show":
                    shown |= set(next(shows).cards)
                up = {c for s in frame.table.seats for c in s.shown}
                assert up <= _allowed(past, viewer, shown), (seed, frame.kind)
                assert frame.own == (past.hand.hole(viewer) if viewer and frame.kind != "end"
                                     else ())
            never = {c for s in past.hand.result.mucked if s != viewer
                     for c in past.hand.hole(s)}
            never |= {c for p in past.hand.players if p.folded and p.seat != viewer
                      for c in p.hole}
            final = final_table(past, NAMES, viewer)
            assert not never & {c for f in view.frames for s in f.table.seats for c in s.shown}
            assert not never & {c for s in final.seats for c in s.shown}


def test_awards_light_two_hole_cards_and_three_board_cards_and_pay_the_result() -> None:
    """Each pot and half is a frame of its own, its winner's five lit (two from the hand,
    three from its board); hi-lo halves come apart; the stacks end as the hand did."""
    halves = set()
    for seed in range(12):
        past = play(6, variant="omaha_hilo", policy=calling, seed=seed, twice=seed % 2 == 1)
        frames = [f for f in replay_view(past, NAMES, 1).frames if f.kind == "award"]
        assert frames
        for frame in frames:
            winners = {w.seat for p in frame.table.pots for w in p.winners}
            if frame.table.lit and len(winners) == 1:
                [seat] = winners
                hole = set(past.hand.hole(seat))
                lit = set(frame.table.lit)
                assert len(lit) == 5 and len(lit & hole) == 2, frame.caption
                boards = set(frame.table.board) | set(frame.table.second_board)
                assert len(lit & boards) == 3
            halves |= {w.half for p in frame.table.pots for w in p.winners}
        end = {s.seat: s.stack for s in frames[-1].table.seats}
        assert end == {p.seat: p.stack for p in past.hand.players}
    assert {"high", "low"} <= halves


def test_a_straddle_has_its_marker_until_the_flop() -> None:
    """RULES.md 10: the straddler's 4 is in front of the seat under the gun, marked STR,
    as the blinds are; the hand's log says it was posted."""
    from bot.runtime.hand_history import street_lines

    past = play(4, straddles=(3,))
    assert past.hand.straddle_seat == 3
    first = replay_view(past, NAMES, None).frames[0].table
    marks = {s.seat: (s.blind, s.bet) for s in first.seats}
    assert marks == {1: ("SB", 1), 2: ("BB", 2), 3: ("STR", 4), 4: ("", 0)}
    assert "p3 posts a straddle of 4" in street_lines(past, NAMES, None)


def _folding(hand: Any, legal: Any, step: int) -> tuple[str, int | None]:
    return ("check", None) if legal.can_check else ("fold", None)


@pytest.mark.parametrize(("seats", "variant", "policy", "twice", "seed"), [
    (4, "omaha", calling, False, 3), (6, "omaha_hilo", calling, True, 0),
    (6, "omaha_hilo", calling, False, 5), (3, "omaha", busy, False, 2),
    (2, "omaha", war(400), False, 1), (4, "omaha", _folding, False, 1),
])
def test_the_last_frame_names_every_winner_and_what_they_won(
    seats: int, variant: str, policy: Any, twice: bool, seed: int
) -> None:
    """The frame the animation stops on (also a squeezed one) keeps the winners: each
    with what the pots paid them, all halves and boards added up (issue 31)."""
    past = play(seats, variant=variant, policy=policy, seed=seed, twice=twice)
    paid = {seat: chips for seat, chips in past.hand.result.payouts.items() if chips > 0}
    assert paid
    for locale, ended, wins in (("en", ("Showdown", "Hand over"), "{} wins {:,}"),
                                ("pt-BR", ("Showdown", "Mão encerrada"), "{} ganha {}")):
        last = replay_view(past, NAMES, 1, locale).frames[-1]
        assert last.kind == "end" and last.caption.startswith(ended), last.caption
        for seat, chips in paid.items():
            said = wins.format(f"p{seat}", chips if locale == "en" else f"{chips:,}".replace(
                ",", "."))
            assert said in last.caption, (said, last.caption)
        assert last.caption.count(wins.split(" ")[1]) == len(paid)


def test_a_double_board_bomb_pot_replays_board_by_board() -> None:
    """A double-board bomb pot: no blind frame, each street on board 1 then board 2 (both
    drawn from the first deal on), "bomb pot" in the game line, the stacks as the hand
    ended."""
    past = play(5, variant="omaha_hilo", policy=busy, seed=21,
                bomb=BombPot(4, double_board=True))
    assert past.hand.double_board
    view = replay_view(past, NAMES, 2)
    boards = [f for f in view.frames if f.kind == "board"]
    dealt = [e for e in past.hand.events if isinstance(e, BoardDealt)]
    assert [len(f.table.board) for f in boards] == [
        sum(len(d.cards) for d in dealt[:i + 1] if d.run == 0) for i in range(len(dealt))]
    assert [len(f.table.second_board) for f in boards] == [
        sum(len(d.cards) for d in dealt[:i + 1] if d.run == 1) for i in range(len(dealt))]
    assert boards[-1].table.second_board == past.hand.second_board
    assert all(f.table.game.endswith("double-board bomb pot") for f in view.frames)
    assert not any(s.blind for f in view.frames for s in f.table.seats)
    end = {s.seat: s.stack for s in view.frames[-1].table.seats}
    assert end == {p.seat: p.stack for p in past.hand.players}
