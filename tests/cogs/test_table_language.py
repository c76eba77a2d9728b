"""A table speaks its language in public and each player's in private (issue 13).

A hand is played through the offline Discord at a Portuguese table whose players'
clients speak Spanish (Spain) and Italian: the table's messages and pictures are in
Portuguese, each player's hole cards (DM and ``/cards``) in their own language. The
pictures are checked through the render layer's inputs: every view handed to the
renderer is recorded, and its words are read with the render layer's own helpers.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.adapter import actions, hole_card_dms, pictures, presenter, seat_panel
from bot.i18n import translate
from bot.i18n.glossary import offences
from bot.render import words
from bot.render.table import street_label
from bot.runtime.config import TableConfig
from tests.cogs.test_table import PAUSE, actor_of, open_table, turn_message
from tests.conftest import Harness, buttons_of


async def play_out(h: Harness, limit: int = 60) -> None:
    """Check or call with the turn buttons until the Portuguese result is posted."""
    for _ in range(limit):
        if any(m.content.startswith("**Resultado da mão") for m in h.public_messages()):
            return
        turn = turn_message(h)
        labels = [str(b.label) for b in buttons_of(turn)]
        # the public buttons speak the table's language: Check, Igualar 2
        label = "Check" if "Check" in labels else next(x for x in labels if x.startswith("Igualar"))
        await h.click(actor_of(h, turn), turn, label=label)  # type: ignore[arg-type]
    raise AssertionError("the hand did not end")


async def check_notices_buttons_and_refusals(h: Harness) -> None:
    """At the Portuguese table: notices and buttons in Portuguese, each refusal in the
    language of the player refused, with the commands as their Discord names them."""
    everything = "\n".join(m.content for m in h.public_messages())
    assert "senta no assento 1 com 200 fichas." in everything  # notice.sits_down
    assert " sits down " not in everything
    turn = turn_message(h)
    # the commitment, in its own message before the deal, in the table's thread (named in
    # the table's language, linked from the table's message)
    [thread] = h.channel.threads
    posted = "\n".join(m.content for m in h.public_messages(thread))
    assert "Compromisso do baralho da mão #1: `" in posted and "Deck commitment" not in posted
    assert thread.name == "Compromissos do baralho — mesa 1"
    assert f"🔒 Compromissos do baralho: <#{thread.id}>" in turn.content
    labels = [str(b.label) for b in buttons_of(turn)]
    assert "Desistir" in labels and "Meu lugar" in labels  # the pre-actions: in the panel
    assert not {"Fold", "My seat", "Check/Desistir", "Check/Fold", "No pre-action"} & set(labels)
    actor = actor_of(h, turn)
    waiting = {h.alice: "pt-BR", h.bob: "es-ES", h.carol: "it"}
    said = {"pt-BR": "Não é a sua vez: esperando ", "es-ES": "No es tu turno: esperando a ",
            "it": "Non è il tuo turno: si aspetta "}
    for other, lang in waiting.items():
        if other is actor:
            continue
        refused = await h.click(other, turn, label="Desistir")  # type: ignore[arg-type]
        assert refused.ephemeral and refused.text.startswith(said[lang]), refused.text
    again = await h.slash(h.bob, "table join", buyin="200")
    assert again.text.startswith("Ya estás sentado en el asiento "), again.text
    mine = await h.slash(h.carol, "table mine")
    assert mine.text.startswith("I tuoi posti (1):") and " · posto " in mine.text, mine.text
    assert "/tavolo esci tavolo:" in mine.text, mine.text
    helped = await h.slash(h.carol, "help")  # the command list as her Discord shows it
    page = "\n".join(e.description or "" for e in helped.embeds)
    assert helped.embeds[0].title == "Comandi" and "**Tavoli**" in page, page[:200]
    assert "`/tavolo entra [" in page and "siediti con" in page, page
    assert (helped.embeds[-1].footer.text or "").startswith("Altro: /aiuto argomento: ")
    bad = await h.slash(h.carol, "table topup", amount="tanti")
    assert bad.text.startswith("Ricarica: usa un numero intero di fiches"), bad.text
    # the player to act asks for too much: the options name the localized commands
    lang = waiting[actor]  # type: ignore[index]
    big = await h.slash(actor, "raise", to="100000")
    words = {"pt-BR": ("Um aumento para 100.000 ", "/igualar"),
             "es-ES": ("Una subida a 100.000 ", "/ver"),
             "it": ("Un rilancio a 100.000 ", "/vedi")}[lang]
    assert big.text.startswith(words[0]) and words[1] in big.text, big.text


@pytest.fixture
def bot_extensions() -> tuple[str, ...]:
    return ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions", "cogs.help", "cogs.hands")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every view the cogs hand to the renderer (the real renderer still draws it)."""
    seen: list[Any] = []
    for module, name in ((pictures, "render_table_async"), (presenter, "render_showdown_async"),
                         (hole_card_dms, "render_hole_cards_async"),
                         (seat_panel, "render_hole_cards_async"),
                         (actions, "render_hole_cards_async")):
        real = getattr(module, name)

        async def record(view: Any, *drawing: Any, _real: Any = real) -> bytes:
            seen.append(view)  # ``drawing``: a player's own theme and deck colours
            return bytes(await _real(view, *drawing))

        monkeypatch.setattr(module, name, record)
    return seen


async def test_a_portuguese_table_with_spanish_and_italian_players(
    harness: Harness, drawn: list[Any]
) -> None:
    h = harness
    h.set_locale(h.alice, "pt-BR")
    h.set_locale(h.bob, "es-ES")
    h.set_locale(h.carol, "it")
    await open_table(h, language="pt-BR")
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)

    # private: each player's hole cards in their own language
    assert h.dms(h.alice)[0].content.startswith("Suas cartas da mão #1 na mesa ")
    assert h.dms(h.bob)[0].content.startswith("Tus cartas de la mano #1 en la mesa ")
    assert "Omaha Límite de bote 1/2" in h.dms(h.bob)[0].content
    assert h.dms(h.carol)[0].content.startswith("Le tue carte della mano #1 al tavolo ")
    assert (await h.slash(h.bob, "cards")).text.startswith("Tus cartas: ")
    assert (await h.slash(h.carol, "cards")).text.startswith("Le tue carte: ")
    holes = {v.locale for v in drawn if type(v).__name__ == "HoleCardsView"}
    assert holes == {"pt-BR", "es-ES", "it"}

    # public: the live message in Portuguese
    live = [m.content for m in h.public_messages() if m.content.startswith("**Mão #1**")]
    assert live and "Omaha Pot Limit 1/2" in live[-1] and ", sua vez: " in live[-1]
    assert "Sorteio do botão: " in "\n".join(m.content for m in h.public_messages())
    await check_notices_buttons_and_refusals(h)

    await play_out(h)
    public = [m for m in h.public_messages() if "#1" in m.content]
    [result] = [m for m in public if m.content.startswith("**Resultado da mão #1**")]
    assert " ganha " in result.content or " dividem " in result.content  # a win or a split
    # the whole log is one click away, in the reader's language (bob reads Spanish)
    assert [str(b.label) for b in buttons_of(result)] == ["Histórico da mão"]
    opened = await h.click(h.bob, result, label="Histórico da mão")
    log = opened.all_text
    assert opened.ephemeral and "Tus cartas: " in log and " gana " in log, log
    english = (" calls ", " checks", " wins ", "your turn", "Hand #", " shows ", "Hand log")
    for m in public:
        assert not [w for w in english if w in m.content + log], m.content

    # the pictures: every table view in Portuguese, worded by the render layer
    tables = [v for v in drawn if type(v).__name__ == "TableView"]
    assert tables and {v.locale for v in tables} == {"pt-BR"}
    assert all(v.table_name.startswith("Mesa ") for v in tables)
    last = tables[-1]
    with words.speaking(last.locale):
        assert words.say("render.board") == "Board"
        assert words.pot_forms("Pot") == ("Pote",)
        assert words.pot_forms("Side pot 1")[0] == "Pote lateral 1"
        assert street_label(last) == "River" and words.say("street.hand_ended") == "Mão encerrada"
        assert words.hand("Flush, ace high") == "Flush, Ás alto"
    shows = [v for v in drawn if type(v).__name__ == "ShowdownView"]
    assert {v.locale for v in shows} <= {"pt-BR"}


async def test_the_table_language_defaults_to_the_servers(harness: Harness) -> None:
    h = harness
    h.env.backend.get_guild(h.guild.id).preferred_locale = "it"
    await open_table(h)
    assert h.bot.registry.in_channel(h.channel.id).config.language == "it"


async def test_a_server_language_we_do_not_speak_gives_english(harness: Harness) -> None:
    h = harness
    h.env.backend.get_guild(h.guild.id).preferred_locale = "fr"
    await open_table(h)
    assert h.bot.registry.in_channel(h.channel.id).config.language == "en"


def test_configs_stored_before_languages_load_in_english() -> None:
    stored = TableConfig.create().to_dict()
    del stored["language"]
    assert TableConfig.from_dict(stored).language == "en"
    assert TableConfig.create(language="pt-BR").changed(clock=40).language == "pt-BR"


async def play_by_ids(h: Harness, locale: str, limit: int = 60) -> None:
    """Check or call (buttons found by custom_id) until hand #1's result is posted."""
    title = translate(locale, "result.title", number="1", game="").split("#1")[0]
    for _ in range(limit):
        if any(m.content.startswith(title) for m in h.public_messages()):
            return
        turn = turn_message(h)
        ids = [str(b.custom_id) for b in buttons_of(turn)]
        pick = next((i for i in ids if i.endswith(":check")), None) or next(
            i for i in ids if ":call" in i)
        await h.click(actor_of(h, turn), turn, custom_id=pick)  # type: ignore[arg-type]
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize(("locale", "said"), [
    ("es-419", ("pozo", "Tablero")), ("es-ES", ("bote", "Mesa")), ("pt-BR", ("pote", "Board")),
    ("it", ("piatto", "Board"))])
async def test_a_hand_at_the_table_speaks_its_glossary(
        harness: Harness, drawn: list[Any], locale: str, said: tuple[str, str]) -> None:
    """A hand played at a table of each language: every public message and the words of
    every picture follow that language's glossary (es-419: pozo, tablero, pagar, botar,
    Alto-Bajo; none of Spain's words it used to borrow)."""
    h = harness
    for actor in (h.alice, h.bob, h.carol):
        h.set_locale(actor, locale)
    await open_table(h, language=locale, variant="omaha_hilo")
    for actor in (h.alice, h.bob, h.carol):
        await h.slash(actor, "table join", buyin="200")
    await h.advance(PAUSE + 0.1)
    await play_by_ids(h, locale)
    texts = [m.content for m in h.public_messages()]
    texts += [e.description or "" for m in h.public_messages() for e in m.embeds]
    texts += [str(b.label) for m in h.public_messages() for b in buttons_of(m)]
    assert [(t[:80], found) for t in texts if (found := offences(locale, t))] == []
    assert said[0] in translate(locale, "table.pot", amount=6).lower()  # the live header
    # a hand named inside a result line reads in lower case: "com dois pares", not "com Dois"
    with_ = translate(locale, "result.with", hand="\x00").split("\x00")[0]
    assert not [t for t in texts if re.search(re.escape(with_) + r"[A-ZÁÉÍÓÚ]", t)]
    pictured = [v for v in drawn if type(v).__name__ != "HoleCardsView" or v.locale == locale]
    assert pictured
    with words.speaking(locale):
        assert words.say("render.board") == said[1]
        game = {v.game for v in pictured if getattr(v, "game", "")}
    assert game and not [g for g in game if offences(locale, g)], game
