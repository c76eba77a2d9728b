"""Benchmark: the worst case of a replay, bounded, against the same frames held in memory.

Run: .venv/bin/python bench/bench_replay_bound.py [--actions 2000] [--unbounded 200] [--runs 3]

The work: the replay of a hand of ``--actions`` minimum raises (then a call and checks
to the river), as two accounts can make one (issue 29), as the reader in seat 1 sees it:

* ``heads-up``: two players, no limit 1/2, 10,000,000 chips each (the issue's hand);
* ``10 seats, long names``: ten players raising in turn, 32-letter names (the tallest
  table picture, 1,060 px, and the most pixels that change from frame to frame).

The plan squeezes each into at most ``MAX_FRAMES`` frames (``bot.runtime.replay_squeeze``).

* ours, the bot's way: :func:`bot.render.render_replay` in a process of its own forked
  from the render fork server, each frame written as it is drawn (``GifStream``);
* the peer, the way before issue 29 on the same frames: every frame drawn and kept,
  one palette, then Pillow's GIF writer (``save_all``), also in a fresh process.

Each side runs ``--runs`` times, taking turns, each run in a new process; the figures
are the medians of: wall time in the process, its peak resident memory (``VmHWM``),
what the render added to the process's memory at its start (the fork server's
modules and sprites), and the file's size. Then once the peer on the plan **without**
the bound (a frame per action, as before issue 29) for a hand of ``--unbounded``
actions, to show what the bound saves. Also timed: building the plan in the bot's
process (``replay_view``), which runs on the event loop, with the most memory it
allocates (``tracemalloc``), and the bot's own call, ``render_replay_async``, from the
request to the bytes (a process forked, the replay drawn, the bytes back). Checks: ours within
``MAX_FRAMES`` frames and ``REPLAY_BYTES`` bytes; both sides decode to the same
pixels frame for frame, with the same times. Exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import multiprocessing
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.render import (
    REPLAY_BYTES,
    ReplayView,
    render_replay,
    render_replay_async,
    start_render_server,
)
from bot.render.canvas import palette_of
from bot.render.replay import draw_frame
from bot.runtime.replay_frames import replay_view
from bot.runtime.replay_squeeze import MAX_FRAMES
from tests.runtime.replay_hands import play, war

MB = 1024 * 1024


def held_gif(view: ReplayView) -> bytes:
    """The peer: every frame drawn and kept, then one palette and Pillow's writer."""
    canvases = [draw_frame(f) for f in view.frames]
    picks = sorted({0, len(canvases) - 1,
                    *[i for i, f in enumerate(view.frames) if f.table.lit][:1]})
    mosaic = Image.new("RGB", (canvases[0].img.width,
                               sum(canvases[i].img.height for i in picks)))
    y = 0
    for i in picks:
        mosaic.paste(canvases[i].img, (0, y))
        y += canvases[i].img.height
    pal = palette_of(mosaic, tuple(sorted({c for i in picks for c in canvases[i].keep()})))
    frames = [c.img.quantize(palette=pal, dither=Image.Dither.NONE) for c in canvases]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:],
                   duration=[f.hold for f in view.frames], loop=0, optimize=False, disposal=1)
    return buf.getvalue()


def _status_kb(key: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1])
    return 0


def measured(fn: Callable[[ReplayView], bytes], view: ReplayView,
             ) -> tuple[bytes, float, float, float]:
    """In a fresh render process: ``fn(view)``, its seconds, peak RSS and RSS at start (MB)."""
    start_rss = _status_kb("VmRSS:") / 1024
    start = time.perf_counter()
    gif = fn(view)
    seconds = time.perf_counter() - start
    return gif, seconds, _status_kb("VmHWM:") / 1024, start_rss


def in_process(fn: Callable[[ReplayView], bytes], view: ReplayView,
               ) -> tuple[bytes, float, float, float]:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["bot.render", "bot.render.warm"])
    with context.Pool(1, maxtasksperchild=1) as pool:
        return pool.apply(measured, (fn, view))


def _hands(actions: int) -> dict[str, ReplayView]:
    heads_up = play(2, policy=war(actions), stacks=[10**7] * 2, steps=actions + 100)
    ten = play(10, policy=war(actions), stacks=[10**7] * 10, steps=actions + 100)
    return {"heads-up": replay_view(heads_up, {1: "alice", 2: "bob"}, 1),
            "10 seats, long names": replay_view(ten, dict.fromkeys(range(1, 11), "W" * 32), 1)}


def _frames(gif: bytes) -> list[tuple[bytes, int]]:
    im = Image.open(io.BytesIO(gif))
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        out.append((im.convert("RGB").tobytes(), int(im.info["duration"])))
    return out


def _plan(actions: int) -> tuple[int, float, float]:
    """Events of the heads-up hand, the seconds its plan takes (the best of 3) and the
    most memory Python allocated meanwhile (MB, tracemalloc)."""
    past = play(2, policy=war(actions), stacks=[10**7] * 2, steps=actions + 100)
    times = []
    for _ in range(3):
        start = time.perf_counter()
        replay_view(past, {1: "alice", 2: "bob"}, 1)
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    replay_view(past, {1: "alice", 2: "bob"}, 1)
    peak = tracemalloc.get_traced_memory()[1] / MB
    tracemalloc.stop()
    return len(past.hand.events), min(times), peak


def end_to_end(view: ReplayView) -> float:
    """Seconds of the bot's own call, from the request to the bytes (a process started,
    the replay drawn there, its bytes back)."""
    start = time.perf_counter()
    asyncio.run(render_replay_async(view))
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--unbounded", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    ok = True
    start_render_server()
    events, plan, plan_mb = _plan(args.actions)
    print(f"plan of the heads-up hand in the bot's process: {plan * 1000:.0f} ms, "
          f"{plan_mb:.1f} MB allocated at most ({events} events)")
    for name, view in _hands(args.actions).items():
        runs: dict[str, list[tuple[bytes, float, float, float]]] = {"ours": [], "peer": []}
        calls = []
        for _ in range(args.runs):
            runs["ours"].append(in_process(render_replay, view))
            runs["peer"].append(in_process(held_gif, view))
            calls.append(end_to_end(view))
        ours, peer = runs["ours"][0][0], runs["peer"][0][0]
        same = _frames(ours) == _frames(peer)
        fits = len(view.frames) <= MAX_FRAMES and len(ours) <= REPLAY_BYTES
        ok = ok and same and fits
        print(f"{name}: {len(view.frames)} frames (bound {MAX_FRAMES}), same pixels: {same}")
        for side, got in runs.items():
            secs = statistics.median(r[1] for r in got)
            peak = statistics.median(r[2] for r in got)
            grew = statistics.median(r[2] - r[3] for r in got)
            print(f"  {side}: {secs:.2f} s, peak RSS {peak:.0f} MB (+{grew:.0f} MB over "
                  f"the process's start), {len(got[0][0]) / MB:.2f} MB")
        print(f"  ours end to end (render_replay_async): {statistics.median(calls):.2f} s")
        ratio = (statistics.median(r[2] - r[3] for r in runs["peer"])
                 / statistics.median(r[2] - r[3] for r in runs["ours"]))
        print(f"  memory added, peer / ours: {ratio:.1f}x")
    past = play(2, policy=war(args.unbounded), stacks=[10**7] * 2, steps=args.unbounded + 100)
    view = replay_view(past, {1: "alice", 2: "bob"}, 1, limit=10**6)
    gif, secs, peak, start = in_process(held_gif, view)
    print(f"unbounded (before issue 29), {args.unbounded} actions: {len(view.frames)} frames, "
          f"{secs:.2f} s, peak RSS {peak:.0f} MB (+{peak - start:.0f} MB, "
          f"{(peak - start) / len(view.frames):.1f} MB a frame), {len(gif) / MB:.2f} MB")
    print("checks:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
