"""Discord's bad minutes at CI size: 10 tables through a 20 s storm of 5xx and global 429s
(``bench/bench_storm.py``, the unmodified ``python -m bot`` on the fake Discord)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bench.bench_storm import BAN_AT, run_storm
from tests.fakediscord import BotProcess, FakeDiscord
from tests.fakediscord.payloads import LOADING
from tests.fakediscord.server import Interaction


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


def callbacks(fd: FakeDiscord, it: Interaction) -> int:
    """The acknowledgements the bot sent for ``it`` (discord.py sends one again after a 502)."""
    return fd.requests.count(("POST", f"/interactions/{it.id}/{it.token}/callback"))


def answered_once(it: Interaction, text: str) -> bool:
    """``it``'s one answer reads ``text``, in place of its "thinking…" (nothing else)."""
    shown = [m for m in it.messages if not m.deleted]
    return len(shown) == 1 and text in shown[0].content and not shown[0].flags & LOADING


async def test_an_acknowledgement_carried_out_and_answered_502_is_answered_once(
    tmp_path: Path,
) -> None:
    """Discord carries out a deferral and answers 502; discord.py sends it again and is
    told 40060 ("already acknowledged"). The bot takes it as deferred from then on: a
    command refused after it gets its refusal in place of its "thinking…", once; a
    command taken is not deferred a third time and is confirmed once; a click is taken,
    once (the turn passes)."""
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        players = [fd.add_member(guild, name) for name in ("alice", "bob")]
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            await (await fd.slash(players[0], poker, "table create")).reply()
            for p in players:
                await (await fd.slash(p, poker, "table join", buyin="200")).reply()
            turn = await fd.wait_for_message(lambda m: any(
                b.get("label") == "Fold" for b in m.buttons()), within=20)
            actor = next(p for p in players if p.mention in turn.content)
            other = next(p for p in players if p is not actor)
            fd.weather.plan("POST", "/interactions/*/callback")
            refused = await fd.slash(other, poker, "fold")
            await fd.wait_until(lambda: answered_once(refused, "not your turn"), 10,
                                what="the refusal")
            fd.weather.plan("POST", "/interactions/*/callback")
            call = await fd.slash(actor, poker, "call")
            await call.reply()
            turn = await fd.wait_for_message(lambda m: other.mention in m.content and any(
                b.get("label") == "Check" for b in m.buttons()), within=20)
            fd.weather.plan("POST", "/interactions/*/callback")
            check = await fd.click(other, turn, label="Check")
            flop = await fd.wait_for_message(lambda m: m.id > turn.id and m.content.count(
                f"> {other.name} checks\n> Flop") == 1, within=20)
            await asyncio.sleep(0.5)  # anything sent twice would be there by now
            assert await bot.stop() == 0
        assert [callbacks(fd, it) for it in (refused, call, check)] == [2, 2, 2]
        assert [m.content for m in call.messages].count("Done: you call 1.") == 1
        assert [m.id for m in check.messages] == [flop.id]  # the next turn: no refusal
        assert "Could not deliver" not in bot.log and "Traceback" not in bot.log, bot.log
        assert len(fd.weather.errors) == 3 and fd.weather.planned == []
