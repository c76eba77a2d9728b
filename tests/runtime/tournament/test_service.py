"""The tournaments service above the table registry: channels held, freed and given up."""

from __future__ import annotations

import ast
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.economy import Economy
from bot.i18n import Phrase
from bot.runtime import registry as registry_module
from bot.runtime.clock import FakeClock
from bot.runtime.config import TableConfig
from bot.runtime.errors import NoTable, TableError
from bot.runtime.table.abandon import Ending
from bot.runtime.tournament.control import Cancelling
from bot.runtime.tournament.sit_and_go import Status, TournamentSettings
from bot.storage import Database
from tests.runtime.conftest import stop
from tests.runtime.fakes import Recorder
from tests.runtime.tournament.test_restore import audit_ok
from tests.runtime.tournament.test_table_policy import CHANNEL, CREATOR, GUILD, service, sng_of

OTHER_GUILD = 20


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    database = await Database.open(":memory:")
    yield database
    await database.close()


def key_of(error: TableError) -> str:
    """The message id of a refusal."""
    assert isinstance(error.phrase, Phrase)
    return error.phrase.key


def test_the_registry_imports_nothing_from_the_tournaments() -> None:
    """The registry knows tables only: no import of ``bot.runtime.tournament`` at all."""
    tree = ast.parse(Path(registry_module.__file__).read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert imported and not [m for m in imported if m.startswith("bot.runtime.tournament")]


async def test_a_registering_tournament_holds_its_channel(db: Database) -> None:
    """No table and no second tournament in its channel; a table's channel takes none."""
    tours = service(db, FakeClock(), Recorder())
    await sng_of(tours)
    with pytest.raises(TableError) as table_refused:
        await tours.registry.create(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, config=TableConfig.create())
    assert key_of(table_refused.value) == "refuse.channel_has_tournament"
    with pytest.raises(TableError) as second:
        await sng_of(tours)
    assert key_of(second.value) == "refuse.channel_busy"

    await tours.registry.create(
        guild_id=GUILD, channel_id=CHANNEL + 1, creator_id=CREATOR, config=TableConfig.create())
    with pytest.raises(TableError) as has_table:
        tours.check_free(CHANNEL + 1)
    assert key_of(has_table.value) == "refuse.channel_has_table"
    await stop(tours)


async def test_a_cancellation_before_the_start_refunds_and_frees_the_channel(
    db: Database,
) -> None:
    """Both entries come back and a cash table may open in the channel at once."""
    tours = service(db, FakeClock(), Recorder())
    economy = Economy(db)
    before = {u: await economy.balance(GUILD, u) for u in (2, 3)}
    rt = await sng_of(tours)
    await rt.join(2)
    await rt.join(3)
    assert await tours.cancel(rt, CREATOR) is Cancelling.DONE
    assert {u: await economy.balance(GUILD, u) for u in (2, 3)} == before
    assert rt.sng.status is Status.CANCELLED and tours.all() == []
    with pytest.raises(NoTable):
        tours.in_channel(CHANNEL)
    table = await tours.registry.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, config=TableConfig.create())
    assert tours.registry.find(CHANNEL) is table
    await audit_ok(db)
    await stop(tours)


async def test_a_lost_server_cancels_its_registering_tournaments_only(db: Database) -> None:
    """The registry asks the service for a server's channels: that server's sit-and-go is
    cancelled and refunded, another server's keeps registering."""
    tours = service(db, FakeClock(), Recorder())
    settings = TournamentSettings.create(buy_in=40, max_entrants=3)
    here = await tours.create(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, settings=settings)
    there = await tours.create(
        guild_id=OTHER_GUILD, channel_id=CHANNEL + 1, creator_id=CREATOR, settings=settings)
    await here.join(2)
    await there.join(3)

    gone = await tours.registry.abandon_guild(GUILD, "the bot was removed from the server")

    assert [(g.channel_id, g.returned, g.ending) for g in gone] == [
        (CHANNEL, {2: 40}, Ending.REFUNDED)]
    assert here.sng.status is Status.CANCELLED and there.sng.status is Status.REGISTERING
    assert tours.all() == [there]
    await audit_ok(db)
    await stop(tours)


async def test_a_finished_sit_and_go_frees_its_channel(db: Database) -> None:
    """When its table closes (the registry tells the service), the channel is free."""
    tours = service(db, FakeClock(), Recorder())
    rt = await sng_of(tours, entrants=2)
    await rt.join(2)
    await rt.join(3)
    table = rt.table
    assert table is not None and tours.in_channel(CHANNEL) is rt
    async with rt.lock:
        assert await rt.cancel_running() is True  # no hand yet: paid out and closed now
    assert table.closed and tours.all() == [] and tours.registry.find(CHANNEL) is None
    tours.check_free(CHANNEL)
    await audit_ok(db)
    await stop(tours)


async def test_the_blind_levels_stand_still_while_the_dealer_cannot_hear(
    db: Database,
) -> None:
    """RULES.md 8: a sit-and-go's level clock runs only while the dealer hears its server.
    Two minutes into a 5-minute turbo level the gateway drops for an hour: still level 1,
    three minutes to go; heard again, the level ends three minutes later."""
    clock = FakeClock()
    tours = service(db, clock, Recorder())
    rt = await sng_of(tours, entrants=2)
    await rt.join(2)
    await rt.join(3)
    sng = rt.sng
    await clock.advance(120)
    tours.registry.deafen(0)
    await clock.advance(3600)
    assert sng.level_index == 0 and sng.until_next_level() == 180.0
    await tours.registry.hear(0)
    await clock.advance(179)
    assert sng.level_index == 0
    await clock.advance(1)
    assert sng.level_index == 1 and sng.clock_seconds == 300.0
    async with rt.lock:
        await rt.cancel_running()
    await stop(tours)


async def test_tournaments_come_back_through_the_service_not_the_registry(
    db: Database,
) -> None:
    """After a restart the registry restores cash tables only; the service brings the
    registering tournament back, holding its channel again."""
    tours = service(db, FakeClock(), Recorder())
    rt = await sng_of(tours)
    await rt.join(2)
    await stop(tours)

    tours2 = service(db, FakeClock(), Recorder())
    assert await tours2.registry.restore() == [] and tours2.all() == []
    assert await tours2.restore() == []
    assert tours2.in_channel(CHANNEL).sng.entrants == [2]
    with pytest.raises(TableError):
        tours2.check_free(CHANNEL)
    await stop(tours2)


async def test_a_multi_table_tournament_needs_the_threads_port(db: Database) -> None:
    """Without a way to open threads, a tournament of several tables is refused."""
    tours = service(db, FakeClock(), Recorder())
    settings = TournamentSettings.create(buy_in=10, max_entrants=12, table_size=6)
    with pytest.raises(TableError) as refused:
        await tours.create(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=CREATOR, settings=settings)
    assert key_of(refused.value) == "refuse.mtt.unavailable"
    await stop(tours)
