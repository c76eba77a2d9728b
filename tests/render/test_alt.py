"""Pictures described in words (:mod:`bot.render.alt`): every attachment the bot sends
carries a description (its alt text) in the reader's language (issue 31). A hand is
played through the offline Discord at an Italian table whose players' clients speak
Portuguese, Spanish and English, then the commands that attach pictures or files run.
Every upload is recorded where the offline Discord receives it
(:mod:`bot.offline.uploads`), so a picture later replaced by an edit is checked too."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.engine.cards import parse_cards
from bot.offline import uploads
from bot.render import alt, samples
from bot.render.hole import sort_hole
from bot.render.views import HoleCardsView, SeatView, TableView
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of

#: Each language's words for the four suits (bot.i18n catalogs, ``suit.*``).
SUITS = {
    "it": r"di (picche|cuori|quadri|fiori)\b",
    "pt-BR": r"de (espadas|copas|ouros|paus)\b",
    "es-ES": r"de (picas|corazones|diamantes|tréboles)\b",
    "en": r"of (spades|hearts|diamonds|clubs)\b",
}


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions", "cogs.hands",
            "cogs.ledger")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str | None]]:
    """(path, file name, description) of every file the bot uploads."""
    seen: list[tuple[str, str, str | None]] = []
    real = uploads._simcord_dispatch

    def record(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        for f in kwargs.get("files") or ():
            seen.append((path, f.filename, f.description))
        return real(backend, method, path, **kwargs)

    monkeypatch.setattr(uploads, "_simcord_dispatch", record)
    return seen


async def _play_to_showdown(h: Harness) -> None:
    """Check or call (buttons by custom_id) until hand #1's result is posted."""
    for _ in range(60):
        if any(m.content.startswith("**Risultato della mano #1") for m in h.public_messages()):
            return
        turn = turn_message(h)
        ids = [str(b.custom_id) for b in buttons_of(turn)]
        pick = next((i for i in ids if i.endswith(":check")), None) or next(
            i for i in ids if ":call" in i)
        await h.click(actor_of(h, turn), turn, custom_id=pick)  # type: ignore[arg-type]
    raise AssertionError("the hand did not end")


def _described(sent: list[tuple[str, str, str | None]], name: str) -> list[str]:
    found = [d for _, f, d in sent if re.fullmatch(name, f)]
    assert found, (name, [f for _, f, _ in sent])
    assert all(d for d in found), (name, found)
    return [d for d in found if d]


async def test_every_attachment_is_described_in_its_readers_language(
    harness: Harness, sent: list[tuple[str, str, str | None]]
) -> None:
    h = harness
    h.set_locale(h.alice, "pt-BR")
    h.set_locale(h.bob, "es-ES")
    h.env.backend.get_guild(h.guild.id).preferred_locale = "it"
    await open_table(h, language="it")
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    asked = await h.slash(h.bob, "cards")  # his cards, privately, in Spanish
    assert asked.text.startswith("Tus cartas: "), asked.text
    [mine] = _described(sent, r"hand-1-cards\.png")
    assert mine.startswith("Mesa 1 · Mano #1") and len(re.findall(SUITS["es-ES"], mine)) == 4
    await _play_to_showdown(h)

    # hole cards by DM, each in the player's language, every card named
    ids = {h.alice.id: "pt-BR", h.bob.id: "es-ES", h.carol.id: "en"}
    for user_id, lang in ids.items():
        [dm] = _described(sent, rf"hand-1-cards-{user_id}\.png")
        assert len(re.findall(SUITS[lang], dm)) == 4, dm
    assert _described(sent, rf"hand-1-cards-{h.alice.id}\.png")[0].startswith("Mesa 1")
    # the table (street, pot, whose turn) and the showdown, in the table's Italian
    tables = _described(sent, r"table-\d+-hand-1\.png")
    assert any("Piatto " in d and "tocca a " in d and "Mano #1" in d for d in tables), tables
    [showdown] = _described(sent, r"showdown-1\.png")
    assert " mostra " in showdown and " vince " in showdown, showdown
    assert len(re.findall(SUITS["it"], showdown)) >= 4 + 5, showdown  # a hand and the board

    # the commands that attach: each in its reader's language
    await h.slash(h.bob, "hand show", number=1)
    [shown] = _described(sent, r"hand-1\.png")
    assert "Mano #1" in shown and " gana " in shown, shown
    await h.slash(h.bob, "hand replay", number=1)
    [replay] = _described(sent, r"hand-1\.gif")
    assert replay.startswith("Mano #1") and " gana " in replay, replay
    await h.slash(h.alice, "hand export", last=1)
    [export] = _described(sent, r"hand-1\.phh")
    assert export.startswith("Mão #1 como texto em PHH"), export
    await h.slash(h.alice, "leaderboard")  # public: the server's language
    [board] = _described(sent, r"leaderboard\.png")
    assert board.startswith("Classifica") or "Fiches" in board, board
    await h.slash(h.bob, "stats")
    [graphs] = _described(sent, r"stats\.png")
    assert "Manos" in graphs, graphs
    await h.slash(h.bob, "table ledger", export=True)
    [ledger] = _described(sent, r"ledger-table-\d+-session-\d+\.csv")
    assert ledger == "Las cuentas de la noche como tabla CSV", ledger
    assert all(len(d or "") <= 1024 for _, _, d in sent)


LOCALES = ("en", "es-ES", "es-419", "it", "pt-BR")


@pytest.mark.parametrize("locale", LOCALES)
def test_hole_cards_are_named_in_the_pictures_order(locale: str) -> None:
    """Every card named once, in the order the picture draws them (by suit, then rank)."""
    cards = parse_cards("7h Kd 2s As")
    said = alt.hole_cards(HoleCardsView("T", 3, cards, locale=locale))
    order = [alt.card_words(locale, c) for c in sort_hole(cards)]
    at = [said.index(name) for name in order]
    assert at == sorted(at), said
    assert [c.suit for c in sort_hole(cards)] == ["s", "s", "h", "d"]
    if locale != "en":
        assert not re.search(r"\b(of|spades|hearts|diamonds|clubs|Your)\b", said), said


def test_a_description_never_exceeds_discords_limit() -> None:
    shown = parse_cards("As Ks Qs Js Ts Ah")
    seats = tuple(SeatView(i, "x" * 32 + str(i), 10**9, shown=shown) for i in range(1, 11))
    view = TableView("T", 1, 10, seats, board=parse_cards("2c 3c 4c 5c 6c"))
    said = alt.table(view)
    assert len(said) == alt.LIMIT and said.endswith("\u2026")
    assert alt.fit("short") == "short"


def test_a_double_board_showdown_names_both_boards() -> None:
    """Board 2 is read out after board 1, and each hand as it plays on each board."""
    said = alt.showdown(samples.double_board_showdown())
    assert "board 2: queen of hearts, queen of spades, four of diamonds" in said, said
    assert "(Four of a kind, queens" not in said  # Bob's pair of queens comes first
    assert "board 2: Four of a kind, queens" in said, said
