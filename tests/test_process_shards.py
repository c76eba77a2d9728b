"""Two `python -m bot` processes share the bot's shards and one database (SQLite, PostgreSQL).

Process A runs shard 0 of 2, process B shard 1; a server of each shard has a
table, and both play at once. Then B is killed (SIGKILL) in the middle of a
hand: A's table plays on meanwhile, and when B starts again it resumes its own
table's hand, and only that one (A's table is not restored twice). Every chip
is accounted for afterwards (``python -m bot audit``).
"""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import BotProcess, Channel, FakeDiscord, Message, User
from tests.test_process_hand import audit

SHARDS = {"SHARD_COUNT": "2"}


async def wait_turn(fd: FakeDiscord, channel: Channel, after: int = 0) -> Message:
    return await fd.wait_for_message(lambda m: (
        m.channel_id == channel.id and m.id > after and "your turn" in m.content
        and any(b.get("label") == "Fold" for b in m.buttons())
    ), within=30)


async def act(fd: FakeDiscord, players: list[User], turn: Message, label: str) -> None:
    """The player called on by ``turn`` clicks ``label`` ("Call" finds "Call 1"); the click
    is answered within Discord's 3 seconds."""
    actor = next(p for p in players if p.mention in turn.content)
    (button,) = [b["label"] for b in turn.buttons() if b.get("label") in (label, f"{label} 1")]
    click = await fd.click(actor, turn, label=button)
    await click.answer(within=3.0)


async def open_table(fd: FakeDiscord, channel: Channel, players: list[User]) -> Message:
    created = await (await fd.slash(players[0], channel, "table create")).reply()
    assert "Table" in created.content and "is open" in created.content, created.content
    for p in players:
        joined = await (await fd.slash(p, channel, "table join", buyin="200")).reply()
        assert "You sat down" in joined.content, joined.content
    return await wait_turn(fd, channel)


async def test_two_processes_each_play_and_resume_only_their_own_shard(
    database_target: str, tmp_path: Path
) -> None:
    """On PostgreSQL ``DATABASE_URL`` names the database; both processes share the deck
    key file at ``DATABASE_PATH.key``, as the README asks."""
    database = key_home = database_target
    env = dict(SHARDS)
    if database.startswith("postgresql://"):
        env["DATABASE_URL"] = database
        key_home = str(tmp_path / "shared.sqlite3")
    async with FakeDiscord() as fd:
        guilds = [fd.add_guild(f"Club {n}", shard=(n, 2)) for n in (0, 1)]
        channels = [fd.add_channel(g, "poker") for g in guilds]
        players = [[fd.add_member(g, f"p{n}{i}") for i in range(2)] for n, g in enumerate(guilds)]
        a = BotProcess(fd, tmp_path, database=key_home, env={**env, "SHARD_IDS": "0"})
        b = BotProcess(fd, tmp_path, database=key_home, env={**env, "SHARD_IDS": "1"})
        async with a, b:
            await fd.wait_until(lambda: {(0, 2), (1, 2)} <= set(fd.gateway.identifies), 30,
                                what="both processes to identify their shard")
            await fd.wait_until_ready()
            turns = [await open_table(fd, c, p) for c, p in zip(channels, players, strict=True)]
            await act(fd, players[1], turns[1], "Call")  # B's hand is under way
            mid = await wait_turn(fd, channels[1], after=turns[1].id)

            assert await b.kill() != 0
            await act(fd, players[0], turns[0], "Call")  # A plays on while B is down
            turns[0] = await wait_turn(fd, channels[0], after=turns[0].id)

            b2 = BotProcess(fd, tmp_path, database=key_home, env={**env, "SHARD_IDS": "1"})
            async with b2:
                await b2.wait_for_log("Restored 1 open tables")
                resumed = await wait_turn(fd, channels[1], after=mid.id)
                # tables are restored before the gateway connects: a click needs it
                await fd.wait_until(lambda: fd.gateway.identifies.count((1, 2)) >= 2, 30,
                                    what="the restarted process to identify its shard")
                await act(fd, players[1], resumed, "Check")
                await act(fd, players[0], turns[0], "Check")
            assert "Restored" not in a.log  # A never restored a table: none was lost to it
            assert "shards 0 of 2" in a.log and "shards 1 of 2" in b2.log
            backend = "postgresql" if "DATABASE_URL" in env else "sqlite3"
            assert backend in (await a.wait_for_log("Database ready at"))
    await audit(database)  # exits 0 only when balances, stacks and pots hold every chip
