"""Folding when a check is free asks first, on every way to fold (RULES.md 5), through the
offline Discord: the public **Fold**, ``/fold``; the answer **Fold anyway** or **Check**
acts, an answer after the turn passed changes nothing."""

from __future__ import annotations

import pytest

from tests.cogs.test_table import actor_of, seat_three, turn_message
from tests.conftest import Harness, Reply, buttons_of

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


async def check_free(h: Harness) -> object:
    """Three players seated; the button and the small blind call: the big blind, to act
    now, may check. Returns the big blind."""
    await seat_three(h)
    for _ in range(2):
        turn = turn_message(h)
        await h.click(actor_of(h, turn), turn, label="Call 2" if "Call 2" in [
            b.label for b in buttons_of(turn)] else "Call 1")
    return actor_of(h, turn_message(h))


def seq(h: Harness) -> int:
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None
    return table.current.seq


def folded(h: Harness, actor: object) -> bool:
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None
    seat = next(s for s in table.seats.values() if s.user_id == actor.id)  # type: ignore[attr-defined]
    return table.current.hand.player(seat.number).folded


def asked(reply: Reply) -> list[str]:
    """The question's answers (custom ids), after checking it is private and worded."""
    assert reply.ephemeral and "You can check for free. Fold anyway?" in reply.text, reply
    return [str(b["custom_id"]) for b in reply.buttons]


async def test_the_fold_button_asks_first_then_folds_anyway(harness: Harness) -> None:
    """The big blind clicks **Fold** with a free check: a private question, nothing done;
    **Fold anyway** folds, the question becomes the confirmation, the next turn is posted."""
    h = harness
    bb = await check_free(h)
    turn, before = turn_message(h), seq(h)
    reply = await h.click(bb, turn, label="Fold")
    ids = asked(reply)
    assert [i.rsplit(":", 1)[1] for i in ids] == ["fold", "check"]
    assert seq(h) == before and not folded(h, bb) and turn_message(h).id == turn.id
    assert [b["label"] for b in reply.buttons] == ["Fold anyway", "Check"]
    channel_routes = len(h.requests(contains=f"/channels/{h.channel.id}/messages"))
    answer = await h.click(bb, reply.message, label="Fold anyway")
    assert folded(h, bb) and seq(h) == before + 1
    assert reply.text == "Done: you fold." and not reply.buttons, answer  # edited in place
    # the next turn is public, carried by the answer's token: no channel route used
    assert turn_message(h).id != turn.id and not turn_message(h).flags.ephemeral
    assert turn.id not in [m.id for m in h.public_messages()]
    assert len(h.requests(contains=f"/channels/{h.channel.id}/messages")) == channel_routes


async def test_check_in_the_question_checks(harness: Harness) -> None:
    h = harness
    bb = await check_free(h)
    before = seq(h)
    reply = await h.click(bb, turn_message(h), label="Fold")
    asked(reply)
    await h.click(bb, reply.message, label="Check")
    assert not folded(h, bb) and seq(h) == before + 1
    assert reply.text == "Done: you check." and not reply.buttons
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None and len(table.current.hand.board) == 3  # on the flop


async def test_the_fold_command_asks_first(harness: Harness) -> None:
    """``/fold`` with a free check: the question is the command's private answer."""
    h = harness
    bb = await check_free(h)
    before = seq(h)
    reply = await h.slash(bb, "fold")
    asked(reply)
    assert seq(h) == before and not folded(h, bb)
    await h.click(bb, reply.message, label="Fold anyway")
    assert folded(h, bb) and reply.text == "Done: you fold." and not reply.buttons


async def test_an_answer_after_the_turn_passed_changes_nothing(harness: Harness) -> None:
    """Asked, then the big blind checks with the public button: the question's **Fold
    anyway** no longer acts, and says so politely, without its buttons."""
    h = harness
    bb = await check_free(h)
    reply = await h.click(bb, turn_message(h), label="Fold")
    asked(reply)
    await h.click(bb, turn_message(h), label="Check")
    after = seq(h)
    answer = await h.click(bb, reply.message, label="Fold anyway")
    assert not folded(h, bb) and seq(h) == after
    assert reply.text == "That turn is over; nothing was done." and not reply.buttons, answer


async def test_a_fold_facing_a_bet_is_taken_at_once(harness: Harness) -> None:
    """No free check (the first player faces the big blind): **Fold** folds, no question."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    reply = await h.click(actor, turn, label="Fold")
    assert reply.silent, reply
    assert folded(h, actor)


async def test_the_question_speaks_the_players_language(harness: Harness) -> None:
    h = harness
    bb = await check_free(h)
    h.set_locale(bb, "es-ES")  # type: ignore[arg-type]
    reply = await h.slash(bb, "fold")
    assert reply.ephemeral and "¿Te tiras de todos modos?" in reply.text, reply
    assert [b["label"] for b in reply.buttons] == ["Tirarse igualmente", "Pasar"]

