"""Behaviour of the table commands and buttons through the offline Discord (simcord)."""

from __future__ import annotations

import re

import pytest

from bot.client import OmahaDealer
from bot.i18n.cards import written
from bot.render import sort_hole
from tests.conftest import Harness, Reply, buttons_of

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    """Load the table cog with the error handler and the economy."""
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


#: Seconds between hands in these tests: longer than simcord's settle timeout (5 s),
#: so the wait is parked until the test moves the clock.
PAUSE = 10.0


async def open_table(h: Harness, **options: object) -> Reply:
    assert h.bot.registry is not None
    h.bot.registry.pause = PAUSE
    reply = await h.slash(h.alice, "table create", **options)
    assert not reply.ephemeral, reply
    return reply


async def seat_three(h: Harness) -> None:
    await open_table(h)
    for actor in (h.alice, h.bob, h.carol):
        reply = await h.slash(actor, "table join", buyin="200")
        assert reply.ephemeral and "You sat down" in reply.text, reply
    await h.advance(PAUSE + 0.1)


def turn_message(h: Harness):  # type: ignore[no-untyped-def]
    """The current turn prompt (the last public message with a fold button, in any language)."""
    for m in reversed(h.public_messages()):
        if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m)):
            return m
    raise AssertionError("no turn message in the channel")


def actor_of(h: Harness, message) -> object:  # type: ignore[no-untyped-def]
    for actor in h.members.values():
        if f"<@{actor.id}>" in message.content:
            return actor
    raise AssertionError(f"nobody mentioned in {message.content!r}")


async def test_create_join_and_deal_a_hand(harness: Harness) -> None:
    """A table is created, three players sit, the hand is dealt: DMs carry PNG cards."""
    h = harness
    reply = await open_table(h)
    assert "Pot Limit Omaha 1/2" in reply.text and "6 seats" in reply.text
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    assert await h.balance(h.bob) == 10_000 - 200
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    for actor in (h.alice, h.bob, h.carol):
        [dm] = h.dms(actor)
        assert "hand #1" in dm.content and str(h.channel.id) in dm.content
        # the cards in words too (a screen reader reads them), in the picture's order
        hole = sort_hole(table.hole_cards(actor.id).cards)
        assert dm.content.endswith(f"\nYour cards: {written(hole)}"), dm.content
        assert dm.attachments[0].description.startswith("Table 1 · Hand #1")
        await h.png(dm)
    texts = [m.content for m in h.public_messages()]
    assert any("Drawing for the button" in t for t in texts)
    turn = turn_message(h)
    labels = [b.label for b in buttons_of(turn)]
    assert "Fold" in labels and "Call 2" in labels and any(str(x).startswith("Pot") for x in labels)


async def play_out(h: Harness, limit: int = 60) -> None:
    """Check or call with the turn buttons until the hand's result is posted."""
    for _ in range(limit):
        if any("result**" in m.content for m in h.public_messages()):
            return
        turn = turn_message(h)
        actor = actor_of(h, turn)
        labels = [str(b.label) for b in buttons_of(turn)]
        label = "Check" if "Check" in labels else next(x for x in labels if x.startswith("Call"))
        reply = await h.click(actor, turn, label=label)
        assert reply.silent, reply  # the table's message shows the action: no extra reply
    raise AssertionError("the hand did not end")


async def test_a_whole_hand_through_buttons_leaves_one_message(harness: Harness) -> None:
    """Calling and checking down: the live message moves with each turn, and the hand
    leaves one message behind, its result, with no dead button and its log one click away."""
    h = harness
    await seat_three(h)
    await play_out(h)
    public = h.public_messages()
    hand_messages = [m for m in public if m.content.startswith("**Hand #1")]
    assert len(hand_messages) == 1
    [result] = hand_messages
    assert "Hand #1 result" in result.content and " wins " in result.content
    record = await h.bot.db.history.in_channel(h.channel.id, 1)
    assert record is not None and record.status == "finished"
    # its one button opens that stored hand's whole log (cogs/hands.py answers it)
    assert [b.custom_id for b in buttons_of(result)] == [f"omaha:hand:{record.id}"]
    assert not [m for m in public if any(b.label == "Fold" for b in buttons_of(m))]
    total = sum([await h.balance(a) for a in (h.alice, h.bob, h.carol)])
    table = h.bot.registry.in_channel(h.channel.id)
    assert total + sum(s.stack for s in table.seats.values()) == 30_000


async def test_wrong_player_and_stale_buttons_are_refused_privately(harness: Harness) -> None:
    """Clicking someone else's turn button, or an old one, gets a private no and changes nothing."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    other = next(a for a in (h.alice, h.bob, h.carol) if a is not actor)
    reply = await h.click(other, turn, label="Fold")
    assert reply.ephemeral and "not your turn" in reply.text, reply
    assert turn_message(h).id == turn.id
    await h.click(actor, turn, label="Call 2")
    assert turn.id not in [m.id for m in h.public_messages()], "old turn prompts are removed"
    assert turn_message(h).id != turn.id


async def test_two_clicks_at_once_do_one_thing(harness: Harness) -> None:
    """The same player double-clicking Call: one call, one polite refusal."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    replies = await h.concurrently(
        lambda: h.click(actor, turn, label="Call 2"), lambda: h.click(actor, turn, label="Call 2")
    )
    [done] = [r for r in replies if r.silent]
    [refused] = [r for r in replies if not r.silent]
    assert all(m.ephemeral for m in refused.messages) and "earlier decision" in refused.all_text
    assert done is not refused
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None and table.current.seq == 1


@pytest.mark.parametrize(
    "to, words",
    [
        ("abc", "whole number"),
        ("-5", "negative"),
        ("0", "more than zero"),
        ("1e99", "whole number"),
        ("99999999999999999999", "too large"),
        ("3", "raise"),
        ("500", ""),
    ],
)
async def test_bad_raise_amounts_are_explained(harness: Harness, to: str, words: str) -> None:
    """Text, negative, zero, huge and out-of-range raises get a private answer; no change."""
    h = harness
    await seat_three(h)
    actor = actor_of(h, turn_message(h))
    reply = await h.slash(actor, "raise", to=to)
    assert reply.ephemeral and words.lower() in reply.text.lower(), reply
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None and table.current.seq == 0


async def test_commands_without_table_or_seat(harness: Harness) -> None:
    """No table in the channel, or not seated: clear private answers."""
    h = harness
    other = h.add_channel("lobby")
    reply = await h.slash(h.alice, "table join", channel=other)
    assert reply.ephemeral and "no table in this channel" in reply.text
    await seat_three(h)
    reply = await h.slash(h.dave, "fold")
    assert reply.ephemeral and "not seated" in reply.text
    reply = await h.slash(h.dave, "cards")
    assert reply.ephemeral and "not seated" in reply.text


async def test_closed_dms_fall_back_to_cards_command(harness: Harness) -> None:
    """DMs closed: the channel says to use /cards (no cards in it, no ping); /cards answers
    privately."""
    h = harness
    await open_table(h)
    h.close_dms(h.bob)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    notes = [
        m for m in h.public_messages() if f"<@{h.bob.id}>" in m.content and "/cards" in m.content
    ]
    assert notes
    # it names bob without pinging him: only his turn messages do (issue 23)
    told = [users for text, users, _ in h.pinged() if "cannot send you direct messages" in text]
    assert told == [frozenset()], told
    table = h.bot.registry.in_channel(h.channel.id)
    hole = table.hole_cards(h.bob.id).cards
    for m in h.public_messages():
        assert not all(written([c]) in m.content for c in hole)
    reply = await h.slash(h.bob, "cards")
    assert reply.ephemeral
    # in the picture's order, with rank and suit symbols (issue 31)
    assert written(sort_hole(hole)) in reply.all_text
    [png] = await reply.images()
    assert png


async def test_timeout_folds_and_reminds(harness: Harness) -> None:
    """When the clock and the bank run out the bot folds; a reminder comes first."""
    h = harness
    await open_table(h, clock=20, time_bank=0)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    actor = actor_of(h, turn_message(h))
    await h.advance(11)
    assert any("s left to act" in m.content for m in h.public_messages())
    await h.advance(10)
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None
    assert table.current.hand.to_act != table.seat_of(actor.id).number
    hand = next(m for m in h.public_messages() if m.content.startswith("**Hand #1**"))
    assert "time ran out" in hand.content


async def test_close_needs_creator_or_manager(harness: Harness) -> None:
    """Only the creator or a manager may close; stacks go back to balances."""
    h = harness
    await open_table(h)
    await h.slash(h.bob, "table join", buyin="150")
    reply = await h.slash(h.bob, "table close")
    assert reply.ephemeral and "creator" in reply.text
    reply = await h.slash(h.manager, "table close")
    assert reply.ephemeral and "closed" in reply.text  # the channel is told once, below
    closing = [m.content for m in h.public_messages() if "closed" in m.content]
    assert len(closing) == 1, closing
    assert await h.balance(h.bob) == 10_000


async def test_raise_form_shows_the_range_and_raises(harness: Harness) -> None:
    """The Raise button opens a form naming the allowed range; submitting raises."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    shown = await h.click(actor, turn, label="Raise to…")
    assert shown.modal is not None
    assert "4 to 7" in str(shown.modal)
    reply = await h.submit(actor, shown, {"amount": "6"})
    assert reply.silent and "raises to 6" in turn_message(h).content, reply


async def test_raise_form_outlives_a_long_turn(harness: Harness) -> None:
    """With a 600 s clock and a 3,600 s time bank, a form opened at once and submitted
    an hour later (past the old 300 s form timeout) still raises."""
    h = harness
    await open_table(h, clock=600, time_bank=3600)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    shown = await h.click(actor, turn, label="Raise to…")
    await h.advance(3600)
    reply = await h.submit(actor, shown, {"amount": "6"})
    assert reply.silent and "raises to 6" in turn_message(h).content, reply


async def test_buttons_work_after_a_restart(harness: Harness) -> None:
    """After a restart the hand resumes and the old turn message's buttons still act."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    new = OmahaDealer(h.bot.settings, extensions=(
        "cogs.errors", "cogs.economy", "cogs.table", "cogs.actions"))
    await h.env.restart_bot(new)
    new.db.clock = h.clock
    await h.settle()
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None
    assert "resumes" in h.public_messages()[-2].content or any(
        "resumes" in m.content for m in h.public_messages()
    )
    reply = await h.click(actor, turn, label="Call 2")
    assert reply.silent, reply
    assert table.current.seq == 1


async def test_a_resumed_hand_does_not_call_its_bets_posted(harness: Harness) -> None:
    """The table's message of a hand resumed after a restart names no "Posted:" amounts:
    what the players have put in by then is no longer what they posted."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    assert "Posted:" in turn.content
    actor = actor_of(h, turn)
    reply = await h.click(actor, turn, label="Call 2")
    assert reply.silent, reply
    new = OmahaDealer(h.bot.settings, extensions=(
        "cogs.errors", "cogs.economy", "cogs.table", "cogs.actions"))
    await h.env.restart_bot(new)
    new.db.clock = h.clock
    await h.settle()
    assert any("resumes" in m.content for m in h.public_messages())
    resumed = turn_message(h)
    assert "Posted:" not in resumed.content, resumed.content


async def play_by_commands(h: Harness, limit: int = 80) -> None:
    """Play the running hand with /check and /call typed by whoever is mentioned."""
    for _ in range(limit):
        if any("result**" in m.content for m in h.public_messages()):
            return
        turn = turn_message(h)
        actor = actor_of(h, turn)
        command = "check" if any(b.label == "Check" for b in buttons_of(turn)) else "call"
        reply = await h.slash(actor, command)
        assert reply.ephemeral and reply.text.startswith("Done"), reply
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize(
    "variant, structure, cards",
    [
        ("omaha", "pot limit", 4),
        ("omaha_hilo", "fixed limit", 4),
        ("omaha5", "no limit", 5),
        ("big_o", "pot limit", 5),
        ("omaha6", "pot limit", 6),
        ("courchevel", "pot limit", 5),
        ("courchevel_hilo", "no limit", 5),
    ],
)
async def test_each_variant_plays_a_hand_by_commands(
    harness: Harness, variant: str, structure: str, cards: int
) -> None:
    """Every variant deals the right number of hole cards and plays to a result by commands."""
    h = harness
    await open_table(h, variant=variant, structure=structure)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="100")
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    mine = table.hole_cards(h.alice.id)
    hole, board = mine.cards, mine.board
    assert len(hole) == cards
    assert len(board) == (1 if variant.startswith("courchevel") else 0)
    await play_by_commands(h)
    result = next(m for m in h.public_messages() if "Hand #1 result" in m.content)
    # one pot won whole, or split, or (hi-lo halves, several pots) a net per player
    assert re.search(r" wins | split |^\S+ \+\d", result.content, re.MULTILINE), result.content


async def test_pre_action_button_acts_when_the_turn_comes(harness: Harness) -> None:
    """'Call any' in the player's seat panel (My seat on the hand message) calls for them
    when their turn arrives; the panel shows the pre-action chosen."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    first = actor_of(h, turn)
    table = h.bot.registry.in_channel(h.channel.id)
    dealt = sorted(table.current.dealt)
    small_blind = dealt[(dealt.index(table.button) + 1) % len(dealt)]
    waiting = next(a for a in h.members.values() if a.id == table.seats[small_blind].user_id)
    assert waiting is not first
    hand_msg = next(m for m in h.public_messages() if m.content.startswith("**Hand #1**"))
    panel = await h.click(waiting, hand_msg, label="My seat")
    assert panel.ephemeral and "Your pre-action" not in panel.text, panel
    reply = await h.click(waiting, panel.message, label="Call any")
    assert reply.deferred and not reply.result.followups, reply  # the panel says it
    assert "Your pre-action: **call any**" in panel.text, panel.text
    await h.click(first, turn, label="Call 2")
    stored = await h.bot.db.hands.load_unfinished(table.current.hand_id)
    done = [(a["kind"], a["source"], a["seat"]) for a in stored.actions]
    assert done[1] == ("call", "pre-action", small_blind), done


async def test_settings_only_by_creator_between_hands(harness: Harness) -> None:
    """Another player cannot change settings; the creator can, between hands."""
    h = harness
    await open_table(h)
    reply = await h.slash(h.bob, "table settings", big_blind=4)
    assert reply.ephemeral and "creator" in reply.text
    reply = await h.slash(h.alice, "table settings", big_blind=4, clock=20)
    assert not reply.ephemeral and "2/4" in reply.text
    reply = await h.slash(h.bob, "table settings")
    assert reply.ephemeral and "2/4" in reply.text


async def test_info_sitout_sitin_topup_and_leave(harness: Harness) -> None:
    """The seat commands answer privately and move chips only between hands."""
    h = harness
    await open_table(h)
    await h.slash(h.alice, "table join", buyin="100")
    await h.slash(h.bob, "table join", buyin="100", seat=4)
    reply = await h.slash(h.carol, "table info")
    assert reply.ephemeral and "Seat 1: alice · 100 chips" in reply.text
    assert "Seat 4: bob" in reply.text
    reply = await h.slash(h.bob, "table sitout")
    assert reply.ephemeral and "sitting out" in reply.text
    await h.advance(PAUSE + 0.1)
    assert h.bot.registry.in_channel(h.channel.id).current is None
    reply = await h.slash(h.bob, "table topup", amount="150")
    assert reply.ephemeral and "at most 100" in reply.text
    reply = await h.slash(h.bob, "table topup", amount="5k")
    assert reply.ephemeral and "at most" in reply.text
    reply = await h.slash(h.bob, "table topup", amount="100")
    assert reply.ephemeral and "200 chips" in reply.text
    assert await h.balance(h.bob) == 10_000 - 200
    reply = await h.slash(h.bob, "table sitin")
    assert reply.ephemeral and "Welcome back" in reply.text
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None
    reply = await h.slash(h.bob, "table topup", amount="10")
    assert reply.ephemeral and "between hands" in reply.text
    actor = actor_of(h, turn_message(h))
    other = h.bob if actor is h.alice else h.alice
    reply = await h.slash(other, "table leave")
    assert reply.ephemeral and "when the hand ends" in reply.text.replace(
        "this hand ends", "the hand ends"
    )
    await h.click(actor, turn_message(h), label="Fold")
    assert table.seat_of(other.id) is None
    total = await h.balance(h.alice) + await h.balance(h.bob)
    assert total + sum(s.stack for s in table.seats.values()) == 20_000


async def test_closing_and_opening_again_keeps_the_return_rule(harness: Harness) -> None:
    """The ratholing of issue 29: alice leaves with 199, closes the table, opens another
    in the same channel and asks to sit down with 40: refused privately, naming 199 and
    moving nothing; with 199 she sits down. Another table of the
    game in another channel asks the same of her; one with other blinds does not."""
    h = harness
    await open_table(h)
    await h.slash(h.alice, "table join", buyin="199")
    assert "199" in (await h.slash(h.alice, "table leave")).text
    assert (await h.slash(h.alice, "table close")).ephemeral
    await open_table(h)
    refused = await h.slash(h.alice, "table join", buyin="40")
    assert refused.ephemeral and "bring at least 199" in refused.text, refused
    assert await h.balance(h.alice) == 10_000
    elsewhere = h.add_channel("elsewhere")
    await h.slash(h.bob, "table create", channel=elsewhere)
    again = await h.slash(h.alice, "table join", channel=elsewhere, buyin="40")
    assert again.ephemeral and "bring at least 199" in again.text, again
    bigger = h.add_channel("bigger")
    await h.slash(h.bob, "table create", channel=bigger, big_blind=4)
    sat = await h.slash(h.alice, "table join", channel=bigger, buyin="80")
    assert "You sat down" in sat.text, sat
    sat = await h.slash(h.alice, "table join", buyin="199")
    assert "You sat down" in sat.text, sat
    assert await h.balance(h.alice) == 10_000 - 80 - 199
