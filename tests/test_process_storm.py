"""Discord's bad minutes at CI size: 10 tables through a 20 s storm of 5xx and global 429s
(``bench/bench_storm.py``, the unmodified ``python -m bot`` on the fake Discord)."""

from __future__ import annotations

from bench.bench_storm import BAN_AT, run_storm


async def test_a_storm_is_waited_out_nothing_is_posted_twice_and_the_tables_go_on() -> None:
    """30 % of the requests answered 5xx and global 429 windows for 20 s, then calm:

    * no request bound to the global limit is sent into a global window (after the
      requests already on their way): the bot waits as the headers say;
    * no message is posted twice (a 502 carried out, then sent again);
    * the invalid requests stay far below Discord's ban (10,000 in 10 minutes), and the
      bot's own metric counts every one the fake counted;
    * every table goes on after the storm (its next turn prompt), and new hands are
      dealt (at most two tables still in the long hand the storm slowed down)."""
    report = await run_storm(10, storm=20.0, calm=45.0, think=1.0, warm=10.0, clock=10,
                             share_global=0.1)
    print(report.lines())
    assert report.errors_5xx > 0 and report.windows > 0, "there was no storm"
    assert report.unheeded == []
    assert report.duplicates == []
    assert report.invalid < BAN_AT // 20 and report.busiest_ten_minutes < BAN_AT // 20
    assert report.invalid_by_bot == report.invalid
    assert len(report.next_prompt) == 10, report.lines()
    assert len(report.next_hand) >= 8, report.lines()
    assert report.unhandled == []
