"""/prefs through the offline Discord: the choices, and the pings and DMs a hand then sends.

A ping is a mention that notifies: in a new message, a mention its ``allowed_mentions``
lets through (Discord notifies no mention added by an edit, discord/discord-api-docs#1419,
so an edit pings nobody whatever it says).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.adapter.scenes import hole_cards_view
from bot.i18n import Command, translate
from bot.render import DeckStyle, Theme, render_hole_cards
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of

LOCALES = ("en", "pt-BR", "es-ES", "es-419", "it")


def notified(h: Harness, since: int = 0) -> list[tuple[str, str, frozenset[int]]]:
    """(path, content, users notified) of every new message the bot sent since request
    ``since`` (its channel's and its interactions' followups alike)."""
    out = []
    for r in h.env.http_requests[since:]:
        body = r.json if isinstance(r.json, dict) else {}
        if r.method != "POST" or not isinstance(body.get("content"), str):
            continue
        rule = body.get("allowed_mentions")
        parse = rule.get("parse", []) if rule else ["users"]
        allowed = {int(u) for u in (rule or {}).get("users", [])}
        users = {int(u) for u in re.findall(r"<@!?(\d+)>", body["content"])}
        out.append((r.path, body["content"], frozenset(users if "users" in parse
                                                       else users & allowed)))
    return out


async def play_hand(h: Harness, hand: int, *slow: Any) -> list[tuple[Any, str]]:
    """Check or call hand ``hand`` down with the buttons; each of ``slow`` lets the clock
    reach the reminder before their first decision. The (actor, turn message content) of
    each decision, in order."""
    decisions, waited = [], set()
    for _ in range(60):
        table = h.bot.registry.in_channel(h.channel.id)
        if table.hands_dealt >= hand and table.current is None:  # settled, in any language
            await h.bot.presenter.idle()
            return decisions
        turn = turn_message(h)
        actor = actor_of(h, turn)
        if actor in slow and actor not in waited:
            waited.add(actor)
            await h.advance(30 + 60 - 10 + 0.5)  # clock + time bank - the reminder's lead
            assert turn_message(h).id == turn.id  # still their turn: no new turn message
        decisions.append((actor, turn.content))
        kind = next(str(b.custom_id) for b in buttons_of(turn)
                    if str(b.custom_id).endswith((":check", ":call")))
        assert (await h.click(actor, turn, custom_id=kind)).silent
    raise AssertionError(f"hand {hand} did not end")


async def seat_four(h: Harness) -> None:
    await open_table(h)
    for actor in (h.alice, h.bob, h.carol, h.dave):
        await h.slash(actor, "table join", buyin="200")


@pytest.mark.parametrize("locale", LOCALES)
async def test_prefs_are_shown_and_changed_privately_in_each_language(
    harness: Harness, locale: str
) -> None:
    h = harness
    h.set_locale(h.bob, locale)
    shown = await h.slash(h.bob, "prefs")
    assert shown.ephemeral, shown
    head, turns, cards, pictures, reminders, how = shown.text.splitlines()
    assert reminders == translate(locale, "prefs.reminders.ping")
    assert pictures == translate(locale, "prefs.pictures",
                                 deck=translate(locale, "prefs.deck.four_colour"),
                                 theme=translate(locale, "prefs.theme.dark"))
    assert (head, turns) == (translate(locale, "prefs.head"),
                             translate(locale, "prefs.turn_pings.always"))
    assert cards == translate(locale, "prefs.hole_cards.dm",
                              button=translate(locale, "button.my_seat"),
                              cards=Command("cards").to(locale))
    assert how == translate(locale, "prefs.how", prefs=Command("prefs").to(locale))
    assert (Command("prefs").to(locale) == "/prefs") == (locale == "en"), how
    changed = await h.slash(h.bob, "prefs", turn_pings="low", hole_cards="request")
    assert changed.ephemeral and changed.text.startswith(translate(locale, "prefs.saved"))
    assert translate(locale, "prefs.turn_pings.low") in changed.text
    assert "**" + translate(locale, "button.my_seat") + "**" in changed.text
    assert not h.public_messages()
    again = await h.slash(h.bob, "prefs", turn_pings="never")  # the other choice stays
    assert translate(locale, "prefs.turn_pings.never") in again.text
    again = await h.slash(h.bob, "prefs", reminders="dm")
    assert translate(locale, "prefs.reminders.dm") in again.text
    assert "**" + translate(locale, "button.my_seat") + "**" in again.text
    await h.restart()  # kept in the database
    after = await h.slash(h.bob, "prefs")
    assert after.text.replace(translate(locale, "prefs.head"), "") == again.text.replace(
        translate(locale, "prefs.saved"), "")


async def test_default_pings_once_per_decision_and_the_reminder_edits(
    harness: Harness,
) -> None:
    """Every player as they are by default: each decision's message pings the player to
    act and nobody else, once; the reminder of a slow player is an edit of their turn
    message (no new message, so no second ping); every message of the hand but the turn
    messages pings nobody; /table refresh posts the turn again without a ping."""
    h = harness
    await seat_four(h)
    start = len(h.env.http_requests)
    await h.advance(PAUSE + 0.1)
    decisions = await play_hand(h, 1, h.bob)
    sent = notified(h, start)
    pinged = [users for _, _, users in sent if users]
    # one ping per decision, to its player, in order
    assert pinged == [frozenset({actor.id}) for actor, _ in decisions], (pinged, decisions)
    assert not [c for _, c, _ in sent if "s left to act" in c]  # the reminder: not posted
    edits = [r.json.get("content", "") for r in h.env.http_requests[start:]
             if r.method == "PATCH" and isinstance(r.json, dict)]
    assert [c for c in edits if f"<@{h.bob.id}>, " in c and "s left to act" in c]
    # refresh during the next hand's first turn: posted anew, pinging nobody
    await h.advance(PAUSE + 0.1)
    before = len(h.env.http_requests)
    assert (await h.slash(h.carol, "table refresh")).ephemeral
    await h.bot.presenter.idle()
    reposted = notified(h, before)
    assert reposted and all(not users for _, _, users in reposted), reposted


async def test_chosen_pings_and_cards_on_request(harness: Harness) -> None:
    """bob: only when his clock runs low; carol: never; dave: cards only on request.
    bob's one ping is a short new message at the reminder, gone once he acted; carol is
    never pinged, her reminder edits her turn message; dave gets no DM, /cards and My
    cards answer him privately; alice (the default) is pinged on each of her turns."""
    h = harness
    await h.slash(h.bob, "prefs", turn_pings="low")
    await h.slash(h.carol, "prefs", turn_pings="never")
    await h.slash(h.dave, "prefs", hole_cards="request")
    await seat_four(h)
    start = len(h.env.http_requests)
    await h.advance(PAUSE + 0.1)
    assert not h.dms(h.dave) and h.dms(h.alice) and h.dms(h.bob) and h.dms(h.carol)
    mine = await h.slash(h.dave, "cards")
    assert mine.ephemeral and mine.text.startswith("Your cards: "), mine
    assert len(await mine.images()) == 1
    decisions = await play_hand(h, 1, h.bob, h.carol)
    sent = notified(h, start)
    pings = {a.id: sum(a.id in users for _, _, users in sent)
             for a in (h.alice, h.bob, h.carol, h.dave)}
    turns = {a.id: sum(actor is a for actor, _ in decisions)
             for a in (h.alice, h.bob, h.carol, h.dave)}
    assert pings == {h.alice.id: turns[h.alice.id], h.bob.id: 1, h.carol.id: 0,
                     h.dave.id: turns[h.dave.id]}, (pings, turns)
    [(path, reminder, users)] = [s for s in sent if h.bob.id in s[2]]
    assert users == {h.bob.id} and reminder.startswith(f"<@{h.bob.id}>, ")
    assert "s left to act" in reminder
    reminder_id = [r for r in h.env.http_requests[start:] if r.method == "POST"
                   and r.path == path and isinstance(r.json, dict)
                   and r.json.get("content") == reminder]
    assert reminder_id
    assert not [m for m in h.public_messages() if m.content == reminder]  # deleted
    for _, content in decisions:  # the turn messages name everyone they ask
        assert "your turn" in content
    edits = [r.json.get("content", "") for r in h.env.http_requests[start:]
             if r.method == "PATCH" and isinstance(r.json, dict)]
    assert [c for c in edits if f"<@{h.carol.id}>, " in c and "s left to act" in c]


async def test_the_reminder_pings_in_the_table_language(harness: Harness) -> None:
    """At an Italian table, a player who asked for the low-clock ping gets it in Italian."""
    h = harness
    await h.slash(h.alice, "prefs", turn_pings="low")
    await h.slash(h.bob, "prefs", turn_pings="low")
    await open_table(h, language="it")
    for actor in (h.alice, h.bob):
        await h.slash(actor, "table join", buyin="200")
    start = len(h.env.http_requests)
    await h.advance(PAUSE + 0.1)
    first = actor_of(h, turn_message(h))
    assert not [u for _, _, u in notified(h, start) if u]  # the turn message: no ping
    await h.advance(30 + 60 - 10 + 0.5)
    await h.bot.presenter.idle()
    [(_, text, users)] = [s for s in notified(h, start) if s[2]]
    assert users == {first.id} and "restano" in text and "per agire" in text, text


async def test_a_players_own_pictures_use_their_colours_and_public_ones_the_tables(
    harness: Harness,
) -> None:
    """Bob chooses the colour-blind deck on a light background: his hole cards (DM and
    /cards) and his private replay are drawn so; alice's and the table's stay as they were."""
    h = harness
    chosen = await h.slash(h.bob, "prefs", card_colours="colour_blind", theme="light")
    assert translate("en", "prefs.deck.colour_blind") in chosen.text
    assert translate("en", "prefs.theme.light") in chosen.text
    await seat_four(h)
    await h.advance(PAUSE + 0.1)
    table = h.bot.registry.in_channel(h.channel.id)
    snap = table.snapshot()
    for actor, theme, style in ((h.bob, Theme.LIGHT, DeckStyle.COLOUR_BLIND),
                                (h.alice, Theme.DARK, DeckStyle.FOUR_COLOUR)):
        view = hole_cards_view(snap, table.hole_cards(actor.id), "en")
        assert await h.png(h.dms(actor)[0]) == render_hole_cards(view, theme, style)
        [(_, png)] = await (await h.slash(actor, "cards")).files()
        assert png == render_hole_cards(view, theme, style)
    await play_hand(h, 1)
    await h.slash(h.bob, "hand replay", number=1)
    await h.slash(h.alice, "hand replay", number=1, public=True)
    drawn = {(k.theme, k.style, k.seat is None) for k in h.bot.replays.kept}
    assert drawn == {(Theme.LIGHT, DeckStyle.COLOUR_BLIND, False),
                     (Theme.DARK, DeckStyle.FOUR_COLOUR, True)}
