"""``/prefs``: a player's notifications and pictures in this server, shown and changed
only to them.

    /prefs [turn_pings] [hole_cards] [card_colours] [theme] [reminders]

``turn_pings``: ``always`` (the turn message pings them, once per decision; the
clock's reminder edits it), ``low`` (no ping on the turn message; one short
message that pings when their clock runs low, deleted when the turn passes) or
``never``. ``hole_cards``: ``dm`` (by direct message every hand) or ``request``, worded
"panel only" (no DM: their seat panel, **My seat**, shows them, and ``/cards``).
``card_colours`` (four colours, two, or four that stay apart for colour-blind players)
and ``theme`` (dark or light) draw the player's own pictures: their hole cards and
private replays (public pictures keep the table's). ``reminders``: how they are reminded
of a scheduled game whose Discord event they marked Interested: ``ping`` (named in the
one reminder message in its channel) or ``dm`` (a direct message; closed DMs fall back to
the ping). Without options it shows the choices; with options it stores them
(:mod:`bot.adapter.prefs`, kept in the database) and they count from the next message the
table sends. Every answer is
private; a change is acknowledged before the database is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.actions import reply_private
from bot.adapter.polite import acknowledge
from bot.adapter.prefs import Prefs
from bot.i18n import Command, translate
from bot.render import DeckStyle, Theme
from bot.storage import HoleCards, PlayerPrefs, Reminders, TurnPings

if TYPE_CHECKING:
    from bot.client import OmahaDealer

TURN_PING_CHOICES = [
    app_commands.Choice(name="Ping me on every turn", value=TurnPings.ALWAYS.value),
    app_commands.Choice(name="Only when my clock runs low", value=TurnPings.LOW.value),
    app_commands.Choice(name="Never ping me", value=TurnPings.NEVER.value),
]
DECK_CHOICES = [
    app_commands.Choice(name="Four colours (black, red, blue, green)",
                        value=DeckStyle.FOUR_COLOUR.value),
    app_commands.Choice(name="Two colours (black and red)", value=DeckStyle.TWO_COLOUR.value),
    app_commands.Choice(name="Colour-blind safe (black, vermilion, blue, mauve)",
                        value=DeckStyle.COLOUR_BLIND.value),
]
THEME_CHOICES = [
    app_commands.Choice(name="Dark", value=Theme.DARK.value),
    app_commands.Choice(name="Light", value=Theme.LIGHT.value),
]
HOLE_CARD_CHOICES = [
    app_commands.Choice(name="By DM every hand", value=HoleCards.DM.value),
    app_commands.Choice(name="Panel only, no DM (My seat, /cards)",
                        value=HoleCards.REQUEST.value),
]

REMINDER_CHOICES = [
    app_commands.Choice(name="A ping in the game's channel", value=Reminders.PING.value),
    app_commands.Choice(name="A direct message", value=Reminders.DM.value),
]


def prefs_text(prefs: PlayerPrefs, locale: object, *, saved: bool = False) -> str:
    """The player's choices in ``locale``, one line each, and how to change them."""
    return "\n".join((
        translate(locale, "prefs.saved" if saved else "prefs.head"),
        translate(locale, f"prefs.turn_pings.{prefs.turn_pings.value}"),
        translate(locale, f"prefs.hole_cards.{prefs.hole_cards.value}",
                  button=translate(locale, "button.my_seat"),
                  cards=Command("cards").to(locale)),
        translate(locale, "prefs.pictures", deck=translate(locale, f"prefs.deck.{prefs.deck}"),
                  theme=translate(locale, f"prefs.theme.{prefs.theme}")),
        translate(locale, f"prefs.reminders.{prefs.reminders.value}"),
        translate(locale, "prefs.how", prefs=Command("prefs").to(locale)),
    ))


class PrefsCog(commands.Cog, name="Preferences"):
    """A player's notification choices."""

    def __init__(self, prefs: Prefs) -> None:
        self.prefs = prefs
        super().__init__()

    @app_commands.command(name="prefs",
                          description="Your notifications here: turn pings, hole cards by DM")
    @app_commands.describe(
        turn_pings="When your turn message pings you (default every turn)",
        hole_cards="How you get your hole cards (default by DM every hand)",
        card_colours="Colours of the suits on your own pictures (default four colours)",
        theme="Your own pictures on a dark or light background (default dark)",
        reminders="How you are reminded of a scheduled game you are interested in (default ping)",
    )
    @app_commands.choices(turn_pings=TURN_PING_CHOICES, hole_cards=HOLE_CARD_CHOICES,
                          card_colours=DECK_CHOICES, theme=THEME_CHOICES,
                          reminders=REMINDER_CHOICES)
    @app_commands.guild_only()
    async def prefs_command(
        self, interaction: discord.Interaction[Any],
        turn_pings: app_commands.Choice[str] | None = None,
        hole_cards: app_commands.Choice[str] | None = None,
        card_colours: app_commands.Choice[str] | None = None,
        theme: app_commands.Choice[str] | None = None,
        reminders: app_commands.Choice[str] | None = None,
    ) -> None:
        guild_id, user_id = interaction.guild_id or 0, interaction.user.id
        if all(o is None for o in (turn_pings, hole_cards, card_colours, theme, reminders)):
            await reply_private(interaction, prefs_text(
                self.prefs.of(guild_id, user_id), interaction.locale))
            return
        await acknowledge(interaction)  # before the database
        now = await self.prefs.choose(
            guild_id, user_id,
            turn_pings=TurnPings(turn_pings.value) if turn_pings else None,
            hole_cards=HoleCards(hole_cards.value) if hole_cards else None,
            deck=DeckStyle(card_colours.value) if card_colours else None,
            theme=Theme(theme.value) if theme else None,
            reminders=Reminders(reminders.value) if reminders else None)
        await reply_private(interaction, prefs_text(now, interaction.locale, saved=True))


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(PrefsCog(bot.presenter.prefs))


__all__ = ["PrefsCog", "prefs_text", "setup"]
