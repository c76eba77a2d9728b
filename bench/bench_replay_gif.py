"""Benchmark: a hand's replay as a GIF, ours against Pillow's own GIF writer, pool busy.

Run: .venv/bin/python bench/bench_replay_gif.py [--runs 3] [--workers 2] [--busy 2]

The work: the replay of one 10-seat No-Limit Omaha Hi-Lo hand run twice
(``tests/runtime/replay_hands.py``: a raise, folds, everyone left all-in on the
turn; seed 3, as in ``tests/render/test_replay.py``), about 45 frames of the table
picture with their captions, as the reader in seat 1 sees it.

Both sides draw the same frames with the same code (:func:`bot.render.replay.draw_frame`)
and differ in how they make the animation:

* ours, :func:`bot.render.replay.render_replay`: one palette for the whole
  animation (the frames with the most colours, the theme's colours exact), every
  frame quantized to it without dithering, Pillow writing each frame as the
  rectangle that changed;
* the peer, Pillow called its plainest fastest way: ``frames[0].save(format="GIF",
  save_all=True, append_images=..., duration=...)`` on the RGB frames, which
  quantizes each frame to its own palette (Pillow's default, median cut, with
  dithering where it helps) and also writes only the rectangle that changed.

"Render processes busy": both run in the same process pool of ``--workers``
processes while ``--busy`` tasks keep it drawing table pictures (one after the
other, each submitted as the last one ends), as the bot's pool is during a busy
evening. The sides take turns, ``--runs`` each; the figure is each side's median
wall time from submission to bytes, and the file size. Checks, before the timing:
both files decode with Pillow to the plan's number of frames, each frame within a
small mean difference of the drawn frame, and ours under 2 MB. Exit status 1 when
a check fails.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageChops, ImageStat

from bot.render import ReplayView, render_table
from bot.render.replay import draw_frame, render_replay
from bot.runtime.replay_frames import replay_view
from tests.runtime.replay_hands import busy, play

MAX_BYTES = 2 * 1024 * 1024
MAX_MEAN_DIFF = 3.0  # per channel, 0..255: the peer's dithering moves pixels a little


def pillow_gif(view: ReplayView) -> bytes:
    """The peer: the same frames, Pillow's GIF writer with its defaults."""
    frames = [draw_frame(f).img for f in view.frames]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:],
                   duration=[f.hold for f in view.frames], loop=0)
    return buf.getvalue()


def _view() -> ReplayView:
    past = play(10, variant="omaha_hilo", policy=busy, twice=True, seed=3)
    return replay_view(past, {s: f"Player {s}" for s in range(1, 11)}, 1)


def _check(name: str, gif: bytes, view: ReplayView) -> bool:
    im = Image.open(io.BytesIO(gif))
    if im.n_frames != len(view.frames):
        print(f"{name}: {im.n_frames} frames, the plan has {len(view.frames)}")
        return False
    worst = 0.0
    for i, frame in enumerate(view.frames):
        im.seek(i)
        diff = ImageChops.difference(im.convert("RGB"), draw_frame(frame).img)
        worst = max(worst, sum(ImageStat.Stat(diff).mean) / 3)
    print(f"{name}: {len(view.frames)} frames, worst mean difference {worst:.2f}")
    return worst <= MAX_MEAN_DIFF


class Busy:
    """Keeps ``count`` table pictures in the pool at all times until stopped."""

    def __init__(self, pool: ProcessPoolExecutor, view: ReplayView, count: int) -> None:
        self.pool, self.tables, self.count = pool, [f.table for f in view.frames], count
        self.stopped = threading.Event()
        self.drawn = 0

    def start(self) -> None:
        for k in range(self.count):
            self._next(k)

    def _next(self, k: int) -> None:
        if self.stopped.is_set():
            return
        future: Future[bytes] = self.pool.submit(render_table, self.tables[k % len(self.tables)])
        future.add_done_callback(lambda _: self._done(k + self.count))

    def _done(self, k: int) -> None:
        self.drawn += 1
        self._next(k)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--busy", type=int, default=2)
    args = parser.parse_args()
    view = _view()
    ours_gif, peer_gif = render_replay(view), pillow_gif(view)
    ok = _check("ours", ours_gif, view) and _check("peer", peer_gif, view)
    ok = ok and len(ours_gif) < MAX_BYTES
    times: dict[str, list[float]] = {"ours": [], "peer": []}
    sizes = {"ours": len(ours_gif), "peer": len(peer_gif)}
    with ProcessPoolExecutor(args.workers) as pool:
        list(pool.map(render_table, [view.frames[0].table] * args.workers))  # warm
        load = Busy(pool, view, args.busy)
        load.start()
        for _ in range(args.runs):
            for name, fn in (("ours", render_replay), ("peer", pillow_gif)):
                start = time.perf_counter()
                gif = pool.submit(fn, view).result()
                times[name].append(time.perf_counter() - start)
                ok = ok and len(gif) == sizes[name]
        load.stopped.set()
    for name in ("ours", "peer"):
        print(f"{name}: median {statistics.median(times[name]):.2f} s, "
              f"{sizes[name] / 1024:,.0f} KB")
    ratio = statistics.median(times["peer"]) / statistics.median(times["ours"])
    print(f"time, peer / ours: {ratio:.2f}x; size, peer / ours: "
          f"{sizes['peer'] / sizes['ours']:.2f}x; table pictures drawn meanwhile: {load.drawn}")
    print("checks:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
