"""``python -m bot demo [DIR]``: a whole game among simulated players, offline.

The real bot (``OmahaDealer`` with the table cog) runs against the offline
Discord the tests use (simcord, driven through :mod:`bot.offline`): four
members open a Pot-Limit Omaha table, sit down, and play a few hands by
clicking the turn buttons and typing commands (one of them lets the clock
run out once). Everything lands in ``DIR`` (default ``demo-output``):

* ``transcript.md``: the channel as everybody saw it (final contents of
  edited messages), each player's DMs, and what each player did with the
  private answers they got;
* ``images/NNN-<name>.png``: every picture the bot posted, in order.

It runs from a plain install (``pip install .``, also ``omaha-dealer demo``),
anywhere: the offline Discord ships in :mod:`bot.offline`, and simcord is a
regular dependency pinned to an exact version (why: :mod:`bot.offline`).
When the game is over the bot is closed (tables stopped, database closed) and
the command returns, exit status 0.

This module imports no discord.py and no simcord itself (only ``cogs/``,
``bot/client.py`` and ``bot/__main__.py`` may); it scripts the players.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.offline.harness import Actor, Harness, Message
    from bot.runtime.table.live import Table

PAUSE = 10.0
PLAYERS = ("alice", "bob", "carol", "dave")
EXTENSIONS = ("cogs.errors", "cogs.economy", "cogs.table", "cogs.actions")


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
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = asyncio.run(_play(out, args.hands, args.seed))
    print(summary)
    return 0


async def _play(out: Path, hands: int, seed: int) -> str:
    """Play ``hands`` hands offline; write the transcript and images into ``out``."""
    from bot.client import OmahaDealer
    from bot.offline.harness import offline
    from bot.settings import Secret, Settings

    images = _ImageFolder(out / "images")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(token=Secret("demo-token"), database_path=str(Path(tmp) / "demo.db"))
        bot = OmahaDealer(settings, extensions=EXTENSIONS)
        async with offline(bot) as h:
            game = _Game(h, random.Random(seed))
            game.configure(seed, images.keep)
            await game.open_table()
            played = await game.play(hands)
            await game.close_table()
            transcript = _transcript(h, game.members, game.actions)
            sent = _channel_requests(h)
            await h.audit()
    (out / "transcript.md").write_text(transcript, encoding="utf-8")
    return (
        f"Played {played} hands; wrote {out / 'transcript.md'} and {images.count} images "
        f"in {images.folder}. To the channel: {sent}."
    )


def _channel_requests(h: Any) -> str:
    """``"31 posts, 0 edits, 28 deletes; the longest text 612 characters"``: the requests
    the bot sent to the table's channel, and the longest message content among them."""
    path = f"/channels/{h.channel.id}/messages"
    count = {m: len(h.requests(m, path)) for m in ("POST", "PATCH", "DELETE")}
    longest = max(
        (len(r.json.get("content") or "") for r in h.requests(None, path)
         if isinstance(r.json, dict)),
        default=0,
    )
    return (
        f"{count['POST']} posts, {count['PATCH']} edits, {count['DELETE']} deletes; "
        f"the longest text {longest:,} characters"
    )


class _ImageFolder:
    """Numbers and saves every picture the bot posts (old pictures are removed first)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        folder.mkdir(exist_ok=True)
        for old in folder.glob("*.png"):
            old.unlink()

    def keep(self, name: str, png: bytes) -> None:
        self.count += 1
        (self.folder / f"{self.count:03d}-{name}").write_bytes(png)


class _Game:
    """Four simulated players at one table, and the log of what they did."""

    def __init__(self, h: Harness, rng: random.Random) -> None:
        self.h = h
        self.rng = rng
        self.members = [h.members[name] for name in PLAYERS]
        self.actions: list[str] = []
        self.played = 0
        self.timed_out = False

    def configure(self, seed: int, image_sink: Callable[[str, bytes], None]) -> None:
        """Short pauses between hands, seeded decks, and every picture kept."""
        registry = self.h.bot.registry
        assert registry is not None
        registry.pause = PAUSE
        registry.rng = random.Random(seed)
        cog: Any = self.h.bot.get_cog("Tables")
        cog.presenter.image_sink = image_sink
        cog.presenter.runout_pause = 0.0  # the transcript, not the pacing, is what counts

    # -- the phases of the game ----------------------------------------------------
    async def open_table(self) -> None:
        """The first player opens a 4-seat table, everybody buys in, the first hand is dealt."""
        await self.say(self.members[0], "table create", seats=4)
        for i, actor in enumerate(self.members):
            await self.say(actor, "table join", buyin=str(200 - 30 * i))
        await self.h.advance(PAUSE + 0.1)

    async def play(self, hands: int) -> int:
        """Play until ``hands`` hands are over (or the table is gone); the number played."""
        for _ in range(hands * 40):
            table = self.table()
            if table is None:
                break
            if table.current is None:
                self.played += 1
                if self.played >= hands:
                    break
                await self.between_hands(table)
            else:
                await self.take_turn(table)
        return self.played

    async def between_hands(self, table: Table) -> None:
        """Busted players top up and sit in again; then the next hand is dealt."""
        for seat in list(table.seats.values()):
            if seat.stack == 0:
                actor = next(m for m in self.members if m.id == seat.user_id)
                await self.say(actor, "table topup", amount="100")
                await self.say(actor, "table sitin")
        await self.h.advance(PAUSE + 0.1)

    async def take_turn(self, table: Table) -> None:
        """The player whose turn it is acts (once, in the second hand, they are away)."""
        turn = self.turn_message()
        if turn is None:
            await self.h.settle()
            return
        actor = next(m for m in self.members if f"<@{m.id}>" in turn.content)
        if not self.timed_out and self.played == 1:
            self.timed_out = True
            self.actions.append(f"- **{actor.name}** is away: the clock runs out")
            await self.h.advance(table.config.clock + table.config.time_bank + 1)
            return
        assert table.current is not None
        labels = [str(b.label) for b in _buttons(turn)]
        label = self.choose(labels, preflop=table.current.hand.street.value == "preflop")
        if label is None:
            await self.say(actor, "cards")
            return
        reply = await self.h.click(actor, turn, label=label)
        self.actions.append(f"- **{actor.name}** clicks *{label}*")
        answer = "(the table's message shows it)" if reply.silent else reply.all_text
        self.actions.append(f"  - bot (only to them): {answer}")

    async def close_table(self) -> None:
        await self.say(self.members[0], "table close")
        await self.h.settle()

    # -- the players ---------------------------------------------------------------
    def choose(self, labels: list[str], *, preflop: bool) -> str | None:
        """A button to click, at random but sensibly; None: look at the cards again."""
        roll = self.rng.random()
        raises = [x for x in labels if "·" in x]
        if roll < 0.12 and "Check" not in labels:
            return "Fold"
        if roll < 0.3 and raises:
            return self.rng.choice(raises)
        if roll < 0.35 and preflop:
            return None
        if "Check" in labels:
            return "Check"
        return next(x for x in labels if x.startswith("Call"))

    async def say(self, actor: Actor, command: str, **options: Any) -> None:
        """``actor`` types ``/command``; the command and the bot's answer go in the log."""
        reply = await self.h.slash(actor, command, **options)
        shown = " ".join(f"{k}:{v}" for k, v in options.items())
        typed = f"/{command} {shown}".strip()
        self.actions.append(f"- **{actor.name}** `{typed}`")
        private = " (only to them)" if reply.ephemeral else ""
        self.actions.append(f"  - bot{private}: {reply.text}")

    # -- reading the channel -------------------------------------------------------
    def table(self) -> Table | None:
        registry = self.h.bot.registry
        return registry.find(self.h.channel.id) if registry is not None else None

    def turn_message(self) -> Message | None:
        """The newest public message with a Fold button: whose turn it is."""
        return next(
            (m for m in reversed(self.h.public_messages())
             if any(b.label == "Fold" for b in _buttons(m))),
            None,
        )


def _buttons(message: Message) -> list[Any]:
    from bot.offline.harness import buttons_of

    return list(buttons_of(message))


def _transcript(h: Harness, members: list[Actor], actions: list[str]) -> str:
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
