"""Run it twice through the offline Discord: the question's buttons, two boards or one."""

from __future__ import annotations

from bot.engine import phh
from bot.engine.phh.proof import verify
from bot.runtime.hand_history import load_past
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of


async def _all_in(h: Harness, *, twice_later: bool | None = None, **options: object) -> None:
    """Alice, Bob and Carol (200 each) all-in before the flop at a no-limit table;
    ``twice_later``: alice turns run it twice on or off by /table settings first."""
    h.bot.presenter.runout_pause = 0.5
    reply = await open_table(h, structure="no limit", **options)
    assert ("run it twice allowed" in reply.text) == bool(options.get("run_it_twice")), reply
    if twice_later is not None:
        reply = await h.slash(h.alice, "table settings", run_it_twice=twice_later)
        assert not reply.ephemeral and reply.text.startswith("Settings changed"), reply
        assert ("run it twice allowed" in reply.text) == twice_later, reply
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


def _question(h: Harness):  # type: ignore[no-untyped-def]
    for m in reversed(h.public_messages()):
        if any(b.label == "Run it twice" for b in buttons_of(m)):
            return m
    raise AssertionError("no run-it-twice question in the channel")


async def _result(h: Harness) -> str:
    for _ in range(12):
        done = [m for m in h.public_messages() if "Hand #1 result" in m.content]
        if done:
            return done[-1].content
        await h.advance(1.0)
    raise AssertionError("hand #1 has no result")


async def _chips(h: Harness) -> int:
    table = h.bot.registry.in_channel(h.channel.id)
    stacks = sum(s.stack for s in table.seats.values())
    return stacks + sum([await h.balance(a) for a in (h.alice, h.bob, h.carol)])


async def _stored(h: Harness) -> list[str]:
    record = await h.bot.db.history.in_channel(h.channel.id, 1)
    assert record is not None
    return [str(a["kind"]) for a in await h.bot.db.hands.actions(record.id)
            if a["kind"] in ("twice", "once")]


async def test_everyone_agrees_two_boards(harness: Harness) -> None:
    """Each click is answered privately first; the hand is run twice: the result names
    both boards, its picture and /hand show draw both, the export verifies and replays."""
    h = harness
    await _all_in(h, run_it_twice=True)
    question = _question(h)
    assert all(f"<@{a.id}>" in question.content for a in (h.alice, h.bob, h.carol))
    assert "Run the rest of the board twice?" in question.content
    stranger = await h.click(h.dave, question, label="Run it twice")
    assert stranger.ephemeral and "not seated" in stranger.text, stranger
    for actor in (h.alice, h.bob, h.carol):
        reply = await h.click(actor, question, label="Run it twice")
        assert reply.ephemeral and reply.text == "You agreed to run it twice.", reply
    text = await _result(h)
    assert "board 1" in text and "board 2" in text, text
    [result] = [m for m in h.public_messages() if "Hand #1 result" in m.content]
    names = [name for name, _ in await h.files(result)]
    assert "hand-1.png" in names, names
    assert await _chips(h) == 30_000
    assert await _stored(h) == ["twice"] * 3
    shown = await h.slash(h.bob, "hand show", number=1)
    assert shown.ephemeral and "(board 2)" in shown.all_text, shown
    assert len(await shown.images()) == 1
    export = await h.slash(h.carol, "hand export", number=1)
    [(_, data)] = await export.files()
    hh = phh.loads(data.decode())
    assert "_run_twice" in dict(hh.extra) and verify(hh).ok
    record = await h.bot.db.history.in_channel(h.channel.id, 1)
    assert record is not None
    past = await load_past(h.bot.db, record)
    assert phh.replay(hh).finishing_stacks == tuple(
        past.hand.result.final_stacks[s] for s in past.hand.seat_order)
    assert len(past.hand.second_board) == 5


async def test_one_declines_runs_it_once(harness: Harness) -> None:
    h = harness
    await _all_in(h, run_it_twice=True)
    question = _question(h)
    assert (await h.click(h.alice, question, label="Run it twice")).ephemeral
    once = await h.click(h.bob, question, label="Once")
    assert once.ephemeral and once.text == "You chose to run it once.", once
    text = await _result(h)
    assert not [m for m in h.public_messages()  # the question's buttons are gone
                if any(b.label == "Run it twice" for b in buttons_of(m))]
    assert "board 2" not in text, text
    assert await _chips(h) == 30_000
    assert await _stored(h) == ["twice", "once"]


async def test_silence_runs_it_once(harness: Harness) -> None:
    h = harness
    await _all_in(h, run_it_twice=True)
    _question(h)
    await h.advance(31.0)
    text = await _result(h)
    assert "board 2" not in text, text
    assert await _stored(h) == ["once"]
    assert await _chips(h) == 30_000


async def test_a_table_without_the_setting_never_asks(harness: Harness) -> None:
    h = harness
    await _all_in(h)
    await _result(h)
    assert not [m for m in h.public_messages()
                if any(b.label == "Run it twice" for b in buttons_of(m))]


async def test_table_settings_turn_it_on_between_hands_only(harness: Harness) -> None:
    """A table created without it: /table settings run_it_twice:True turns it on (only
    its creator may), the next all-in asks; during that hand the setting cannot change."""
    h = harness
    await _all_in(h, twice_later=True)
    question = _question(h)
    refused = await h.slash(h.bob, "table settings", run_it_twice=False)
    assert refused.ephemeral and "creator" in refused.text, refused
    mid = await h.slash(h.alice, "table settings", run_it_twice=False)
    assert mid.ephemeral and "between hands" in mid.text, mid
    table = h.bot.registry.in_channel(h.channel.id)
    assert table.config.run_it_twice and _question(h).id == question.id
    for actor in (h.alice, h.bob, h.carol):
        assert (await h.click(actor, question, label="Run it twice")).ephemeral
    assert "board 2" in await _result(h)
    assert await _chips(h) == 30_000


async def test_table_settings_turn_it_off(harness: Harness) -> None:
    """A table created with it, turned off by /table settings: the all-in never asks."""
    h = harness
    await _all_in(h, twice_later=False, run_it_twice=True)
    text = await _result(h)
    assert "board 2" not in text, text
    assert not [m for m in h.public_messages()
                if any(b.label == "Run it twice" for b in buttons_of(m))]
    assert await _stored(h) == []


async def test_a_restart_during_the_question_loses_no_chip(harness: Harness) -> None:
    """Alice agreed, then the bot restarts: the hand resumes from SQLite with her answer
    and its commitment, the question is asked again, and the others' answers finish it."""
    h = harness
    await _all_in(h, run_it_twice=True)
    root = h.bot.registry.in_channel(h.channel.id).current.commitment  # type: ignore[union-attr]
    assert (await h.click(h.alice, _question(h), label="Run it twice")).ephemeral
    new = await h.restart()
    await h.settle()
    table = new.registry.in_channel(h.channel.id)
    cur = table.current
    assert cur is not None and cur.question is not None and cur.commitment == root
    assert any("Hand #1 resumes" in m.content for m in h.public_messages())
    question = _question(h)
    again = await h.click(h.alice, question, label="Once")
    assert again.ephemeral and "already answered" in again.text, again
    for actor in (h.bob, h.carol):
        assert (await h.click(actor, question, label="Run it twice")).ephemeral
    text = await _result(h)
    assert "board 2" in text, text
    assert await _chips(h) == 30_000
    assert await _stored(h) == ["twice"] * 3


async def _click_id(h: Harness, actor: object, message: object, kind: str) -> object:
    """Click the button of ``message`` whose custom id ends with ``:kind`` (any language)."""
    [cid] = [str(b.custom_id) for b in buttons_of(message)
             if str(b.custom_id).endswith(f":{kind}")]
    return await h.click(actor, message, custom_id=cid)  # type: ignore[arg-type]


async def test_a_portuguese_table_runs_it_twice_in_each_players_language(
    harness: Harness,
) -> None:
    """At a pt-BR table the answers are told in Portuguese; each player's private replies
    (and refusals) speak their own locale; Bob's /hand show (es-ES) words the whole log in
    Spanish, run-it-twice answers and both boards included."""
    h = harness
    h.bot.presenter.runout_pause = 0.5
    langs = {h.alice: "pt-BR", h.bob: "es-ES", h.carol: "it"}
    for actor, lang in langs.items():
        h.set_locale(actor, lang)
    await open_table(h, structure="no limit", run_it_twice=True, language="pt-BR")
    for actor in langs:
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    for _ in range(6):
        if not [m for m in h.public_messages()
                if any(str(b.custom_id).endswith(":fold") for b in buttons_of(m))]:
            break
        turn = turn_message(h)
        kinds = {str(b.custom_id).rsplit(":", 1)[1] for b in buttons_of(turn)}
        await _click_id(h, actor_of(h, turn), turn, "allin" if "allin" in kinds else "call")
    [question] = [m for m in h.public_messages()
                  if any(str(b.custom_id).endswith(":twice") for b in buttons_of(m))]
    said = {"pt-BR": "Você aceitou rodar duas vezes.", "es-ES": "Has aceptado correrla dos veces.",
            "it": "Hai accettato di girare due volte."}
    first = await _click_id(h, h.alice, question, "twice")
    assert first.ephemeral and first.text == said["pt-BR"], first  # type: ignore[attr-defined]
    again = await _click_id(h, h.alice, question, "once")
    assert again.ephemeral and again.text == "Você já respondeu.", again  # type: ignore[attr-defined]
    for actor in (h.bob, h.carol):
        reply = await _click_id(h, actor, question, "twice")
        assert reply.text == said[langs[actor]], reply  # type: ignore[attr-defined]
    for _ in range(12):
        if any("**Resultado da mão #1**" in m.content for m in h.public_messages()):
            break
        await h.advance(1.0)
    await h.bot.presenter.idle()
    said = [content for content, _, _ in h.pinged()]  # every message sent or edited, in order
    told = [i for i, text in enumerate(said) if " aceita rodar duas vezes." in text]
    ended = [i for i, text in enumerate(said) if "**Resultado da mão #1**" in text]
    assert told and ended and told[0] < ended[0], said  # on the hand's message, before
    assert not [text for text in said if "agrees to run it twice" in text]
    shown = await h.slash(h.bob, "hand show", number=1)
    log = shown.all_text
    assert shown.ephemeral and log.startswith("**Mano #1** · Mesa "), log
    assert "**Pre-flop** (botón: " in log and "Tus cartas: " in log, log
    assert " pone la ciega pequeña de 1" in log and " pone la ciega grande de 2" in log, log
    assert " acepta correrla dos veces" in log and "(mesa 2)**" in log, log
    assert "**Resultado**" in log and " gana " in log, log
    english = (" posts ", " calls ", " agrees ", " wins ", "Your cards", "**Result**", "button:")
    assert not [w for w in english if w in log], log


async def test_the_question_pings_the_players_who_chose_every_turn(harness: Harness) -> None:
    """bob chose never to be pinged: the question names all three players and notifies
    alice and carol only."""
    h = harness
    await h.slash(h.bob, "prefs", turn_pings="never")
    await _all_in(h, run_it_twice=True)
    question = _question(h)
    assert all(f"<@{a.id}>" in question.content for a in (h.alice, h.bob, h.carol))
    asked = [users for text, users, _ in h.pinged()
             if "Run the rest of the board twice?" in text and users]
    assert asked == [frozenset({h.alice.id, h.carol.id})], asked
