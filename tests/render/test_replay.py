"""A hand's replay as an animated GIF (bot.render.replay): its frames are the plan's, the
cards drawn are the reader's to see, the winners' cards lit, and the file small enough."""

from __future__ import annotations

import gc
import io
import weakref
from typing import Any

import pytest
from PIL import Image

import bot.render.replay
from bot.engine.cards import Card
from bot.engine.evaluate import best_high
from bot.engine.events import HandShown, PlayerActed
from bot.engine.variants import HandRule
from bot.render import REPLAY_BYTES, TooLarge, render_replay, samples
from bot.render.canvas import PHONE_MIN_PX, inside
from bot.render.replay import draw_frame
from bot.render.table import BOX_H, draw_table, layout
from bot.render.theme import Theme, palette
from bot.render.views import ReplayFrame
from bot.runtime.replay_frames import replay_view
from bot.runtime.replay_squeeze import MAX_FRAMES
from tests.render.pixels import mean_diff
from tests.runtime.replay_hands import busy, calling, play, war

NAMES = {s: f"Player {s}" for s in range(1, 11)}
MAX_BYTES = 2 * 1024 * 1024


def _frames(gif: bytes) -> list[tuple[Image.Image, int]]:
    im = Image.open(io.BytesIO(gif))
    assert im.format == "GIF"
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        out.append((im.convert("RGB"), int(im.info["duration"])))
    return out


def test_the_gif_holds_the_plans_frames_in_order_and_for_their_time() -> None:
    past = play(5, variant="omaha_hilo", policy=busy, seed=21)
    view = replay_view(past, NAMES, 2, "pt-BR")
    decoded = _frames(render_replay(view))
    assert len(decoded) == len(view.frames)
    for (img, duration), frame in zip(decoded, view.frames, strict=True):
        assert duration == frame.hold
        assert mean_diff(img, draw_frame(frame).img) < 1.0, frame.caption


def test_a_ten_seat_hi_lo_hand_run_twice_stays_under_two_megabytes() -> None:
    past = play(10, variant="omaha_hilo", policy=busy, twice=True, seed=3)
    assert len(past.hand.players) == 10 and past.hand.second_board
    assert past.config.variant.hi_lo
    view = replay_view(past, NAMES, 1)
    gif = render_replay(view)
    assert len(gif) < MAX_BYTES, len(gif)
    assert len(_frames(gif)) == len(view.frames) > 30


@pytest.mark.parametrize("viewer", [None, 3])
def test_no_drawn_card_is_one_the_reader_may_not_see(viewer: int | None) -> None:
    """The canvas's record of every card drawn face up, frame by frame: the board, the
    reader's own cards and the hands shown so far, nothing else."""
    past = play(6, variant="omaha", policy=calling, seed=4)
    shows = iter([e for e in past.hand.events if isinstance(e, HandShown)])
    seen: set[Card] = set(past.hand.hole(viewer)) if viewer else set()
    boards = set(past.hand.board) | set(past.hand.second_board)
    for frame in replay_view(past, NAMES, viewer).frames:
        if frame.kind == "show":
            seen |= set(next(shows).cards)
        drawn = {p.card for p in draw_frame(frame).placed if p.kind == "card" and p.card}
        assert drawn <= seen | boards, frame.caption


def test_an_award_fades_every_card_but_the_winning_five() -> None:
    past = play(4, variant="omaha", policy=calling, seed=8)
    awards = [f for f in replay_view(past, NAMES, 1).frames if f.kind == "award" and
              f.table.lit]
    assert awards
    for frame in awards:
        cards = [p for p in draw_frame(frame).placed
                 if p.kind == "card" and p.card and p.tag != "own"]  # the table's cards
        assert {p.card for p in cards if not p.faded} == set(frame.table.lit)
        assert any(p.faded for p in cards)


def test_the_caption_reads_on_a_phone_and_stays_in_the_picture() -> None:
    past = play(10, variant="omaha_hilo", policy=busy, twice=True, seed=5)
    for frame in replay_view(past, dict.fromkeys(NAMES, "W" * 40), 1).frames:
        cv = draw_frame(frame)
        captions = [p for p in cv.placed if p.tag == "caption"]
        assert captions and not any(p.cut for p in captions)  # whole, 40-letter names too
        assert "".join(p.text for p in captions).replace(" ", "") == frame.caption.replace(
            " ", "")
        for p in captions:
            assert cv.phone_px(p.size) >= PHONE_MIN_PX
            assert inside(p.extent, cv.bounds) and inside(p.extent, p.limit)


def test_a_frame_of_long_names_keeps_its_caption_under_the_grown_table() -> None:
    """32-letter names make the table taller: the caption band follows it (nothing of the
    table is covered) and the actor's outline goes round its grown box."""
    table = samples.crowded_table(10)
    cv = draw_frame(ReplayFrame(table, "Maximilian raises", 1000, "action", actor=6))
    drawn = draw_table(table)
    assert cv.img.height > drawn.img.height
    assert cv.img.crop((0, 0, 800, drawn.img.height)).tobytes() != drawn.img.tobytes()  # ring
    caption = next(p for p in cv.placed if p.tag == "caption")
    assert caption.extent[1] > drawn.img.height
    box = next(s.box for s in layout(table) if s.seat == 6)
    assert box[3] - box[1] > BOX_H and box[3] < drawn.img.height
    assert cv.img.getpixel(((box[0] + box[2]) // 2, box[3] + 2)) == palette(Theme.DARK).accent


def test_a_holdem_replay_lights_each_winners_best_five_of_seven() -> None:
    """Texas Hold'em, run twice: every award lights exactly the winners' best five of
    seven (the engine's Hold'em five on that pot's board, one or no hole card included);
    the reader's two cards sit side by side beside the caption, wholly visible."""
    past = play(6, variant="holdem", policy=busy, twice=True, seed=5)
    assert past.config.variant.key == "holdem" and past.hand.second_board
    frames = replay_view(past, NAMES, 1).frames
    awards = [f for f in frames if f.kind == "award" and f.table.lit]
    assert awards
    for frame in awards:
        cards = [p for p in draw_frame(frame).placed
                 if p.kind == "card" and p.card and p.tag != "own"]
        assert {p.card for p in cards if not p.faded} == set(frame.table.lit)
        lit = set(frame.table.lit)
        fives = [set(best_high(past.hand.hole(s), board, HandRule.HOLDEM).cards)
                 for s in past.hand.shown for board in (past.hand.board, past.hand.second_board)]
        assert set().union(*(f for f in fives if f <= lit)) == lit  # nothing but whole fives
    own = [p for p in draw_frame(frames[0]).placed if p.tag == "own"]
    assert [p.card for p in own] == list(past.hand.hole(1))
    assert own[0].extent[2] < own[1].extent[0]  # side by side, not fanned over each other
    assert len(_frames(render_replay(replay_view(past, NAMES, 1)))) == len(frames)


def test_a_two_thousand_action_hand_stays_within_the_frame_and_byte_bounds() -> None:
    """Two accounts raising each other by the minimum 2,000 times (heads-up no limit, 10M
    chips each): the replay has at most MAX_FRAMES frames and stays far under the bytes
    Discord takes (about 1 MB measured; bench/README.md "bounded replays")."""
    past = play(2, policy=war(2000), stacks=[10**7, 10**7], steps=2100)
    assert sum(isinstance(e, PlayerActed) for e in past.hand.events) >= 2000
    view = replay_view(past, NAMES, 1)
    gif = render_replay(view)
    assert len(view.frames) == MAX_FRAMES
    assert len(_frames(gif)) == MAX_FRAMES
    assert len(gif) < min(REPLAY_BYTES, MAX_BYTES), len(gif)


def test_frames_are_written_as_they_are_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each frame drawn is let go once written: never more than one drawn frame alive (the
    old writer held them all), besides the few drawn first for the palette."""
    alive: list[weakref.ref[Image.Image]] = []
    most = 0
    real = bot.render.replay.draw_frame

    def counting(frame: ReplayFrame, *args: Any) -> Any:
        nonlocal most
        most = max(most, sum(1 for r in alive if r() is not None))
        cv = real(frame, *args)
        alive.append(weakref.ref(cv.img))
        return cv

    monkeypatch.setattr(bot.render.replay, "draw_frame", counting)
    past = play(10, variant="omaha_hilo", policy=busy, twice=True, seed=3)
    view = replay_view(past, NAMES, 1)
    gc.collect()
    assert len(_frames(render_replay(view))) == len(view.frames)
    assert len(alive) <= len(view.frames) + 3  # the palette's mosaic: 3 frames drawn first
    assert most <= 1, most


def test_a_replay_past_its_byte_limit_stops_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = 0
    real = bot.render.replay.draw_frame

    def counting(frame: ReplayFrame, *args: Any) -> Any:
        nonlocal drawn
        drawn += 1
        return real(frame, *args)

    monkeypatch.setattr(bot.render.replay, "draw_frame", counting)
    view = replay_view(play(10, variant="omaha_hilo", policy=busy, twice=True, seed=3),
                       NAMES, 1)
    with pytest.raises(TooLarge):
        render_replay(view, limit=200_000)
    assert drawn < len(view.frames) // 2
