"""/help: private, within Discord's limits, and every poker example agrees with the engine."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from bot.engine.betting import BettingRound, Player
from bot.engine.cards import parse_cards
from bot.engine.evaluate import describe_high, five_value, hand_label, low_value
from bot.engine.variants import VARIANTS, Structure
from bot.i18n import Command
from cogs.help import (
    DESCRIPTION_LIMIT,
    EMBEDS_PER_MESSAGE,
    HAND_RANKS,
    HI_LO_EXAMPLES,
    HOLDEM_EXAMPLES,
    MESSAGE_EMBED_LIMIT,
    OMAHA_EXAMPLES,
    PREFERENCES,
    TOPICS,
    messages,
    pages,
)
from tests.conftest import Harness, Reply


def within_limits(reply: Reply) -> None:
    for m in reply.messages:
        assert len(m.embeds) <= EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in m.embeds) <= MESSAGE_EMBED_LIMIT
        for e in m.embeds:
            assert e.description is not None and len(e.description) <= DESCRIPTION_LIMIT


async def test_help_lists_every_loaded_command_privately(harness: Harness) -> None:
    """/help alone answers only the asker, with each slash command, its options and purpose."""
    h = harness
    reply = await h.slash(h.alice, "help")
    assert reply.ephemeral
    within_limits(reply)
    assert not [m for m in h.public_messages() if m.embeds]
    text = reply.all_text
    leaves = [c for c in h.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(leaves) > 25
    for command in leaves:
        assert f"/{command.qualified_name}" in text, command.qualified_name
        assert command.description in text, command.qualified_name
    assert "`/raise to` Raise to a total for this round" in text
    assert "`/table join [buyin] [seat] [post_big_blind]`" in text
    assert "**Server managers**" in text and "`/chips grant user amount reason`" in text
    headings = [line for line in text.splitlines() if line.startswith("**")]
    assert headings == [
        "**Tables**", "**Playing a hand**", "**Tournaments**", "**Chips and statistics**",
        "**Hand histories**", "**Help**", "**Server managers**",
    ]
    footer = reply.embeds[-1].footer.text or ""
    assert all(topic in footer for topic in ("hands", "omaha", "holdem", "hi-lo", "betting"))


@pytest.mark.parametrize(
    "topic, needles",
    [
        ("commands", ["/table create", "/help"]),
        ("table", ["**Fold**", "**Min**, **½ Pot** and **Pot**", "**Raise to…**", "time bank",
                   "/table sitout", "/table sitin post_big_blind", "/table topup",
                   "offering a top-up or leaving", "**Run it twice**", "/table settings",
                   "**My seat**", "your seat panel", "a pot-size raise"]),
        ("hands", ["**Straight flush** `9s 8s 7s 6s 5s`", "suits never break a tie"]),
        ("omaha", ["**exactly two**", "**exactly three**", "**not** a flush"]),
        ("holdem", ["2 hole cards", "both of yours, one, or none", "**are** a flush",
                    "**Royal flush**", "**The board plays**", "seats 2 to 10"]),
        ("hi-lo", ["**different ranks, all 8 or lower**", "the ace is low",
                   "Straights and flushes **do not count against** a low"]),
        ("betting", ["**Pot limit**", "the biggest raise is to 7", "to 30"]),
        ("tournament", ["/tournament create", "/tournament start", "table_size",
                        "/table sitin", "/tournament cancel", "**Late registration**",
                        "gets the starting stack", "in proportion to their chips",
                        "after 20 hands in a row", "/table limits", "/schedule move",
                        "/schedule cash"]),
        ("ledger", ["/table ledger", "export", "/table session new", "there is no rake",
                    "/season start", "/season show", "/leaderboard", "season",
                    "Balances are not seasonal"]),
    ],
)
async def test_each_topic_is_private_and_fits(
    harness: Harness, topic: str, needles: list[str]
) -> None:
    """Every topic answers privately with its title, within Discord's embed limits."""
    reply = await harness.slash(harness.bob, "help", topic=topic)
    assert reply.ephemeral
    within_limits(reply)
    # a topic longer than one embed's 4,096 characters goes on in a second (its pages named)
    assert re.fullmatch(re.escape(TOPICS[topic]) + r"( \(1/\d\))?", reply.embeds[0].title or "")
    for needle in needles:
        assert needle in reply.all_text, needle


def test_ranked_examples_are_the_hands_they_illustrate() -> None:
    """Each example is evaluated as its category, and the list is strictly best first."""
    values = []
    for name, example, _ in HAND_RANKS:
        value = five_value(parse_cards(example))
        label = describe_high(value)
        expected = "Pair of" if name == "One pair" else name
        assert label.startswith(expected), (name, label)
        values.append(value)
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)


@pytest.mark.parametrize(
    "hole, board, label, hi_lo",
    [(*e[:3], False) for e in OMAHA_EXAMPLES] + [(*e[:3], True) for e in HI_LO_EXAMPLES],
)
def test_omaha_examples_make_what_they_say(hole: str, board: str, label: str, hi_lo: bool) -> None:
    """The engine labels every /help example exactly as the page does."""
    variant = VARIANTS["omaha_hilo" if hi_lo else "omaha"]
    assert hand_label(parse_cards(hole), parse_cards(board), variant) == label


@pytest.mark.parametrize("hole, board, label", [e[:3] for e in HOLDEM_EXAMPLES])
def test_holdem_examples_make_what_they_say(hole: str, board: str, label: str) -> None:
    """Each Texas Hold'em example is what the engine makes of it in Hold'em."""
    assert hand_label(parse_cards(hole), parse_cards(board), VARIANTS["holdem"]) == label


def test_holdem_page_reads_the_omaha_boards_the_other_way() -> None:
    """The Hold'em page's first two examples are the Omaha page's boards with two of its
    hole cards, and what is **not** a flush or a straight in Omaha is one in Hold'em; on
    the last board every hand plays the board's royal flush (the pot is split)."""
    for (hole, board, label, _), omaha in zip(HOLDEM_EXAMPLES[:2], OMAHA_EXAMPLES[:2],
                                              strict=True):
        assert board == omaha[1] and set(hole.split()) <= set(omaha[0].split())
        assert label.split(",")[0] in ("Flush", "Straight")
        assert not omaha[2].startswith(label.split(",")[0])
    board = parse_cards(HOLDEM_EXAMPLES[-1][1])
    for hole in ("2c 3c", "Ah Ad", "7d 8h"):
        assert hand_label(parse_cards(hole), board, VARIANTS["holdem"]) == "Royal flush"


def test_low_comparisons_on_the_hi_lo_page() -> None:
    """7-5-4-3-2 beats 8-6-5-4-3, which beats 8-7-3-2-A (higher value is better)."""
    def low(hole: str, board: str) -> int:
        value = low_value(parse_cards(hole), parse_cards(board))
        assert value is not None
        return value

    best = low("7c 5d Kh Kd", "4h 3s 2c Qd Jd")
    middle = low("8c 6d Kh Kd", "5h 4s 3c Qd Jd")
    worst = low("8c 7d Kh Kd", "3h 2s Ac Qd Jd")
    assert best > middle > worst


def test_pot_limit_examples_on_the_betting_page() -> None:
    """Blinds 1-2, first to act: the pot-limit raise is to 7 (the engine's maximum)."""
    sb, bb, first = (Player(seat=i, pos=i, stack=100) for i in (1, 2, 3))
    sb.put_in(1, live=True)
    bb.put_in(2, live=True)
    round_ = BettingRound(Structure.POT_LIMIT, 2, level=2, full_bets=1)
    legal = round_.legal([sb, bb, first], first, pot=3)
    assert (legal.min_raise_to, legal.max_raise_to) == (4, 7)


def test_long_pages_split_within_discord_limits() -> None:
    """Long text becomes several embeds (no line cut) and several messages, all within limits."""
    lines = [f"line {i:03d} " + "x" * 90 for i in range(300)]
    embeds = pages("Long", lines, footer="More")
    assert len(embeds) > 1
    assert all(len(e.description or "") <= DESCRIPTION_LIMIT for e in embeds)
    joined = "\n".join(e.description or "" for e in embeds)
    assert joined == "\n".join(lines)
    assert embeds[0].title == f"Long (1/{len(embeds)})" and embeds[-1].footer.text == "More"
    groups = messages(embeds)
    assert len(groups) > 1
    for group in groups:
        assert len(group) <= EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in group) <= MESSAGE_EMBED_LIMIT
    assert [e for g in groups for e in g] == embeds
    assert isinstance(embeds[0], discord.Embed)


async def test_long_help_is_sent_as_followups(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page bigger than one message arrives as a reply and private followups."""
    import sys

    module = sys.modules["cogs.help"]
    monkeypatch.setattr(module, "betting_page", lambda locale=None: ["y" * 1000] * 20)
    reply = await harness.slash(harness.carol, "help", topic="betting")
    assert reply.ephemeral and len(reply.messages) > 1
    within_limits(reply)
    assert all(m.ephemeral for m in reply.messages)
    assert sum(len(e.description or "") for e in reply.embeds) >= 20_000


@pytest.mark.parametrize(
    "locale, topic, needles, english",
    [
        ("pt-BR", "hands", ["**Sequência** `Tc 9d 8s 7h 6c`", "**Trinca**", "**Quadra**",
                            "`/ajuda assunto: omaha`"], "suits never break a tie"),
        ("es-ES", "omaha", ["**exactamente dos**", "**Carta alta, As**", "**no** son color"],
         "never more"),
        ("it", "hi-lo", ["**Tris di Re; Low 8-5-3-2-A**", "5-4-3-2-A è il Low migliore"],
         "the ace is low"),
        ("es-ES", "betting", ["**Límite de bote**", "la subida mayor es hasta 7", "hasta 30",
                              "`/subir "], "the biggest raise"),
        ("es-419", "betting", ["**Límite de pozo**", "(puede pagar o botar)"], "Pot limit"),
        ("pt-BR", "holdem", ["2 cartas fechadas", "**são** flush", "**Sequência, Dez alto**",
                             "**Royal Flush**", "**O board joga**"], "the board plays"),
        ("it", "holdem", ["**sono** colore", "**Scala reale**", "**Gioca il board**"],
         "both of yours"),
        ("es-419", "holdem", ["2 cartas de mano", "**Juega el tablero**", "el pozo se reparte"],
         "la mesa"),
        ("es-ES", "hands", ["`/ayuda tema: holdem`", "la mejor de cinco"], "your two cards"),
        ("pt-BR", "tournament", ["depois de 20 mãos seguidas", "/torneio ", "desist"],
         "hands in a row"),
        ("es-419", "tournament", ["pasas o botas al momento", "tras 20 manos seguidas"],
         "te tiras"),
    ],
)
async def test_poker_pages_speak_the_readers_language(
    harness: Harness, locale: str, topic: str, needles: list[str], english: str
) -> None:
    """The poker pages in the reader's language, with the seeds' words and the engine's
    examples worded by the hand names of that language; none of the English is left."""
    h = harness
    h.set_locale(h.bob, locale)
    reply = await h.slash(h.bob, "help", topic=topic)
    assert reply.ephemeral
    within_limits(reply)
    for needle in needles:
        assert needle in reply.all_text, (needle, reply.all_text[:600])
    assert english not in reply.all_text


def commands_of(tree: app_commands.CommandTree) -> list[app_commands.Command]:  # type: ignore[type-arg]
    return [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]


@pytest.mark.parametrize("locale", ["en", "pt-BR", "es-ES", "es-419", "it"])
async def test_help_names_every_command_of_the_tree_in_every_language(
    harness: Harness, locale: str
) -> None:
    """Walking the loaded command tree: /help names every command as the reader's Discord
    shows it, in each of the five languages, and the table page names the commands a
    player needs at the table (sitting out, topping up, leaving, /cards, /allin)."""
    h = harness
    h.set_locale(h.bob, locale)
    everything = ""
    for topic in TOPICS:
        reply = await h.slash(h.bob, "help", topic=topic)
        assert reply.ephemeral
        within_limits(reply)
        everything += reply.all_text
    for command in commands_of(h.bot.tree):
        assert Command(command.qualified_name).to(locale) in everything, command.qualified_name
    table = (await h.slash(h.bob, "help", topic="table")).all_text
    for name in ("table sitout", "table sitin", "table topup", "table leave", "cards",
                 "allin", "preaction", "fold", "call", "raise", "table settings"):
        assert Command(name).to(locale) in table, name
    assert "help.table" not in table  # every message found in the catalog


@pytest.mark.parametrize(("locale", "whole"), [
    ("en", "Balances (/balance) are one per server and count every table"),
    ("pt-BR", "Os saldos (/saldo) são um por servidor e contam todas as mesas"),
    ("es-ES", "Los saldos (/saldo) son uno por servidor y cuentan todas las mesas"),
    ("es-419", "Los saldos (/saldo) son uno por servidor y cuentan todas las mesas"),
    ("it", "I saldi (/saldo) sono uno per server e contano tutti i tavoli"),
])
async def test_help_says_who_sees_whose_results_and_that_balances_are_whole(
    harness: Harness, locale: str, whole: str
) -> None:
    """Under "Chips and statistics": others' statistics and the leaderboards count what the
    answer's readers may see, one's own private /stats everything, balances the server's
    whole; a public answer needs the reader's own Send Messages."""
    h = harness
    h.set_locale(h.bob, locale)
    text = (await h.slash(h.bob, "help")).all_text
    assert whole in text, text
    note = next(line for line in text.splitlines() if whole in line)
    for name in ("stats", "leaderboard"):
        assert Command(name).to(locale) in note, name


async def test_the_table_page_names_a_preferences_command_only_when_loaded(
    harness: Harness,
) -> None:
    """The pings paragraph names the preferences command when the tree has one (another
    issue adds it) and never names a command that is not there."""
    h = harness
    names = {c.qualified_name for c in h.bot.tree.walk_commands()}
    text = (await h.slash(h.alice, "help", topic="table")).all_text
    loaded = [n for n in PREFERENCES if n in names]
    assert ("with /" + loaded[0] in text) if loaded else ("Choose which pings" not in text)
