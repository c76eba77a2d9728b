"""``python -m bot demo [DIR]``: a whole game among simulated players, offline.

The real bot (``OmahaDealer`` with the table cog) runs against the offline
Discord the tests use (simcord, driven through ``tests.conftest.Harness``):
four members open a Pot-Limit Omaha table, sit down, and play a few hands by
clicking the turn buttons and typing commands (one of them lets the clock
run out once). Everything lands in ``DIR`` (default ``demo-output``):

* ``transcript.md``: the channel as everybody saw it (final contents of
  edited messages), each player's DMs, and what each player did with the
  private answers they got;
* ``images/NNN-<name>.png``: every picture the bot posted, in order.

Needs the test dependencies (``pip install -e '.[test]'``) and must be run
from the repository (it uses the tests' harness).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PAUSE = 10.0
PLAYERS = ("alice", "bob", "carol", "dave")


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot demo", description="Play a game among simulated players offline."
    )
    parser.add_argument("dir", nargs="?", default="demo-output", help="output folder")
    parser.add_argument("--hands", type=int, default=5, help="hands to play (default 5)")
    parser.add_argument("--seed", type=int, default=2026, help="seed for the cards and players")
    args = parser.parse_args(list(argv))
    if not 1 <= args.hands <= 200:
        print("error: --hands must be 1 to 200", file=sys.stderr)
        return 2
    try:
        import simcord  # noqa: F401

        from tests.conftest import Harness  # noqa: F401
    except ImportError as exc:
        print(
            f"error: the demo needs the test dependencies and the repository's tests ({exc}); "
            "run it from the repository after pip install -e '.[test]'",
            file=sys.stderr,
        )
        return 2
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = asyncio.run(_play(out, args.hands, args.seed))
    print(summary)
    return 0


async def _play(out: Path, hands: int, seed: int) -> str:
    import simcord

    from bot.client import OmahaDealer
    from bot.settings import Secret, Settings
    from tests.conftest import FakeWallClock, Harness, buttons_of

    images = out / "images"
    images.mkdir(exist_ok=True)
    for old in images.glob("*.png"):
        old.unlink()
    counter = [0]

    def keep(name: str, png: bytes) -> None:
        counter[0] += 1
        (images / f"{counter[0]:03d}-{name}").write_bytes(png)

    rng = random.Random(seed)
    actions: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(token=Secret("demo-token"), database_path=str(Path(tmp) / "demo.db"))
        bot = OmahaDealer(settings, extensions=("cogs.errors", "cogs.economy", "cogs.table"))
        async with simcord.run(bot) as env:
            clock = FakeWallClock()
            bot.db.clock = clock
            h = Harness(env, clock)
            assert bot.registry is not None
            bot.registry.pause = PAUSE
            bot.registry.rng = random.Random(seed)
            cog: Any = bot.get_cog("Tables")
            cog.presenter.image_sink = keep
            members = [h.members[name] for name in PLAYERS]

            async def say(actor: Any, command: str, **options: Any) -> None:
                reply = await h.slash(actor, command, **options)
                shown = " ".join(f"{k}:{v}" for k, v in options.items())
                typed = f"/{command} {shown}".strip()
                actions.append(f"- **{actor.name}** `{typed}`")
                private = " (only to them)" if reply.ephemeral else ""
                actions.append(f"  - bot{private}: {reply.text}")

            await say(members[0], "table create", seats=4)
            for i, actor in enumerate(members):
                await say(actor, "table join", buyin=str(200 - 30 * i))
            await h.advance(PAUSE + 0.1)
            timed_out = False
            played = 0
            for _ in range(hands * 40):
                table = bot.registry.find(h.channel.id)
                if table is None:
                    break
                if table.current is None:
                    played += 1
                    if played >= hands:
                        break
                    for s in list(table.seats.values()):
                        if s.stack == 0:
                            actor = next(m for m in members if m.id == s.user_id)
                            await say(actor, "table topup", amount="100")
                            await say(actor, "table sitin")
                    await h.advance(PAUSE + 0.1)
                    continue
                turn = next(
                    (m for m in reversed(h.public_messages())
                     if any(b.label == "Fold" for b in buttons_of(m))),
                    None,
                )
                if turn is None:
                    await h.settle()
                    continue
                actor = next(m for m in members if f"<@{m.id}>" in turn.content)
                if not timed_out and played == 1:
                    timed_out = True
                    actions.append(f"- **{actor.name}** is away: the clock runs out")
                    await h.advance(table.config.clock + table.config.time_bank + 1)
                    continue
                labels = [str(b.label) for b in buttons_of(turn)]
                roll = rng.random()
                raises = [x for x in labels if "·" in x]
                if roll < 0.12 and not any(x == "Check" for x in labels):
                    label = "Fold"
                elif roll < 0.3 and raises:
                    label = rng.choice(raises)
                elif roll < 0.35 and table.current.hand.street.value == "preflop":
                    await say(actor, "cards")
                    continue
                else:
                    label = "Check" if "Check" in labels else next(
                        x for x in labels if x.startswith("Call")
                    )
                reply = await h.click(actor, turn, label=label)
                actions.append(f"- **{actor.name}** clicks *{label}*")
                actions.append(f"  - bot (only to them): {reply.text}")
            await say(members[0], "table close")
            await h.settle()
            transcript = _transcript(h, members, actions)
            await h.audit()
    (out / "transcript.md").write_text(transcript, encoding="utf-8")
    return (
        f"Played {played} hands; wrote {out / 'transcript.md'} and {counter[0]} images "
        f"in {images}."
    )


def _transcript(h: Any, members: list[Any], actions: list[str]) -> str:
    lines = ["# Omaha Dealer demo", "", "## The channel #poker (as everybody sees it)", ""]
    for m in h.public_messages():
        files = ", ".join(a.filename for a in m.attachments)
        lines.append(f"**{m.author.name}**: " + m.content.replace("\n", "  \n"))
        if files:
            lines.append(f"  *(attached: {files})*")
        lines.append("")
    for actor in members:
        lines += [f"## {actor.name}'s direct messages", ""]
        for m in h.dms(actor):
            files = ", ".join(a.filename for a in m.attachments)
            lines.append(f"- {m.content}" + (f" *(attached: {files})*" if files else ""))
        lines.append("")
    lines += ["## What the players did", "", *actions, ""]
    return "\n".join(lines)
