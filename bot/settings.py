"""Typed settings, read once from the environment and an optional ``.env`` file.

Every setting is an environment variable; a ``.env`` file in the working
directory (``KEY=value`` lines, ``#`` comments, optional quotes and
``export``) fills in whatever the environment does not set. The environment
always wins, so ``DISCORD_TOKEN=... python -m bot`` overrides the file.

========================  =======================================================
``DISCORD_TOKEN``         the bot's token (required to run; the only secret)
``DATABASE_PATH``         SQLite file; default ``omaha_dealer.sqlite3`` in the
                          working directory (the directory ``python -m bot`` is
                          started from, where ``.env`` lives too). A relative
                          path is taken from the working directory. ``:memory:``
                          keeps everything in memory (tests only).
``DATABASE_URL``          ``postgresql://user:password@host:5432/dbname``: use
                          that PostgreSQL database instead of SQLite (several
                          processes may share it). Empty (default): SQLite at
                          ``DATABASE_PATH``, whose ``.key`` file still holds the
                          deck key. Masked in ``repr()`` like the token.
``DATABASE_TIMEOUT``      PostgreSQL: seconds a statement or a new connection may
                          wait for the server's answer (default 10; 0: no limit);
                          past it the database counts as unavailable
                          (:mod:`bot.storage.outage`) and the connection is
                          replaced. Migrations at the start wait without limit.
``DEV_GUILD_ID``          the server id of a bot for one server (or of a test
                          server): slash commands are synced to that server
                          only, where they appear instantly (global sync can take
                          up to an hour), and the global ones cleared once.
                          Empty: sync globally.
``DISCORD_API_BASE``      REST base URL, with the API version; default
                          ``https://discord.com/api/v10``. Point it at an HTTP
                          proxy or a fake Discord.
``DISCORD_GATEWAY_URL``   gateway websocket URL; default
                          ``wss://gateway.discord.gg/``.
``LOG_LEVEL``             ``DEBUG``, ``INFO`` (default), ``WARNING``, ``ERROR``.
``RENDER_PROCESSES``      processes that draw the pictures, away from the event
                          loop's process (default 2; 0: threads of the bot's
                          own process). Settings built in code (tests, the
                          demo) default to 0.
``TABLE_PICTURES``        ``auto`` (default): a new table picture with every
                          turn message while the renders keep up, the
                          street's picture again when they queue up; ``turn``:
                          always a new one; ``street``: a new one at each
                          street only (see :mod:`bot.adapter.pictures`). Settings
                          built in code (tests, the demo) default to ``turn``.
``SHARD_COUNT``           how many gateway shards the whole bot has; empty: one
                          unsharded connection (right below 2,500 servers).
``SHARD_IDS``             the shards this process runs: ``0-3``, ``0,2`` or ``5``;
                          empty: all of ``SHARD_COUNT``. See :mod:`bot.sharding`.
``TABLES_PER_MEMBER``     open cash tables one member may have opened in a server
                          (default 3; 0: no cap). A server manager may set their
                          server's own with ``/table limits`` (:mod:`bot.runtime.caps`).
``TABLES_PER_SERVER``     open cash tables in one server (default 20; 0: no cap).
``COMMAND_COOLDOWN``      seconds a member waits between two runs of a command that
                          draws a picture, reads many rows or asks Discord
                          (``/leaderboard``, ``/stats``, ``/hands``, ``/hand
                          show|replay|export|verify``), and the pace of a
                          leaderboard's pages and ``/cards`` after a few at once;
                          default 5, 0: none. See :mod:`bot.adapter.cooldowns`.
``LOG_FORMAT``            ``text`` (default) or ``json``: one JSON object per line
                          (:mod:`bot.logs`).
``METRICS_PORT``          serve Prometheus metrics on ``/metrics`` and health on
                          ``/healthz`` at that port (:mod:`bot.metrics`); empty:
                          no server.
``METRICS_HOST``          the address it listens on; default ``127.0.0.1``.
``BACKUP_EVERY``          a backup of the SQLite database by the running bot every
                          ``30m``, ``6h``, ``1d`` (or seconds); empty: none.
``BACKUP_KEEP``           how many of those to keep (default 7; older removed).
``BACKUP_DIR``            where they go; default ``backups`` beside the database.
========================  =======================================================

The token never appears in ``repr()``, ``str()`` or a log line: it is kept in a
:class:`Secret` whose representation is masked.

This module imports nothing from discord.py, so it can be used (and tested)
anywhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bot.sharding import ShardError, ShardRange

DEFAULT_DATABASE = "omaha_dealer.sqlite3"
DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_RENDER_PROCESSES = 2
#: From the environment when unset (settings built in code: no caps, no cooldown).
DEFAULT_TABLES_PER_MEMBER = 3
DEFAULT_TABLES_PER_SERVER = 20
DEFAULT_COMMAND_COOLDOWN = 5.0
DEFAULT_DATABASE_TIMEOUT = 10.0
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
DEFAULT_METRICS_HOST = "127.0.0.1"
DEFAULT_BACKUP_KEEP = 7
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
ENV_FILE = ".env"

TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

  1. Get your bot's token: open https://discord.com/developers/applications,
     create an application (or open yours), and in "Bot" press "Reset Token"
     and copy the token. Keep it secret: it is the bot's password.
  2. Give it to the bot, either way:
     - create the file {env_file} with this line:
           DISCORD_TOKEN=your-token-here
     - or set the environment variable DISCORD_TOKEN, for example:
           DISCORD_TOKEN=your-token-here python -m bot
     Every other setting is optional; the source's .env.example explains them all.
  3. Invite the bot: in "OAuth2" > "URL Generator" tick the scopes "bot" and
     "applications.commands" and the permissions "View Channel", "Send
     Messages", "Send Messages in Threads", "Embed Links", "Attach Files" and
     "Read Message History" (permission integer 274878024704), then open the
     generated URL. No privileged intent is needed. See the README's
     "Inviting the bot" and "Your first night".

To try the bot without a token, run: python -m bot demo
"""


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message names it."""


class MissingToken(SettingsError):
    """``DISCORD_TOKEN`` is not set; :data:`TOKEN_HELP` says how to get one and where to
    put it: the settings file ``env_file`` (absolute, so a ``pip install`` user, who has
    no ``.env.example`` to copy, knows which file to create), or the environment."""

    def __init__(self, env_file: str | os.PathLike[str] = ENV_FILE) -> None:
        self.env_file = Path(env_file).absolute()
        super().__init__(TOKEN_HELP.format(env_file=self.env_file))


class Secret:
    """A string that does not show itself: ``repr`` and ``str`` are masked."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret itself, for the one place that needs it (logging in)."""
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other.reveal() == self._value

    def __hash__(self) -> int:
        return hash(("Secret", self._value))

    def __repr__(self) -> str:
        return "Secret('********')" if self._value else "Secret('')"

    __str__ = __repr__


#: ``DATABASE_URL`` unset: SQLite (a :class:`Secret` is immutable, so it can be shared).
NO_DATABASE_URL = Secret("")

_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def parse_env_file(text: str) -> dict[str, str]:
    """Parse ``.env`` text: ``KEY=value`` lines; blank lines and ``#`` comments skipped.

    Values may be quoted with ``'`` or ``"`` (kept verbatim inside; ``\\n`` and
    ``\\"`` are unescaped in double quotes). An unquoted value ends at `` #``.
    Lines that are not assignments raise :class:`SettingsError` naming the line.
    """
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _LINE.match(raw)
        if match is None:
            raise SettingsError(f".env line {number} is not KEY=value: {stripped[:40]!r}")
        key = match[1]
        values[key] = _env_value(match[2], key, number)
    return values


def _env_value(value: str, key: str, number: int) -> str:
    """The value of line ``number`` (``key``'s): unquoted, or cut at an inline comment."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        quote, value = value[0], value[1:-1]
        if quote == '"':
            value = value.replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")
        return value
    if value and value[0] in "'\"":
        raise SettingsError(f".env line {number}: the quote of {key} is not closed")
    return re.split(r"\s+#", value, maxsplit=1)[0].rstrip()


def _url(name: str, value: str, schemes: tuple[str, ...]) -> str:
    parts = urlsplit(value)
    if parts.scheme not in schemes or not parts.netloc:
        wanted = " or ".join(f"{s}://" for s in schemes)
        raise SettingsError(f"{name} must be a URL starting with {wanted}, got {value!r}")
    return value


def _database_url(text: str) -> Secret:
    """A ``postgresql://`` URL, or empty (SQLite)."""
    if text and not text.startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            "DATABASE_URL must be a URL starting with postgresql:// (or be empty for SQLite)"
        )
    return Secret(text)


def _token(token: str, required: bool) -> str:
    if required and not token:
        raise MissingToken()
    if any(ch.isspace() for ch in token):
        raise SettingsError("DISCORD_TOKEN contains spaces; copy the token exactly")
    return token


def _dev_guild_id(text: str) -> int | None:
    """A positive server id, or None (sync globally) when empty."""
    if not text:
        return None
    if not text.isdigit() or int(text) <= 0:
        raise SettingsError(f"DEV_GUILD_ID must be a server id (a number), got {text!r}")
    return int(text)


def _log_level(text: str) -> str:
    """An upper-case level name; ``WARN`` means ``WARNING``; empty means the default."""
    level = (text or DEFAULT_LOG_LEVEL).upper()
    if level == "WARN":
        level = "WARNING"
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {level!r}")
    return level


def _render_processes(text: str) -> int:
    """0 to 16 processes; empty means :data:`DEFAULT_RENDER_PROCESSES`."""
    if not text:
        return DEFAULT_RENDER_PROCESSES
    if not text.isdigit() or int(text) > 16:
        raise SettingsError(f"RENDER_PROCESSES must be a number from 0 to 16, got {text!r}")
    return int(text)


def _count(name: str, text: str, default: int, most: int) -> int:
    """A whole number from 0 to ``most``; empty means ``default``."""
    if not text:
        return default
    if not text.isdigit() or int(text) > most:
        raise SettingsError(f"{name} must be a number from 0 to {most}, got {text!r}")
    return int(text)


def _seconds(name: str, text: str, default: float) -> float:
    """Seconds from 0 to 3600 (a decimal allowed); empty means ``default``."""
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 3600:
        raise SettingsError(f"{name} must be seconds from 0 to 3600, got {text!r}")
    return value


def _duration(name: str, text: str) -> float | None:
    """``90``, ``30m``, ``6h``, ``1d``: seconds (at least 60); empty: None."""
    if not text:
        return None
    number, unit = (text[:-1], text[-1].lower()) if text[-1].isalpha() else (text, "s")
    if not number.isdigit() or unit not in _UNITS or int(number) * _UNITS[unit] < 60:
        raise SettingsError(
            f"{name} must be a duration of a minute or more such as 30m, 6h or 1d, got {text!r}")
    return float(int(number) * _UNITS[unit])


def _keep(name: str, text: str, default: int, most: int) -> int:
    """A whole number from 1 to ``most``; empty means ``default``."""
    if not text:
        return default
    if not text.isdigit() or not 1 <= int(text) <= most:
        raise SettingsError(f"{name} must be a number from 1 to {most}, got {text!r}")
    return int(text)


def _port(text: str) -> int | None:
    """A TCP port (0: any free one), or None (no metrics server) when empty."""
    if not text:
        return None
    if not text.isdigit() or int(text) > 65535:
        raise SettingsError(f"METRICS_PORT must be a port number (0 to 65535), got {text!r}")
    return int(text)


def _choice(name: str, text: str, choices: tuple[str, ...]) -> str:
    value = (text or choices[0]).lower()
    if value not in choices:
        raise SettingsError(f"{name} must be one of {', '.join(choices)}, got {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment, checked and typed."""

    token: Secret
    database_path: str = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    api_base: str = DEFAULT_API_BASE
    gateway_url: str = DEFAULT_GATEWAY_URL
    log_level: str = DEFAULT_LOG_LEVEL
    render_processes: int = 0
    table_pictures: str = "turn"  # from the environment: "auto" unless set
    shards: ShardRange | None = None
    #: a ``postgresql://`` URL (empty: SQLite at ``database_path``)
    database_url: Secret = NO_DATABASE_URL
    #: seconds PostgreSQL may take to answer (0: no limit)
    database_timeout: float = DEFAULT_DATABASE_TIMEOUT
    #: the deck key file (``DECK_KEY_PATH``; empty: ``database_path`` + ``.key``)
    deck_key_path: str = ""
    #: caps on open cash tables (0: none; from the environment 3 and 20 unless set)
    tables_per_member: int = 0
    tables_per_server: int = 0
    #: seconds between two runs of a costly command by one member (environment: 5)
    command_cooldown: float = 0.0
    log_format: str = "text"
    #: ``/metrics`` and ``/healthz`` on this port (None: no server; 0: any free port)
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    #: seconds between two scheduled backups (None: none)
    backup_every: float | None = None
    backup_keep: int = DEFAULT_BACKUP_KEEP
    backup_dir: str = ""

    @property
    def backup_folder(self) -> str:
        """Where scheduled backups go: ``BACKUP_DIR``, else ``backups`` beside the database."""
        return self.backup_dir or str(Path(self.database_path).parent / "backups")

    @property
    def key_path(self) -> str | None:
        """Where the deck key file is: ``DECK_KEY_PATH``, else beside the database (None
        for an in-memory database: a fresh key in memory)."""
        if self.deck_key_path or self.database_path != ":memory:":
            return self.deck_key_path or self.database_path + ".key"
        return None

    @classmethod
    def from_mapping(cls, values: Mapping[str, str], *, require_token: bool = True) -> Settings:
        """Build settings from ``NAME -> value`` (environment-style); empty means unset."""

        def get(name: str) -> str:
            return values.get(name, "").strip()

        token = _token(get("DISCORD_TOKEN"), require_token)
        database = get("DATABASE_PATH") or DEFAULT_DATABASE
        dev_guild = _dev_guild_id(get("DEV_GUILD_ID"))
        api_base = _url(
            "DISCORD_API_BASE", get("DISCORD_API_BASE") or DEFAULT_API_BASE, ("http", "https")
        ).rstrip("/")
        gateway = _url(
            "DISCORD_GATEWAY_URL", get("DISCORD_GATEWAY_URL") or DEFAULT_GATEWAY_URL, ("ws", "wss")
        )
        level = _log_level(get("LOG_LEVEL"))
        renderers = _render_processes(get("RENDER_PROCESSES"))
        pictures = (get("TABLE_PICTURES") or "auto").lower()
        if pictures not in ("auto", "turn", "street"):
            raise SettingsError(
                f"TABLE_PICTURES must be auto, turn or street, got {pictures!r}")
        try:
            shards = ShardRange.parse(get("SHARD_COUNT"), get("SHARD_IDS"))
        except ShardError as error:
            raise SettingsError(str(error)) from None
        database_url = _database_url(get("DATABASE_URL"))
        per_member = _count("TABLES_PER_MEMBER", get("TABLES_PER_MEMBER"),
                            DEFAULT_TABLES_PER_MEMBER, 100)
        per_server = _count("TABLES_PER_SERVER", get("TABLES_PER_SERVER"),
                            DEFAULT_TABLES_PER_SERVER, 100_000)
        cooldown = _seconds("COMMAND_COOLDOWN", get("COMMAND_COOLDOWN"),
                            DEFAULT_COMMAND_COOLDOWN)
        return cls(
            token=Secret(token),
            database_path=database,
            dev_guild_id=dev_guild,
            api_base=api_base,
            gateway_url=gateway,
            log_level=level,
            render_processes=renderers,
            table_pictures=pictures,
            shards=shards,
            database_url=database_url,
            database_timeout=_seconds("DATABASE_TIMEOUT", get("DATABASE_TIMEOUT"),
                                      DEFAULT_DATABASE_TIMEOUT),
            deck_key_path=get("DECK_KEY_PATH"),
            tables_per_member=per_member,
            tables_per_server=per_server,
            command_cooldown=cooldown,
            log_format=_choice("LOG_FORMAT", get("LOG_FORMAT"), LOG_FORMATS),
            metrics_port=_port(get("METRICS_PORT")),
            metrics_host=get("METRICS_HOST") or DEFAULT_METRICS_HOST,
            backup_every=_duration("BACKUP_EVERY", get("BACKUP_EVERY")),
            backup_keep=_keep("BACKUP_KEEP", get("BACKUP_KEEP"), DEFAULT_BACKUP_KEEP, 1000),
            backup_dir=get("BACKUP_DIR"),
        )

    @classmethod
    def load(
        cls,
        environ: Mapping[str, str] | None = None,
        env_file: str | os.PathLike[str] | None = ENV_FILE,
        *,
        require_token: bool = True,
    ) -> Settings:
        """Read the environment, filled in from ``env_file`` when it exists.

        Raises :class:`MissingToken` without a token (unless ``require_token``
        is false) and :class:`SettingsError` for a value that cannot be used.
        """
        merged: dict[str, str] = {}
        if env_file is not None:
            path = Path(env_file)
            if path.is_file():
                merged.update(parse_env_file(path.read_text(encoding="utf-8")))
        env = os.environ if environ is None else environ
        merged.update({k: v for k, v in env.items() if v.strip()})
        try:
            return cls.from_mapping(merged, require_token=require_token)
        except MissingToken:
            if env_file is None:
                raise
            raise MissingToken(env_file) from None

    @property
    def uses_real_discord(self) -> bool:
        """True when both endpoints are Discord's own."""
        return self.api_base == DEFAULT_API_BASE and self.gateway_url == DEFAULT_GATEWAY_URL
