"""The economy service: daily bonus and streaks, managers' grants, leaderboards, hand stats."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.economy import DAY, Economy, daily_policy, summarize_hand
from bot.engine.cards import Deck
from bot.engine.events import Action
from bot.engine.hand import Hand, SeatIn
from bot.engine.variants import VARIANTS, GameConfig, Structure
from bot.storage import (
    DailyNotReady,
    EconomyError,
    EconomySettings,
    HandSeatIn,
    HandSummary,
    InsufficientChips,
    InvalidAmount,
    LedgerKind,
    Metric,
    Period,
    SeatResult,
)
from bot.storage.models import MAX_AMOUNT, MAX_BALANCE
from tests.engine.test_after_hand import _hand, _steal
from tests.storage.helpers import T0, FakeClock, audited_db

G, ALICE, BOB, CAROL, MOD = 7, 201, 202, 203, 999


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def econ(database_target: str, clock: FakeClock) -> AsyncIterator[Economy]:
    """An economy on a fresh database (SQLite, then PostgreSQL) that must pass the
    audit at the end."""
    async with audited_db(database_target, clock) as db:
        yield Economy(db)


# -- daily bonus ----------------------------------------------------------------------------


async def test_daily_once_per_24_hours(econ: Economy, clock: FakeClock) -> None:
    """The first claim pays 1,000; a second within 24 h is refused with the wait."""
    claim = await econ.claim_daily(G, ALICE)
    assert (claim.amount, claim.streak, claim.balance) == (1_000, 1, 11_000)
    assert claim.next_at == T0 + DAY
    clock.advance(DAY - 90)
    with pytest.raises(DailyNotReady, match="the next one opens <t:") as err:
        await econ.claim_daily(G, ALICE)
    assert err.value.next_at == T0 + DAY
    # the moment as a Discord timestamp, which each reader's client words in their language
    assert f"<t:{int(T0 + DAY)}:R>" in str(err.value)
    assert err.value.phrase is not None
    assert err.value.phrase.to("pt-BR").startswith("Você já recebeu o seu bônus diário")
    assert await econ.balance(G, ALICE) == 11_000
    clock.advance(90)
    assert (await econ.claim_daily(G, ALICE)).streak == 2


async def test_streak_grows_to_the_cap_then_resets_after_48_hours(
    econ: Economy, clock: FakeClock
) -> None:
    """Daily claims pay 1,000, 1,100, ... capped at 1,600; a 49-hour gap starts over."""
    amounts = []
    for _ in range(9):
        amounts.append((await econ.claim_daily(G, ALICE)).amount)
        clock.advance(DAY + 3600)  # a little later each day, still within 48 h
    assert amounts == [1_000, 1_100, 1_200, 1_300, 1_400, 1_500, 1_600, 1_600, 1_600]
    clock.advance(24 * 3600)  # 49 h after the last claim
    claim = await econ.claim_daily(G, ALICE)
    assert (claim.amount, claim.streak) == (1_000, 1)
    history = await econ.history(G, ALICE, limit=3)
    assert history[0].kind is LedgerKind.DAILY and history[0].reason == "daily bonus, streak 1"


def test_daily_policy_follows_the_server_settings() -> None:
    """Base, step and cap come from the server's settings."""
    s = EconomySettings(1, daily_base=50, daily_step=25, daily_max_streak=3)
    assert daily_policy(s, None, 0, 1000.0) == (50, 1, 1000.0 + DAY)
    assert daily_policy(s, 0.0, 5, DAY) == (100, 6, 2 * DAY)
    assert daily_policy(s, 0.0, 5, 2 * DAY + 1) == (50, 1, 3 * DAY + 1)


async def test_next_daily_at(econ: Economy, clock: FakeClock) -> None:
    """Before any claim it is now; after one, 24 hours later."""
    assert await econ.next_daily_at(G, BOB) == T0
    await econ.claim_daily(G, BOB)
    assert await econ.next_daily_at(G, BOB) == T0 + DAY


# -- managers -----------------------------------------------------------------------------------


async def test_grant_and_remove_need_a_reason(econ: Economy) -> None:
    """An empty reason is refused; the reason is kept, whitespace tidied."""
    with pytest.raises(InvalidAmount, match="reason"):
        await econ.grant(G, ALICE, 100, actor_id=MOD, reason="   ")
    assert await econ.grant(G, ALICE, 100, actor_id=MOD, reason=" won  the\nquiz ") == 10_100
    assert (await econ.history(G, ALICE, limit=1))[0].reason == "won the quiz"
    with pytest.raises(InsufficientChips):
        await econ.remove(G, ALICE, 10_101, actor_id=MOD, reason="too much")
    assert await econ.remove(G, ALICE, 10_100, actor_id=MOD, reason="reset") == 0


@pytest.mark.parametrize("amount", [0, -1, 10**15 + 1])
async def test_absurd_grants_are_refused(econ: Economy, amount: int) -> None:
    """Zero, negative and absurd grants are refused with a clear message."""
    with pytest.raises(InvalidAmount):
        await econ.grant(G, ALICE, amount, actor_id=MOD, reason="x")
    assert await econ.balance(G, ALICE) == 10_000


async def test_adjust_both_ways(econ: Economy) -> None:
    """An administrator's adjustment adds or takes chips, never zero."""
    assert await econ.adjust(G, ALICE, 250, actor_id=MOD, reason="bug refund") == 10_250
    assert await econ.adjust(G, ALICE, -50, actor_id=MOD, reason="typo") == 10_200
    with pytest.raises(InvalidAmount):
        await econ.adjust(G, ALICE, 0, actor_id=MOD, reason="nothing")
    kinds = [(e.kind, e.src) for e in await econ.history(G, ALICE, limit=2)]
    assert kinds == [(LedgerKind.ADJUST, f"wallet:{ALICE}"), (LedgerKind.ADJUST, "mint")]


async def test_balances_are_per_server(econ: Economy) -> None:
    """Chips granted in one server are not in another."""
    await econ.grant(G, ALICE, 500, actor_id=MOD, reason="r")
    assert await econ.balance(G + 1, ALICE) == 10_000
    assert await econ.balance(G, ALICE) == 10_500


# -- hands, statistics, leaderboards -----------------------------------------------------------


async def _play(econ: Economy, table_id: int, variant: str, lines: list[tuple[int, int, int]],
                **flags: bool) -> None:
    """Settle one hand with (seat, user, won, net) lines; nets must sum to zero."""
    seats = await econ.db.tables.seats(table_id)
    by_user = {s.user_id: s for s in seats}
    users = [u for u, _, _ in lines]
    hand = await econ.db.hands.start(
        table_id, variant=variant, settings={}, button=by_user[users[0]].seat_no,
        seats=[HandSeatIn(by_user[u].seat_no, u, by_user[u].stack) for u in users],
        deck=Deck().order,
    )
    summary = HandSummary(variant, tuple(
        SeatResult(by_user[u].seat_no, u, won=won, net=net, **flags) for u, won, net in lines
    ))
    await econ.db.hands.finish(hand.id, summary)


async def _table(econ: Economy, channel: int) -> int:
    table = await econ.db.tables.create(G, channel, MOD, {})
    for seat, user in enumerate((ALICE, BOB, CAROL), start=1):
        await econ.buy_in(table.id, user, seat, 2_000)
    return table.id


async def test_leaderboards_by_metric_period_and_variant(econ: Economy, clock: FakeClock) -> None:
    """Net won, biggest pot, hands won: all time, this week, this month, per variant."""
    t = await _table(econ, 1)
    clock.now = T0 - 30 * DAY  # last month
    await _play(econ, t, "omaha", [(ALICE, 900, 600), (BOB, 0, -300), (CAROL, 0, -300)])
    clock.now = T0 - 3 * DAY  # Sunday: this month, last week
    await _play(econ, t, "omaha_hilo", [(BOB, 400, 200), (ALICE, 0, -200)])
    clock.now = T0  # Wednesday
    await _play(econ, t, "omaha", [(CAROL, 300, 150), (BOB, 0, -150)])

    page = await econ.leaderboard(G, Metric.NET_WON)
    assert [(r.rank, r.user_id, r.value) for r in page.rows] == [
        (1, ALICE, 400), (2, CAROL, -150), (3, BOB, -250)]
    week = await econ.leaderboard(G, "net_won", period="week")
    assert [(r.user_id, r.value) for r in week.rows] == [(CAROL, 150), (BOB, -150)]
    month = await econ.leaderboard(G, Metric.BIGGEST_POT, period=Period.MONTH)
    assert [(r.user_id, r.value) for r in month.rows][:2] == [(BOB, 400), (CAROL, 300)]
    hilo = await econ.leaderboard(G, Metric.HANDS_WON, variant="omaha_hilo")
    assert [(r.user_id, r.value) for r in hilo.rows] == [(BOB, 1), (ALICE, 0)]
    assert page.total == 3 and week.total == 2
    with pytest.raises(EconomyError):
        await econ.leaderboard(G, "luck")


async def test_leaderboard_pages_and_ties(econ: Economy) -> None:
    """Pages of 2 walk through 5 players; equal balances share a rank."""
    for user, extra in ((1, 500), (2, 300), (3, 300), (4, 100), (5, 0)):
        await econ.balance(G, user)
        if extra:
            await econ.grant(G, user, extra, actor_id=MOD, reason="r")
    pages = [await econ.leaderboard(G, Metric.BALANCE, page=p, per_page=2) for p in range(3)]
    rows = [(r.rank, r.user_id, r.value) for page in pages for r in page.rows]
    assert rows == [(1, 1, 10_500), (2, 2, 10_300), (2, 3, 10_300), (4, 4, 10_100),
                    (5, 5, 10_000)]
    assert [p.total for p in pages] == [5, 5, 5] and pages[2].offset == 4


async def test_player_stats_per_variant_and_overall(econ: Economy) -> None:
    """VPIP, PFR and showdowns add up per variant and over all variants."""
    t = await _table(econ, 2)
    await _play(econ, t, "omaha", [(ALICE, 500, 250), (BOB, 0, -250)],
                vpip=True, pfr=True, showdown=True, won_showdown=False)
    await _play(econ, t, "big_o", [(ALICE, 0, -100), (BOB, 100, 100)], vpip=True)
    overall = await econ.stats(G, ALICE)
    assert (overall.hands_played, overall.hands_won, overall.net) == (2, 1, 150)
    assert (overall.vpip, overall.pfr, overall.showdowns) == (1.0, 0.5, 1)
    big_o = await econ.stats(G, ALICE, variant="big_o")
    assert (big_o.hands_played, big_o.net, big_o.biggest_pot, big_o.pfr) == (1, -100, 0, 0.0)
    nobody = await econ.stats(G, CAROL)
    assert (nobody.hands_played, nobody.vpip) == (0, 0.0)


async def test_hand_nets_are_the_settled_hands_in_order(econ: Economy, clock: FakeClock) -> None:
    """The points of /stats's graph: each cash hand's net and showdown as settled, oldest
    first, by variant and period; they add up to the player's net."""
    t = await _table(econ, 3)
    clock.now = T0 - 30 * DAY
    await _play(econ, t, "omaha", [(ALICE, 900, 600), (BOB, 0, -600)], showdown=True)
    clock.now = T0 - 3 * DAY
    await _play(econ, t, "big_o", [(BOB, 400, 200), (ALICE, 0, -200)])
    clock.now = T0
    await _play(econ, t, "omaha", [(ALICE, 300, 150), (BOB, 0, -150)], showdown=True)
    nets = await econ.hand_nets(G, ALICE)
    assert [(n.net, n.showdown) for n in nets] == [(600, True), (-200, False), (150, True)]
    assert [n.ended_at for n in nets] == sorted(n.ended_at for n in nets)
    assert sum(n.net for n in nets) == (await econ.stats(G, ALICE)).net
    omaha = await econ.hand_nets(G, ALICE, variant="omaha")
    assert [n.net for n in omaha] == [600, 150]
    month = await econ.hand_nets(G, ALICE, period=Period.MONTH)
    assert [n.net for n in month] == [-200, 150]
    assert await econ.hand_nets(G, CAROL) == []


# -- summaries from real engine hands --------------------------------------------------------


def _scripted_hand() -> Hand:
    config = GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 5, 10)
    hand = Hand(config, [SeatIn(1, 1_000), SeatIn(2, 1_000), SeatIn(3, 1_000)], 3,
                Deck(rng=random.Random(11)))
    hand.start()
    # seat 3 (button) acts first preflop with three players: raise; seat 1 folds; seat 2 calls
    hand.act(3, Action.raise_to(30))
    hand.act(1, Action.fold())
    hand.act(2, Action.call())
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.act(seat, Action.check())
    return hand


def test_summarize_hand_from_the_engine_hand() -> None:
    """The raiser has VPIP and PFR, the caller VPIP only, the folded blind neither."""
    hand = _scripted_hand()
    summary = summarize_hand(hand, {1: ALICE, 2: BOB, 3: CAROL})
    lines = {line.seat_no: line for line in summary.seats}
    assert summary.variant == "omaha"
    assert (lines[3].vpip, lines[3].pfr) == (True, True)
    assert (lines[2].vpip, lines[2].pfr) == (True, False)
    assert (lines[1].vpip, lines[1].pfr, lines[1].showdown, lines[1].net) == (
        False, False, False, -5)
    assert lines[2].showdown and lines[3].showdown
    assert sum(line.net for line in summary.seats) == 0
    result = hand.result
    for seat, line in lines.items():
        assert line.won == result.payouts.get(seat, 0)
        assert line.net == result.final_stacks[seat] - result.starting_stacks[seat]
        assert line.won_showdown == (line.won > 0)
    assert summarize_hand(hand, {1: ALICE, 2: BOB, 3: CAROL}, "omaha_hilo").variant == "omaha_hilo"


def test_summarize_hand_keeps_a_bounty_apart_from_the_pots() -> None:
    """The 7-2 that steals the blinds: its pot (5) is ``won``, the bounty (20) only in
    ``bounty`` and ``net``; each payer's bounty is negative; they sum to zero."""
    hand = _steal(_hand(["AsAh", "KsKh", "7c2d"]))
    lines = {line.seat_no: line for line in summarize_hand(hand, {1: ALICE, 2: BOB,
                                                                  3: CAROL}).seats}
    assert {s: (line.won, line.net, line.bounty) for s, line in lines.items()} == {
        1: (0, -11, -10), 2: (0, -12, -10), 3: (5, 23, 20)}


def test_summarize_hand_refuses_an_unfinished_hand() -> None:
    """A hand still being played cannot be summarized."""
    config = GameConfig(VARIANTS["omaha"], Structure.POT_LIMIT, 1, 2)
    hand = Hand(config, [SeatIn(1, 100), SeatIn(2, 100)], 2, Deck(rng=random.Random(3)))
    hand.start()
    with pytest.raises(ValueError, match="not over"):
        summarize_hand(hand, {1: ALICE, 2: BOB})


async def test_an_engine_hand_settles_through_storage(econ: Economy) -> None:
    """A real hand's summary settles; stacks follow the engine's final stacks."""
    table = await econ.db.tables.create(G, 3, MOD, {})
    for seat, user in ((1, ALICE), (2, BOB), (3, CAROL)):
        await econ.buy_in(table.id, user, seat, 1_000)
    hand = _scripted_hand()
    record = await econ.db.hands.start(
        table.id, variant="omaha", settings={}, button=3,
        seats=[HandSeatIn(s, u, 1_000) for s, u in ((1, ALICE), (2, BOB), (3, CAROL))],
        deck=hand.deck.order,
    )
    await econ.db.hands.finish(record.id, summarize_hand(hand, {1: ALICE, 2: BOB, 3: CAROL}))
    stacks = {s.seat_no: s.stack for s in await econ.db.tables.seats(table.id)}
    assert stacks == hand.result.final_stacks


async def test_the_daily_bonus_respects_the_balance_cap(econ: Economy, clock: FakeClock) -> None:
    """A claim that would take the balance past MAX_BALANCE is refused as any credit is:
    nothing paid, the streak untouched; with room for the bonus, it is paid."""
    start = await econ.balance(G, ALICE)
    full, rest = divmod(MAX_BALANCE - 500 - start, MAX_AMOUNT)
    await asyncio.gather(*(econ.grant(G, ALICE, MAX_AMOUNT, actor_id=MOD, reason="rich")
                           for _ in range(full)))
    await econ.grant(G, ALICE, rest, actor_id=MOD, reason="rich")
    assert await econ.balance(G, ALICE) == MAX_BALANCE - 500
    with pytest.raises(InvalidAmount) as err:
        await econ.claim_daily(G, ALICE)
    assert err.value.phrase is not None and err.value.phrase.key == "refuse.balance_too_large"
    wallet = await econ.wallet(G, ALICE)
    assert (wallet.balance, wallet.daily_last_at, wallet.daily_streak) == (
        MAX_BALANCE - 500, None, 0)
    assert (await econ.history(G, ALICE, limit=1))[0].kind is LedgerKind.GRANT
    await econ.remove(G, ALICE, 500, actor_id=MOD, reason="room for one bonus")
    claim = await econ.claim_daily(G, ALICE)
    assert (claim.amount, claim.streak, claim.balance) == (1_000, 1, MAX_BALANCE)
