"""``python -m bot``: run the bot, or one of its subcommands.

    python -m bot                 run the bot (needs DISCORD_TOKEN)
    python -m bot replay PATH...  replay PHH hand histories, one JSON line per hand
    python -m bot verify FILE     check a hand history and its deal proof
    python -m bot migrate         apply the database migrations
    python -m bot audit           prove that no chip was created or lost
    python -m bot migrate-to URL  copy the SQLite database into an empty PostgreSQL one
    python -m bot backup FILE     a consistent, audited copy of the live SQLite database
    python -m bot restore FILE    put a backup into an empty DATABASE_PATH
    python -m bot sync [--guild ID] [--clear]
                                  sync (or clear) the slash commands now
    python -m bot demo [DIR]      play a game among simulated players offline

Each subcommand lives in its own module and is imported only when asked for,
so ``replay`` works without discord.py being importable.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence


def _replay(argv: Sequence[str]) -> int:
    from bot import replay

    return replay.main(argv)


def _verify(argv: Sequence[str]) -> int:
    from bot import verify

    return verify.main(argv)


def _migrate(argv: Sequence[str]) -> int:
    from bot.storage import cli

    return cli.main(["migrate", *argv])


def _audit(argv: Sequence[str]) -> int:
    from bot.storage import cli

    return cli.main(["audit", *argv])


def _migrate_to(argv: Sequence[str]) -> int:
    from bot.storage import cli

    return cli.main(["migrate-to", *argv])


def _backup(argv: Sequence[str]) -> int:
    from bot.storage import cli

    return cli.main(["backup", *argv])


def _restore(argv: Sequence[str]) -> int:
    from bot.storage import cli

    return cli.main(["restore", *argv])


def _sync(argv: Sequence[str]) -> int:
    from bot import sync

    return sync.main(argv)


def _demo(argv: Sequence[str]) -> int:
    from bot import demo

    return demo.main(argv)


def _run_bot(argv: Sequence[str]) -> int:
    from bot import client
    from bot.engine.evaluate import warm_tables

    warm_tables()  # 0.3 s and 15 MB now, not a little more with each new board all night
    return client.main(argv)


COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "replay": _replay,
    "verify": _verify,
    "migrate": _migrate,
    "audit": _audit,
    "migrate-to": _migrate_to,
    "backup": _backup,
    "restore": _restore,
    "sync": _sync,
    "demo": _demo,
    "run": _run_bot,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if args and args[0] in COMMANDS:
        return COMMANDS[args[0]](args[1:])
    if args and not args[0].startswith("-"):
        print(f"unknown command {args[0]!r}; try: python -m bot --help", file=sys.stderr)
        return 2
    return _run_bot(args)


def _main_quietly() -> int:
    try:
        return main()
    except BrokenPipeError:
        # The reader went away (``python -m bot replay ... | head``): stop quietly.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(_main_quietly())
