"""Hand histories: ``/hand show|replay|export|verify`` and ``/hands``, every answer private
but a replay asked for with ``public``.

    /hand show [number]              a finished hand: one picture of the final table and
                                     every action, street by street (default: your last
                                     hand in this channel)
    /hand replay [number] [public]   the hand as an animated GIF, street by street
                                     (``public``: to the channel, only hands shown down)
    /hand export [number] [last]     the hand (or your last N, up to 20) as a .phh / .phhs
                                     file, with the proof of its deal
    /hand verify number              the verifier of ``python -m bot verify`` on that file
    /hands [player] [variant]        this server's recent hands (one game's: a mixed
                                     table's hands each under its own), with buttons to open one

``/hands``, ``/hand show``, ``/hand replay``, ``/hand export`` and ``/hand verify`` draw a
picture, read many rows or ask Discord (``verify`` reads the commitment message back): a
member waits ``COMMAND_COOLDOWN`` seconds between two runs of each
(:mod:`bot.adapter.cooldowns`); the buttons that open a hand (``/hands``, **Hand log**)
or replay it wait with ``/hand show`` and ``/hand replay``, since they draw the same.
A public replay is posted in the member's name: only where they may send messages and
attach files themselves (:func:`bot.adapter.permissions.require_member_post`).

Discord does not let a command group be a command itself, so the hand is
opened with ``/hand show``. A number is the hand's number at its table (the
"Hand #12" of its result message) in this channel; typing it offers the
member's own last hands here (autocomplete, issue 23), so nobody has to look
a number up.

Decision: the history shows **one picture** (the table as the hand ended:
the board, the stacks, who won which pot, the hands the reader may see) and
the action log street by street; a picture per street would cost four
renders and uploads per request for what the log already says. Who wants to
watch it move asks for the replay (its Replay button, or ``/hand replay``): one
animated GIF, drawn only when asked (:mod:`bot.runtime.replay_frames`,
:mod:`bot.render.replay`), once per hand and perspective, never in the bot's process, and
sent only when it fits the upload limit (:mod:`bot.adapter.replays`).

What a reader sees (:mod:`bot.runtime.hand_history`): their own hole cards
and the hands shown down, never another player's folded or mucked hand,
in the picture, the log, the replay and the export alike; a public replay
shows the hands shown down only.

Which hands a member may read (:mod:`bot.adapter.visibility`): those of tables
whose channel or thread Discord lets them view, in this server only. A hidden
hand is refused in the very words of a hand that does not exist.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.adapter.actions import reply_private
from bot.adapter.choices import VARIANT_CHOICES
from bot.adapter.commitments import posted_root
from bot.adapter.cooldowns import Cooldowns, TooSoon, take_turn
from bot.adapter.limits import EMBED_DESCRIPTION, fit_message
from bot.adapter.names import hand_names, member_name
from bot.adapter.permissions import require_member_post
from bot.adapter.polite import defer_once, report
from bot.adapter.replays import send_replay
from bot.adapter.views import hand_button_id
from bot.adapter.visibility import may_view, visible_channels
from bot.engine.phh import dumps, dumps_all
from bot.engine.phh.proof import verify
from bot.i18n import Name, Phrase, listed, resolve, translate
from bot.render import alt, render_table_async
from bot.runtime.hand_history import game_of, history_for, load_past, street_lines
from bot.runtime.replay_frames import final_table
from bot.runtime.table import wording
from bot.storage import HandRecord

if TYPE_CHECKING:
    from bot.client import OmahaDealer
    from bot.storage import Database

MAX_EXPORT = 20
LISTED = 10
#: Discord's most choices in one autocomplete answer.
CHOICES = 25


def _refusal(record: HandRecord | None, number: int | None) -> Phrase | None:
    """Why ``record`` (asked for by ``number``, or from a button) cannot be shown."""
    if record is None:
        if number is None:
            return Phrase("refuse.hand.no_such")
        return Phrase("refuse.hand.no_number", number=str(number))
    if record.status == "running":
        return Phrase("refuse.hand.running", number=str(record.number))
    if record.status == "cancelled":
        return Phrase("refuse.hand.cancelled", number=str(record.number))
    return None


async def show_hand(
    interaction: discord.Interaction[Any], db: Database, record: HandRecord
) -> None:
    """Send ``record`` privately to the user of ``interaction`` (already deferred)."""
    past = await load_past(db, record)
    names = await hand_names(interaction, past)
    viewer = past.seat_of(interaction.user.id)
    lang = resolve(interaction.locale)
    lines = street_lines(past, names, viewer, lang)
    when = f" · <t:{int(record.ended_at)}:f>" if record.ended_at else ""
    head = translate(lang, "hand.head", number=str(record.number),
                     table=wording.table_name(lang, record.table_id),
                     title=game_of(past, lang)) + when
    embed = discord.Embed(title=translate(interaction.locale, "hand.every_action"),
                          description=fit_message(lines, EMBED_DESCRIPTION,
                                                      interaction.locale))
    if past.commitment:
        embed.set_footer(text=translate(interaction.locale, "hand.commitment",
                                        commitment=past.commitment))
    table = final_table(past, names, viewer, lang)
    png = await render_table_async(table)
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(record.id, translate(lang, "button.replay")))
    await reply_private(
        interaction, head, embed=embed, view=view,
        file=discord.File(io.BytesIO(png), filename=f"hand-{record.number}.png",
                          description=alt.table(table)),
    )


async def _visible_record(
    interaction: discord.Interaction[Any], db: Database, hand_id: int
) -> HandRecord | None:
    """Hand ``hand_id`` if it is of this server and its table's channel is visible to the
    member (else None: refused as a hand that does not exist)."""
    record = await db.hands.get(hand_id)
    table = await db.tables.get(record.table_id)
    if record.guild_id != interaction.guild_id or table is None:
        return None
    return record if may_view(interaction, table.channel_id) else None


async def _clicked_hand(
    interaction: discord.Interaction[Any], hand_id: int, command: str
) -> tuple[Database, HandRecord] | None:
    """A hand button's click, deferred: the hand when the member may open it (finished,
    of this server, in a channel they see, and ``command``'s cooldown over: the button
    draws what the command draws), else None after telling them why."""
    try:
        take_turn(interaction.client.cooldowns, interaction, command)
    except TooSoon as soon:
        await report(interaction, soon)
        return None
    await defer_once(interaction, ephemeral=True, thinking=True)
    db: Database = interaction.client.db
    record = await _visible_record(interaction, db, hand_id)
    refused = _refusal(record, None)
    if refused or record is None:
        await reply_private(interaction, refused or Phrase("refuse.hand.no_such"))
        return None
    return db, record


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"omaha:replay:(?P<hand>[0-9]+)"
):
    """Under ``/hand show``: the hand's replay, privately, for whoever clicks (who may see
    the hand: the same rules as opening it)."""

    def __init__(self, hand_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or "Replay", custom_id=f"omaha:replay:{hand_id}",
            style=discord.ButtonStyle.primary, emoji="\N{BLACK RIGHT-POINTING TRIANGLE}",
        ))
        self.hand_id = hand_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> ReplayButton:
        return cls(int(match["hand"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        clicked = await _clicked_hand(interaction, self.hand_id, "hand replay")
        if clicked is not None:
            await send_replay(interaction, *clicked, public=False)


class OpenHandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"omaha:hand:(?P<hand>[0-9]+)"
):
    """A ``/hands`` button: opens that hand, privately, for whoever clicks."""

    def __init__(self, hand_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or f"Hand {hand_id}", custom_id=hand_button_id(hand_id),
            style=discord.ButtonStyle.secondary,
        ))
        self.hand_id = hand_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> OpenHandButton:
        return cls(int(match["hand"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        clicked = await _clicked_hand(interaction, self.hand_id, "hand show")
        if clicked is not None:
            await show_hand(interaction, *clicked)


class Hands(commands.Cog, name="Hands"):
    """Finished hands, privately: show, export, verify, list."""

    hand = app_commands.Group(name="hand", description="A finished hand: show, export, verify",
                              guild_only=True)

    def __init__(self, db: Database, cooldowns: Cooldowns) -> None:
        self.db = db
        self.cooldowns = cooldowns

    async def _records(
        self, interaction: discord.Interaction[Any], number: int | None, last: int = 1
    ) -> list[HandRecord] | Phrase:
        """The asked-for hands, or why there are none (a sentence for the user); none when
        the member may not view this channel (said as when there are none)."""
        channel = interaction.channel_id or 0
        hidden = not may_view(interaction, channel)
        if number is not None:
            record = None if hidden else await self.db.history.in_channel(channel, number)
            refused = _refusal(record, number)
            if refused or record is None:
                return refused or Phrase("refuse.hand.no_number", number=str(number))
            return [record]
        records = [] if hidden else await self.db.history.last_of(
            channel, interaction.user.id, last)
        return records or Phrase("refuse.hand.none_yours")

    @hand.command(name="show", description="A finished hand, only to you (default: your last)")
    @app_commands.describe(
        number="The hand's number at this channel's table (default your last hand here)"
    )
    async def show(
        self, interaction: discord.Interaction[Any],
        number: app_commands.Range[int, 1, 10**9] | None = None,
    ) -> None:
        take_turn(self.cooldowns, interaction, "hand show")
        await defer_once(interaction, ephemeral=True, thinking=True)
        records = await self._records(interaction, number)
        if isinstance(records, Phrase):
            await reply_private(interaction, records)
            return
        await show_hand(interaction, self.db, records[0])

    @hand.command(name="replay", description="A finished hand as an animation (default: your last)")
    @app_commands.describe(
        number="The hand's number at this channel's table (default your last hand here)",
        public="Post it to the channel, with only the hands shown down (default no: only you)",
    )
    async def replay(
        self, interaction: discord.Interaction[Any],
        number: app_commands.Range[int, 1, 10**9] | None = None, public: bool = False,
    ) -> None:
        if public:  # posted in the member's name: only where they may post it themselves
            require_member_post(interaction, files=True)
        take_turn(self.cooldowns, interaction, "hand replay")
        await defer_once(interaction, ephemeral=True, thinking=True)
        records = await self._records(interaction, number)
        if isinstance(records, Phrase):
            await reply_private(interaction, records)
            return
        await send_replay(interaction, self.db, records[0], public)

    @hand.command(name="export", description="A hand as a PHH file with the proof of its deal")
    @app_commands.describe(
        number="The hand's number at this channel's table (default your last hand here)",
        last=f"Or your last N hands in this channel, up to {MAX_EXPORT} (default 1)",
    )
    async def export(
        self, interaction: discord.Interaction[Any],
        number: app_commands.Range[int, 1, 10**9] | None = None,
        last: app_commands.Range[int, 1, MAX_EXPORT] | None = None,
    ) -> None:
        if number is not None and last is not None:
            await reply_private(interaction, translate(interaction.locale, "refuse.number_or_last"))
            return
        take_turn(self.cooldowns, interaction, "hand export")
        await defer_once(interaction, ephemeral=True, thinking=True)
        records = await self._records(interaction, number, last or 1)
        if isinstance(records, Phrase):
            await reply_private(interaction, records)
            return
        records = sorted(records, key=lambda r: r.id)
        histories = []
        for record in records:
            past = await load_past(self.db, record)
            histories.append(history_for(past, await hand_names(interaction, past),
                                         past.seat_of(interaction.user.id)))
        if len(histories) == 1:
            text, name = dumps(histories[0]), f"hand-{records[0].number}.phh"
            about = translate(interaction.locale, "alt.export", number=str(records[0].number))
        else:
            first, final = records[0].number, records[-1].number
            text, name = dumps_all(histories), f"hands-{first}-{final}.phhs"
            about = translate(interaction.locale, "alt.export_many", first=str(first),
                              last=str(final))
        await reply_private(
            interaction,
            translate(interaction.locale, "hand.exported", count=len(histories)),
            file=discord.File(io.BytesIO(text.encode()), filename=name, description=about),
        )

    @hand.command(name="verify", description="Check a hand's deal and actions against its proof")
    @app_commands.describe(number="The hand's number at this channel's table")
    async def verify_hand(
        self, interaction: discord.Interaction[Any], number: app_commands.Range[int, 1, 10**9]
    ) -> None:
        take_turn(self.cooldowns, interaction, "hand verify")  # it asks Discord for a message
        await defer_once(interaction, ephemeral=True, thinking=True)
        records = await self._records(interaction, number)
        if isinstance(records, Phrase):
            await reply_private(interaction, records)
            return
        past = await load_past(self.db, records[0])
        posted = await posted_root(interaction, records[0])
        history = history_for(past, await hand_names(interaction, past),
                              past.seat_of(interaction.user.id))
        # against the root the channel shows: a file or database changed after the deal fails
        verdict = verify(history, posted.root)
        said = ("hand.root_read" if posted.root else "hand.root_unread")
        await reply_private(interaction, "\n".join((
            translate(interaction.locale, "hand.verdict", number=str(number),
                      verdict=verdict.line()),
            translate(interaction.locale, said, link=posted.link,
                      root=past.commitment or "-"))))

    @show.autocomplete("number")
    @export.autocomplete("number")
    @verify_hand.autocomplete("number")
    @replay.autocomplete("number")
    async def _hand_numbers(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """The member's own last hands in this channel, newest first (none when they may
        not view it), those whose number starts with what they typed; named ``Hand #12 ·
        Pot Limit Omaha 1/2`` in their language."""
        channel = interaction.channel_id or 0
        if not may_view(interaction, channel):
            return []
        records = await self.db.history.last_of(channel, interaction.user.id, CHOICES)
        typed, lang = current.strip().lstrip("#"), resolve(interaction.locale)
        return [app_commands.Choice(
                    name=translate(lang, "hand.choice", number=str(r.number),
                                   game=wording.stored_title(lang, r.settings, r.variant))[:100],
                    value=r.number)
                for r in records if str(r.number).startswith(typed)]

    @app_commands.command(name="hands", description="Recent hands at this server's tables")
    @app_commands.describe(player="Only the hands this player played (default everyone's)",
                           variant="Only the hands of this game (default every game)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.guild_only()
    async def hands(
        self, interaction: discord.Interaction[Any], player: discord.Member | None = None,
        variant: app_commands.Choice[str] | None = None,
    ) -> None:
        take_turn(self.cooldowns, interaction, "hands")
        await defer_once(interaction, ephemeral=True, thinking=True)
        guild_id = interaction.guild_id or 0
        shown = visible_channels(interaction, await self.db.history.channels(guild_id))
        listing = await self.db.history.recent(
            guild_id, user_id=player.id if player else None, limit=LISTED, channel_ids=shown,
            variant=variant.value if variant else None,  # a mixed table's: each hand's own
        )
        if not listing:
            await reply_private(interaction, translate(
                interaction.locale, "hand.none_player" if player else "hand.none_server",
                name=Name(member_name(player)) if player else ""))
            return
        lang = resolve(interaction.locale)
        lines, view = [], discord.ui.View(timeout=None)
        for item in listing:
            h = item.hand
            if player is not None and item.net is not None:
                sign = "+" if item.net > 0 else ""
                who = Name(member_name(player)).to(lang)
                outcome = f"{who} {sign}{i18n.number(lang, item.net)}"
            else:
                outcome = listed(lang, [Phrase("hand.won", player=f"<@{u}>", amount=w)
                                        for u, w in item.won[:3]])
            when = f"<t:{int(h.ended_at)}:R>" if h.ended_at else ""
            game = wording.stored_title(lang, h.settings, h.variant)
            lines.append(translate(lang, "hand.list_line", number=str(h.number),
                                   table=wording.table_name(lang, h.table_id), when=when,
                                   game=game, pot=item.pot, outcome=outcome))
            view.add_item(OpenHandButton(h.id, f"T{h.table_id} #{h.number}"))
        await reply_private(interaction, fit_message(lines, locale=interaction.locale), view=view,
                            allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: OmahaDealer) -> None:
    bot.add_dynamic_items(OpenHandButton, ReplayButton)
    await bot.add_cog(Hands(bot.db, bot.cooldowns))
