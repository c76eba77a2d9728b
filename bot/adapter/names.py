"""The name the bot shows for a member, in its messages and its pictures alike.

A member's display name (server nickname, else global name, else username), unless
the pictures cannot tell it apart: their fonts hold Latin letters only
(:mod:`bot.render.fonts`), so a Thai, Arabic, Cyrillic or Chinese name is drawn as
question marks and two such players would look the same. The rule
(:func:`bot.render.fonts.legible`): when nothing of the name can be drawn, or more
than half of its letters and digits would be drawn as "?", the member is shown by
their username instead. Usernames under Discord's username system are 2 to 32
lowercase ASCII letters, digits, ``_`` and ``.``: always drawable, and no two
members share one. An account still on the old system (``name#1234``: its name may
be anything) that is not legible either is shown as ``#`` and its id in base 36:
drawable, stable and its own.

The name is chosen once, where the member is known (joining a table or a
tournament, a name looked up for a seat restored after a restart, a leaderboard,
statistics), and the runtime keeps it per seat: a message and the picture under it
name the player the same way.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING, Any

import discord

from bot.render.fonts import legible
from bot.runtime.hand_history import PastHand

if TYPE_CHECKING:
    from bot.client import OmahaDealer

__all__ = ["chosen_name", "hand_names", "member_name"]

_DIGITS36 = string.digits + string.ascii_uppercase


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = _DIGITS36[digit] + digits
        if not number:
            return digits


def chosen_name(display: str, username: str, user_id: int) -> str:
    """``display`` if the pictures draw it legibly, else ``username``, else ``#`` and
    ``user_id`` in base 36 (see the module docstring)."""
    for name in (display, username):
        if name and legible(name):
            return name
    return "#" + _base36(user_id)


def member_name(user: discord.abc.User) -> str:
    """The name to show for ``user`` (a member, or a user outside a server):
    ``str(user)`` is the username (``name#1234`` on the old system)."""
    return chosen_name(user.display_name, str(user), user.id)


async def hand_names(interaction: discord.Interaction[Any], past: PastHand) -> dict[int, str]:
    """The names of a past hand's players, by seat (the bot's remembered lookup)."""
    client: OmahaDealer = interaction.client
    return {seat: await client.display_name(interaction.guild, user_id)
            for seat, user_id in past.users.items()}
