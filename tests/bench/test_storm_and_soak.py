"""The storm's and the soak's own arithmetic (bench/bench_storm.py, bench/bench_soak.py):
the busiest ten minutes of invalid requests, what came after the storm, growth per hour."""

from __future__ import annotations

from bench.bench_soak import Sample, per_hour
from bench.bench_storm import Watch, busiest


def test_the_busiest_window_counts_the_most_requests_in_any_ten_minutes() -> None:
    assert busiest([]) == 0
    assert busiest([0.0, 1.0, 2.0]) == 3
    assert busiest([0.0, 100.0, 650.0, 700.0, 1200.0, 1201.0]) == 4  # 650..1201
    assert busiest([0.0, 600.0, 600.5]) == 2


def test_after_the_storm_each_table_s_next_prompt_and_next_hand() -> None:
    """A table's next prompt is its first after the calm; its next hand the first prompt
    of a hand it had not reached before the calm."""
    watch = Watch(crowd=None)  # type: ignore[arg-type]
    watch.seen = [(10.0, 1, 5), (12.0, 2, 7), (21.0, 1, 5), (25.0, 2, 8), (30.0, 1, 6)]
    prompt, hand = watch.after(20.0)
    assert prompt == {1: 1.0, 2: 5.0}
    assert hand == {2: 5.0, 1: 10.0}


def test_growth_per_hour_is_the_slope_once_warm() -> None:
    samples = [Sample(t, 100.0 + (t / 60 if t >= 300 else 0), 60.0 + t / 120, 10, 20,
                      1.0 + t / 3600, 0, 3, 0.1) for t in range(0, 1200, 60)]
    assert abs(per_hour(samples, "pss_mb", 300) - 60.0) < 1e-6  # 1 MB a minute once warm
    assert abs(per_hour(samples, "bot_mb", 0) - 30.0) < 1e-6
    assert abs(per_hour(samples, "db_mb", 0) - 1.0) < 1e-6
    assert per_hour(samples, "fds", 0) == 0.0
    assert per_hour(samples[:1], "pss_mb", 0) == 0.0
