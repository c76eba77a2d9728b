"""After a restart: every sit-and-go goes on where it stopped; only what cannot is refunded.

A sit-and-go's facts are all in storage (entrants, places already decided,
the seats and their stacks, the blind clock written after every hand, the
hand in progress with its sealed deck), so a restart rebuilds it:

* still registering: registration reopens with the same entrants (their
  buy-ins stay in the pool);
* running: :meth:`~bot.runtime.tournament.sit_and_go.SitAndGo.resume` rebuilds the state
  (players left at 0 whose elimination was not stored are placed now by
  their stacks at the start of the last hand), the table is seated again and
  the hand in progress continues on its own deck through
  :mod:`bot.runtime.table.recovery`, exactly as a cash table's does (a hand that
  cannot be replayed is cancelled there, stacks as before it, and the
  tournament goes on). The level resumes with the time that was left in it
  when the last hand ended: the downtime and the interrupted hand's time do
  not count.
* a tournament whose stored facts do not fit together (unreadable settings,
  a missing table, chips that do not add up) is cancelled on its own: every
  buy-in is refunded and the channel is told why, mentioning the players.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from bot.i18n import Ordinal, Phrase, Wording, resolve
from bot.runtime.config import TableConfig
from bot.runtime.errors import TableError
from bot.runtime.ports import StoredTable, StoredTournament
from bot.runtime.table.live import Table
from bot.runtime.tournament.results import tell_results
from bot.runtime.tournament.sit_and_go import (
    SitAndGo,
    TournamentRuleError,
    TournamentSettings,
    apply_outcome,
)
from bot.runtime.tournament.table_policy import ControlPorts, TournamentPolicy

if TYPE_CHECKING:
    from bot.runtime.registry import TableRegistry

log = logging.getLogger(__name__)

__all__ = ["RestorePorts", "restore_tournaments", "tournament_config"]


class RestorePorts(ControlPorts, Protocol):
    """What the registry needs from storage for tournaments (restarts included)."""

    async def interrupted_tournaments(self) -> Sequence[StoredTournament]: ...

    async def cancel_unresumable(self, tournament_id: int, reason: str) -> None:
        """Cancel the running hand, take the chips back, refund every buy-in, close."""
        ...


def tournament_config(
    settings: TournamentSettings, clock: int, time_bank: int, language: str = "en"
) -> TableConfig:
    """The table settings of a sit-and-go (level 1's blinds, one seat per entrant; its
    tables speak ``language``, the server's when it was created)."""
    first = settings.schedule.levels[0].for_structure(settings.structure)
    return TableConfig.create(
        variant_key=settings.variant_key, structure=settings.structure,
        small_blind=first.small_blind, big_blind=first.big_blind, ante=first.ante,
        min_buyin=settings.starting_stack, max_buyin=settings.starting_stack,
        seats=settings.table_size or settings.max_entrants, clock=clock, time_bank=time_bank,
        language=language,
    )


async def restore_tournaments(reg: TableRegistry, store: RestorePorts) -> list[Table]:
    """Resume every interrupted tournament; returns the tables playing again."""
    tables: list[Table] = []
    for stored in await store.interrupted_tournaments():
        if not reg.owns(stored.guild_id):
            continue  # another process's shard resumes it
        try:
            tables += await _restore_one(reg, store, stored)
        except TableError as exc:  # TournamentRuleError included: the facts do not fit
            log.warning("tournament %s cannot be resumed: %s", stored.tournament_id, exc)
            reg.drop_tournament(stored.channel_id)
            await _refund(reg, store, stored, exc)
            continue
    return tables


async def _restore_one(
    reg: TableRegistry, store: RestorePorts, stored: StoredTournament
) -> list[Table]:
    settings = TournamentSettings.from_storage(
        stored.buy_in, stored.starting_stack, stored.settings
    )
    clock = int(stored.settings.get("clock", 30))
    config = tournament_config(settings, clock, int(stored.settings.get("time_bank", 60)),
                               str(stored.settings.get("language", "en")))
    where = {"guild_id": stored.guild_id, "channel_id": stored.channel_id,
             "creator_id": stored.creator_id}
    if not stored.running:
        sng = SitAndGo(settings, reg.clock)
        for user_id in stored.entrants:
            sng.register(user_id)
        reg.add_tournament(stored.tournament_id, sng, config, **where)
        return []
    if settings.multi_table:
        from bot.runtime.tournament.mtt import (
            restore_mtt,  # the multi-table runtime builds on this module's
        )

        return await restore_mtt(reg, store, stored, settings, config)  # type: ignore[arg-type]
    st = stored.table
    if st is None:
        raise TournamentRuleError("Its table is missing.")
    sng, outcome = SitAndGo.resume(
        settings, reg.clock, entrants=stored.entrants,
        stacks={user: stack for _, user, stack, _ in st.seats}, places=stored.places,
        hands_played=stored.hands_played, elapsed=stored.level_elapsed,
        last_start=stored.last_start,
    )
    rt = reg.add_tournament(stored.tournament_id, sng, config, **where)
    policy = TournamentPolicy(sng, stored.tournament_id, store)
    table = rt._make_table(st.table_id, TableConfig.from_dict(dict(st.config)), policy)
    table.hands_dealt = st.hands_dealt
    rt.table = table
    if outcome is not None:
        await apply_outcome(store, stored.tournament_id, sng, outcome)
        for p in outcome.busted:
            table.tell(Phrase("notice.out", name=f"<@{p.user_id}>", place=Ordinal(p.place)))
    await _seat_and_play(reg, table, st, policy)
    return [table]


async def _seat_and_play(
    reg: TableRegistry, table: Table, st: StoredTable, policy: TournamentPolicy
) -> None:
    """Seat the players still in and resume the hand in progress (or deal the next)."""
    sng = policy.sng
    if sng.finished:  # the restart came between the last hand and the prizes
        winner = sng.placements[sng.winner or 0]
        table.tell(Phrase("notice.wins_tournament", name=f"<@{winner.user_id}>",
                          prize=winner.prize))
        tell_results(table, sng, policy.tournament_id)
        async with table.lock:
            await table.close_now()
        return
    for number, user_id, stack, sitting_out in st.seats:
        if user_id in sng.stacks:
            name = await reg.names(st.guild_id, user_id)
            table.restore_seat(number, user_id, name, stack, sitting_out)
    table.tell(Phrase("notice.sng_resumes", level=policy.level_text()))
    unfinished = await reg.hands.unfinished_hands(st.table_id)
    for hand in unfinished:
        await table.resume(hand)
    if not unfinished:
        async with table.lock:
            table.start()


async def _refund(
    reg: TableRegistry, store: RestorePorts, stored: StoredTournament, error: TableError
) -> None:
    """Cancel and refund a tournament that cannot be resumed, and tell its channel in the
    tournament's language (the stored reason, a database field, stays English). The why
    is the error's phrase when it has one; an internal invariant's text (stored facts that
    do not fit, never a player's doing) is shown as it is, in English."""
    try:
        await store.cancel_unresumable(
            stored.tournament_id, f"could not be resumed after a restart: {error}"
        )
    except TableError:
        log.exception("tournament %s: could not be refunded", stored.tournament_id)
        return
    players = " ".join(f"<@{u}>" for u in stored.entrants)
    why = error.phrase or error.message
    text = Phrase("notice.sng_unresumable", number=str(stored.tournament_id),
                  why=why if isinstance(why, Wording) else why.rstrip("."),
                  buy_in=stored.buy_in, players=players)
    table = Table(
        stored.table.table_id if stored.table else 0, _config_or_default(stored),
        guild_id=stored.guild_id, channel_id=stored.channel_id, creator_id=stored.creator_id,
        economy=reg.economy, hands=reg.hands, tables=reg.tables, observer=reg.observer,
        clock=reg.clock,
    )
    table.tell(text)
    await table.idle()
    await table.outbox.stop()


def _config_or_default(stored: StoredTournament) -> TableConfig:
    """The tournament table's stored settings (or the defaults), speaking the tournament's
    language."""
    language = resolve(stored.settings.get("language"))
    try:
        if stored.table is not None:
            return replace(TableConfig.from_dict(dict(stored.table.config)), language=language)
    except TableError:
        pass
    return TableConfig.create(language=language)
