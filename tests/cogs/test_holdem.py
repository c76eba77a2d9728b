"""Texas Hold'em through the offline Discord (issue 30): a cash hand shown down in each
structure, exported, verified and replayed by the bot's own tools; run it twice and the
all-in equity; a no-limit Hold'em sit-and-go played to the end, with its statistics, and a
multi-table Hold'em tournament."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot import replay as replay_cli
from bot import verify as verify_cli
from bot.engine import phh
from bot.engine.equity import equity
from bot.engine.evaluate import best_high, hand_label
from bot.engine.phh.proof import verify
from bot.engine.variants import VARIANTS, HandRule
from bot.i18n import hands
from bot.i18n.cards import written
from bot.runtime.hand_history import PastHand, load_past
from tests.cogs.test_hands import play_out
from tests.cogs.test_mtt import register, shove_round
from tests.cogs.test_run_twice import _all_in, _question
from tests.cogs.test_run_twice import _result as run_out_result
from tests.cogs.test_table import PAUSE, open_table
from tests.cogs.test_tournament import create, to_act
from tests.conftest import Harness

HOLDEM = VARIANTS["holdem"]


async def _past(h: Harness, number: int) -> PastHand:
    record = await h.bot.db.history.in_channel(h.channel.id, number)
    assert record is not None and record.status == "finished"
    return await load_past(h.bot.db, record)


def _result_message(h: Harness, number: int):  # type: ignore[no-untyped-def]
    found = [m for m in h.public_messages() if f"Hand #{number} result" in m.content]
    assert found, [m.content for m in h.public_messages()][-5:]
    return found[-1]


@pytest.mark.parametrize(("structure", "code", "title"), [
    ("no limit", "NT", "No Limit Texas Hold'em 1/2"),
    ("pot limit", "PT", "Pot Limit Texas Hold'em 1/2"),
    ("fixed limit", "FT", "Fixed Limit Texas Hold'em 1/2"),
])
async def test_a_holdem_hand_is_shown_down_and_round_trips_as_phh(
    harness: Harness, tmp_path: Path, structure: str, code: str, title: str,
) -> None:
    """Three players check and call a Hold'em hand down: two cards each by DM, the result
    names each winner's best five of seven (the engine's Hold'em label) with the showdown
    picture; ``/hand show`` opens it with the reader's two cards; the export is PHH's
    Hold'em code, verifies, and the bot's ``replay --check`` and ``verify`` read it back
    to the same stacks; ``/hand replay`` is a GIF."""
    h = harness
    h.bot.registry.rng = random.Random(4)
    reply = await open_table(h, variant="holdem", structure=structure)
    assert title in reply.text, reply
    players = (h.alice, h.bob, h.carol)
    for actor in players:
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    for actor in players:
        [dm] = h.dms(actor)
        assert "Texas Hold'em" in dm.content
        assert Image.open(io.BytesIO(await h.png(dm))).width == 800
    await play_out(h, 1)
    past = await _past(h, 1)
    hand, result = past.hand, past.hand.result
    assert hand.config.variant is HOLDEM
    assert {len(hand.hole(seat)) for seat in hand.seat_order} == {2}
    text = _result_message(h, 1).content
    winners = [s for s, won in result.payouts.items() if won > 0]
    assert winners and all(s in result.shown for s in winners)
    for seat, shown in result.shown.items():
        # the best five of seven, worded with its deciding kicker when there is one
        assert shown.high.value == best_high(shown.cards, hand.board, HandRule.HOLDEM).value
        assert shown.label.startswith(hand_label(shown.cards, hand.board, HOLDEM))
        if seat in winners:
            assert hands.in_sentence("en", shown.label) in text, (shown.label, text)
    names = [name for name, _ in await h.files(_result_message(h, 1))]
    assert "showdown-1.png" in names, names

    shown = await h.slash(h.alice, "hand show", number=1)
    seat = past.seat_of(h.alice.id)
    assert shown.ephemeral and "Hand #1" in shown.all_text and len(await shown.images()) == 1
    assert seat is not None and all(written([c]) in shown.all_text for c in hand.hole(seat))

    export = await h.slash(h.bob, "hand export", number=1)
    [(name, data)] = await export.files()
    path = tmp_path / name
    path.write_bytes(data)
    hh = phh.loads(data.decode())
    assert hh.variant == code and verify(hh).ok
    stacks = tuple(result.final_stacks[s] for s in hand.seat_order)
    assert phh.replay(hh).finishing_stacks == stacks
    assert replay_cli.main([str(path), "--check"]) == 0
    assert verify_cli.main([str(path)]) == 0
    checked = await h.slash(h.carol, "hand verify", number=1)
    assert checked.ephemeral and "verified: the deal" in checked.text, checked
    gif = await h.slash(h.alice, "hand replay", number=1)
    [(gif_name, gif_data)] = await gif.files()
    frames = Image.open(io.BytesIO(gif_data))
    assert gif_name.endswith(".gif") and frames.format == "GIF" and frames.n_frames > 5


async def test_holdem_all_in_shows_its_equity_and_runs_twice(harness: Harness) -> None:
    """Three stacks all-in before the flop at a no-limit Hold'em table that allows running
    it twice: the run-out shows the hands with the engine's exact Hold'em equity, all
    agree, two boards are dealt and each pays; the export replays to the same stacks."""
    h = harness
    h.bot.registry.rng = random.Random(9)
    await _all_in(h, run_it_twice=True, variant="holdem")
    question = _question(h)
    for actor in (h.alice, h.bob, h.carol):
        assert (await h.click(actor, question, label="Run it twice")).ephemeral
    text = await run_out_result(h)
    assert "board 1" in text and "board 2" in text, text
    past = await _past(h, 1)
    hand = past.hand
    assert len(hand.board) == len(hand.second_board) == 5
    said = [line for r in h.requests(None) if isinstance(r.json, dict)
            for line in str(r.json.get("content") or "").splitlines()
            if line.startswith("Equity: ")]  # the live message's run-out stages
    order = [s for s in hand.seat_order if s in hand.shown]
    names = {past.seat_of(a.id): a.name for a in (h.alice, h.bob, h.carol)}
    for board in ((), hand.board[:3], hand.board[:4]):
        exact = equity([hand.shown[s] for s in order], board, variant=HOLDEM)
        expected = "Equity: " + " · ".join(f"{names[s]} {round(100 * share)}%"
                                           for s, share in zip(order, exact.shares, strict=True))
        assert expected in said, (expected, said)
    export = await h.slash(h.carol, "hand export", number=1)
    [(_, data)] = await export.files()
    hh = phh.loads(data.decode())
    assert hh.variant == "NT" and "_run_twice" in dict(hh.extra) and verify(hh).ok
    assert phh.replay(hh).finishing_stacks == tuple(
        hand.result.final_stacks[s] for s in hand.seat_order)
    assert sum(hand.result.final_stacks.values()) == 600


async def test_a_holdem_sit_and_go_is_played_to_the_end(harness: Harness) -> None:
    """/tournament create variant:Texas Hold'em, nothing else: a no-limit turbo for 1,500
    chips; three players register, shove every hand to one winner, who takes the pool;
    /stats and /leaderboard filter the hands and the tournament under Texas Hold'em."""
    h = harness
    h.bot.registry.rng = random.Random(2)
    await create(h, buy_in=500, entrants=3, variant="holdem")
    info = await h.slash(h.bob, "tournament info")
    assert "No Limit Texas Hold'em" in info.text and "Turbo" in info.text, info.text
    assert "15/30" in info.text
    players = (h.alice, h.bob, h.carol)
    for actor in players:
        await h.slash(actor, "tournament join")
    for _ in range(80):
        if any("wins the tournament" in m.content for m in h.public_messages()):
            break
        await h.advance(PAUSE + 0.1)
        for _ in range(6):
            actor = to_act(h)
            if actor is None:
                break
            reply = await h.slash(actor, "allin")
            if not reply.ephemeral or "not your turn" in reply.text:
                break
    texts = [m.content for m in h.public_messages()]
    assert any("wins the tournament and 1,500 chips" in t for t in texts), texts[-5:]
    assert any("No Limit Texas Hold'em" in t for t in texts if "result" in t)
    balances = [await h.balance(a) for a in players]
    assert sorted(balances) == [9_500, 9_500, 11_000]
    winner = players[balances.index(11_000)]
    stats = await h.slash(winner, "stats", variant="holdem")
    assert "Texas Hold'em" in stats.all_text and "1 played · 1 won" in stats.all_text, stats
    assert "Sit and gos" in stats.all_text
    board = await h.slash(h.bob, "leaderboard", metric="tournament_wins", variant="holdem")
    assert not board.ephemeral and len(await board.images()) == 1
    await h.audit()


async def test_a_holdem_multi_table_tournament_is_played_to_the_end(harness: Harness) -> None:
    """Twelve players at two Hold'em tables of six (threads), shoving or folding: the
    tables deal two cards, break to a final table and the pool is paid in full."""
    h = harness
    await create(h, buy_in=100, entrants=12, variant="holdem", table_size=6)
    players = await register(h, 12)
    last = await h.slash(players[-1], "tournament join")
    assert not last.ephemeral and "starts now" in last.text, last
    threads = h.channel.threads
    assert len(threads) == 2
    rng = random.Random(3)
    over = False
    for _ in range(2000):
        acted = await shove_round(h, threads, rng)
        texts = [m.content for t in threads for m in h.public_messages(t)]
        over = any("wins the tournament" in t for t in texts)
        if over:
            break
        if not acted:
            await h.advance(PAUSE + 0.1)
    assert over, texts[-6:]
    assert any("No Limit Texas Hold'em" in t for t in texts if "result" in t)
    assert sum("This is the final table." in t for t in texts) == 1
    assert sum([await h.balance(a) for a in players]) == 12 * 10_000
    await h.audit()
