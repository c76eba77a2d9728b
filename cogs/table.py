"""Cash tables in channels: the /table group (the action commands: :mod:`cogs.actions`).

    /table create [variant] [structure] [blinds, ante, buy-ins, seats, clock, time_bank,
                  language, run_it_twice, straddle, seven_deuce, rabbit_hunt, showing,
                  bomb_pot_every, bomb_pot_ante, double_board]
                  [games mode every: a mixed table, RULES.md 11]
    /table join [buyin] [seat] [post_big_blind]    /table leave [table]   /table sitout
    /table sitin [post_big_blind]   /table topup amount   /table info [table]
    /table mine     your seats in this server, with links (leave and info work anywhere;
                  info to a seated player carries their straddle button)
    /table close (creator or Manage Server)   /table settings [...] (same, between hands;
                  the create options but the language, run_it_twice included)
    /table refresh  the live table posted again (seated players, once per table per 30 s)
    /table limits [per_member] [per_server]   the caps on open tables (Manage Server
                  changes them: bot.runtime.caps)

The rules live in :mod:`bot.runtime`; this cog only translates: options in,
the runtime's :class:`~bot.runtime.errors.TableError` out as a private reply
(``bot.adapter.polite``). Chip amounts are typed as text and read by
:func:`bot.adapter.amounts.parse_amount` (``5000``, ``5k``...), so every mistake
gets a sentence. Every interaction is acknowledged within Discord's 3 seconds,
before any wait (a table's lock, the database, a picture): the refusals that need
no wait answer at once, privately; the rest defers. A public outcome whose refusal
can come only after the wait (``/table settings``) defers privately and is posted by
:func:`bot.adapter.polite.announce`.

The cog builds nothing: ``setup(bot)`` hands it the registry, the table
actions (:class:`bot.adapter.actions.TableActions`, which the buttons share) and the
presenter that the composition root (``OmahaDealer.setup_hook``) made. The
root also registers the buttons and restores open tables after a restart, so
they work whichever cogs are loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter.actions import TableActions, acknowledge, reply_private
from bot.adapter.amounts import parse_amount
from bot.adapter.choices import MODE_CHOICES, STRUCTURE_CHOICES, VARIANT_CHOICES
from bot.adapter.cooldowns import Cooldowns, TooSoon, moment
from bot.adapter.hooks import confirming
from bot.adapter.my_tables import resolve_table, seats_text, table_choices
from bot.adapter.names import member_name
from bot.adapter.permissions import (
    refuse_private_thread,
    require_member_post,
    require_table_permissions,
)
from bot.adapter.polite import announce
from bot.adapter.presenter import DiscordPresenter
from bot.adapter.seat_buttons import reply_with_ways, straddle_button
from bot.adapter.table_text import caps_text, game_choices, info_text, mix_options, settings_text
from bot.i18n import Command, Phrase, resolve, translate
from bot.runtime.caps import MEMBER_MAX, SERVER_MAX
from bot.runtime.config import (
    MAX_BOMB_POT_ANTE,
    MAX_BOMB_POT_EVERY,
    MAX_SEVEN_DEUCE,
    TableConfig,
)
from bot.runtime.errors import NotAllowed, NotSeated
from bot.runtime.mix import MAX_EVERY
from bot.runtime.registry import TableRegistry
from bot.runtime.table.live import Table

if TYPE_CHECKING:
    from bot.client import OmahaDealer

Chips = app_commands.Range[int, 0, 1_000_000_000]
#: The home-game options' descriptions (RULES.md 10), before "(default ...)".
SEVEN_DEUCE_HELP = "Texas Hold'em: 7-2 bounty in big blinds"
RABBIT_HUNT_HELP = "After a fold before the river, players dealt in may see the cards to come"
SHOWING_HELP = "After a hand, players who folded or won without a showdown may show cards"
#: Bomb pots (RULES.md 10, bot.runtime.bomb_pots): every N hands, the ante in big blinds.
BombPotEvery = app_commands.Range[int, 0, MAX_BOMB_POT_EVERY]
BombPotAnte = app_commands.Range[int, 0, MAX_BOMB_POT_ANTE]
#: The table's language (its public messages and pictures), named in that language.
LANGUAGE_CHOICES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Português (Brasil)", value="pt-BR"),
    app_commands.Choice(name="Español", value="es-ES"),
    app_commands.Choice(name="Español (Latinoamérica)", value="es-419"),
    app_commands.Choice(name="Italiano", value="it"),
]


def table_language(
    chosen: app_commands.Choice[str] | None, guild_locale: object
) -> str:
    """The chosen language, else the server's preferred locale when the dealer speaks it
    (``pt-PT`` counts as Portuguese, ``es-MX`` as Latin American Spanish), else English."""
    if chosen is not None:
        return chosen.value
    return resolve(guild_locale)


def _is_manager(interaction: discord.Interaction[Any]) -> bool:
    return bool(interaction.permissions.manage_guild)


class Tables(commands.Cog, name="Tables"):
    """Cash tables: one per channel or thread, living until closed."""

    table = app_commands.Group(
        name="table", description="Cash tables: every Omaha game and Texas Hold'em",
        guild_only=True,
    )

    def __init__(
        self, registry: TableRegistry, actions: TableActions, presenter: DiscordPresenter,
        refreshes: Cooldowns,
    ) -> None:
        self.registry = registry
        self.actions = actions
        #: The channel presenter the tables report to (the demo collects its pictures).
        self.presenter = presenter
        #: The last refresh of each table (``/table refresh``: once per table per 30 s).
        self.refreshes = refreshes
        super().__init__()

    # -- helpers -------------------------------------------------------------------
    def here(self, interaction: discord.Interaction[Any]) -> Table:
        return self.actions.here(interaction)

    async def _name(self, interaction: discord.Interaction[Any]) -> str:
        return member_name(interaction.user)

    # -- /table ---------------------------------------------------------------------
    @table.command(name="create", description="Open a cash table in this channel")
    @app_commands.describe(
        variant="Game to play (default Omaha)",
        structure="Betting structure (default Pot Limit; No Limit for Texas Hold'em)",
        small_blind="Small blind in chips (default half the big blind)",
        big_blind="Big blind in chips (default 2)",
        ante="Ante in chips, paid by every player dealt in (default 0)",
        min_buyin="Smallest buy-in in chips (default 20 big blinds)",
        max_buyin="Largest buy-in in chips (default 100 big blinds)",
        seats="Seats at the table, 2 to 10 (default 6)",
        clock="Seconds per decision, 5 to 600 (default 30)",
        time_bank="Time bank in seconds, spent after the clock, 0 to 3600 (default 60)",
        language="Language of the table's messages and pictures (default the server's)",
        run_it_twice="All-in players may run the board twice when all agree (default off)",
        games="A mixed table: 2 to 8 games, e.g. NLHE, PLO, O8 limit (default one game)",
        mode="A mixed table: rotation in the list's order or dealer's choice (default rotation)",
        every="A mixed table's rotation: hands of each game (default one per seat)",
        straddle="Players may straddle under the gun; no and pot limit only (default off)",
        seven_deuce=SEVEN_DEUCE_HELP + " (default 0, off)",
        rabbit_hunt=RABBIT_HUNT_HELP + " (default off)",
        showing=SHOWING_HELP + " (default off)",
        bomb_pot_every="A bomb pot every N hands, 0 for none (default 0)",
        bomb_pot_ante="Bomb pot ante in big blinds, 0 for the default of 2 (default 0)",
        double_board="Deal bomb pots on two boards (default off)",
    )
    @app_commands.choices(
        variant=VARIANT_CHOICES, structure=STRUCTURE_CHOICES, language=LANGUAGE_CHOICES,
        mode=MODE_CHOICES,
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        variant: app_commands.Choice[str] | None = None,
        structure: app_commands.Choice[str] | None = None,
        small_blind: Chips | None = None,
        big_blind: Chips | None = None,
        ante: Chips | None = None,
        min_buyin: Chips | None = None,
        max_buyin: Chips | None = None,
        seats: app_commands.Range[int, 2, 10] | None = None,
        clock: app_commands.Range[int, 5, 600] | None = None,
        time_bank: app_commands.Range[int, 0, 3600] | None = None,
        language: app_commands.Choice[str] | None = None,
        run_it_twice: bool | None = None,
        games: str | None = None,
        mode: app_commands.Choice[str] | None = None,
        every: app_commands.Range[int, 1, MAX_EVERY] | None = None,
        straddle: bool | None = None,
        seven_deuce: app_commands.Range[int, 0, MAX_SEVEN_DEUCE] | None = None,
        rabbit_hunt: bool | None = None,
        showing: bool | None = None,
        bomb_pot_every: BombPotEvery | None = None,
        bomb_pot_ante: BombPotAnte | None = None,
        double_board: bool | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            raise app_commands.NoPrivateMessage()
        refuse_private_thread(interaction)
        require_member_post(interaction, files=False)  # a table speaks for its creator too
        require_table_permissions(interaction)
        config = TableConfig.create(
            **mix_options(games, mode, every, variant, structure),
            variant_key=variant.value if variant else None,
            structure=structure.value if structure else None,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            min_buyin=min_buyin,
            max_buyin=max_buyin,
            seats=seats,
            clock=clock,
            time_bank=time_bank,
            language=table_language(language, interaction.guild_locale),
            run_it_twice=run_it_twice,
            straddle=straddle,
            seven_deuce=seven_deuce,
            rabbit_hunt=rabbit_hunt,
            showing=showing,
            bomb_pot_every=bomb_pot_every,
            bomb_pot_ante=bomb_pot_ante,
            double_board=double_board,
        )
        self.registry.check_free(interaction.channel_id)  # refused privately, at once
        self.registry.check_room(interaction.guild_id, interaction.user.id)  # the caps
        await acknowledge(interaction, private=False)
        table = await self.registry.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            creator_id=interaction.user.id,
            config=config,
        )
        lang = config.language  # a public message: the table's language
        await interaction.edit_original_response(content=translate(
            lang, "table.open", number=str(table.table_id), settings=settings_text(config, lang),
            join=Command("table join")))

    @create.autocomplete("games")
    async def _games_to_create(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await game_choices(current)

    @table.command(name="join", description="Sit down at this channel's table")
    @app_commands.describe(
        buyin="Chips to bring, e.g. 200 or 2k (default the maximum buy-in)",
        seat="Seat number, 1 to 10 (default the first free seat)",
        post_big_blind="Post a big blind to play at once instead of waiting for it (default no)",
    )
    async def join(
        self,
        interaction: discord.Interaction[Any],
        buyin: str | None = None,
        seat: app_commands.Range[int, 1, 10] | None = None,
        post_big_blind: bool = False,
    ) -> None:
        table = self.here(interaction)
        amount = parse_amount(buyin, "buy-in") if buyin is not None else None
        await acknowledge(interaction)
        # its token carries the table's notices and first hand's first messages (issue 33)
        with confirming(self.presenter.carry(table.snapshot(), interaction)):
            view = await table.join(
                interaction.user.id,
                await self._name(interaction),
                amount,
                seat,
                post_big_blind=post_big_blind,
            )
            waits = view.waiting_for_big_blind and not post_big_blind
            key = "reply.sat_down_wait_big_blind" if waits else "reply.sat_down"
            await reply_with_ways(interaction, table,
                                  Phrase(key, seat=view.seat, count=view.stack))

    @join.autocomplete("seat")
    async def _free_seats(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """The free seats of this channel's table, by number (none where there is no table)."""
        here = self.registry.find(interaction.channel_id) if interaction.channel_id else None
        if here is None:
            return []
        taken, typed = {s.seat for s in here.snapshot().seats}, current.strip()
        return [app_commands.Choice(name=translate(interaction.locale, "choice.seat", seat=n),
                                    value=n)
                for n in range(1, here.config.seats + 1)
                if n not in taken and str(n).startswith(typed)]

    @table.command(name="leave", description="Leave a table (at the end of the hand)")
    @app_commands.describe(
        table="One of your tables in this server (default this channel's, or your only one)"
    )
    async def leave(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        where = resolve_table(self.registry, interaction, table, "leave")
        await acknowledge(interaction)
        await reply_with_ways(interaction, where, await where.leave(interaction.user.id))

    @leave.autocomplete("table")
    async def _tables_to_leave(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """The tables of this server where the player is seated and may leave, by channel."""
        return table_choices(self.registry, interaction, current, leaving=True)

    @table.command(name="mine", description="Your seats at the tables of this server, with links")
    async def mine(self, interaction: discord.Interaction[Any]) -> None:
        await reply_private(interaction, seats_text(self.registry, interaction))

    @table.command(name="sitout", description="Sit out from the next hand")
    async def sitout(self, interaction: discord.Interaction[Any]) -> None:
        table = self.here(interaction)
        await acknowledge(interaction)
        await reply_with_ways(interaction, table, await table.sit_out(interaction.user.id))

    @table.command(name="sitin", description="Come back into the game")
    @app_commands.describe(
        post_big_blind="Post a big blind now rather than wait for it (default no)"
    )
    async def sitin(
        self, interaction: discord.Interaction[Any], post_big_blind: bool = False
    ) -> None:
        table = self.here(interaction)
        await acknowledge(interaction)
        reply = await table.sit_in(interaction.user.id, post_big_blind=post_big_blind)
        await reply_with_ways(interaction, table, reply)

    @table.command(name="topup", description="Add chips from your balance between hands")
    @app_commands.describe(amount="Chips to add, up to the maximum buy-in, e.g. 100 or 1k")
    async def topup(self, interaction: discord.Interaction[Any], amount: str) -> None:
        table = self.here(interaction)
        chips = parse_amount(amount, "top-up")
        await acknowledge(interaction)
        await reply_with_ways(interaction, table, await table.top_up(interaction.user.id, chips))

    @table.command(name="info", description="A table's game, seats and stacks")
    @app_commands.describe(
        table="A table of this server (default this channel's, or the one you sit at)"
    )
    async def info(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        where = resolve_table(self.registry, interaction, table, "info", reading=True)
        await reply_private(interaction, info_text(where, interaction.locale),
                            **straddle_button(interaction, where))

    @info.autocomplete("table")
    async def _tables_to_show(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """This server's tables, the player's own first, by channel."""
        return table_choices(self.registry, interaction, current, leaving=False)

    @table.command(name="close", description="Close the table; stacks go back (creator or manager)")
    async def close(self, interaction: discord.Interaction[Any]) -> None:
        table = self.here(interaction)
        await acknowledge(interaction)
        text = await table.close(interaction.user.id, is_manager=_is_manager(interaction))
        await reply_private(interaction, text)  # the channel is told once, by the table

    @table.command(name="refresh", description="Post the live table again at the bottom")
    async def refresh(self, interaction: discord.Interaction[Any]) -> None:
        """For the players seated at the table, once per table every 30 seconds (a post
        and a delete in the channel each time); refusals change nothing."""
        table = self.here(interaction)
        if table.seat_of(interaction.user.id) is None:
            raise NotSeated(Phrase("refuse.refresh.not_seated", join=Command("table join")))
        again = self.refreshes.ready_at(table.table_id)
        if again is not None:
            raise TooSoon(Phrase("refuse.refresh.too_soon", when=moment(again)))
        if self.presenter.refresh(table.table_id):
            self.refreshes.use(table.table_id)
            await reply_private(interaction, translate(interaction.locale, "reply.refreshed"))
        else:
            await reply_private(interaction, translate(interaction.locale, "refuse.no_hand_here"))

    @table.command(name="limits", description="Caps on open tables here (a manager changes them)")
    @app_commands.describe(
        per_member=(
            "Tables and tournaments one member may have open, 1 to 100 (default unchanged)"),
        per_server="Open tables in this server, tournaments' too, 1 to 1000 (default unchanged)",
        reset="Back to the bot's defaults for the caps you do not give (default no)",
    )
    async def limits(
        self, interaction: discord.Interaction[Any],
        per_member: app_commands.Range[int, 1, MEMBER_MAX] | None = None,
        per_server: app_commands.Range[int, 1, SERVER_MAX] | None = None,
        reset: bool = False,
    ) -> None:
        """Show the server's caps on open tables (anyone), or change them (Manage
        Server); kept in storage, in force at once (:mod:`bot.runtime.caps`)."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise app_commands.NoPrivateMessage()
        if per_member is None and per_server is None and not reset:
            await reply_private(interaction, caps_text(self.registry, guild_id, interaction.locale))
            return
        if not _is_manager(interaction):
            raise NotAllowed(Phrase("refuse.table_cap.manager_only"))
        await acknowledge(interaction)
        await self.registry.caps.change(guild_id, per_member=per_member, per_server=per_server,
                                        reset=reset)
        await reply_private(interaction, translate(
            interaction.locale, "reply.table_caps_changed",
            caps=caps_text(self.registry, guild_id, interaction.locale)))

    @table.command(name="settings", description="Show or change the settings (between hands)")
    @app_commands.describe(
        variant="Game to play (default unchanged)",
        structure="Betting structure (default unchanged)",
        small_blind="Small blind in chips (default unchanged, or half a new big blind)",
        big_blind="Big blind in chips (default unchanged)",
        ante="Ante in chips (default unchanged)",
        min_buyin="Smallest buy-in in chips (default unchanged, or 20 new big blinds)",
        max_buyin="Largest buy-in in chips (default unchanged, or 100 new big blinds)",
        seats="Seats at the table, 2 to 10 (default unchanged)",
        clock="Seconds per decision, 5 to 600 (default unchanged)",
        time_bank="Time bank in seconds, 0 to 3600 (default unchanged)",
        run_it_twice="All-in players may run the board twice when all agree (default unchanged)",
        games="A new list of 2 to 8 games, e.g. NLHE, PLO (default unchanged)",
        mode="A mixed table: rotation or dealer's choice (default unchanged)",
        every="A mixed table's rotation: hands of each game (default unchanged)",
        straddle="Players may straddle under the gun; no and pot limit only (default unchanged)",
        seven_deuce=SEVEN_DEUCE_HELP + " (default unchanged)",
        rabbit_hunt=RABBIT_HUNT_HELP + " (default unchanged)",
        showing=SHOWING_HELP + " (default unchanged)",
        bomb_pot_every="A bomb pot every N hands, 0 for none (default unchanged)",
        bomb_pot_ante="Bomb pot ante in big blinds, 0 for the default of 2 (default unchanged)",
        double_board="Deal bomb pots on two boards (default unchanged)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, structure=STRUCTURE_CHOICES,
                          mode=MODE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        variant: app_commands.Choice[str] | None = None,
        structure: app_commands.Choice[str] | None = None,
        small_blind: Chips | None = None,
        big_blind: Chips | None = None,
        ante: Chips | None = None,
        min_buyin: Chips | None = None,
        max_buyin: Chips | None = None,
        seats: app_commands.Range[int, 2, 10] | None = None,
        clock: app_commands.Range[int, 5, 600] | None = None,
        time_bank: app_commands.Range[int, 0, 3600] | None = None,
        run_it_twice: bool | None = None,
        games: str | None = None,
        mode: app_commands.Choice[str] | None = None,
        every: app_commands.Range[int, 1, MAX_EVERY] | None = None,
        straddle: bool | None = None,
        seven_deuce: app_commands.Range[int, 0, MAX_SEVEN_DEUCE] | None = None,
        rabbit_hunt: bool | None = None,
        showing: bool | None = None,
        bomb_pot_every: BombPotEvery | None = None,
        bomb_pot_ante: BombPotAnte | None = None,
        double_board: bool | None = None,
    ) -> None:
        """Show the settings, or change those given (the table's creator or a server
        manager, between hands: :func:`bot.runtime.table.requests.update_settings`); the next hand
        is dealt with them. ``run_it_twice`` turns the question on or off (sit-and-go
        tables refuse settings and always deal once). ``games``, ``mode`` and ``every``
        change a mixed table's list (the new list starts from its first game); a variant or
        a structure makes it a one-game table."""
        table = self.here(interaction)
        changes = {
            **mix_options(games, mode, every, variant, structure),
            "variant_key": variant.value if variant else None,
            "structure": structure.value if structure else None,
            "small_blind": small_blind,
            "big_blind": big_blind,
            "ante": ante,
            "min_buyin": min_buyin,
            "max_buyin": max_buyin,
            "seats": seats,
            "clock": clock,
            "time_bank": time_bank,
            "run_it_twice": run_it_twice,
            "straddle": straddle,
            "seven_deuce": seven_deuce,
            "rabbit_hunt": rabbit_hunt,
            "showing": showing,
            "bomb_pot_every": bomb_pot_every,
            "bomb_pot_ante": bomb_pot_ante,
            "double_board": double_board,
        }
        if all(v is None for v in changes.values()):
            await reply_private(interaction, settings_text(table.config, interaction.locale))
            return
        await acknowledge(interaction)  # the lock first (a hand may be settling), then refusals
        new = await table.update_settings(
            interaction.user.id, is_manager=_is_manager(interaction), **changes
        )
        await announce(interaction, translate(  # public: the table's language
            new.language, "table.settings_changed", settings=settings_text(new, new.language)))

    @settings.autocomplete("games")
    async def _games_to_change(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await game_choices(current)


async def setup(bot: OmahaDealer) -> None:
    await bot.add_cog(Tables(bot.app.registry, bot.table_actions, bot.presenter, bot.refreshes))


__all__ = ["NotAllowed", "Tables", "setup"]
