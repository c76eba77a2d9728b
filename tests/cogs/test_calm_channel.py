"""A calm channel (bot/adapter/channel.py): the request budget, coalescing, the end of a hand.

Played through the offline Discord with the real bot: the requests counted
are the ones the bot sent to the table's channel and through the webhook routes
of the interactions of its players' clicks (simcord's request log).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import discord
import pytest

from bot.adapter.pictures import PictureMode
from tests.cogs.test_table import (
    PAUSE,
    actor_of,
    open_table,
    play_out,
    seat_three,
    turn_message,
)
from tests.conftest import Harness, Reply, buttons_of


def channel_requests(h: Harness) -> list[str]:
    return [
        f"{r.method} {r.path}"
        for r in h.requests(contains=f"/channels/{h.channel.id}/messages")
    ]


def webhook_requests(h: Harness) -> list[str]:
    """Requests through interaction tokens, but the acknowledgements (the callbacks).
    In these tests every interaction is a click at the table."""
    return [f"{r.method} {r.path}" for r in h.requests(contains="/webhooks/")]


def table_requests(h: Harness) -> list[str]:
    return channel_requests(h) + webhook_requests(h)


def thread_requests(h: Harness) -> list[str]:
    """The requests into the table's commitment thread (one deck commitment each)."""
    [thread] = h.channel.threads
    return [f"{r.method} {r.path}" for r in h.requests(contains=f"/channels/{thread.id}/")]


async def test_each_action_costs_at_most_two_channel_requests(harness: Harness) -> None:
    """Three hands played with buttons: on average at most 2 requests to the table's
    channel or through its clicks' webhooks per action, each picture uploaded once, every
    click answered silently; every new live message is a click's followup (outside
    Discord's global rate limit), each replacing the message its click was on, the next
    hand's deck commitment and first message carried by the click that ended the hand."""
    h = harness
    pictures: list[bytes] = []
    h.bot.presenter.image_sink = lambda name, png: pictures.append(png)
    await seat_three(h)
    before, hooked_before = len(table_requests(h)), len(webhook_requests(h))
    before_ch, thread_before = len(channel_requests(h)), len(thread_requests(h))
    posts_before = len([r for r in channel_requests(h) if r.startswith("POST")])
    actions = 0
    for hand in (1, 2, 3):
        for _ in range(60):
            if any(f"Hand #{hand} result" in m.content for m in h.public_messages()):
                break
            turn = turn_message(h)
            labels = [str(b.label) for b in buttons_of(turn)]
            calls = [x for x in labels if x.startswith("Call")]
            label = "Check" if "Check" in labels else calls[0]
            reply = await h.click(actor_of(h, turn), turn, label=label)
            assert reply.silent, reply
            actions += 1
        await h.advance(PAUSE + 0.1)
    sent = table_requests(h)[before:]
    # hands 2, 3 and 4 were dealt after ``before``: one message each, in the thread
    assert len(thread_requests(h)) - thread_before == 3
    per_action = len(sent) / actions
    print(f"{len(sent)} channel or webhook requests for {actions} actions: "
          f"{per_action:.2f} per action")
    assert per_action <= 2.0, sent
    hooked = webhook_requests(h)[hooked_before:]
    followups = [r for r in hooked if r.startswith("POST")]
    posts = len([r for r in channel_requests(h) if r.startswith("POST")]) - posts_before
    print(f"live messages posted: {len(followups)} as followups, {posts} in the channel")
    # the next hands' first messages too: carried by the click that ended the hand before
    assert posts == 0, (followups, posts)
    deleted = [r for r in hooked if r.startswith("DELETE")]
    assert not channel_requests(h)[before_ch:]
    # each click's message replaced but the three that became results; each hand's last
    # click carried the next hand's first message
    assert len(deleted) == actions - 3
    assert len(followups) == len(deleted) + 3
    digests = [hashlib.sha256(p).hexdigest() for p in pictures]
    assert len(digests) == len(set(digests)), "a picture was uploaded twice"


async def test_three_hands_by_slash_commands_use_only_interaction_routes(
    harness: Harness,
) -> None:
    """Three hands played with /check and /call: every turn message is a public followup
    of the command that passed the turn (or of the token that ended the hand before, or
    for the first hand of the join that completed the table), each old one deleted
    through the token that posted it: no request to the table's channel, every command
    answered privately ("Done: ...")."""
    h = harness
    await seat_three(h)
    before_ch, hooked_before = len(channel_requests(h)), len(webhook_requests(h))
    actions = 0
    for hand in (1, 2, 3):
        for _ in range(60):
            if any(f"Hand #{hand} result" in m.content for m in h.public_messages()):
                break
            turn = turn_message(h)
            labels = [str(b.label) for b in buttons_of(turn)]
            command = "check" if "Check" in labels else "call"
            reply = await h.slash(actor_of(h, turn), command)
            assert reply.ephemeral and "Done: you" in reply.text, reply
            actions += 1
        await h.advance(PAUSE + 0.1)
    assert channel_requests(h)[before_ch:] == []
    hooked = webhook_requests(h)[hooked_before:]
    confirmations = [r for r in hooked if r.startswith("PATCH") and r.endswith("@original")]
    followups = [r for r in hooked if r.startswith("POST")]
    deleted = [r for r in hooked if r.startswith("DELETE")]
    print(f"{actions} actions by command: {len(followups)} turn messages as followups, "
          f"{len(deleted)} deleted through tokens, {len(hooked)} webhook requests")
    assert len(confirmations) == actions
    # each turn message replaced but the three that became results; the next hands' first
    # messages posted by the token that edited the result before
    assert len(deleted) == actions - 3 and len(followups) == actions


async def test_a_finished_hand_leaves_its_result_and_no_dead_button(harness: Harness) -> None:
    """The hand's live message becomes its result: its one button, **Hand log**, works for
    anyone who clicks it (every action, only to them: their own cards, nobody else's)."""
    h = harness
    await seat_three(h)
    await play_out(h)
    public = h.public_messages()
    [result] = [m for m in public if "Hand #1 result" in m.content]
    assert [m for m in public if buttons_of(m)] == [result]
    assert [str(b.label) for b in buttons_of(result)] == ["Hand log"]
    assert not result.embeds  # the log is behind the button, not under the result
    for actor in (h.bob, h.dave):
        log = await h.click(actor, result, label="Hand log")
        assert log.ephemeral and "**River**" in log.all_text, log
        assert ("Your cards" in log.all_text) == (actor is h.bob), log.all_text


async def test_the_turn_shows_a_live_countdown(harness: Harness) -> None:
    """The turn line carries Discord's relative timestamp, counting down on every screen."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    assert re.search(r"time runs out <t:\d+:R>", turn.content), turn.content


async def test_refresh_posts_the_live_table_at_the_bottom(harness: Harness) -> None:
    """Chat pushed the table up: /table refresh posts it again, once, at the bottom."""
    h = harness
    await seat_three(h)
    old = turn_message(h)
    await h.alice.send(h.channel, "nice hand earlier")
    reply = await h.slash(h.alice, "table refresh")
    assert reply.ephemeral, reply
    new = turn_message(h)
    assert new.id != old.id and h.public_messages()[-1].id == new.id
    assert old.id not in [m.id for m in h.public_messages()]
    assert (await h.slash(h.dave, "table refresh")).ephemeral


@pytest.mark.parametrize(
    ("variant", "said"), [("omaha", "Equity: "), ("omaha_hilo", "Share of the pot: ")]
)
async def test_an_all_in_run_out_is_shown_street_by_street(
    harness: Harness, variant: str, said: str
) -> None:
    """All-in before the flop: the live message shows the flop, turn and river in turn,
    each with the hands' equity (in hi-lo: the share of the pot and how often each hand
    scoops or splits it), then becomes the result."""
    h = harness
    h.bot.presenter.runout_pause = 2.0
    await open_table(h, variant=variant, structure="no limit")
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    for _ in range(6):
        turn = turn_message(h)
        labels = [str(b.label) for b in buttons_of(turn)]
        shove = [x for x in labels if x.startswith("All-in")]
        label = shove[0] if shove else next(x for x in labels if x.startswith("Call"))
        assert (await h.click(actor_of(h, turn), turn, label=label)).silent
        if not [m for m in h.public_messages() if any(b.label == "Fold" for b in buttons_of(m))]:
            break
    for _ in range(4):
        await h.advance(2.0)
    edits = [  # through the channel, or the last click's token (@original: its message)
        content for r in h.requests("PATCH")
        if f"/channels/{h.channel.id}/" in r.path or "/webhooks/" in r.path
        if "Hand #1" in (content := str((r.json or {}).get("content")))
    ]
    streets = [m.group(1) for e in edits if (m := re.search(r"· (Flop|Turn|River)\n", e))]
    assert streets == ["Flop", "Turn", "River"], edits
    assert all(said in e for e in edits[:2]), edits
    assert all(("(scoop " in e) == (variant == "omaha_hilo") for e in edits[:2]), edits
    assert "Hand #1 result" in edits[-1]
    assert any("Hand #1 result" in m.content for m in h.public_messages())


async def test_pictures_only_at_street_changes_are_drawn_once_a_street(
    harness: Harness,
) -> None:
    """``TABLE_PICTURES=street``: every turn message still carries a table picture, but
    within a street it is the street's picture again (drawn once); each street and the
    result get their own."""
    h = harness
    h.bot.presenter.pictures = PictureMode.STREET
    pictures: list[tuple[str, bytes]] = []
    h.bot.presenter.image_sink = lambda name, png: pictures.append((name, png))
    await seat_three(h)
    await play_out(h)
    tables = [png for name, png in pictures if name.startswith("table-")]
    distinct = list(dict.fromkeys(hashlib.sha256(p).digest() for p in tables))
    assert len(tables) > len(distinct) >= 4, (len(tables), len(distinct))
    assert len(distinct) <= 5  # preflop, flop, turn, river, and the hand's end
    runs = [hashlib.sha256(p).digest() for p in tables]
    assert [d for i, d in enumerate(runs) if i == 0 or runs[i - 1] != d] == distinct, (
        "a street's picture came back after the next street's")


async def play_hands(h: Harness, hands: range, panels: dict[Any, Reply] | None = None) -> int:
    """Check or call down ``hands`` (their numbers), by the public buttons or, given
    ``panels``, from each player's seat panel; the number of actions."""
    actions = 0
    for hand in hands:
        for _ in range(60):
            if any(f"Hand #{hand} result" in m.content for m in h.public_messages()):
                break
            turn = turn_message(h)
            actor = actor_of(h, turn)
            shown: Any = turn if panels is None else panels[actor].message
            labels = [str(b.label) for b in buttons_of(shown) if not b.disabled]
            label = "Check" if "Check" in labels else next(
                x for x in labels if x.startswith("Call") and x != "Call any")
            reply = await h.click(actor, shown, label=label)
            assert reply.deferred, reply
            actions += 1
        else:
            raise AssertionError(f"hand {hand} did not end")
        await h.advance(PAUSE + 0.1)
    return actions


async def test_every_panel_open_keeps_the_channel_budget(harness: Harness) -> None:
    """Four players, three hands by the public buttons without panels, then three hands
    with every player's seat panel open, played from the panels: the table's channel
    routes stay unused either way (no request per action), the table's own interaction
    requests stay within 2 per action (2.06 measured, with the deck commitments), and the
    four panels cost under 3 edits per action between them (2.75 measured: the player
    whose turn ends, the one whose turn begins, every panel at a street, the result and
    the next deal), all through interaction tokens (PATCH .../@original)."""
    h = harness
    await open_table(h)
    for actor in (h.alice, h.bob, h.carol, h.dave):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await play_hands(h, range(1, 2))  # the first message was posted before any click
    panels = h.bot.presenter.panels
    channel, hooked = len(channel_requests(h)), len(webhook_requests(h))
    plain = await play_hands(h, range(2, 5))
    without = (len(channel_requests(h)) - channel, len(webhook_requests(h)) - hooked)
    opened = {a: await h.click(a, turn_message(h), label="My seat")
              for a in (h.alice, h.bob, h.carol, h.dave)}
    channel, hooked, edits = len(channel_requests(h)), len(webhook_requests(h)), panels.edits
    paneled = await play_hands(h, range(5, 8), opened)
    panel_edits = panels.edits - edits
    table_hooked = len(webhook_requests(h)) - hooked - panel_edits
    with_panels = (len(channel_requests(h)) - channel, table_hooked, panel_edits)
    print(f"4-handed, no panel: {without[0] / plain:.2f} channel and {without[1] / plain:.2f} "
          f"webhook requests per action ({plain} actions); every panel open: "
          f"{with_panels[0] / paneled:.2f} channel, {with_panels[1] / paneled:.2f} webhook "
          f"for the table and {with_panels[2] / paneled:.2f} panel edits per action "
          f"({paneled} actions)")
    assert without[0] == with_panels[0] == 0
    commitments = 3
    assert (without[1] - commitments) / plain <= 2.0
    assert (with_panels[1] - commitments) / paneled <= 2.0
    assert 0 < panel_edits <= 3 * paneled  # 2.75 measured: the turns, streets, hands
    assert all(not p.stale for p in panels.at(1)) and len(panels.at(1)) == 4


#: What a turn message may carry: the actions of the player to act, and My seat.
TURN_LABELS = re.compile(r"Fold|Check|Call \d+( \(all-in\))?|(Min|½ Pot|Pot) · (bet|raise to) \d+"
                         r"|All-in \d+|Bet…|Raise to…|My seat")


async def test_the_turn_message_carries_only_the_turn_and_my_seat(harness: Harness) -> None:
    """Every turn message of a hand: the actions of the player to act and **My seat**,
    nothing meant for the others (the pre-actions are in the panels), within Discord's
    limits (5 buttons a row, 25 a message; the offline Discord refuses more)."""
    h = harness
    await seat_three(h)
    seen = 0
    for _ in range(60):
        if any("Hand #1 result" in m.content for m in h.public_messages()):
            break
        turn = turn_message(h)
        rows = [row for row in turn.components if isinstance(row, discord.ActionRow)]
        labels = [str(b.label) for b in buttons_of(turn)]
        assert all(TURN_LABELS.fullmatch(x) for x in labels), labels
        assert labels[0] == "Fold" and labels[-1] == "My seat" and labels.count("My seat") == 1
        assert all(len(row.children) <= 5 for row in rows) and len(labels) <= 25
        seen += 1
        label = "Check" if "Check" in labels else next(x for x in labels if x.startswith("Call"))
        await h.click(actor_of(h, turn), turn, label=label)
    assert seen >= 8
    [result] = [m for m in h.public_messages() if "Hand #1 result" in m.content]
    assert [str(b.label) for b in buttons_of(result)] == ["Hand log"]
