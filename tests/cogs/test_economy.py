"""The economy commands through the offline Discord: balances, daily, managers, rankings."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image
from simcord import ChannelHandle, MemberActor

from bot.adapter import leaderboard, stats_graphs
from bot.engine.cards import DECK
from bot.render import GraphView, LeaderboardView
from bot.storage import HandSeatIn, HandSummary, SeatResult
from tests.conftest import Harness


async def ledger_size(h: Harness) -> int:
    """Number of ledger rows in the harness guild (any change shows up here)."""
    rows = []
    for actor in h.members.values():
        rows += await h.bot.economy.history(h.guild.id, actor.id, limit=500)
    return len(rows)


# -- /balance and /daily --------------------------------------------------------------


async def test_balance_opens_a_wallet_with_the_starting_balance(harness: Harness) -> None:
    """A new player's /balance shows the server's starting balance, to them alone."""
    h = harness
    reply = await h.slash(h.alice, "balance")
    assert reply.text == "You have 10,000 chips."
    assert reply.ephemeral
    assert not [m for m in h.public_messages() if "10,000" in m.content]


async def test_own_balance_is_shown_to_the_channel_only_when_asked(harness: Harness) -> None:
    """/balance public:True posts it for everybody; /balance user:me is still private."""
    h = harness
    shown = await h.slash(h.alice, "balance", public=True)
    assert not shown.ephemeral and shown.text == "You have 10,000 chips."
    assert h.last_message() is not None and h.last_message().content == shown.text
    mine = await h.slash(h.alice, "balance", user=h.alice)
    assert mine.ephemeral and mine.text == "You have 10,000 chips."


async def test_balance_of_another_member(harness: Harness) -> None:
    """/balance user shows that player's chips by name, in the channel."""
    h = harness
    await h.bot.economy.grant(h.guild.id, h.bob.id, 500, actor_id=h.manager.id, reason="test")
    reply = await h.slash(h.alice, "balance", user=h.bob)
    assert reply.text == "bob has 10,500 chips."
    assert not reply.ephemeral


async def test_balance_of_a_bot_is_refused_privately(harness: Harness) -> None:
    """Bots have no wallet; asking is answered ephemerally."""
    h = harness
    robot = h.guild.add_member(h.env.create_user("robot", bot=True))
    reply = await h.slash(h.alice, "balance", user=robot)
    assert reply.ephemeral
    assert "bots do not play" in reply.text
    h.set_locale(h.alice, "pt-BR")
    reply = await h.slash(h.alice, "balance", user=robot)
    assert reply.ephemeral and "é um bot; bots não jogam" in reply.text, reply.text


async def test_daily_pays_once_per_day_and_grows_the_streak(harness: Harness) -> None:
    """/daily pays the bonus, refuses a second claim the same day, and counts a streak,
    answering only the player (issue 23: a balance is not the channel's business)."""
    h = harness
    first = await h.slash(h.alice, "daily")
    assert "daily bonus of 1,000 chips" in first.text and "Balance: 11,000 chips" in first.text
    assert first.ephemeral and not h.public_messages()
    again = await h.slash(h.alice, "daily")
    assert again.ephemeral
    # the next claim as a Discord timestamp, 24 h after the first (each client words it)
    assert "already claimed" in again.text and f"<t:{int(h.clock() + 24 * 3600)}:R>" in again.text
    assert await h.balance(h.alice) == 11_000
    h.clock.advance(24 * 3600)
    second = await h.slash(h.alice, "daily")
    assert "1,100 chips" in second.text and "day 2" in second.text
    assert await h.balance(h.alice) == 12_100


async def test_daily_streak_resets_after_two_days(harness: Harness) -> None:
    """Missing a day starts the streak again at day 1."""
    h = harness
    await h.slash(h.bob, "daily")
    h.clock.advance(72 * 3600)
    reply = await h.slash(h.bob, "daily")
    assert "1,000 chips" in reply.text and "day 1" in reply.text


async def test_balances_are_per_server(harness: Harness) -> None:
    """Chips granted in one server are not in another."""
    h = harness
    other = h.env.create_guild("Other Club")
    lobby = other.create_text_channel("lobby")
    alice_there = other.add_member(h.alice.user)
    await h.bot.economy.grant(h.guild.id, h.alice.id, 5000, actor_id=h.manager.id, reason="x")
    here = await h.slash(h.alice, "balance")
    there = await alice_there.slash(lobby, "balance")
    assert here.text == "You have 15,000 chips."
    assert there.response is not None
    assert there.response.content == "You have 10,000 chips."


# -- /chips -------------------------------------------------------------------------------


async def test_manager_grants_and_removes_chips_with_a_reason(harness: Harness) -> None:
    """/chips grant and remove move chips, keep the reason in the ledger, and say so."""
    h = harness
    grant = await h.slash(h.manager, "chips grant", user=h.alice, amount="2.5k", reason="prize")
    assert "Gave 2,500 chips" in grant.text and "12,500 chips" in grant.text
    remove = await h.slash(h.manager, "chips remove", user=h.alice, amount="500", reason="oops")
    assert "Took 500 chips" in remove.text and "12,000 chips" in remove.text
    assert await h.balance(h.alice) == 12_000
    history = await h.bot.economy.history(h.guild.id, h.alice.id)
    reasons = {(e.kind.value, e.amount, e.reason, e.actor_id) for e in history}
    assert ("grant", 2500, "prize", h.manager.id) in reasons
    assert ("remove", 500, "oops", h.manager.id) in reasons


@pytest.mark.parametrize(
    ("amount", "needle"),
    [("-100", "cannot be negative"), ("0", "more than zero"), ("10000000000000000", "too large"),
     ("a lot", "whole number"), ("1.5", "no fractions")],
)
async def test_chips_grant_bad_amounts_change_nothing(
    harness: Harness, amount: str, needle: str
) -> None:
    """Every bad amount is refused privately with its reason and no chip moves."""
    h = harness
    before_balance = await h.balance(h.alice)
    before_ledger = await ledger_size(h)
    reply = await h.slash(h.manager, "chips grant", user=h.alice, amount=amount, reason="r")
    assert reply.ephemeral
    assert needle in reply.text
    assert await h.balance(h.alice) == before_balance
    assert await ledger_size(h) == before_ledger


async def test_chips_remove_more_than_the_balance_is_refused(harness: Harness) -> None:
    """Removing more than a player has is refused and changes nothing."""
    h = harness
    assert await h.balance(h.bob) == 10_000
    before = await ledger_size(h)
    reply = await h.slash(h.manager, "chips remove", user=h.bob, amount="10001", reason="r")
    assert reply.ephemeral
    assert "10,000" in reply.text
    assert await h.balance(h.bob) == 10_000
    assert await ledger_size(h) == before


async def test_chips_grant_needs_a_reason(harness: Harness) -> None:
    """A blank reason is refused (the ledger keeps one for every grant)."""
    h = harness
    reply = await h.slash(h.manager, "chips grant", user=h.bob, amount="10", reason="   ")
    assert reply.ephemeral and "reason" in reply.text
    assert await h.balance(h.bob) == 10_000


async def test_chips_are_hidden_from_members_without_manage_server(harness: Harness) -> None:
    """Discord hides /chips from ordinary members (default permission Manage Server)."""
    h = harness
    assert "chips grant" in h.manager.available_commands(h.channel)
    assert "chips grant" not in h.alice.available_commands(h.channel)
    assert "balance" in h.alice.available_commands(h.channel)


async def test_chips_refused_when_a_server_override_shows_it_to_everyone(
    harness: Harness,
) -> None:
    """Even if a server shows /chips to everybody, the bot still checks Manage Server."""
    h = harness
    chips_cmd = next(c for c in h.bot.synced if c.name == "chips")
    h.guild.set_command_permissions(chips_cmd, {h.guild.default_role: True})
    reply = await h.slash(h.alice, "chips grant", user=h.alice, amount="1000", reason="me")
    assert reply.ephemeral
    assert "Manage Server" in reply.text
    assert await h.balance(h.alice) == 10_000


# -- /economy settings ---------------------------------------------------------------------


async def test_economy_settings_show_and_change(harness: Harness) -> None:
    """Managers see the rules and change them; new players get the new starting balance."""
    h = harness
    shown = await h.slash(h.manager, "economy settings")
    assert shown.ephemeral and "Starting balance: 10,000 chips" in shown.text
    changed = await h.slash(
        h.manager, "economy settings", starting_balance="25k", daily_base="2000",
        daily_step="0", daily_max_streak=3,
    )
    assert "updated" in changed.text and "Starting balance: 25,000 chips" in changed.text
    assert (await h.slash(h.carol, "balance")).text == "You have 25,000 chips."
    assert "2,000 chips" in (await h.slash(h.carol, "daily")).text


async def test_economy_settings_bad_values_change_nothing(harness: Harness) -> None:
    """A bad setting is refused privately and the rules stay as they were."""
    h = harness
    reply = await h.slash(h.manager, "economy settings", starting_balance="-5")
    assert reply.ephemeral and "negative" in reply.text
    reply = await h.slash(h.manager, "economy settings", daily_base="zero")
    assert reply.ephemeral and "whole number" in reply.text
    settings = await h.bot.economy.settings(h.guild.id)
    assert (settings.starting_balance, settings.daily_base) == (10_000, 1_000)


# -- /leaderboard and /stats ----------------------------------------------------------------


async def test_leaderboard_is_an_image_paged_with_buttons(harness: Harness) -> None:
    """The balance leaderboard is a PNG; Next/Previous page through it, only for the asker."""
    h = harness
    for i in range(12):
        member = h.add_member(f"p{i:02d}")
        await h.bot.economy.grant(h.guild.id, member.id, 1000 * (i + 1), actor_id=h.manager.id,
                                  reason="seed")
    reply = await h.slash(h.alice, "leaderboard")
    assert not reply.ephemeral
    (png,) = await reply.images()
    first = Image.open(io.BytesIO(png))
    assert first.format == "PNG" and first.width > 300
    labels = [b["label"] for b in reply.buttons]
    assert labels == ["Previous", "Page 1 of 2", "Next"]
    assert reply.buttons[0]["disabled"] and not reply.buttons[2].get("disabled")

    other = await h.click(h.bob, reply.message, label="Next")
    assert other.ephemeral and "belong to whoever asked" in other.text
    assert reply.buttons[1]["label"] == "Page 1 of 2"

    await h.click(h.alice, reply.message, label="Next")
    assert reply.buttons[1]["label"] == "Page 2 of 2"
    assert reply.buttons[2].get("disabled")
    (second,) = await reply.images()
    assert second != png
    await h.click(h.alice, reply.message, label="Previous")
    (back,) = await reply.images()
    assert back == png


async def test_leaderboard_buttons_expire(harness: Harness) -> None:
    """After five minutes the page buttons are disabled."""
    h = harness
    for i in range(11):
        h.add_member(f"q{i}")
        await h.bot.economy.wallet(h.guild.id, h.members[f"q{i}"].id)
    reply = await h.slash(h.alice, "leaderboard")
    assert not reply.buttons[2].get("disabled")
    await h.advance(301)
    assert all(b.get("disabled") for b in reply.buttons)


async def test_leaderboard_paged_past_a_token_lifetime_still_expires(harness: Harness) -> None:
    """Paged for 20 minutes (longer than a token lives), the pager's timeout edits through
    the latest click's token: the buttons are disabled, and Discord refused nothing."""
    h = harness
    for i in range(11):
        h.add_member(f"q{i}")
        await h.bot.economy.wallet(h.guild.id, h.members[f"q{i}"].id)
    reply = await h.slash(h.alice, "leaderboard")
    for label in ("Next", "Previous") * 3:
        await h.advance(200)
        await h.click(h.alice, reply.message, label=label)
    await h.advance(301)
    assert all(b.get("disabled") for b in reply.buttons)
    assert h.invalid_requests == []


async def test_leaderboard_balance_has_no_period(harness: Harness) -> None:
    """Asking balances for a week is refused with an explanation."""
    h = harness
    reply = await h.slash(h.alice, "leaderboard", metric="balance", period="week")
    assert reply.ephemeral and "no variant or period" in reply.text


async def test_leaderboard_other_metric_with_filters(harness: Harness) -> None:
    """Net won this month for one variant renders (empty board included)."""
    h = harness
    reply = await h.slash(h.alice, "leaderboard", metric="net_won", variant="omaha_hilo",
                          period="month")
    (png,) = await reply.images()
    assert Image.open(io.BytesIO(png)).format == "PNG"
    assert reply.buttons == []


async def test_stats_for_a_new_player(harness: Harness) -> None:
    """/stats of someone who never played says so."""
    h = harness
    reply = await h.slash(h.alice, "stats", user=h.bob, variant="big_o")
    assert "bob: Big O" in reply.all_text
    assert "No hands played yet." in reply.all_text


# -- statistics from real hands ---------------------------------------------------------------


async def play_heads_up(
    h: Harness, winner: MemberActor, loser: MemberActor, amount: int, *, variant: str = "omaha",
    hands: int = 1, channel: ChannelHandle | None = None,
) -> None:
    """Seat both at a table (once) in ``channel`` (#poker by default) and record ``hands``
    hands ``winner`` wins by ``amount``."""
    db, channel_id = h.bot.db, (channel or h.channel).id
    table = await db.tables.by_channel(channel_id)
    if table is None:
        table = await db.tables.create(h.guild.id, channel_id, h.manager.id, {"v": variant})
        await db.tables.buy_in(table.id, winner.id, 1, 1000)
        await db.tables.buy_in(table.id, loser.id, 2, 1000)
    for _ in range(hands):
        seats = {s.user_id: s for s in await db.tables.seats(table.id)}
        w, lo = seats[winner.id], seats[loser.id]
        hand = await db.hands.start(
            table.id, variant=variant, settings={}, button=w.seat_no,
            seats=[HandSeatIn(w.seat_no, w.user_id, w.stack),
                   HandSeatIn(lo.seat_no, lo.user_id, lo.stack)],
            deck=DECK[:13],
        )
        await db.hands.finish(hand.id, HandSummary(variant, (
            SeatResult(w.seat_no, w.user_id, won=2 * amount, net=amount, vpip=True, pfr=True,
                       showdown=True, won_showdown=True),
            SeatResult(lo.seat_no, lo.user_id, won=0, net=-amount, vpip=True, showdown=True),
        )))


async def test_stats_after_hands(harness: Harness) -> None:
    """/stats shows hands, wins, net, biggest pot, VPIP/PFR and showdowns from the hands."""
    h = harness
    await play_heads_up(h, h.bob, h.alice, 150, hands=2)
    reply = await h.slash(h.alice, "stats", user=h.bob)
    text = reply.all_text
    assert "bob: all games" in text
    assert "Hands played: 2" in text and "Hands won: 2 (100%)" in text
    assert "Net: +300 chips" in text and "Biggest pot won: 300 chips" in text
    assert "VPIP / PFR: 100% / 100%" in text and "Showdowns won: 2 of 2" in text
    assert not reply.ephemeral
    mine = await h.slash(h.alice, "stats")
    assert mine.ephemeral
    assert "Net: -300 chips" in mine.all_text and "VPIP / PFR: 100% / 0%" in mine.all_text
    shown = await h.slash(h.alice, "stats", public=True)
    assert not shown.ephemeral and shown.all_text == mine.all_text
    assert [e.title for e in h.last_message().embeds] == ["alice: all games"]
    other = await h.slash(h.alice, "stats", user=h.bob, variant="omaha6")
    assert "No hands played yet." in other.all_text
    assert not other.ephemeral


async def test_holdem_hands_count_under_their_own_game(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: hands of Texas Hold'em are Hold'em's in /stats and /leaderboard (grouped
    by the variant key, named in the reader's language), not Omaha's; all games add them."""
    h = harness
    await play_heads_up(h, h.bob, h.alice, 50, variant="holdem", hands=3)
    await play_heads_up(h, h.bob, h.alice, 20, variant="omaha")
    holdem = await h.slash(h.alice, "stats", user=h.bob, variant="holdem")
    assert "bob: Texas Hold'em" in holdem.all_text and "Hands played: 3" in holdem.all_text
    assert "Net: +150 chips" in holdem.all_text
    omaha = await h.slash(h.alice, "stats", user=h.bob, variant="omaha")
    assert "bob: Omaha" in omaha.all_text and "Hands played: 1" in omaha.all_text
    every = await h.slash(h.alice, "stats", user=h.bob)
    assert "Hands played: 4" in every.all_text
    h.set_locale(h.carol, "it")
    five = await h.slash(h.carol, "stats", user=h.bob, variant="omaha5")
    assert [e.title for e in five.embeds] == ["bob: Omaha a cinque carte"]  # not English
    drawn: list[LeaderboardView] = []
    real = leaderboard.render_leaderboard_async

    async def spy(view: LeaderboardView, *args: Any) -> bytes:
        drawn.append(view)
        return await real(view, *args)

    monkeypatch.setattr(leaderboard, "render_leaderboard_async", spy)
    await h.slash(h.carol, "leaderboard", metric="net_won", variant="holdem")
    assert "Texas Hold'em" in drawn[-1].subtitle
    assert [(r.name, r.value) for r in drawn[-1].rows] == [("bob", 150), ("alice", -150)]


async def test_leaderboard_ranks_by_the_chosen_metric(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/leaderboard net_won draws the players in order with their values and a title."""
    h = harness
    await play_heads_up(h, h.carol, h.dave, 400, variant="big_o")
    drawn: list[LeaderboardView] = []
    real = leaderboard.render_leaderboard_async

    async def spy(view: LeaderboardView, *args: Any) -> bytes:
        drawn.append(view)
        return await real(view, *args)

    monkeypatch.setattr(leaderboard, "render_leaderboard_async", spy)
    reply = await h.slash(h.carol, "leaderboard", metric="net_won", variant="big_o")
    assert len(await reply.images()) == 1
    (view,) = drawn
    assert view.title == "Net won: Poker Club"
    assert "Big O" in view.subtitle and "All time" in view.subtitle
    ranked = [(r.rank, r.name, r.value) for r in view.rows]
    assert ranked[:2] == [(1, "carol", 400), (2, "dave", -400)]
    assert view.highlight == "carol"
    await h.slash(h.carol, "leaderboard", metric="hands_won", period="week")
    assert drawn[-1].rows[0].name == "carol" and drawn[-1].rows[0].value == 1
    assert drawn[-1].value_label == "Hands"
    # a public picture: in the server's language (its words, the render layer's locale)
    h.env.backend.get_guild(h.guild.id).preferred_locale = "pt-BR"
    await h.slash(h.carol, "leaderboard", metric="hands_won", period="week")
    assert drawn[-1].locale == "pt-BR" and drawn[-1].value_label == "Mãos"
    assert drawn[-1].subtitle == "Esta semana · 2 jogadores", drawn[-1].subtitle
    h.env.backend.get_guild(h.guild.id).preferred_locale = "it"
    await h.slash(h.dave, "leaderboard", metric="net_won", variant="big_o")
    assert drawn[-1].title == "Vincita netta: Poker Club"
    assert drawn[-1].subtitle.startswith("Da sempre · Big O · ")
    assert drawn[-1].value_label == "Fiches"
    h.env.backend.get_guild(h.guild.id).preferred_locale = "es-ES"
    await h.slash(h.dave, "leaderboard")
    assert drawn[-1].subtitle.startswith("Saldos actuales · ") and drawn[-1].locale == "es-ES"


async def test_stats_draw_the_stored_results_as_a_graph(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/stats attaches a graph whose lines are the player's stored hands, running; the
    period option counts from the period's start; a player without hands gets none."""
    h = harness
    await play_heads_up(h, h.bob, h.alice, 150, hands=2)
    await play_heads_up(h, h.alice, h.bob, 40)
    drawn: list[GraphView] = []
    real = stats_graphs.render_graphs_async

    async def spy(view: GraphView, *args: Any) -> bytes:
        drawn.append(view)
        return await real(view, *args)

    monkeypatch.setattr(stats_graphs, "render_graphs_async", spy)
    reply = await h.slash(h.alice, "stats", user=h.bob, period="week")
    [(name, png)] = await reply.files()
    assert name == "stats.png" and Image.open(io.BytesIO(png)).format == "PNG"
    assert reply.embeds[0].image.url == "attachment://stats.png"
    [panel] = drawn[-1].panels
    stored = await h.bot.app.economy.hand_nets(h.guild.id, h.bob.id)
    assert [n.net for n in stored] == [150, 150, -40]
    assert panel.lines[0].points == (150, 300, 260)
    assert drawn[-1].title == "bob: results" and "This week" in panel.subtitle
    h.set_locale(h.alice, "pt-BR")
    await h.slash(h.alice, "stats")
    assert drawn[-1].locale == "pt-BR" and drawn[-1].panels[0].x_label == "Mãos"
    assert drawn[-1].panels[0].lines[0].points == (-150, -300, -260)
    nobody = await h.slash(h.alice, "stats", user=h.carol)
    assert not await nobody.files() and "Nenhuma mão jogada ainda." in nobody.all_text


async def test_leaderboard_graphs_show_the_top_players_side_by_side(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    await play_heads_up(h, h.carol, h.dave, 400, hands=2)
    drawn: list[GraphView] = []
    real = stats_graphs.render_graphs_async

    async def spy(view: GraphView, *args: Any) -> bytes:
        drawn.append(view)
        return await real(view, *args)

    monkeypatch.setattr(stats_graphs, "render_graphs_async", spy)
    reply = await h.slash(h.alice, "leaderboard", metric="net_won", graphs=True)
    names = [name for name, _ in await reply.files()]
    assert names == ["leaderboard.png", "leaderboard-graphs.png"], names
    (view,) = drawn
    assert [p.title for p in view.panels] == ["1. carol", "2. dave"] and view.columns == 2
    assert [p.lines[0].points for p in view.panels] == [(400, 800), (-400, -800)]
    # the default metric (balance, no season running): the top balances' net over their hands;
    # alice, first by balance after her bonus, played no hand: no graph of hers
    await h.slash(h.alice, "daily")
    drawn.clear()
    answer = await h.slash(h.alice, "leaderboard", graphs=True)
    assert [name for name, _ in await answer.files()] == ["leaderboard.png",
                                                          "leaderboard-graphs.png"]
    (view,) = drawn
    assert view.title == "Balance · top 2 · net won, hand by hand" and view.shared_scale
    assert sorted(p.title for p in view.panels) == ["2. carol", "2. dave"]  # tied balances
    nets = {p.title.split(". ")[1]: p.lines[0].points for p in view.panels}
    assert nets == {"carol": (400, 800), "dave": (-400, -800)}


# -- races and permissions -------------------------------------------------------------------


async def test_two_daily_claims_at_once_pay_once(harness: Harness) -> None:
    """A double-clicked /daily pays one bonus; the other claim is refused politely."""
    h = harness
    replies = await h.concurrently(
        lambda: h.slash(h.alice, "daily"), lambda: h.slash(h.alice, "daily")
    )
    paid = [r for r in replies if "claimed your daily bonus of" in r.text]
    refused = [r for r in replies if r.ephemeral and "already claimed" in r.text]
    assert len(paid) == 1 and len(refused) == 1
    assert await h.balance(h.alice) == 11_000


async def test_racing_removals_never_go_below_zero(harness: Harness) -> None:
    """Two managers removing 6,000 of 10,000 at once: one succeeds, one is refused."""
    h = harness
    second_manager = h.add_member("mona", manager=True)
    await h.balance(h.bob)
    replies = await h.concurrently(
        lambda: h.slash(h.manager, "chips remove", user=h.bob, amount="6000", reason="a"),
        lambda: h.slash(second_manager, "chips remove", user=h.bob, amount="6000", reason="b"),
    )
    assert sum("Took 6,000 chips" in r.text for r in replies) == 1
    assert sum(r.ephemeral for r in replies) == 1
    assert await h.balance(h.bob) == 4_000


async def test_economy_settings_refused_without_manage_server(harness: Harness) -> None:
    """A server override showing /economy to everyone still cannot change the rules."""
    h = harness
    command = next(c for c in h.bot.synced if c.name == "economy")
    h.guild.set_command_permissions(command, {h.guild.default_role: True})
    reply = await h.slash(h.alice, "economy settings", starting_balance="1000000")
    assert reply.ephemeral and "Manage Server" in reply.text
    assert (await h.bot.economy.settings(h.guild.id)).starting_balance == 10_000
