"""The bot's processes as the load benchmark samples them: memory (PSS) and CPU time.

The bot is ``python -m bot`` and its render processes (its descendants), read from
``/proc`` (Linux); used by ``bench_load.py``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from pathlib import Path


def rss_mb(pid: int) -> float:
    """Memory of ``pid`` and its descendants (the render processes), in MB: the sum of
    their proportional set sizes (PSS: a page the fork server shares with its workers
    counts once in all), or of their RSS where PSS cannot be read."""
    return sum(own_mb(p) for p in (pid, *descendants(pid)))


def own_mb(pid: int) -> float:
    """Memory of ``pid`` alone (PSS, else RSS), in MB."""
    for path, key in ((f"/proc/{pid}/smaps_rollup", "Pss:"), (f"/proc/{pid}/status", "VmRSS:")):
        try:
            lines = Path(path).read_text().splitlines()
        except OSError:
            continue  # gone meanwhile, or not readable
        for line in lines:
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_split(pid: int) -> tuple[float, float, float]:
    """CPU seconds so far of the bot's process, its render processes, and this process
    (the fake Discord and the simulated players)."""
    return (_cpu(pid), sum(_cpu(p) for p in descendants(pid)), time.process_time())


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0  # gone meanwhile
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent]
        found += children
        frontier += children
    return found


async def sample_rss(pid: int, seconds: float, every: float) -> list[tuple[float, float]]:
    """The bot's RSS (MB) every ``every`` seconds for ``seconds``: (seconds since start, MB)."""
    start = time.monotonic()
    samples = [(0.0, rss_mb(pid))]
    while (left := start + seconds - time.monotonic()) > 0:
        await asyncio.sleep(min(every, left))
        samples.append((time.monotonic() - start, rss_mb(pid)))
    return samples


def slope_per_minute(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope (MB per minute) of the samples of the second half of the run."""
    if len(samples) < 2:
        return 0.0
    half = [(t, mb) for t, mb in samples if t >= samples[-1][0] / 2]
    if len(half) < 2:
        half = samples[-2:]
    t_mean = statistics.fmean(t for t, _ in half)
    mb_mean = statistics.fmean(mb for _, mb in half)
    spread = sum((t - t_mean) ** 2 for t, _ in half)
    return 60 * sum((t - t_mean) * (mb - mb_mean) for t, mb in half) / spread if spread else 0.0


def rss_line(samples: list[tuple[float, float]]) -> str:
    series = ", ".join(f"{t:.0f}s {mb:.0f}" for t, mb in samples)
    return (f"  RSS during play MB: start {samples[0][1]:.1f}, end {samples[-1][1]:.1f}, "
            f"second-half slope {slope_per_minute(samples):+.2f} MB/min ({series})")
