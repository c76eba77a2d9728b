"""/help: the commands, the hand rankings, the Omaha rules players trip on and Texas
Hold'em's best five of seven, privately.

    /help [topic]     commands (default), table, tournament, ledger, hands, omaha, holdem,
                      hi-lo, betting

``table`` is what a player meets at the table beyond the commands: the turn's buttons
and raise sizes, what ``/allin`` puts in, pre-actions, the clock and time bank, sitting
out and the big blind owed, topping up (and the way back from a bust), leaving and
staying, run it twice, pings and direct messages, and the preferences command when
one is loaded (looked up in the tree, so the page never names a command that is not
there). ``tournament`` is a sit-and-go's and a multi-table tournament's life: entering,
several tables, a player away, cancelling, a tournament nobody plays any more
(:mod:`bot.runtime.tournament.idle`) and the limits on open tables. ``ledger`` is the
night's ledger of a cash table and the seasons of the leaderboards (what a season's
standings count).

The command list is read from the bot's command tree when asked, so it shows
exactly the commands loaded, with their options (``[option]`` is optional).
The poker pages' prose is in the catalogs (``help.*``); their examples are checked against the
engine by ``tests/cogs/test_help.py`` (every ranked example is the hand it
illustrates, every Omaha and Hold'em example makes the hand it says in its game). Each page is cut
into embeds within Discord's limits (a description of at most 4,096
characters, at most 6,000 characters and 10 embeds in one message).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import (
    CHOICE,
    COMMAND,
    DESCRIPTION,
    Command,
    Option,
    Phrase,
    hands,
    translate,
    translate_text,
)
from bot.runtime.tournament.idle import IDLE_HANDS

if TYPE_CHECKING:
    from bot.client import OmahaDealer

#: Discord's limits for one embed's description and for all embeds of one message.
DESCRIPTION_LIMIT = 4096
MESSAGE_EMBED_LIMIT = 6000
EMBEDS_PER_MESSAGE = 10

COLOUR = discord.Colour.dark_green()

#: The high hands, best first: name, an example (as the bot writes cards) and a note.
HAND_RANKS: tuple[tuple[str, str, str], ...] = (
    ("Straight flush", "9s 8s 7s 6s 5s", "five in sequence, one suit; Ah Kh Qh Jh Th is a royal"),
    ("Four of a kind", "Qc Qd Qh Qs 7d", "four cards of one rank"),
    ("Full house", "8s 8d 8h Kc Ks", "three of one rank and a pair"),
    ("Flush", "Ad Jd 9d 6d 3d", "five of one suit"),
    ("Straight", "Tc 9d 8s 7h 6c", "five in sequence; 5-4-3-2-A (the wheel) is the lowest"),
    ("Three of a kind", "7c 7d 7s Kd 2h", "three of one rank"),
    ("Two pair", "Js Jh 4d 4c As", "two pairs"),
    ("One pair", "Th Ts Kd 8c 3s", "two of one rank"),
    ("High card", "As Qd 9h 6c 4d", "none of the above"),
)

#: Omaha examples: hole cards, board, what the hand is (the engine's label), why.
OMAHA_EXAMPLES: tuple[tuple[str, str, str, str], ...] = (
    ("Qh Js 5d 4c", "Ah Kh 7h 2h 9c", "High card, ace",
     "four hearts on the board and one in your hand are **not** a flush"),
    ("Ts As Ac 2d", "9s 8d 7c 6h Kd", "Pair of aces",
     "four board cards to a straight and one ten in your hand are **not** a straight"),
    ("Ks Qh Jd 4c", "Kc Kd 7s 3h 2c", "Three of a kind, kings",
     "a paired board K-K with one king in your hand is trips"),
    ("Ah Qh Jd Tc", "Kc Kd 7s 3h 2c", "Pair of kings",
     "the same board with no king in your hand is only the board's pair"),
)

#: Texas Hold'em examples: hole cards, board, the engine's label, why (the first two are
#: the Omaha page's first two boards, which Hold'em reads the other way).
HOLDEM_EXAMPLES: tuple[tuple[str, str, str, str], ...] = (
    ("Qh Js", "Ah Kh 7h 2h 9c", "Flush, ace high",
     "four hearts on the board and one in your hand **are** a flush"),
    ("Ts 2d", "9s 8d 7c 6h Kd", "Straight, ten high",
     "one ten with four board cards to a straight is a straight"),
    ("Ks 2c", "Kc Kd 7s 3h 2d", "Full house, kings full of twos",
     "both of your cards play: the king with K-K, the two with the board's two"),
    ("4c 3d", "As Ks Qs Js Ts", "Royal flush",
     "the board plays: everyone still in has it and the pot is split"),
)

#: Hi-lo examples: hole cards, board, the engine's label, why.
HI_LO_EXAMPLES: tuple[tuple[str, str, str, str], ...] = (
    ("Ac 3d Kd Kh", "2c 5d 8h Kc Qs", "Three of a kind, kings; Low 8-5-3-2-A",
     "K-K makes the high, A-3 the low: a different pair of hole cards for each"),
    ("Ah 2h Kc Qd", "3h 4h 5c Jd 9s", "Straight, five high; Low 5-4-3-2-A",
     "the wheel is a straight for the high and the best low at once"),
    ("Ac 2d 3s 4h", "9c Td Jh 2s 3c", "Two pair, threes and twos; no low",
     "only two board cards are 8 or lower, so no low can be made"),
)

#: Topics of /help, as offered in the client.
TOPICS: dict[str, str] = {
    "commands": "Commands",
    "table": "At the table: buttons, clock, seats",
    "tournament": "Tournaments: sit and go, several tables, cancelling",
    "ledger": "The night's ledger and seasons",
    "hands": "Hand rankings",
    "omaha": "Omaha: two from the hand, three from the board",
    "holdem": "Texas Hold'em: the best five of seven cards",
    "hi-lo": "Hi-lo: the 8-or-better low",
    "betting": "Betting: pot limit, no limit, fixed limit",
}
TOPIC_CHOICES = [app_commands.Choice(name=title, value=key) for key, title in TOPICS.items()]


def _key(english: str) -> str:
    return english.lower().replace(" ", "_")


def _hand(locale: object, page: str, number: int, example: tuple[str, str, str, str]) -> str:
    """``- Hand `Qh Js 5d 4c`, board `…`: **High card, ace**: why.``; the label worded by
    :mod:`bot.i18n.hands` (the engine's wording, checked by the tests)."""
    hole, board, label, _ = example
    return translate(locale, "help.example", hole=hole, board=board,
                     label=hands.label(locale, label),
                     why=Phrase(f"help.{page}.why_{number}"))


def hands_page(locale: object = None) -> list[str]:
    lines = [translate(locale, "help.hands.intro"), ""]
    for i, (name, example, _) in enumerate(HAND_RANKS, 1):
        lines.append(translate(locale, "help.rank_line", number=str(i),
                               name=Phrase("help.rank." + _key(name)), example=example,
                               note=Phrase("help.rank_note." + _key(name))))
    lines += ["", translate(locale, "help.hands.ace"),
              translate(locale, "help.hands.omaha", help=Command("help"), topic=Option("topic")),
              translate(locale, "help.hands.holdem", help=Command("help"), topic=Option("topic"))]
    return lines


def omaha_page(locale: object = None) -> list[str]:
    lines = [translate(locale, "help.omaha.intro"), ""]
    lines += [_hand(locale, "omaha", i, e) for i, e in enumerate(OMAHA_EXAMPLES, 1)]
    lines += ["", translate(locale, "help.omaha.courchevel"),
              translate(locale, "help.omaha.best", cards=Command("cards"),
                        button=Phrase("button.my_seat"))]
    return lines


def holdem_page(locale: object = None) -> list[str]:
    lines = [translate(locale, "help.holdem.intro"), ""]
    lines += [_hand(locale, "holdem", i, e) for i, e in enumerate(HOLDEM_EXAMPLES, 1)]
    lines += ["", translate(locale, "help.holdem.board_plays"),
              translate(locale, "help.holdem.same"),
              translate(locale, "help.omaha.best", cards=Command("cards"),
                        button=Phrase("button.my_seat"))]
    return lines


def hi_lo_page(locale: object = None) -> list[str]:
    lines = [translate(locale, f"help.hilo.{i}") for i in range(1, 8)] + [""]
    lines += [_hand(locale, "hilo", i, e) for i, e in enumerate(HI_LO_EXAMPLES, 1)]
    return lines


def betting_page(locale: object = None) -> list[str]:
    return [
        translate(locale, "help.betting.bet", raise_=Command("raise"), to=Option("to")), "",
        translate(locale, "help.betting.pot_limit"),
        translate(locale, "help.betting.no_limit"),
        translate(locale, "help.betting.fixed_limit"), "",
        translate(locale, "help.betting.all_in"),
    ]


#: The names a players' preferences command may have (another issue adds it): the table
#: page names the first one the tree holds.
PREFERENCES = ("prefs", "preferences")


def table_page(tree: app_commands.CommandTree[Any], locale: object = None) -> list[str]:
    """Playing at a table: buttons, sizes, the clock, seats, chips, run it twice, mixed
    tables, pings."""
    buttons = {key: Phrase(f"button.{key}")
               for key in ("fold", "check", "min", "half_pot", "pot", "my_seat")}
    commands = {f"{name}_cmd": Command(name)
                for name in ("fold", "check", "call", "bet", "raise", "allin")}
    pre = {key: Phrase(f"pre_action.{key}") for key in ("check_fold", "call_any", "fold_to_bet")}
    lines = [
        translate(locale, "help.table.turn", form=Phrase("button.raise_form"), **buttons,
                  **commands),
        translate(locale, "help.table.all_in", allin=Command("allin")),
        translate(locale, "help.table.pre_actions", preaction=Command("preaction"),
                  my_seat=buttons["my_seat"], **pre),
        translate(locale, "help.table.clock"),
        translate(locale, "help.table.sitting_out", sitout=Command("table sitout"),
                  sitin=Command("table sitin"), post=Option("post_big_blind")),
        translate(locale, "help.table.chips", topup=Command("table topup"),
                  leave=Command("table leave"), sitin=Command("table sitin")),
        translate(locale, "help.table.run_twice", settings=Command("table settings")),
        translate(locale, "help.table.mixed", create=Command("table create"),
                  games=Option("games")),
        translate(locale, "help.table.straddle", settings=Command("table settings"),
                  info=Command("table info")),
        translate(locale, "help.table.after_hand", settings=Command("table settings")),
        translate(locale, "help.table.bomb_pot", settings=Command("table settings"),
                  bombpot=Command("bombpot")),
        translate(locale, "help.table.messages", cards=Command("cards"),
                  my_seat=buttons["my_seat"]),
        translate(locale, "help.table.commitments", verify=Command("hand verify")),
    ]
    names = {c.qualified_name for c in tree.walk_commands()}
    prefs = next((name for name in PREFERENCES if name in names), None)
    if prefs is not None:
        lines.append(translate(locale, "help.table.prefs", prefs=Command(prefs)))
    return lines


def tournament_page(locale: object = None) -> list[str]:
    """Tournaments: entering and the start, several tables, scheduled ones, late
    registration, a player away, cancelling, a tournament nobody plays any more, the
    limits on open tables."""
    entering = {name: Command(f"tournament {name}")
                for name in ("create", "join", "leave", "start", "info")}
    return [
        translate(locale, "help.tournament.play", **entering),
        translate(locale, "help.tournament.tables", size=Option("table_size")),
        translate(locale, "help.tournament.scheduled", starts=Option("starts"),
                  weekly=Option("weekly"), timezone=Command("schedule timezone"),
                  list=Command("schedule list"), move=Command("schedule move"),
                  cancel=Command("schedule cancel"), prefs=Command("prefs"),
                  cash=Command("schedule cash")),
        translate(locale, "help.tournament.late", late=Option("late_levels")),
        translate(locale, "help.tournament.away", sitin=Command("table sitin")),
        translate(locale, "help.tournament.cancel", cancel=Command("tournament cancel"),
                  rule=Phrase("tournament.cancel_rule")),
        translate(locale, "help.tournament.idle", count=IDLE_HANDS),
        translate(locale, "help.tournament.limits", limits=Command("table limits")),
    ]


def ledger_page(locale: object = None) -> list[str]:
    """The night's ledger (a cash table's sessions) and seasons (what their standings count)."""
    return [
        translate(locale, "help.ledger.night", ledger=Command("table ledger"),
                  export=Option("export"), new=Command("table session new")),
        translate(locale, "help.ledger.seasons", start=Command("season start"),
                  show=Command("season show"), leaderboard=Command("leaderboard"),
                  season=Option("season")),
    ]


def _usage(command: app_commands.Command[Any, ..., Any], locale: object = None) -> str:
    """``/table join [buyin] [seat]`` with the names the reader's Discord shows."""
    parts = [Command(command.qualified_name).to(locale)]
    for p in command.parameters:
        name = translate_text(locale, COMMAND, p.display_name) or p.display_name
        parts.append(name if p.required else f"[{name}]")
    return " ".join(parts)


def _section(command: app_commands.Command[Any, ..., Any]) -> str:
    root = command.root_parent or command
    if root.default_permissions is not None and root.default_permissions.value:
        return "Server managers"
    if root.name == "table" and command.root_parent is not None:  # other cogs' too
        return "Tables"
    cog = command.binding if isinstance(command.binding, commands.Cog) else None
    name = cog.qualified_name if cog is not None else ""
    if name == "Tables":
        return "Tables" if command.root_parent is not None else "Playing a hand"
    if name in ("Playing", "Preferences", "Bomb pots"):  # actions; /prefs; /bombpot
        return "Playing a hand"
    return {"Tournaments": "Tournaments", "Schedule": "Tournaments",
            "Economy": "Chips and statistics", "Help": "Help", "Hands": "Hand histories",
            "Ledger": "Chips and statistics"}.get(name, "Other")


#: The order of the command list's sections (any other comes last).
SECTIONS = (
    "Tables", "Playing a hand", "Tournaments", "Chips and statistics", "Hand histories", "Help",
    "Server managers",
)


#: A section's note under its commands (``help.section_note.<section>``), with its values.
NOTES: dict[str, dict[str, Command]] = {
    # who sees whose results, and that balances are the server's whole (issue 29)
    "Chips and statistics": {"stats": Command("stats"), "leaderboard": Command("leaderboard"),
                             "balance": Command("balance")},
}


def commands_page(tree: app_commands.CommandTree[Any], locale: object = None) -> list[str]:
    """Every loaded slash command with its options and description, by section, as the
    reader's Discord names and describes them (``bot/adapter/translator.py``'s catalog entries)."""
    sections: dict[str, list[str]] = {}
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            about = (translate_text(locale, DESCRIPTION, command.description)
                     or command.description)
            line = f"`{_usage(command, locale)}` {about}"
            sections.setdefault(_section(command), []).append(line)
    lines = [translate(locale, "help.intro", create=Command("table create"),
                       join=Command("table join"))]
    order = {title: i for i, title in enumerate(SECTIONS)}
    for title, entries in sorted(sections.items(), key=lambda kv: order.get(kv[0], len(order))):
        key = title.lower().replace(" ", "_")
        lines += ["", f"**{translate(locale, 'help.section.' + key)}**", *entries]
        if title in NOTES:
            lines.append(translate(locale, "help.section_note." + key, **NOTES[title]))
    return lines


def pages(title: str, lines: Sequence[str], footer: str = "") -> list[discord.Embed]:
    """The lines as embeds whose descriptions stay within Discord's limit (never mid-line)."""
    embeds: list[discord.Embed] = []
    chunk: list[str] = []
    size = 0
    for raw in lines:
        line = raw if len(raw) <= DESCRIPTION_LIMIT else raw[: DESCRIPTION_LIMIT - 1] + "…"
        if chunk and size + 1 + len(line) > DESCRIPTION_LIMIT:
            embeds.append(discord.Embed(description="\n".join(chunk), colour=COLOUR))
            chunk, size = [], 0
        size += len(line) + (1 if chunk else 0)
        chunk.append(line)
    if chunk:
        embeds.append(discord.Embed(description="\n".join(chunk), colour=COLOUR))
    for i, embed in enumerate(embeds):
        embed.title = title if len(embeds) == 1 else f"{title} ({i + 1}/{len(embeds)})"
    if footer:
        embeds[-1].set_footer(text=footer)
    return embeds


def messages(embeds: Iterable[discord.Embed]) -> list[list[discord.Embed]]:
    """The embeds grouped into messages of at most 10 embeds and 6,000 characters."""
    out: list[list[discord.Embed]] = []
    current: list[discord.Embed] = []
    size = 0
    for embed in embeds:
        n = len(embed)
        if current and (size + n > MESSAGE_EMBED_LIMIT or len(current) == EMBEDS_PER_MESSAGE):
            out.append(current)
            current, size = [], 0
        current.append(embed)
        size += n
    if current:
        out.append(current)
    return out


class Help(commands.Cog, name="Help"):
    """/help, answered privately."""

    def __init__(self, bot: OmahaDealer) -> None:
        self.bot = bot  # its command tree, read when asked

    def page(self, topic: str, locale: object = None) -> list[discord.Embed]:
        """The page of ``topic`` in ``locale``: its title, text and footer (the poker
        pages' examples are the engine's cards and labels, worded per language)."""
        title = translate_text(locale, CHOICE, TOPICS[topic]) or TOPICS[topic]
        footer = translate(locale, "help.footer", help=Command("help"), topic=Option("topic"),
                           topics=", ".join(k for k in TOPICS if k != "commands"))
        if topic == "commands":
            return pages(title, commands_page(self.bot.tree, locale), footer)
        if topic == "table":
            return pages(title, table_page(self.bot.tree, locale), footer)
        lines = {
            "hands": hands_page, "omaha": omaha_page, "holdem": holdem_page,
            "hi-lo": hi_lo_page, "betting": betting_page, "tournament": tournament_page,
            "ledger": ledger_page,
        }[topic](locale)
        return pages(title, lines, footer)

    @app_commands.command(name="help",
                          description="Commands, hand rankings, Omaha and Texas Hold'em rules")
    @app_commands.describe(topic="What to explain (default the commands)")
    @app_commands.choices(topic=TOPIC_CHOICES)
    async def help(
        self, interaction: discord.Interaction[Any],
        topic: app_commands.Choice[str] | None = None,
    ) -> None:
        groups = messages(self.page(topic.value if topic else "commands", interaction.locale))
        await interaction.response.send_message(embeds=groups[0], ephemeral=True)
        for group in groups[1:]:
            await interaction.followup.send(embeds=group, ephemeral=True)


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(Help(bot))


__all__ = ["Help", "messages", "pages", "setup"]
