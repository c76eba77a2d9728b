"""Each player's choices, in memory: turn pings, hole-card DMs and their pictures.

The presenter reads them on every turn and deal (no database wait on the way to
Discord); ``/prefs`` writes through :meth:`Prefs.choose`. They are loaded once at
start (:meth:`Prefs.load`, from :class:`bot.storage.prefs.PrefsRepo`): a server's
commands and its tables run in one process (:mod:`bot.sharding`), so this copy
is the truth for the servers it serves.

What each choice does (:mod:`bot.adapter.channel` and the presenter apply it):

* turn pings ``always``: the turn message's mention notifies the player, once per
  decision; the reminder edits that message (an edit notifies nobody);
* ``low``: the turn message names the player without notifying them; when the
  reminder's moment comes, a short new message pings them (Discord does not notify
  a mention added by an edit: discord/discord-api-docs#1419), deleted once the turn
  passes;
* ``never``: no ping; the reminder edits the turn message;
* hole cards ``dm``: a direct message every hand; ``request`` ("panel only"): none,
  the player's seat panel shows them (**My seat**, :mod:`bot.adapter.seat_panel`), and
  ``/cards``;
* reminders ``ping`` (named in the one reminder message of a scheduled game whose
  Discord event they marked Interested) or ``dm`` (a direct message; closed DMs
  fall back to the ping): :meth:`Prefs.reminded_by_dm`,
  :mod:`bot.adapter.guild_events`;
* the deck's colours and the background of the player's own pictures (hole cards by
  DM or ``/cards``, their private replays): :meth:`Prefs.drawing`. Public pictures keep
  the table's (four colours on dark).

The run-it-twice question pings the players asked who chose ``always`` (it has no
reminder). No other message of a hand pings anyone: the closed-DM notice names the
player without a ping.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.render import DeckStyle, Theme
from bot.storage import HoleCards, PlayerPrefs, Reminders, TurnPings
from bot.storage.prefs import PrefsRepo

__all__ = ["Prefs"]


class Prefs:
    """The choices of the players of the servers this process serves."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, int], PlayerPrefs] = {}
        self._repo: PrefsRepo | None = None

    async def load(self, repo: PrefsRepo) -> None:
        """Read every stored choice (at start) and write through ``repo`` from now on."""
        self._repo = repo
        self._known = await repo.all()

    def of(self, guild_id: int, user_id: int) -> PlayerPrefs:
        return self._known.get((guild_id, user_id), PlayerPrefs())

    def drawing(self, guild_id: int, user_id: int) -> tuple[Theme, DeckStyle]:
        """The background and deck colours of ``user_id``'s own pictures."""
        mine = self.of(guild_id, user_id)
        return Theme(mine.theme), DeckStyle(mine.deck)

    def pinged(self, guild_id: int, users: Iterable[int]) -> frozenset[int]:
        """Of ``users`` (asked to decide by a new message), those its mention notifies."""
        return frozenset(u for u in users
                         if self.of(guild_id, u).turn_pings is TurnPings.ALWAYS)

    def reminded_by_dm(self, guild_id: int, users: Iterable[int]) -> frozenset[int]:
        """Of ``users`` (interested in a scheduled game), those who chose a DM reminder."""
        return frozenset(u for u in users
                         if self.of(guild_id, u).reminders is Reminders.DM)

    async def choose(
        self, guild_id: int, user_id: int, *, turn_pings: TurnPings | None = None,
        hole_cards: HoleCards | None = None, deck: DeckStyle | None = None,
        theme: Theme | None = None, reminders: Reminders | None = None,
    ) -> PlayerPrefs:
        """Store the choices given (the others stay) and use them from now on."""
        if self._repo is None:
            raise RuntimeError("the players' choices were not loaded")
        now = await self._repo.set(guild_id, user_id, turn_pings=turn_pings,
                                   hole_cards=hole_cards, deck=deck and deck.value,
                                   theme=theme and theme.value, reminders=reminders)
        self._known[(guild_id, user_id)] = now
        return now
