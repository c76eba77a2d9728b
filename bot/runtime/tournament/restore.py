"""After a restart: every sit-and-go goes on where it stopped; only what cannot is refunded.

A sit-and-go's facts are all in storage (entrants, places already decided,
the seats and their stacks, the blind clock written after every hand, the
hand in progress with its sealed deck), so a restart rebuilds it:

* still registering: registration reopens with the same entrants (their
  buy-ins stay in the pool);
* running: :meth:`~bot.runtime.tournament.sit_and_go.SitAndGo.resume` rebuilds the state
  (players left at 0 whose elimination was not stored are placed now by
  their stacks at the start of the last hand), the table is seated again and
  the hand in progress continues on its own deck through the registry's one
  restore path (:meth:`~bot.runtime.registry.TableRegistry.restore_table` and
  :meth:`~bot.runtime.registry.TableRegistry.resume_play`), exactly as a cash
  table's does (a hand that
  cannot be replayed is cancelled there, stacks as before it, and the
  tournament goes on). The level resumes with the time that was left in it
  when the last hand ended: the downtime and the interrupted hand's time do
  not count. A multi-table tournament comes back the same way, every table
  first, then each table's hand (see :mod:`bot.runtime.tournament.mtt`).
* a tournament whose stored facts do not fit together (unreadable settings,
  a missing table, chips that do not add up) is cancelled on its own: every
  buy-in is refunded and the channel is told why, mentioning the players
  (:func:`refund_unresumable`).

The tournaments service (:mod:`bot.runtime.tournament.service`) runs this for
every interrupted tournament of our servers and keeps the runtimes it rebuilds.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from bot.i18n import Ordinal, Phrase, Wording, resolve
from bot.runtime.config import TableConfig
from bot.runtime.errors import TableError
from bot.runtime.ports import StoredTable, StoredTournament
from bot.runtime.registry import TableRegistry
from bot.runtime.table.live import Table
from bot.runtime.tournament.director import MttPorts
from bot.runtime.tournament.mtt import MttRuntime
from bot.runtime.tournament.results import tell_results
from bot.runtime.tournament.sit_and_go import (
    SitAndGo,
    TournamentRuleError,
    TournamentSettings,
    apply_outcome,
)
from bot.runtime.tournament.table_policy import SitAndGoRuntime, TournamentPolicy, out_phrase

log = logging.getLogger(__name__)

__all__ = [
    "AddRuntime", "RestorePorts", "refund_unresumable", "restore_tournament", "tell_channel",
    "tournament_config",
]

#: ``(sng, config) -> runtime``: the tournaments service's runtime for a restored
#: tournament, kept for its channel.
AddRuntime = Callable[[SitAndGo, TableConfig], SitAndGoRuntime]


class RestorePorts(MttPorts, Protocol):
    """What the tournaments service needs from storage (restarts included)."""

    async def interrupted_tournaments(self) -> Sequence[StoredTournament]: ...

    async def reschedule_tournament(self, tournament_id: int, starts_at: float) -> None:
        """A new start time for a tournament still registering."""
        ...

    async def cancel_unresumable(self, tournament_id: int, reason: str) -> None:
        """Cancel the running hand, take the chips back, refund every buy-in, close."""
        ...

    async def mtt_tables(self, tournament_id: int) -> list[tuple[int, StoredTable]]:
        """``(number, table)`` of each open table of a multi-table tournament."""
        ...

    async def mtt_last_starts(self, tournament_id: int) -> Mapping[int, int]:
        """The starting stacks of each player's last hand (a multi-table tournament)."""
        ...


def tournament_config(
    settings: TournamentSettings, clock: int, time_bank: int, language: str = "en"
) -> TableConfig:
    """The table settings of a sit-and-go (level 1's blinds, one seat per entrant; its
    tables speak ``language``, the server's when it was created)."""
    first = settings.schedule.levels[0].for_structure(settings.blinds_structure)
    return TableConfig.create(
        variant_key=settings.variant_key, structure=settings.structure,
        games=settings.games or None, every=settings.every or None,
        small_blind=first.small_blind, big_blind=first.big_blind, ante=first.ante,
        min_buyin=settings.starting_stack, max_buyin=settings.starting_stack,
        seats=settings.table_size or settings.max_entrants, clock=clock, time_bank=time_bank,
        language=language,
    )


async def restore_tournament(
    registry: TableRegistry, store: RestorePorts, stored: StoredTournament, add: AddRuntime
) -> list[Table]:
    """Resume one interrupted tournament (see the module docstring); returns the tables
    playing again. Raises :class:`TableError` (:class:`TournamentRuleError` included)
    when its stored facts do not fit together."""
    settings = TournamentSettings.from_storage(
        stored.buy_in, stored.starting_stack, stored.settings
    )
    clock = int(stored.settings.get("clock", 30))
    config = tournament_config(settings, clock, int(stored.settings.get("time_bank", 60)),
                               str(stored.settings.get("language", "en")))
    if not stored.running:
        sng = SitAndGo(settings, registry.level_clock(stored.guild_id))
        for user_id in stored.entrants:
            sng.register(user_id)
        add(sng, config)
        return []
    restore = _restore_mtt if settings.multi_table else _restore_sng
    return await restore(registry, store, stored, settings, lambda sng: add(sng, config))


async def _restore_sng(
    registry: TableRegistry, store: RestorePorts, stored: StoredTournament,
    settings: TournamentSettings, add: Callable[[SitAndGo], SitAndGoRuntime],
) -> list[Table]:
    """A running sit-and-go: its table, the places the restart left open, then play."""
    st = stored.table
    if st is None:
        raise TournamentRuleError("Its table is missing.")
    sng, outcome = SitAndGo.resume(
        settings, registry.level_clock(stored.guild_id), entrants=stored.entrants,
        stacks={user: stack for _, user, stack, _ in st.seats}, places=stored.places,
        hands_played=stored.hands_played, elapsed=stored.level_elapsed,
        last_start=stored.last_start,
    )
    rt = add(sng)
    policy = TournamentPolicy(sng, stored.tournament_id, store)
    table = await registry.restore_table(  # nobody seated when it is over: it closes
        st, policy=policy, keep=lambda user: not sng.finished and user in sng.stacks)
    rt.table = table
    if outcome is not None:
        await apply_outcome(store, stored.tournament_id, sng, outcome)
        for p in outcome.busted:
            table.tell(Phrase("notice.out", name=f"<@{p.user_id}>", place=Ordinal(p.place)))
    if sng.finished:  # the restart came between the last hand and the prizes
        await _finish(table, sng, stored.tournament_id)
        return [table]
    table.tell(Phrase("notice.sng_resumes", level=policy.level_text()))
    await registry.resume_play(table)
    return [table]


async def _finish(table: Table, sng: SitAndGo, tournament_id: int) -> None:
    """Tell the winner and the results (the prizes were paid before the restart) and close
    the table."""
    winner = sng.placements[sng.winner or 0]
    table.tell(Phrase("notice.wins_tournament", name=f"<@{winner.user_id}>",
                      prize=winner.prize))
    tell_results(table, sng, tournament_id)
    async with table.lock:
        await table.close_now()


async def _restore_mtt(
    registry: TableRegistry, store: RestorePorts, stored: StoredTournament,
    settings: TournamentSettings, add: Callable[[SitAndGo], SitAndGoRuntime],
) -> list[Table]:
    """A running multi-table tournament: every table first, then the places the restart
    left open, then each table's hand in progress (the others wait for the director)."""
    open_tables = await store.mtt_tables(stored.tournament_id)
    stacks = {user: stack for _, st in open_tables for _, user, stack, _ in st.seats}
    sng, outcome = SitAndGo.resume(
        settings, registry.level_clock(stored.guild_id), entrants=stored.entrants, stacks=stacks,
        places=stored.places, hands_played=stored.hands_played,
        elapsed=stored.level_elapsed,
        last_start=await store.mtt_last_starts(stored.tournament_id))
    rt = add(sng)
    assert isinstance(rt, MttRuntime)
    for number, st in open_tables:
        rt.tables[number] = await registry.restore_table(
            st, policy=rt.policy, keep=lambda user: user in sng.stacks)
    if outcome is not None:
        await apply_outcome(store, stored.tournament_id, sng, outcome)
        first = next(iter(rt.tables.values()))
        for p in outcome.busted:
            first.tell(out_phrase(p, f"<@{p.user_id}>"))
    if sng.finished:
        await rt.director.finish_after_restart()
    else:
        for table in list(rt.tables.values()):
            table.tell(Phrase("notice.mtt_restarted", level=rt.policy.level_text()))
            await registry.resume_play(table, when_idle=_to_director(rt))
    return list(rt.tables.values())


def _to_director(rt: MttRuntime) -> Callable[[Table], Awaitable[None]]:
    """A table with no hand to resume waits for the director (it decides when it deals)."""

    async def arrive(table: Table) -> None:
        rt.director.arrive(table)

    return arrive


async def refund_unresumable(
    registry: TableRegistry, store: RestorePorts, stored: StoredTournament, error: TableError
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
    await tell_channel(registry, _config_or_default(stored), text, guild_id=stored.guild_id,
                       channel_id=stored.channel_id, creator_id=stored.creator_id,
                       table_id=stored.table.table_id if stored.table else 0)


async def tell_channel(
    registry: TableRegistry, config: TableConfig, text: Phrase, *, guild_id: int,
    channel_id: int, creator_id: int, table_id: int = 0,
) -> None:
    """Tell a tournament's channel a notice when it has no table (in ``config``'s
    language): through a table of its own, never kept by the registry."""
    table = Table(
        table_id, config, guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
        economy=registry.economy, hands=registry.hands, tables=registry.tables,
        observer=registry.observer, clock=registry.clock,
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
