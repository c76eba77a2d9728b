"""Shard ranges: Discord's guild-to-shard formula, SHARD_COUNT/SHARD_IDS parsing."""

import pytest

from bot.settings import Settings, SettingsError
from bot.sharding import ShardError, ShardRange, shard_of


def test_discord_formula_uses_the_timestamp_bits() -> None:
    """(id >> 22) % count: ids made in the same millisecond share a shard."""
    guild = (1_234_567 << 22) | 0x3FFFFF  # worker, process and increment bits all set
    assert shard_of(guild, 4) == 1_234_567 % 4
    assert shard_of(1_234_567 << 22, 4) == shard_of(guild, 4)
    assert shard_of(guild, 1) == 0


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("4", "", (0, 1, 2, 3)),
        ("8", "2-5", (2, 3, 4, 5)),
        ("8", "7, 0,3", (0, 3, 7)),
        ("8", "0-1,6-7", (0, 1, 6, 7)),
        ("1", "0", (0,)),
    ],
)
def test_ranges_and_lists(count: str, ids: str, expected: tuple[int, ...]) -> None:
    shards = ShardRange.parse(count, ids)
    assert shards is not None and shards.ids == expected and shards.count == int(count)


def test_nothing_set_means_unsharded() -> None:
    assert ShardRange.parse("", "") is None


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        ("", "0-1", "needs SHARD_COUNT"),
        ("0", "", "from 1 to"),
        ("two", "", "from 1 to"),
        ("99999", "", "from 1 to"),
        ("4", "4", "not below SHARD_COUNT 4"),
        ("4", "3-1", "backwards"),
        ("4", "0,0", "twice"),
        ("4", "a-b", "look like"),
        ("4", "1-", "look like"),
    ],
)
def test_unusable_values_are_named(count: str, ids: str, says: str) -> None:
    with pytest.raises(ShardError, match=says):
        ShardRange.parse(count, ids)


def test_each_guild_is_owned_by_exactly_one_process() -> None:
    """Three processes splitting 8 shards own every server exactly once."""
    processes = [ShardRange.parse("8", r) for r in ("0-2", "3-5", "6-7")]
    for guild in range(1 << 22, 500 << 22, 7 << 20):
        assert sum(p.owns(guild) for p in processes if p is not None) == 1


def test_settings_read_the_shards_and_refuse_bad_ones_by_name() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "2-3"})
    assert settings.shards == ShardRange(4, (2, 3))
    assert str(settings.shards) == "shards 2,3 of 4"
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).shards is None
    with pytest.raises(SettingsError, match="SHARD_IDS 9"):
        Settings.from_mapping({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "9"})


def test_each_process_paces_to_its_share_of_the_global_limit() -> None:
    shards = ShardRange.parse("8", "0-1")
    assert shards is not None and shards.share == 0.25
