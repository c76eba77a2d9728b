"""Settings from the environment and .env: parsing, defaults, validation, a masked token."""

from pathlib import Path

import pytest

from bot.settings import (
    DEFAULT_API_BASE,
    DEFAULT_DATABASE,
    DEFAULT_GATEWAY_URL,
    MissingToken,
    Secret,
    Settings,
    SettingsError,
    parse_env_file,
)

REPO = Path(__file__).resolve().parent.parent


def test_defaults_with_only_a_token() -> None:
    """A token alone gives the documented defaults."""
    s = Settings.from_mapping({"DISCORD_TOKEN": "abc.def"})
    assert s.token.reveal() == "abc.def"
    assert s.database_path == DEFAULT_DATABASE == "omaha_dealer.sqlite3"
    assert s.dev_guild_id is None
    assert s.api_base == DEFAULT_API_BASE == "https://discord.com/api/v10"
    assert s.gateway_url == DEFAULT_GATEWAY_URL
    assert s.log_level == "INFO"
    assert s.uses_real_discord


def test_every_setting_is_read() -> None:
    """Each variable lands in its typed field."""
    s = Settings.from_mapping(
        {
            "DISCORD_TOKEN": "tok",
            "DATABASE_PATH": "/tmp/x.sqlite3",
            "DEV_GUILD_ID": "123456789012345678",
            "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
            "LOG_LEVEL": "debug",
            "RENDER_PROCESSES": "2",
            "TABLE_PICTURES": "Street",
        }
    )
    assert s.render_processes == 2
    assert s.table_pictures == "street"
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).table_pictures == "auto"  # the bot
    assert Settings(token=s.token).table_pictures == "turn"  # built in code: tests, the demo
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).render_processes == 2  # the bot
    assert Settings(token=s.token).render_processes == 0  # built in code: threads
    assert s.database_path == "/tmp/x.sqlite3"
    assert s.dev_guild_id == 123456789012345678
    assert s.api_base == "http://127.0.0.1:8080/api/v10"
    assert s.gateway_url == "ws://127.0.0.1:8080/gateway"
    assert s.log_level == "DEBUG"
    assert not s.uses_real_discord
    assert s.key_path == "/tmp/x.sqlite3.key"  # beside the database unless DECK_KEY_PATH
    moved = Settings.from_mapping({"DISCORD_TOKEN": "t", "DECK_KEY_PATH": "/etc/omaha/deck.key"})
    assert moved.key_path == "/etc/omaha/deck.key"
    assert Settings(token=s.token, database_path=":memory:").key_path is None


def test_missing_token_explains_how_to_get_one() -> None:
    """No token: the error tells the user where to get one."""
    with pytest.raises(MissingToken) as info:
        Settings.from_mapping({"DISCORD_TOKEN": "  "})
    assert "discord.com/developers/applications" in str(info.value)
    assert ".env" in str(info.value)
    assert Settings.from_mapping({}, require_token=False).token.reveal() == ""


def test_missing_token_names_the_settings_file_to_create(tmp_path: Path) -> None:
    """The file to create is the one the bot reads (``--env-file``), named in full: a
    ``pip install`` user has no .env.example to copy."""
    settings_file = tmp_path / "omaha.env"
    with pytest.raises(MissingToken) as info:
        Settings.load(environ={}, env_file=settings_file)
    text = str(info.value)
    assert f"create the file {settings_file} with this line:" in text
    assert "DISCORD_TOKEN=your-token-here" in text and "copy .env.example" not in text
    settings_file.write_text("DISCORD_TOKEN=abc\n")  # doing what it says is enough
    assert Settings.load(environ={}, env_file=settings_file).token.reveal() == "abc"


@pytest.mark.parametrize(
    ("name", "value", "needle"),
    [
        ("DEV_GUILD_ID", "my-server", "DEV_GUILD_ID"),
        ("DEV_GUILD_ID", "-5", "DEV_GUILD_ID"),
        ("DISCORD_API_BASE", "discord.com/api", "DISCORD_API_BASE"),
        ("DISCORD_API_BASE", "ws://127.0.0.1/api", "DISCORD_API_BASE"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg", "DISCORD_GATEWAY_URL"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL"),
        ("RENDER_PROCESSES", "-1", "RENDER_PROCESSES"),
        ("RENDER_PROCESSES", "17", "RENDER_PROCESSES"),
        ("TABLE_PICTURES", "sometimes", "TABLE_PICTURES"),
        ("DISCORD_TOKEN", "two words", "DISCORD_TOKEN"),
        ("DATABASE_URL", "mysql://db/omaha", "DATABASE_URL"),
    ],
)
def test_bad_values_are_named(name: str, value: str, needle: str) -> None:
    """A value the bot cannot use is refused with the setting's name."""
    values = {"DISCORD_TOKEN": "tok", name: value}
    with pytest.raises(SettingsError, match=needle):
        Settings.from_mapping(values)


def test_token_never_shows_in_repr_or_str() -> None:
    """The token is masked in every representation of the settings."""
    secret = "MTIzNDU2Nzg5.abcdef.very-secret-token"
    s = Settings.from_mapping({"DISCORD_TOKEN": secret})
    for text in (repr(s), str(s), repr(s.token), str(s.token), f"{s}", f"{s.token!r}"):
        assert secret not in text
        assert "very-secret" not in text
    assert "********" in repr(s)
    assert s.token == Secret(secret) and s.token != Secret("other")


def test_parse_env_file_handles_comments_quotes_and_export() -> None:
    """The .env parser understands the usual forms."""
    text = """
# a comment
export DISCORD_TOKEN=abc  # trailing comment
DATABASE_PATH="/data/my db.sqlite3"
LOG_LEVEL='WARNING'
DEV_GUILD_ID=
HASH=a#b
ESCAPED="line\\nnext \\"q\\""
"""
    values = parse_env_file(text)
    assert values == {
        "DISCORD_TOKEN": "abc",
        "DATABASE_PATH": "/data/my db.sqlite3",
        "LOG_LEVEL": "WARNING",
        "DEV_GUILD_ID": "",
        "HASH": "a#b",
        "ESCAPED": 'line\nnext "q"',
    }


@pytest.mark.parametrize("bad", ["just words", "KEY='unclosed", "1KEY=x"])
def test_parse_env_file_refuses_garbage(bad: str) -> None:
    """Lines that are not assignments are reported with their number."""
    with pytest.raises(SettingsError, match="line 1"):
        parse_env_file(bad)


def test_environment_overrides_env_file(tmp_path: Path) -> None:
    """The .env file fills gaps; the environment wins."""
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=ERROR\nDATABASE_PATH=file.db\n")
    s = Settings.load({"DISCORD_TOKEN": "from-env", "DATABASE_PATH": ""}, env_file)
    assert s.token.reveal() == "from-env"
    assert s.log_level == "ERROR"
    assert s.database_path == "file.db"
    assert Settings.load({}, tmp_path / "absent.env", require_token=False).log_level == "INFO"


def test_env_example_documents_every_setting() -> None:
    """.env.example names every setting, each with a comment above it, and parses."""
    text = (REPO / ".env.example").read_text()
    values = parse_env_file(text)
    expected = {
        "DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "DISCORD_API_BASE",
        "DISCORD_GATEWAY_URL", "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS", "DATABASE_URL",
        "DATABASE_TIMEOUT",
        "RENDER_PROCESSES", "TABLE_PICTURES", "DECK_KEY_PATH", "TABLES_PER_MEMBER",
        "TABLES_PER_SERVER", "COMMAND_COOLDOWN", "LOG_FORMAT", "METRICS_PORT",
        "METRICS_HOST", "BACKUP_EVERY", "BACKUP_KEEP", "BACKUP_DIR",
    }
    assert set(values) == expected
    lines = text.splitlines()
    for name in expected:
        index = next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))
        assert lines[index - 1].startswith("#"), name
    assert values["DISCORD_TOKEN"] == ""
    # The example's values are the defaults: loading it with a token changes nothing.
    example = Settings.from_mapping({**values, "DISCORD_TOKEN": "t"})
    assert example == Settings.from_mapping({"DISCORD_TOKEN": "t"})


def test_limits_default_from_the_environment_and_refuse_nonsense() -> None:
    """TABLES_PER_MEMBER, TABLES_PER_SERVER and COMMAND_COOLDOWN: 3, 20 and 5 s when unset,
    0 turns each off, anything else that is not a number in range is named."""
    unset = Settings.from_mapping({"DISCORD_TOKEN": "t"})
    assert (unset.tables_per_member, unset.tables_per_server, unset.command_cooldown) == (
        3, 20, 5.0)
    off = Settings.from_mapping({"DISCORD_TOKEN": "t", "TABLES_PER_MEMBER": "0",
                                 "TABLES_PER_SERVER": "0", "COMMAND_COOLDOWN": "0"})
    assert (off.tables_per_member, off.tables_per_server, off.command_cooldown) == (0, 0, 0.0)
    assert Settings.from_mapping({"DISCORD_TOKEN": "t", "COMMAND_COOLDOWN": "2.5"}
                                 ).command_cooldown == 2.5
    for name, bad in (("TABLES_PER_MEMBER", "-1"), ("TABLES_PER_MEMBER", "101"),
                      ("TABLES_PER_SERVER", "many"), ("COMMAND_COOLDOWN", "soon"),
                      ("COMMAND_COOLDOWN", "3601"), ("COMMAND_COOLDOWN", "nan")):
        with pytest.raises(SettingsError, match=name):
            Settings.from_mapping({"DISCORD_TOKEN": "t", name: bad})
    assert Settings(token=Secret("t")).tables_per_member == 0  # built in code: no cap


def test_database_url_selects_postgresql_and_hides_its_password() -> None:
    """DATABASE_URL (postgresql://) is kept masked; empty means SQLite."""
    url = "postgresql://omaha:hunter2@db.example:5432/omaha"
    s = Settings.from_mapping({"DISCORD_TOKEN": "t", "DATABASE_URL": url})
    assert s.database_url.reveal() == url
    assert "hunter2" not in repr(s) and "hunter2" not in str(s)
    assert not Settings.from_mapping({"DISCORD_TOKEN": "t"}).database_url


def test_database_timeout_is_ten_seconds_unless_set() -> None:
    """DATABASE_TIMEOUT: 10 s when unset, 0 for no limit, a decimal allowed; nonsense
    named."""
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).database_timeout == 10.0
    for text, seconds in (("0", 0.0), ("2.5", 2.5)):
        assert Settings.from_mapping({"DISCORD_TOKEN": "t", "DATABASE_TIMEOUT": text}
                                     ).database_timeout == seconds
    for bad in ("-1", "soon", "3601"):
        with pytest.raises(SettingsError, match="DATABASE_TIMEOUT"):
            Settings.from_mapping({"DISCORD_TOKEN": "t", "DATABASE_TIMEOUT": bad})


def test_operator_settings_metrics_backups_and_log_format() -> None:
    """METRICS_*, BACKUP_* and LOG_FORMAT: typed, defaults that serve nothing and back
    nothing up, clear errors naming the setting."""
    plain = Settings.from_mapping({"DISCORD_TOKEN": "t", "DATABASE_PATH": "data/bot.sqlite3"})
    assert plain.metrics_port is None and plain.metrics_host == "127.0.0.1"
    assert plain.backup_every is None and plain.backup_keep == 7 and plain.log_format == "text"
    assert plain.backup_folder == str(Path("data") / "backups")
    s = Settings.from_mapping({
        "DISCORD_TOKEN": "t", "METRICS_PORT": "9108", "METRICS_HOST": "0.0.0.0",
        "BACKUP_EVERY": "6h", "BACKUP_KEEP": "14", "BACKUP_DIR": "/srv/b", "LOG_FORMAT": "JSON",
    })
    assert (s.metrics_port, s.metrics_host, s.backup_every, s.backup_keep, s.backup_folder,
            s.log_format) == (9108, "0.0.0.0", 21600.0, 14, "/srv/b", "json")
    assert Settings.from_mapping({"DISCORD_TOKEN": "t", "BACKUP_EVERY": "90"}).backup_every == 90
    for name, bad, words in (
        ("BACKUP_EVERY", "10s", "a minute or more"), ("BACKUP_EVERY", "6 hours", "30m"),
        ("BACKUP_KEEP", "0", "from 1 to 1000"), ("METRICS_PORT", "http", "port number"),
        ("LOG_FORMAT", "xml", "text, json"),
    ):
        with pytest.raises(SettingsError, match=name) as refused:
            Settings.from_mapping({"DISCORD_TOKEN": "t", name: bad})
        assert words in str(refused.value)
