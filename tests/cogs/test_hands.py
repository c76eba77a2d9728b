"""/hand show|export|verify and /hands through the offline Discord: private, and never
another player's mucked or folded cards."""

from __future__ import annotations

import asyncio
import io
import os
import random
import re
import signal

import pytest
from PIL import Image

import bot.render.replay
from bot import render
from bot.engine import phh
from bot.engine.phh.proof import card_positions, verify
from bot.i18n.cards import written
from bot.runtime.hand_history import load_past
from bot.runtime.replay_frames import final_table, replay_view
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of

CARD = re.compile(r"(?<![0-9A-Za-z])((?:10|[2-9JQKA])[\u2660\u2665\u2666\u2663])")  # K♠ 10♥


async def _seat_four(h: Harness) -> None:
    h.bot.registry.rng = random.Random(11)
    await open_table(h)
    for actor in (h.alice, h.bob, h.carol, h.dave):
        reply = await h.slash(actor, "table join", buyin="200")
        assert reply.ephemeral, reply
    await h.advance(PAUSE + 0.1)


async def play_out(h: Harness, number: int = 1) -> None:
    """Check or call until hand ``number``'s result is posted."""
    for _ in range(80):
        if any(f"Hand #{number} result" in m.content for m in h.public_messages()):
            return
        turn = turn_message(h)
        labels = [str(b.label) for b in buttons_of(turn)]
        label = "Check" if "Check" in labels else next(x for x in labels if x.startswith("Call"))
        assert (await h.click(actor_of(h, turn), turn, label=label)).silent
    raise AssertionError(f"hand #{number} did not end")


async def _hand_with_a_muck(h: Harness) -> int:
    """Play hands (check and call) until one ends with a mucked hand; its number."""
    for number in range(1, 9):
        await play_out(h, number)
        record = await h.bot.db.history.in_channel(h.channel.id, number)
        assert record is not None and record.status == "finished"
        past = await load_past(h.bot.db, record)
        if past.hand.result.mucked:
            return number
        await h.advance(PAUSE + 0.1)
    raise AssertionError("no hand with a mucked hand in 8")


async def test_nobody_sees_another_players_mucked_cards(harness: Harness) -> None:
    """Every seat of a multiway showdown opens and exports the hand: their own cards, the
    board and the shown hands, nothing else; the export verifies."""
    h = harness
    await _seat_four(h)
    number = await _hand_with_a_muck(h)
    record = await h.bot.db.history.in_channel(h.channel.id, number)
    assert record is not None
    past = await load_past(h.bot.db, record)
    shown = dict(past.hand.shown)
    board = set(past.hand.board)
    for actor in (h.alice, h.bob, h.carol, h.dave):
        seat = past.seat_of(actor.id)
        assert seat is not None
        allowed = board | set(past.hand.hole(seat)) | {c for cs in shown.values() for c in cs}
        reply = await h.slash(actor, "hand show", number=number)
        assert reply.ephemeral, reply
        assert f"Hand #{number}" in reply.all_text
        seen = set(CARD.findall(reply.all_text))
        may = {written([c]) for c in allowed}
        assert seen <= may, (actor, seen - may)
        assert {written([c]) for c in past.hand.hole(seat)} <= seen
        assert len(await reply.images()) == 1
        view = final_table(past, {s: f"p{s}" for s in past.users}, seat)
        assert {c for s in view.seats for c in s.shown} | set(view.board) <= allowed
        export = await h.slash(actor, "hand export", number=number)
        [(name, data)] = await export.files()
        assert name == f"hand-{number}.phh" and export.ephemeral
        hh = phh.loads(data.decode())
        assert {c for c, _ in card_positions(hh).values()} <= allowed
        assert verify(hh).ok
        checked = await h.slash(actor, "hand verify", number=number)
        assert checked.ephemeral and "verified: the deal" in checked.text, checked


async def test_the_default_is_your_last_hand_and_export_takes_the_last_n(
    harness: Harness,
) -> None:
    h = harness
    await _seat_four(h)
    await play_out(h, 1)
    await h.advance(PAUSE + 0.1)
    await play_out(h, 2)
    reply = await h.slash(h.bob, "hand show")
    assert reply.ephemeral and "**Hand #2**" in reply.all_text, reply
    export = await h.slash(h.bob, "hand export", last=5)
    [(name, data)] = await export.files()
    assert name == "hands-1-2.phhs"
    assert [verify(hh).ok for hh in phh.loads_all(data.decode())] == [True, True]


async def test_hand_numbers_are_offered_as_you_type(harness: Harness) -> None:
    """Issue 23: /hand show, export and verify offer the member's own last hands in this
    channel (newest first, in their language), filtered by the digits typed; a member who
    played none is offered nothing."""
    h = harness
    await _seat_four(h)
    await play_out(h, 1)
    await h.advance(PAUSE + 0.1)
    await play_out(h, 2)
    for command in ("hand show", "hand export", "hand verify"):
        offered = await h.bob.autocomplete(h.channel, command, "number", "")
        assert [(c["name"], c["value"]) for c in offered] == [
            ("Hand #2 · Pot Limit Omaha 1/2", 2), ("Hand #1 · Pot Limit Omaha 1/2", 1)]
    assert [c["value"] for c in await h.bob.autocomplete(h.channel, "hand show", "number",
                                                         "#1")] == [1]
    h.set_locale(h.carol, "pt-BR")
    offered = await h.carol.autocomplete(h.channel, "hand show", "number", "2")
    assert [c["name"] for c in offered] == ["Mão #2 · Omaha Pot Limit 1/2"], offered
    eve = h.add_member("eve")
    assert await eve.autocomplete(h.channel, "hand show", "number", "") == []
    chosen = offered[0]["value"]
    reply = await h.slash(h.carol, "hand show", number=chosen)
    assert reply.ephemeral and "#2" in reply.all_text


async def test_hands_lists_the_server_and_a_button_opens_one(harness: Harness) -> None:
    h = harness
    await _seat_four(h)
    await play_out(h)
    listing = await h.slash(h.carol, "hands")
    assert listing.ephemeral and "**#1**" in listing.text and "pot " in listing.text, listing
    assert "Pot Limit Omaha 1/2" in listing.text, listing.text  # the game, as players say it
    [button] = listing.buttons
    assert listing.message is not None
    opened = await h.click(h.carol, listing.message, custom_id=button["custom_id"])
    assert opened.ephemeral and "**Hand #1**" in opened.all_text, opened
    mine = await h.slash(h.carol, "hands", player=h.carol)
    assert re.search(r"carol [+-]\d", mine.text), mine.text


async def test_bad_requests_get_a_polite_private_answer(harness: Harness) -> None:
    h = harness
    none = await h.slash(h.alice, "hand show")
    assert none.ephemeral and "no finished hand" in none.text
    assert "no finished hand" in (await h.slash(h.alice, "hands")).text
    await _seat_four(h)
    running = await h.slash(h.alice, "hand show", number=1)
    assert running.ephemeral and "still being played" in running.text, running
    missing = await h.slash(h.alice, "hand verify", number=99)
    assert missing.ephemeral and "There is no hand #99" in missing.text
    both = await h.slash(h.alice, "hand export", number=1, last=2)
    assert both.ephemeral and "not both" in both.text
    await play_out(h)


def _gif_frames(data: bytes) -> int:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return int(image.n_frames)


async def test_a_replay_comes_privately_by_command_and_by_the_show_button(
    harness: Harness,
) -> None:
    """/hand replay and the Replay button of /hand show send the hand as an animated GIF,
    only to the asker, a frame for each step of the plan the asker may see."""
    h = harness
    await _seat_four(h)
    await play_out(h)
    record = await h.bot.db.history.in_channel(h.channel.id, 1)
    assert record is not None
    past = await load_past(h.bot.db, record)
    seat = past.seat_of(h.bob.id)
    frames = len(replay_view(past, dict.fromkeys(past.users, "x"), seat).frames)
    reply = await h.slash(h.bob, "hand replay")
    [(name, data)] = await reply.files()
    assert reply.ephemeral and name == "hand-1.gif" and "**Hand #1**" in reply.text, reply
    assert _gif_frames(data) == frames
    shown = await h.slash(h.bob, "hand show", number=1)
    [button] = [b for b in shown.buttons if b["custom_id"] == f"omaha:replay:{record.id}"]
    assert shown.message is not None and button["label"] == "Replay"
    clicked = await h.click(h.bob, shown.message, custom_id=button["custom_id"])
    [(_, again)] = await clicked.files()
    assert clicked.ephemeral and _gif_frames(again) == frames
    assert not any(m.attachments for m in h.public_messages() if "replay" in m.content)


async def test_a_public_replay_is_posted_with_only_the_hands_shown_down(
    harness: Harness,
) -> None:
    h = harness
    await _seat_four(h)
    await play_out(h)
    record = await h.bot.db.history.in_channel(h.channel.id, 1)
    assert record is not None
    past = await load_past(h.bot.db, record)
    reply = await h.slash(h.carol, "hand replay", number=1, public=True)
    assert reply.ephemeral and "in the channel" in reply.texts[0], reply
    [posted] = [m for m in h.public_messages() if m.attachments
                and m.attachments[0].filename == "hand-1.gif"]
    assert "**Hand #1**" in posted.content
    [(_, data)] = await h.files(posted)
    assert _gif_frames(data) == len(replay_view(past, dict.fromkeys(past.users, "x"),
                                                None).frames)


async def test_a_second_replay_while_the_first_is_drawn_is_refused(harness: Harness) -> None:
    """Two /hand replay at the same moment by one member: one GIF, one polite refusal;
    afterwards the member may ask again."""
    h = harness
    await _seat_four(h)
    await play_out(h)
    first, second = await h.concurrently(lambda: h.slash(h.bob, "hand replay"),
                                         lambda: h.slash(h.bob, "hand replay"))
    files = [await r.files() for r in (first, second)]
    assert sorted(len(f) for f in files) == [0, 1], files
    refused = first if not files[0] else second
    assert refused.ephemeral and "still being drawn" in refused.text, refused
    again = await h.slash(h.bob, "hand replay")
    assert [name for name, _ in await again.files()] == ["hand-1.gif"]


async def test_a_replay_is_drawn_once_per_hand_seat_and_language(harness: Harness) -> None:
    """Asked again (by command or button), a replay is the one drawn before; each player's
    own replay shows their cards and is drawn for them; the public one (only the hands
    shown down, in the server's language) is drawn once for everyone who posts it."""
    h = harness
    await _seat_four(h)
    await play_out(h)
    first = await h.slash(h.bob, "hand replay")
    again = await h.slash(h.bob, "hand replay", number=1)
    [(_, gif)], [(_, same)] = await first.files(), await again.files()
    assert gif == same and h.bot.replays.drawn == 1
    [(_, carols)] = await (await h.slash(h.carol, "hand replay")).files()
    assert carols != gif and h.bot.replays.drawn == 2
    for actor in (h.dave, h.alice):
        assert (await h.slash(actor, "hand replay", number=1, public=True)).ephemeral
    posted = [m for m in h.public_messages() if m.attachments
              and m.attachments[0].filename == "hand-1.gif"]
    [(_, one)], [(_, two)] = [await h.files(m) for m in posted]
    assert len(posted) == 2 and one == two != gif and h.bot.replays.drawn == 3


async def test_a_replay_too_large_to_upload_is_refused_politely(harness: Harness) -> None:
    """Discord says how large a file the bot may upload here (and refuses larger ones):
    a replay over it is not sent, and the asker is told why, privately, in their words."""
    h = harness
    await _seat_four(h)
    await play_out(h)
    [(_, gif)] = await (await h.slash(h.bob, "hand replay")).files()
    h.set_upload_limit(len(gif) // 2)  # e.g. 0.2 MB: the replay drawn is twice that
    shown = f"{max(0.1, round(len(gif) // 2 / 1024 / 1024, 1))}"
    for public in (False, True):
        reply = await h.slash(h.bob, "hand replay", public=public)
        assert reply.ephemeral and not await reply.files(), reply
        assert f"too large to send here (over {shown} MB). /hand show has" in reply.text, reply
    assert [m.attachments for m in h.public_messages() if "replay" in m.content] == []
    h.set_locale(h.bob, "pt-BR")
    reply = await h.slash(h.bob, "hand replay")
    assert f"grande demais para enviar aqui (mais de {shown.replace('.', ',')} MB)" in reply.text
    assert "/mão ver tem" in reply.text, reply
    assert h.bot.replays.drawn == 3  # bob's, the public one, bob's in Portuguese: once each
    h.set_upload_limit(10 * 1024 * 1024)
    assert [n for n, _ in await (await h.slash(h.bob, "hand replay")).files()] == ["hand-1.gif"]


async def test_a_replay_whose_drawing_process_dies_is_refused_not_drawn_here(
    harness: Harness, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process drawing the replay is killed (as the kernel does when memory runs
    out): the asker is told to try again, nothing is drawn in the bot's process, and the
    next request draws it anew."""
    h = harness
    await _seat_four(h)
    await play_out(h)
    monkeypatch.setattr(bot.render.replay, "draw_frame", None)  # the bot's own: never used

    async def kill() -> None:
        for _ in range(2000):  # polled: the process is started by the bot's own task
            if render.drawing_alone():
                break
            await asyncio.sleep(0.005)
        os.kill(render.drawing_alone()[0], signal.SIGKILL)

    killing = asyncio.create_task(kill())
    reply = await h.slash(h.bob, "hand replay")
    await killing
    assert reply.ephemeral and not await reply.files(), reply
    assert "could not be drawn this time" in reply.text, reply
    assert h.bot.replays.drawn == 0 and not h.bot.replays.kept
    assert [n for n, _ in await (await h.slash(h.bob, "hand replay")).files()] == ["hand-1.gif"]
