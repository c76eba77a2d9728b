"""Bomb pots through the offline Discord (RULES.md 10): the settings, a scheduled bomb pot,
a proposal everyone agrees to and one refused by silence, a double-board showdown's picture
and result."""

from __future__ import annotations

import os
from pathlib import Path

from bot.engine import phh
from bot.engine.phh.proof import verify
from bot.offline.harness import Reply
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of


async def _seat_three(h: Harness, **options: object) -> Reply:
    reply = await open_table(h, **options)
    for actor in (h.alice, h.bob, h.carol):
        joined = await h.slash(actor, "table join", buyin="200")
        assert joined.ephemeral, joined
    return reply


async def _check_down(h: Harness, number: int) -> str:
    """Check (or call) hand ``number`` down with the turn buttons; its result's text."""
    for _ in range(40):
        done = [m for m in h.public_messages() if f"Hand #{number} result" in m.content]
        if done:
            return done[-1].content
        try:
            turn = turn_message(h)
        except AssertionError:
            await h.advance(1.0)
            continue
        ids = [str(b.custom_id) for b in buttons_of(turn)]
        choice = next(i for i in ids if i.endswith((":check", ":call")))
        reply = await h.click(actor_of(h, turn), turn, custom_id=choice)
        assert reply.silent or not reply.ephemeral, reply
        await h.settle()
    raise AssertionError(f"hand #{number} has no result")


def _live(h: Harness, number: int) -> str:
    return next(m.content for m in reversed(h.public_messages())
                if f"Hand #{number}" in m.content and "result" not in m.content)


def _proposal(h: Harness):  # type: ignore[no-untyped-def]
    return next(m for m in reversed(h.public_messages())
                if any(str(b.custom_id).startswith("omaha:bomb:") for b in buttons_of(m)))


def _keep(picture: bytes, text: str) -> None:
    """To look at them: ``BOMB_POT_PICTURES=/tmp/pictures pytest tests/cogs/test_bomb_pot.py``
    keeps the double-board showdown's picture and result there."""
    out = os.environ.get("BOMB_POT_PICTURES")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        Path(out, "showdown-double-board.png").write_bytes(picture)
        Path(out, "result.txt").write_text(text)


async def test_a_bomb_pot_every_second_hand(harness: Harness) -> None:
    """``bomb_pot_every:2``: /table info says it; hand 2 is dealt as a bomb pot (antes
    from everyone, no blind, the flop out before anyone acts, "bomb pot" in its game
    line), hands 1 and 3 as usual; no chip created or lost."""
    h = harness
    reply = await _seat_three(h, bomb_pot_every=2)
    assert "a bomb pot every 2 hands (ante 4)" in reply.text, reply
    info = await h.slash(h.bob, "table info")
    assert "a bomb pot every 2 hands" in info.text, info
    await h.advance(PAUSE + 0.1)
    assert "Bomb pot" not in _live(h, 1)
    await _check_down(h, 1)
    await h.advance(PAUSE + 0.1)
    live = _live(h, 2)
    assert "Pot Limit Omaha 1/2 · bomb pot" in live, live
    assert "Bomb pot: every player posts 4, no blinds; the betting starts on the flop." in live
    assert "Flop: " in live and "pot 12" in live, live
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None and table.current.hand.bomb_pot is not None
    await _check_down(h, 2)
    await h.advance(PAUSE + 0.1)
    assert "bomb pot" not in _live(h, 3)
    await h.audit()


async def test_a_proposal_everyone_agrees_to(harness: Harness) -> None:
    """Alice proposes during hand 1: the proposal pings Bob and Carol with two buttons;
    a stranger's click is refused; both agree: hand 2 is a bomb pot of 3 big blinds."""
    h = harness
    await _seat_three(h, bomb_pot_ante=3)
    await h.advance(PAUSE + 0.1)
    refused = await h.slash(h.dave, "bombpot")
    assert refused.ephemeral and "not seated" in refused.text, refused
    posted = await h.slash(h.alice, "bombpot")
    proposal = _proposal(h)
    assert "proposes a bomb pot for hand 2: every player posts 6" in proposal.content
    assert f"<@{h.bob.id}>" in proposal.content and f"<@{h.carol.id}>" in proposal.content
    assert f"<@{h.alice.id}>" not in proposal.content and "<t:" in proposal.content
    assert [str(b.label) for b in buttons_of(proposal)] == ["Agree", "Refuse"]
    assert posted.acknowledged
    again = await h.slash(h.bob, "bombpot")
    assert again.ephemeral and "already proposed" in again.text, again
    stranger = await h.click(h.dave, proposal, label="Agree")
    assert stranger.ephemeral and stranger.text.startswith("You were not asked"), stranger
    for actor in (h.bob, h.carol):
        answer = await h.click(actor, proposal, label="Agree")
        assert answer.ephemeral and answer.text == "You agreed to the bomb pot.", answer
    await h.settle()
    assert any("Everyone agreed: hand 2 is a bomb pot, every player posts 6." in m.content
               for m in h.public_messages())
    await _check_down(h, 1)
    await h.advance(PAUSE + 0.1)
    assert "Bomb pot: every player posts 6" in _live(h, 2)
    await h.audit()


async def test_a_proposal_refused_by_silence(harness: Harness) -> None:
    """Proposed between hands: the deal waits; Bob agrees, Carol says nothing: after 20
    seconds the bomb pot is off and hand 2 is dealt as usual."""
    h = harness
    await _seat_three(h, bomb_pot_every=10)
    await h.advance(PAUSE + 0.1)
    await _check_down(h, 1)
    await h.slash(h.alice, "bombpot")
    proposal = _proposal(h)
    assert (await h.click(h.bob, proposal, label="Agree")).ephemeral
    await h.advance(PAUSE + 0.1)
    assert not [m for m in h.public_messages() if "Hand #2" in m.content]  # waiting
    await h.advance(20.0)
    assert any("No bomb pot: no answer in time from" in m.content and "carol" in m.content
               for m in h.public_messages())
    late = await h.click(h.carol, proposal, label="Agree")
    assert late.ephemeral and late.text == "That bomb pot proposal is over.", late
    await h.advance(1.0)
    live = _live(h, 2)
    assert "Bomb pot" not in live and "Posted" in live, live
    await h.audit()


async def test_a_double_board_showdown(harness: Harness) -> None:
    """A double-board hi-lo bomb pot checked down: the table picture shows two boards
    during the hand; the result names board 1 and board 2 and comes with the showdown
    picture of both boards; the hand's export verifies with its second board."""
    h = harness
    await _seat_three(h, variant="omaha_hilo", bomb_pot_every=1, double_board=True)
    await h.advance(PAUSE + 0.1)
    live = _live(h, 1)
    assert "double-board bomb pot" in live and "on two boards" in live, live
    text = await _check_down(h, 1)
    assert "board 1" in text and "board 2" in text, text
    [result] = [m for m in h.public_messages() if "Hand #1 result" in m.content]
    files = dict(await h.files(result))
    assert "showdown-1.png" in files, files.keys()
    _keep(files["showdown-1.png"], text)
    export = await h.slash(h.bob, "hand export", number=1)
    [(_, data)] = await export.files()
    record = phh.loads(data.decode())
    assert dict(record.extra)["_bomb_pot"] is True and "_double_board" in dict(record.extra)
    assert verify(record).ok
    shown = await h.slash(h.carol, "hand show", number=1)
    assert "(board 2)" in shown.all_text, shown
    await h.audit()
