"""The seat panel (bot/adapter/seat_panel.py) through the offline Discord: **My seat** opens
a private panel, kept current through its interaction token (a street, a turn, the
result), a player acts and sets pre-actions from it, a fold with a free check asks first
there too, a stale token says so with **Reopen**, and a "panel only" player gets no DM."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.adapter.hooks import TOKEN_LIFETIME, TOKEN_MARGIN
from bot.i18n.cards import written
from bot.render import sort_hole
from tests.cogs.test_table import PAUSE, actor_of, open_table, seat_three, turn_message
from tests.conftest import Harness, Reply, buttons_of

pytestmark = pytest.mark.asyncio


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions", "cogs.prefs")


async def open_panel(h: Harness, actor: Any) -> Reply:
    """``actor`` presses **My seat** on the table's message: their panel."""
    panel = await h.click(actor, turn_message(h), label="My seat")
    assert panel.ephemeral and panel.text.startswith("**Table 1** · **Hand #"), panel
    return panel


def labels(panel: Reply) -> dict[str, bool]:
    """The panel's buttons: label -> enabled."""
    return {str(b["label"]): not b.get("disabled", False) for b in panel.buttons}


def cards_of(h: Harness, actor: Any) -> str:
    table = h.bot.registry.in_channel(h.channel.id)
    return written(sort_hole(table.hole_cards(actor.id).cards))


def panel_edits(h: Harness, panel: Reply, since: int = 0) -> list[Any]:
    """The requests that edited ``panel`` (through any of its tokens) since ``since``."""
    return [r for r in h.env.http_requests[since:] if r.method == "PATCH"
            and r.path.endswith("/messages/@original") and panel.message is not None
            and (r.json or {}).get("content", "").startswith("**Table 1**")]


async def test_my_seat_opens_a_private_panel_with_cards_pot_call_and_clock(
    harness: Harness,
) -> None:
    """A waiting player's panel: their cards as a picture described in words and as text,
    what a call costs them, Fold and Call shown disabled, the pre-actions enabled; the
    player to act gets the pot, their clock (Discord's countdown) and enabled buttons."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    waiting = next(a for a in (h.alice, h.bob, h.carol) if a is not actor)
    panel = await open_panel(h, waiting)
    text = panel.text
    assert f"Your cards: {cards_of(h, waiting)}" in text, text
    assert re.search(r"^(\*\*\d\*\* to call|You can check) · your stack \d+$", text,
                     re.MULTILINE), text
    assert "<t:" not in text and "Your turn" not in text  # only on their turn
    [picture] = panel.messages[0].attachments
    assert picture.description.startswith("Table 1 · Hand #1") and "Your cards:" in (
        picture.description)
    assert (await panel.images())[0][:4] == b"\x89PNG"
    shown = labels(panel)
    assert not shown["Fold"] and not any(v for k, v in shown.items()
                                         if k == "Check" or re.fullmatch(r"Call \d+", k))
    assert all(shown[x] for x in ("Check/Fold", "Call any", "Fold to any bet", "No pre-action"))
    mine = await open_panel(h, actor)
    assert re.search(r"\*\*Your turn\*\* · pot \*\*3\*\* · time runs out <t:\d+:R>",
                     mine.text), mine.text
    assert labels(mine)["Fold"] and "Check/Fold" not in labels(mine)
    # nobody else sees either panel; the table's message did not change
    assert turn_message(h).id == turn.id and not any(
        "Your cards" in m.content for m in h.public_messages())


async def test_a_whole_hand_from_the_panel_alone(harness: Harness) -> None:
    """Every player opens their panel and plays from it only: each click renews the panel's
    token, the panel follows the streets (the board and what they hold in words), turns
    (buttons enabled only on their own) and ends with the result and their net; the table's
    channel routes are never used by the panels or the actions."""
    h = harness
    await seat_three(h)
    panels = {a: await open_panel(h, a) for a in (h.alice, h.bob, h.carol)}
    channel_before = len(h.requests(contains=f"/channels/{h.channel.id}/messages"))
    boards: set[str] = set()
    for _ in range(40):
        if any("Hand #1 result" in m.content for m in h.public_messages()):
            break
        actor = actor_of(h, turn_message(h))
        panel = panels[actor]
        enabled = [k for k, v in labels(panel).items() if v]
        for other, theirs in panels.items():
            if other is not actor:
                assert not [k for k, v in labels(theirs).items() if v and k in ("Fold", "Check")]
        label = "Check" if "Check" in enabled else next(x for x in enabled if x.startswith("Call"))
        reply = await h.click(actor, panel.message, label=label)
        assert reply.deferred and not [m for m in reply.result.followups if m.ephemeral], reply
        for line in panel.text.splitlines():
            if line.startswith("Board: "):
                boards.add(line)
    else:
        raise AssertionError("the hand did not end")
    assert len(boards) == 3, boards  # flop, turn, river
    for panel in panels.values():
        text = panel.text
        assert "**Hand #1 is over.**" in text and "Your net for the hand: **" in text, text
        assert re.search(r"you have \w", text), text  # what they hold, in words
        assert not [k for k, v in labels(panel).items() if v]
    # the channel's routes: none (the first turn message came by the completing join's
    # token, and every later one by a click's)
    assert [f"{r.method} {r.path}" for r in h.requests(
        contains=f"/channels/{h.channel.id}/messages")[channel_before:]] == []
    # the next hand: the panels show it, without a click
    await h.advance(PAUSE + 0.1)
    for actor, panel in panels.items():
        assert "**Hand #2**" in panel.text and f"Your cards: {cards_of(h, actor)}" in panel.text


async def test_fold_with_a_free_check_asks_first_from_the_panel(harness: Harness) -> None:
    """The big blind may check: **Fold** in their panel asks first (a private question of
    its own, the panel stays); **Fold anyway** folds; the panel then says they folded."""
    h = harness
    await seat_three(h)
    for _ in range(2):
        turn = turn_message(h)
        await h.click(actor_of(h, turn), turn, label=next(
            str(b.label) for b in buttons_of(turn) if str(b.label).startswith("Call")))
    bb = actor_of(h, turn_message(h))
    panel = await open_panel(h, bb)
    asked = await h.click(bb, panel.message, label="Fold")
    [question] = asked.result.followups
    assert question.ephemeral and "You can check for free. Fold anyway?" in question.content
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.current is not None and table.current.hand.to_act is not None
    await h.click(bb, question.message, label="Fold anyway")
    assert "You folded" in panel.text, panel.text
    assert not [k for k, v in labels(panel).items() if v]


async def test_check_fold_set_in_the_panel_acts_at_the_turn(harness: Harness) -> None:
    """A waiting player sets Check/Fold in their panel (the button stands out, the panel
    names it); the bet before them folds them when their turn comes."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    table = h.bot.registry.in_channel(h.channel.id)
    waiting = next(a for a in (h.alice, h.bob, h.carol) if a is not actor
                   and table.seat_of(a.id) is not None
                   and table.current.hand.to_act != table.seat_of(a.id).number)
    panel = await open_panel(h, waiting)
    await h.click(waiting, panel.message, label="Check/Fold")
    assert "Your pre-action: **check/fold**" in panel.text, panel.text
    [chosen] = [b for b in panel.buttons if b["label"] == "Check/Fold"]
    assert chosen["style"] == 1  # primary: the one set


async def test_a_stale_panel_says_so_and_reopens_in_place(harness: Harness) -> None:
    """A minute before the token's 15 minutes, the panel is edited a last time: out of date,
    with **Reopen** only; a click on it makes that message a fresh panel (a new token)."""
    h = harness
    await seat_three(h)
    actor = actor_of(h, turn_message(h))
    panel = await open_panel(h, actor)
    await h.advance(TOKEN_LIFETIME - TOKEN_MARGIN + 1)
    assert "no longer kept up to date" in panel.text and "**Reopen**" in panel.text, panel.text
    assert labels(panel) == {"Reopen": True} and not panel.messages[0].attachments
    sent = len(h.env.http_requests)
    await h.advance(PAUSE + 0.1)  # the table goes on: a stale panel is not edited
    assert not panel_edits(h, panel, sent)
    reopened = await h.click(actor, panel.message, label="Reopen")
    assert reopened.deferred and "**Table 1**" in panel.text, panel.text
    assert "Reopen" not in labels(panel)


async def test_a_refused_token_makes_the_panel_stale_and_my_seat_opens_another(
    harness: Harness,
) -> None:
    """Discord refuses the panel's token (401, 50027): no more edits are tried for it; the
    player's next **My seat** opens a new panel, kept current again."""
    h = harness
    await seat_three(h)
    turn = turn_message(h)
    actor = actor_of(h, turn)
    panel = await open_panel(h, actor)
    record = h.env.backend.interactions[panel.result._interaction.id]
    record.expires_at = h.env.backend.now_iso()
    await h.click(actor, turn, label=next(
        str(b.label) for b in buttons_of(turn) if str(b.label).startswith("Call")))
    state = h.bot.presenter.panels.get(1, actor.id)
    assert state is not None and state.stale  # its turn ended: the edit was refused
    sent = len(h.env.http_requests)
    turn = turn_message(h)
    await h.click(actor_of(h, turn), turn, label=next(
        str(b.label) for b in buttons_of(turn) if str(b.label) in ("Check",)
        or str(b.label).startswith("Call")))
    assert not [r for r in h.env.http_requests[sent:]
                if record.token in r.path and r.method == "PATCH"]
    fresh = await open_panel(h, actor)
    assert fresh.message is not None and panel.message is not None
    assert fresh.message.id != panel.message.id
    state = h.bot.presenter.panels.get(1, actor.id)
    assert state is not None and not state.stale


async def test_panel_only_sends_no_dm_and_the_panel_shows_the_cards(harness: Harness) -> None:
    """``/prefs hole_cards:request`` ("panel only"): no DM for that player; the others still
    get theirs; the panel shows the cards."""
    h = harness
    reply = await h.slash(h.bob, "prefs", hole_cards="request")
    assert "panel only" in reply.text and "**My seat**" in reply.text, reply.text
    await seat_three(h)
    assert not h.dms(h.bob) and len(h.dms(h.alice)) == 1 and len(h.dms(h.carol)) == 1
    panel = await open_panel(h, h.bob)
    assert f"Your cards: {cards_of(h, h.bob)}" in panel.text


async def test_a_member_without_a_seat_is_told_privately(harness: Harness) -> None:
    h = harness
    await seat_three(h)
    reply = await h.click(h.dave, turn_message(h), label="My seat")
    assert reply.ephemeral and "seat" in reply.text.lower() and not reply.buttons, reply
    assert h.bot.presenter.panels.get(1, h.dave.id) is None


async def test_the_panel_speaks_the_players_language(harness: Harness) -> None:
    """The panel, its buttons and its picture's description in the clicking player's
    language (the table's message stays in the table's)."""
    h = harness
    await open_table(h)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    h.set_locale(h.bob, "it")
    panel = await h.click(h.bob, turn_message(h), label="My seat")
    assert panel.text.startswith("**Tavolo 1**") and "Le tue carte: " in panel.text, panel.text
    assert panel.messages[0].attachments[0].description.startswith("Tavolo 1")
    assert any(k in labels(panel) for k in ("Abbandona", "Vedi 1", "Vedi 2"))


async def test_the_raise_form_from_the_panel_raises_and_keeps_the_panel(harness: Harness) -> None:
    """**Raise to…** in the panel opens the form; its submit raises, renews the panel's
    token (the panel is edited, not replaced by a confirmation) and the next turn is
    posted through that token, not the channel's routes."""
    h = harness
    await seat_three(h)
    actor = actor_of(h, turn_message(h))
    panel = await open_panel(h, actor)
    shown = await h.click(actor, panel.message, label="Raise to…")
    assert shown.modal is not None and "4 to 7" in str(shown.modal)
    channel = len(h.requests("POST", f"/channels/{h.channel.id}/messages"))
    reply = await h.submit(actor, shown, {"amount": "6"})
    assert reply.deferred and "raises to 6" in turn_message(h).content, reply
    assert len(h.requests("POST", f"/channels/{h.channel.id}/messages")) == channel
    assert "**Table 1**" in panel.text and "Done:" not in panel.text, panel.text
    state = h.bot.presenter.panels.get(1, actor.id)
    # its token is the newest: the form's submit
    assert state is not None and state.interaction.id == reply.result._interaction.id


async def test_the_run_it_twice_question_is_answered_from_the_panel(harness: Harness) -> None:
    """All-in before the flop at a table that runs it twice: each player's panel asks the
    question with its two answers; all three answer from their panels: two boards."""
    h = harness
    await open_table(h, structure="no limit", run_it_twice=True)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    panels = {a: await open_panel(h, a) for a in (h.alice, h.bob, h.carol)}
    for _ in range(6):
        actor = actor_of(h, turn_message(h))
        enabled = [k for k, v in labels(panels[actor]).items() if v]
        shove = [x for x in enabled if x.startswith("All-in")]
        await h.click(actor, panels[actor].message, label=shove[0] if shove else next(
            x for x in enabled if x.startswith("Call") and x != "Call any"))
        if not [m for m in h.public_messages() if any(b.label == "Fold" for b in buttons_of(m))]:
            break
    for actor, panel in panels.items():
        assert "Run the rest of the board twice?" in panel.text, panel.text
        assert list(labels(panel)) == ["Run it twice", "Once"]
        answer = await h.click(actor, panel.message, label="Run it twice")
        assert answer.ephemeral, answer
    for _ in range(12):
        if any("Hand #1 result" in m.content for m in h.public_messages()):
            break
        await h.advance(1.0)
    [result] = [m for m in h.public_messages() if "Hand #1 result" in m.content]
    assert "board 2" in result.content.lower() or "Board 2" in result.content, result.content


async def test_the_panel_moves_the_clock_when_the_time_bank_starts(harness: Harness) -> None:
    """The player to act lets their clock run out: their panel's countdown moves to the
    time bank's end (one edit), as the table's message does."""
    h = harness
    await seat_three(h)
    actor = actor_of(h, turn_message(h))
    panel = await open_panel(h, actor)
    before = re.search(r"<t:(\d+):R> \(\+60 s time bank\)", panel.text)
    assert before, panel.text
    await h.advance(31.0)  # the table's 30 s clock, then the bank
    after = re.search(r"\*\*Your turn\*\* · pot \*\*3\*\* · time runs out <t:(\d+):R>\.$",
                      panel.text, re.MULTILINE)
    assert after and int(after[1]) > int(before[1]), panel.text


async def test_my_seat_again_replaces_the_panel(harness: Harness) -> None:
    """One panel a player: **My seat** pressed again opens a new one and deletes the old
    message (through its own token); the new one is kept current."""
    h = harness
    await seat_three(h)
    actor = actor_of(h, turn_message(h))
    first = await open_panel(h, actor)
    assert first.message is not None
    first_id = first.message.id
    second = await open_panel(h, actor)
    assert second.message is not None and second.message.id != first_id
    deleted = [r for r in h.requests("DELETE", "/messages/@original")
               if first.result._interaction.token in r.path]
    assert deleted and first.message is None, h.requests("DELETE")  # gone
    state = h.bot.presenter.panels.get(1, actor.id)
    assert state is not None and state.message_id == second.message.id


async def test_a_double_boards_panel_shows_both_boards(harness: Harness) -> None:
    """A double-board bomb pot (RULES.md 10): the panel names both boards and what the
    player holds on each, worded as the result says it; its picture draws both boards,
    and its description says both."""
    h = harness
    await open_table(h, bomb_pot_every=1, double_board=True)
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    actor = actor_of(h, turn_message(h))
    panel = await open_panel(h, actor)
    hand = h.bot.registry.in_channel(h.channel.id).current.hand
    assert len(hand.board) == len(hand.second_board) == 3
    text = panel.text
    assert f"Board 1: {written(hand.board)}" in text and (
        f"Board 2: {written(hand.second_board)}" in text), text
    assert re.search(r"you have \S.* \(board 1\); \S.* \(board 2\)$", text, re.MULTILINE), text
    [picture] = panel.messages[0].attachments
    said = picture.description
    assert "Board 1: " in said and "Board 2: " in said and said.count("You have:") == 2, said


async def test_a_closing_table_edits_each_panel_a_last_time(harness: Harness) -> None:
    """The table closes at the hand's end: each open panel is edited once more, after the
    table's closing message: under the hand's result and their net, the table is closed
    and how many chips went back to the player's balance; no button is left; nothing more
    is sent to it."""
    h = harness
    await seat_three(h)
    panels = {a: await open_panel(h, a) for a in (h.alice, h.bob)}
    assert (await h.slash(h.alice, "table close")).ephemeral
    for _ in range(40):
        if any(m.content.startswith("The table is closed") for m in h.public_messages()):
            break
        turn = turn_message(h)
        await h.click(actor_of(h, turn), turn, label=next(
            str(b.label) for b in buttons_of(turn) if str(b.label) == "Check"
            or str(b.label).startswith("Call")))
    else:
        raise AssertionError("the table did not close")
    await h.settle()
    closing = next(m.content for m in h.public_messages()
                   if m.content.startswith("The table is closed"))
    for actor, panel in panels.items():
        returned = re.search(rf"<@{actor.id}> (\d+)", closing)
        assert returned, closing
        assert panel.text.endswith(f"\n**Table 1** is closed; your {returned[1]} chips went "
                                   "back to your balance."), panel.text
        assert "**Hand #1 is over.**\nYour net for the hand: **" in panel.text  # kept
        assert not panel.buttons
    assert h.bot.presenter.panels.at(1) == []
    said = [str(r.json.get("content")) if isinstance(r.json, dict) else ""
            for r in h.env.http_requests]
    last = [i for i, x in enumerate(said) if "is closed; your" in x]
    assert len(last) == 2 and min(last) > said.index(closing), said[-6:]
    sent = len(h.env.http_requests)
    await h.advance(PAUSE + 0.1)
    assert not panel_edits(h, panels[h.alice], sent)


def _shown_board(content: str) -> int:
    """How many board cards a request's text shows: a panel's "Board: …" line, a run-out
    stage's street, a result's five (0: none of those)."""
    if "Hand #1 result" in content:
        return 5
    street = re.search(r"· (Flop|Turn|River)\n", content)
    if street and "Your cards" not in content:
        return {"Flop": 3, "Turn": 4, "River": 5}[street[1]]
    line = re.search(r"^Board: (.*)$", content, re.MULTILINE)
    return len(line[1].split()) if line else 0


async def test_in_a_run_out_the_panels_never_run_ahead_of_the_tables_message(
    harness: Harness,
) -> None:
    """All-in before the flop, every panel open: the table's message shows the flop, the
    turn and the river in turn, seconds apart; each panel shows a street only once the
    table's message shows it, and the result only once the message is the result."""
    h = harness
    h.bot.presenter.runout_pause = 2.0
    await open_table(h, structure="no limit")
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    panels = {a: await open_panel(h, a) for a in (h.alice, h.bob, h.carol)}
    start = len(h.env.http_requests)
    for _ in range(6):
        turn = turn_message(h)
        labels_ = [str(b.label) for b in buttons_of(turn)]
        shove = [x for x in labels_ if x.startswith("All-in")]
        await h.click(actor_of(h, turn), turn, label=shove[0] if shove else next(
            x for x in labels_ if x.startswith("Call")))
        if not [m for m in h.public_messages() if any(b.label == "Fold" for b in buttons_of(m))]:
            break
    for _ in range(5):
        await h.advance(2.0)
    table_shows, panels_show, result_seen = 0, [], False
    for r in h.env.http_requests[start:]:
        content = str(r.json.get("content")) if isinstance(r.json, dict) else ""
        if "Your cards" in content:  # a panel's edit: never ahead of the table's message
            assert _shown_board(content) <= table_shows, (content, table_shows)
            assert "is over" not in content or result_seen, content
            panels_show.append(_shown_board(content))
        elif r.method == "PATCH" and "Hand #1" in content:
            table_shows = max(table_shows, _shown_board(content))
            result_seen = "Hand #1 result" in content
    assert {3, 4, 5} <= set(panels_show), panels_show  # they followed the streets
    assert all("**Hand #1 is over.**" in p.text for p in panels.values())


async def test_after_a_restart_the_first_click_in_an_old_panel_makes_it_current_again(
    harness: Harness,
) -> None:
    """The bot restarts mid-hand: no panel is kept (no token survives). A waiting player's
    first click in their old panel (a pre-action) makes that message their panel again,
    kept current from then on; the player to act plays from their old panel: the action
    is taken and the panel shows the table, never "Done: …"."""
    h = harness
    await seat_three(h)
    table = h.bot.registry.in_channel(h.channel.id)
    actor = actor_of(h, turn_message(h))
    waiting = next(a for a in (h.alice, h.bob, h.carol) if a is not actor
                   and table.current.hand.to_act != table.seat_of(a.id).number)
    panels = {a: await open_panel(h, a) for a in (actor, waiting)}
    new = await h.restart()
    await h.settle()
    assert new.presenter.panels.at(1) == []
    await h.click(waiting, panels[waiting].message, label="Check/Fold")
    mine = panels[waiting]
    assert "Your pre-action: **check/fold**" in mine.text and "Done" not in mine.text, mine.text
    state = new.presenter.panels.get(1, waiting.id)
    assert state is not None and mine.message is not None and (
        state.message_id == mine.message.id)
    enabled = [k for k, v in labels(panels[actor]).items() if v]
    reply = await h.click(actor, panels[actor].message,
                          label="Check" if "Check" in enabled else next(
                              x for x in enabled if x.startswith("Call")))
    assert reply.deferred and not [m for m in reply.result.followups if m.ephemeral], reply
    text = panels[actor].text
    assert text.startswith("**Table 1** · **Hand #1**") and "Done" not in text, text
    assert "Your turn" not in text  # the action was taken: their turn passed
    kept = len(h.env.http_requests)
    turn = turn_message(h)
    await h.click(actor_of(h, turn), turn, label=next(
        str(b.label) for b in buttons_of(turn) if str(b.label) == "Check"
        or str(b.label).startswith("Call")))
    assert panel_edits(h, panels[actor], kept), "the panel is kept current again"


async def test_after_a_restart_a_refused_click_in_an_old_panel_still_refreshes_it(
    harness: Harness,
) -> None:
    """After a restart the player to act plays from the table's message; their old panel
    still shows that turn's buttons. A click there is refused (the turn passed) in a
    private message of its own, and the panel, theirs again, shows the table as it is."""
    h = harness
    await seat_three(h)
    actor = actor_of(h, turn_message(h))
    panel = await open_panel(h, actor)
    await h.restart()
    await h.settle()
    turn = turn_message(h)
    assert actor_of(h, turn) is actor
    await h.click(actor, turn, label=next(str(b.label) for b in buttons_of(turn)
                                          if str(b.label).startswith("Call")))
    assert "Your turn" in panel.text  # not kept current: as it was before the restart
    reply = await h.click(actor, panel.message, label="Fold")
    [refusal] = [m for m in reply.result.followups if m.ephemeral]
    assert "belong to an earlier decision" in refusal.content, refusal.content
    assert "Your turn" not in panel.text and panel.text.startswith("**Table 1**"), panel.text
    assert h.bot.presenter.panels.get(1, actor.id) is not None
