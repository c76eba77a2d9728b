"""A table whose channel is lost ends by RULES.md 7 (cogs/channel_loss.py), in the offline Discord.

The hand in progress is played out by the clock's rule, never refunded: every
decision left is taken as a timeout (check, otherwise fold), the rest of the
board comes from the deck committed before the hand, the pots are awarded; then
every stack goes back to its owner's balance (a sit-and-go is cancelled as after
its start). Each case loses the channel another way (deleted, a thread deleted,
View Channel or Send Messages in Threads taken, a thread locked, the bot removed)
and checks the chips as the rules give them, the audit (the ``harness`` fixture
audits too), that nothing more goes to the dead channel, and that each player was
told privately, by DM, with the hand's number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from simcord import ChannelHandle, MemberActor

from bot.engine.events import Street
from bot.runtime.table.live import Table
from tests.cogs.test_table import PAUSE, open_table
from tests.conftest import Harness

START = 10_000
BUYINS = (100, 200, 400, 400)


def players(h: Harness) -> tuple[MemberActor, ...]:
    return (h.alice, h.bob, h.carol, h.dave)


def member(h: Harness, user_id: int) -> MemberActor:
    return next(a for a in h.members.values() if a.id == user_id)


def channel_requests(h: Harness, channel: ChannelHandle) -> int:
    return len(h.requests(contains=f"/channels/{channel.id}"))


def to_act(h: Harness, table: Table) -> MemberActor:
    cur = table.current
    assert cur is not None and cur.hand.to_act is not None
    return member(h, table.seats[cur.hand.to_act].user_id)


async def act(h: Harness, table: Table, channel: ChannelHandle, command: str, **kw: str) -> None:
    reply = await h.slash(to_act(h, table), command, channel=channel, **kw)
    assert reply.acknowledged, reply


async def side_pot_hand(h: Harness, channel: ChannelHandle | None = None) -> Table:
    """Four players (100, 200, 400, 400 chips, no limit): the two short stacks all-in
    preflop, the deep ones bet and call on the flop; the turn is dealt, with a main pot
    and two side pots."""
    where = channel or h.channel
    await open_table(h, structure="no limit", min_buyin=100, max_buyin=400, channel=where)
    for actor, buyin in zip(players(h), BUYINS, strict=True):
        await h.slash(actor, "table join", buyin=str(buyin), channel=where)
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(where.id)
    while (cur := table.current) is not None and cur.hand.street is Street.PREFLOP:
        seat = cur.hand.player(cur.hand.to_act or 0)
        if seat.stack + seat.bet <= 200:
            await act(h, table, where, "allin")
        else:
            can_check = table.legal_for(table.seats[seat.seat].user_id).can_check
            await act(h, table, where, "check" if can_check else "call")
    await act(h, table, where, "bet", amount="50")
    await act(h, table, where, "call")
    cur = table.current
    assert cur is not None and cur.hand.street is Street.TURN
    assert [p.amount for p in cur.hand.pots] == [400, 300, 100]
    return table


async def actions_from(h: Harness, seq: int, hand_id: int = 1) -> list[tuple[str, str]]:
    """``(kind, source)`` of hand ``hand_id``'s stored actions from ``seq`` on."""
    return [(a["kind"], a["source"]) for a in await h.bot.db.hands.actions(hand_id)][seq:]


def farewell_of(h: Harness, actor: MemberActor) -> str:
    [dm] = [m.content for m in h.dms(actor) if "was closed" in m.content
            or "stopped because" in m.content]
    return dm


def result_line(net: int) -> str:
    if net > 0:
        return f"You won {net:,} chips in it."
    return f"You lost {-net:,} chips in it." if net else "You neither won nor lost a chip in it."


async def assert_played_out(
    h: Harness, table: Table, because: str, buyins: dict[MemberActor, int]
) -> dict[MemberActor, int]:
    """Hand #1 was finished by the rules, each player told so by DM with their result and
    their stack back; returns each player's net in the hand."""
    assert table.closed and h.bot.registry.find(table.channel_id) is None
    assert (await h.bot.db.hands.get(1)).status == "finished"  # settled, not cancelled
    nets = {}
    for actor, buyin in buyins.items():
        stack = await h.balance(actor) - (START - buyin)  # what the table gave back
        nets[actor] = stack - buyin
        dm = farewell_of(h, actor)
        assert f"Table {table.table_id}" in dm and because in dm, dm
        assert "hand #1 was played out by the clock's rule" in dm, dm
        assert result_line(nets[actor]) in dm, dm
        if stack:
            assert f"Your {stack:,} chips are back in your balance." in dm, dm
    assert sum(nets.values()) == 0  # no chip created or lost: the pots went to winners
    assert any(nets.values())  # nobody refunded: what was bet was won or lost
    assert [a.table_id for a in h.bot.channel_loss.abandoned] == [table.table_id]
    await h.audit()
    return nets


async def assert_silent_from_now(h: Harness, channel: ChannelHandle) -> None:
    """Whatever time passes (clocks, pauses between hands), no request goes to ``channel``."""
    sent = channel_requests(h, channel)
    await h.advance(PAUSE + 120.0)
    await h.advance(PAUSE + 120.0)
    assert channel_requests(h, channel) == sent


def by_player(h: Harness) -> dict[MemberActor, int]:
    return dict(zip(players(h), BUYINS, strict=True))


async def assert_side_pot_hand_checked_down(h: Harness) -> None:
    """The turn and river were checked by the clock's rule (the two deep players), the
    board dealt to the river, three pots awarded."""
    assert await actions_from(h, -4) == [("check", "timeout")] * 4
    record = await h.bot.db.hands.get(1)
    assert record.result is not None and record.result["hand_no"] == 1


async def test_a_channel_deleted_mid_hand_plays_it_out_and_returns_every_stack(
    harness: Harness,
) -> None:
    """Side pots on the turn, #poker deleted: the hand is checked down by the clock's
    rule, the pots awarded, every stack back, DMs sent, nothing posted."""
    h = harness
    await side_pot_hand(h)
    table = h.bot.registry.in_channel(h.channel.id)
    sent = channel_requests(h, h.channel)
    h.delete_channel()
    await h.settle()
    assert channel_requests(h, h.channel) == sent  # heard from the gateway: no request needed
    await assert_side_pot_hand_checked_down(h)
    await assert_played_out(
        h, table, "in #poker was closed because the channel was deleted", by_player(h))
    await assert_silent_from_now(h, h.channel)
    assert not h.bot.presenter.commitment_threads.holds()  # its thread went with #poker


async def test_a_thread_deleted_mid_hand_plays_it_out(harness: Harness) -> None:
    """The same at a table in a thread, when the thread is deleted."""
    h = harness
    thread = h.add_thread("high stakes")
    table = await side_pot_hand(h, thread)
    h.delete_channel(thread)
    await h.settle()
    await assert_side_pot_hand_checked_down(h)
    await assert_played_out(
        h, table, "in #high stakes was closed because the thread was deleted", by_player(h))
    await assert_silent_from_now(h, thread)


async def test_access_lost_mid_hand_stops_at_the_first_refusal(harness: Harness) -> None:
    """View Channel taken mid-hand: one request is refused (403 50001), then none."""
    h = harness
    table = await side_pot_hand(h)
    h.deny_bot("view_channel")
    before = channel_requests(h, h.channel)
    # a command's turn message goes by its interaction token (no channel route); the table
    # posted again at the bottom of the channel is the channel's route: refused
    assert (await h.slash(players(h)[0], "table refresh")).acknowledged
    await h.settle()
    assert channel_requests(h, h.channel) == before + 1
    await assert_played_out(h, table, "because I lost access to the channel", by_player(h))
    await assert_silent_from_now(h, h.channel)


async def test_the_bot_removed_from_the_server_plays_the_hand_out(harness: Harness) -> None:
    """Kicked mid-hand: every table of the server closes, each player is told by DM."""
    h = harness
    table = await side_pot_hand(h)
    h.remove_bot()
    await h.settle()
    await assert_played_out(
        h, table, "in #poker on Poker Club was closed because I was removed from the server",
        by_player(h))
    await assert_silent_from_now(h, h.channel)


def lock(h: Harness, thread: ChannelHandle) -> None:
    h.deny_bot("manage_threads")  # as invited (README): a moderator's lock holds for it
    h.archive_thread(thread, locked=True)


#: How a member cuts the bot off from a thread, and the reason the players are told.
CUTS: dict[str, tuple[Callable[[Harness, ChannelHandle], Any], str]] = {
    "50001-missing-access": (
        lambda h, thread: h.deny_bot("view_channel"), "because I lost access to the channel"),
    "50013-missing-permissions": (
        lambda h, thread: h.deny_bot("send_messages_in_threads"),
        "because I lost permissions the table needs in the channel"),
    "160005-thread-locked": (lock, "because the thread was locked"),
}


async def raise_and_shove(
    h: Harness, channel: ChannelHandle
) -> tuple[Table, MemberActor, MemberActor]:
    """Heads-up, 1,000 chips each (no limit, blinds 5/10): the first to act raises to 300,
    the other moves all-in; the raiser is to act. ``(table, raiser, shover)``."""
    await open_table(h, structure="no limit", big_blind=10, min_buyin=1000, max_buyin=1000,
                     channel=channel)
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="1000", channel=channel)
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(channel.id)
    raiser = to_act(h, table)
    await act(h, table, channel, "raise", to="300")
    shover = to_act(h, table)
    await act(h, table, channel, "allin")
    assert to_act(h, table) is raiser
    return table, raiser, shover


@pytest.mark.parametrize("cut", sorted(CUTS))
async def test_cutting_the_bot_off_cannot_cancel_a_losing_hand(
    harness: Harness, cut: str
) -> None:
    """The freeroll that was (issue 29): heads-up in a thread, one player raises to 300,
    the other moves all-in; the raiser cuts the bot off and runs /table refresh. The
    raiser's decision is a timeout (a fold): they lose the 300, the other wins it."""
    h = harness
    thread = h.add_thread("heads-up")
    table, raiser, shover = await raise_and_shove(h, thread)
    cutting, because = CUTS[cut]
    cutting(h, thread)
    assert (await h.slash(raiser, "table refresh", channel=thread)).acknowledged
    await h.settle()
    assert await actions_from(h, -1) == [("fold", "timeout")]
    assert await h.balance(raiser) == START - 300
    assert await h.balance(shover) == START + 300
    nets = await assert_played_out(h, table, because, {raiser: 1000, shover: 1000})
    assert nets == {raiser: -300, shover: 300}
    assert "Your 700 chips are back in your balance." in farewell_of(h, raiser)
    assert "Your 1,300 chips are back in your balance." in farewell_of(h, shover)
    await assert_silent_from_now(h, thread)


async def test_a_player_with_closed_dms_is_not_told_and_nothing_else_changes(
    harness: Harness,
) -> None:
    """A refused DM is tolerated: the other player is told, the hand and the chips end
    the same way, the table closes."""
    h = harness
    table, raiser, shover = await raise_and_shove(h, h.channel)
    h.close_dms(raiser)
    h.delete_channel()
    await h.settle()
    assert table.closed and [d.content for d in h.dms(raiser) if "was closed" in d.content] == []
    assert "You won 300 chips in it." in farewell_of(h, shover)
    assert (await h.balance(raiser), await h.balance(shover)) == (START - 300, START + 300)
    await h.audit()


async def test_a_sit_and_go_lost_mid_hand_is_cancelled_as_after_its_start(
    harness: Harness,
) -> None:
    """A running sit-and-go whose channel is deleted: its hand is played out, then the
    pool is split by stacks (nobody was out in a paid place), each prize told by DM."""
    h = harness
    h.bot.registry.pause = PAUSE
    reply = await h.slash(h.alice, "tournament create", buy_in=100, entrants=3)
    assert not reply.ephemeral, reply
    entrants = (h.alice, h.bob, h.carol)
    for actor in entrants:
        await h.slash(actor, "tournament join")
    await h.advance(PAUSE + 0.1)
    sng = h.bot.tournaments.in_channel(h.channel.id)
    table = sng.table
    assert table is not None and table.current is not None
    await act(h, table, h.channel, "call")
    h.delete_channel()
    await h.settle()
    assert (await h.bot.db.hands.get(1)).status == "finished"
    [gone] = h.bot.channel_loss.abandoned
    assert sum(gone.stacks.values()) == 3 * 1_500 and gone.hand == 1
    # the pool split by stacks: each its share rounded down, the chips left over one at a
    # time to the biggest stacks
    stacks = {actor: gone.stacks[actor.id] for actor in entrants}
    expected = {actor: 300 * stack // 4_500 for actor, stack in stacks.items()}
    for actor in sorted(entrants, key=lambda a: -stacks[a])[:300 - sum(expected.values())]:
        expected[actor] += 1
    prizes = {}
    for actor in entrants:
        prizes[actor] = await h.balance(actor) - (START - 100)
        dm = farewell_of(h, actor)
        assert "The sit and go at table" in dm and "stopped because the channel was deleted" in dm
        assert "hand #1 was played out by the clock's rule" in dm, dm
        assert "The tournament is cancelled as after its start" in dm, dm
        assert f"Your prize of {prizes[actor]:,} chips is in your balance." in dm, dm
    assert prizes == expected and sum(prizes.values()) == 300
    stored = await h.bot.db.tournaments.get(sng.tournament_id)
    assert stored.status == "cancelled" and stored.pool == 0
    await assert_silent_from_now(h, h.channel)


async def test_after_a_restart_a_lost_channel_is_found_and_its_hand_played_out(
    harness: Harness,
) -> None:
    """Access lost while the bot was down: the resumed hand's first post is refused, and
    the hand is played out then, every stack back."""
    h = harness
    table = await side_pot_hand(h)
    h.deny_bot("view_channel")
    await h.restart()
    await h.settle()
    [gone] = h.bot.channel_loss.abandoned
    assert gone.table_id == table.table_id and gone.hand == 1
    assert (await h.bot.db.hands.get(1)).status == "finished"
    balances = [await h.balance(actor) for actor in players(h)]
    assert sum(balances) == 4 * START and balances != [START] * 4
    await assert_silent_from_now(h, h.channel)


def test_the_farewell_speaks_the_players_language() -> None:
    """The DM about a lost table is worded in the player's language, numbers included."""
    from bot.runtime.table.abandon import Abandoned, Ending
    from cogs.channel_loss import CHANNEL_DELETED, farewell, where

    gone = Abandoned(3, 1, 2, "Pot Limit Omaha 1/2", CHANNEL_DELETED, Ending.CASHED_OUT,
                     {7: 1500, 8: 500}, hand=12, nets={7: -300, 8: 300},
                     stacks={7: 1500, 8: 500})
    english = farewell(gone, 7, where("poker", 2))
    assert english == (
        "Table 3 (Pot Limit Omaha 1/2) in #poker was closed because the channel was deleted;"
        " hand #12 was played out by the clock's rule: every decision left was taken as a"
        " timeout (a check when possible, otherwise a fold). You lost 300 chips in it."
        " Your 1,500 chips are back in your balance."
    )
    portuguese = farewell(gone, 8, where(None, 2, "pt-BR"), "pt-BR")
    assert portuguese == (
        "A mesa 3 (Pot Limit Omaha 1/2) em canal 2 foi fechada porque o canal foi apagado;"
        " a mão #12 foi jogada até o fim pela regra do relógio: cada decisão que faltava foi"
        " tomada como se o tempo tivesse acabado (check quando possível, senão desistir)."
        " Você ganhou 300 fichas nela. Suas 500 fichas voltaram para o seu saldo."
    )
    assert "se ha borrado el canal" in farewell(gone, 7, "#poker", "es-ES")
    assert "botar" in farewell(gone, 7, "#poker", "es-419")
    assert "il canale è stato eliminato" in farewell(gone, 7, "#poker", "it")
    cancelling = Abandoned(4, 1, 2, "", CHANNEL_DELETED, Ending.CANCELLING, {}, hand=3,
                           nets={7: 0}, stacks={7: 2_000})
    assert farewell(cancelling, 7, "#t").endswith(
        "You neither won nor lost a chip in it. The tournament is cancelled as after its"
        " start: once the hands in progress at its other tables end, players already out"
        " in a paid place keep their prize and the rest of the prize pool is split among"
        " the players still in, in proportion to their chips (you have 2,000 chips).")


def test_what_a_lost_tables_players_got_is_told_in_their_language() -> None:
    """The second DM of a lost multi-table tournament's table, once its cancellation is
    paid: what went to the balance, or that nothing did, in each player's language."""
    from bot.runtime.table.abandon import Abandoned, Ending
    from cogs.channel_loss import THREAD_DELETED, paid_out

    gone = Abandoned(4, 1, 2, "", THREAD_DELETED, Ending.CANCELLING, {}, stacks={7: 2_000})
    assert paid_out(gone, "#t", 1_250) == (
        "The sit and go whose table 4 in #t stopped is now cancelled: the hands at its other"
        " tables are over. Your prize of 1,250 chips is in your balance.")
    assert paid_out(gone, "#t", 0).endswith("over. No prize went to your balance.")
    assert paid_out(gone, "#t", 1_250, "es-ES").endswith(
        "Tu premio de 1.250 fichas está en tu saldo.")
    assert "quedó cancelado: terminaron las manos" in paid_out(gone, "#t", 0, "es-419")
    assert paid_out(gone, "#t", 0, "it").endswith("Nessun premio è andato nel tuo saldo.")
    assert "Nenhum prêmio foi para o seu saldo." in paid_out(gone, "#t", 0, "pt-BR")
