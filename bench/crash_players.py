"""The kill harness's players and what they were told (``bench/bench_crashes.py``).

:class:`CrashDiscord` is the fake Discord keeping every version of every public
message (what the players were told) and calling the players on each new turn
prompt. :class:`Crowd` answers each prompt after a think time, by a click on its
button or by the slash command, and keeps every action it sent with the hand and
the player it was for: an action is *sent* once the fake dispatched it to a live
bot, *acknowledged* once the bot told the player it was taken (a command's private
``Done: ...``; a click's followup, the table's next live message posted through the
click's token).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from tests.fakediscord import FakeDiscord, Message
from tests.fakediscord.payloads import EPHEMERAL
from tests.fakediscord.server import Interaction

MENTION = re.compile(r"<@(\d+)>")
HAND_NO = re.compile(r"\*\*Hand #(\d+)\*\*")

__all__ = ["CrashDiscord", "Crowd", "Sent", "Version", "is_prompt"]


def is_prompt(message: Message) -> bool:
    """A live message calling a player to act (a mention, a Fold button)."""
    return "your turn" in message.content and any(
        b.get("label") == "Fold" for b in message.buttons())


@dataclass(frozen=True)
class Version:
    """One state of a public message in a guild channel: as posted, or after an edit."""

    channel_id: int
    message_id: int
    content: str


class CrashDiscord(FakeDiscord):
    """The fake Discord, keeping every public message's versions and telling
    :attr:`on_prompt` about every new turn prompt."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.versions: list[Version] = []
        self.on_prompt: Any = None

    def _record(self, message: Message) -> None:
        channel = self.channels[message.channel_id]
        if channel.guild_id is not None and not message.flags & EPHEMERAL:
            self.versions.append(Version(message.channel_id, message.id, message.content))

    def _new_message(self, *args: Any, **kwargs: Any) -> Message:
        message = super()._new_message(*args, **kwargs)
        self._record(message)
        if self.on_prompt is not None and is_prompt(message):
            self.on_prompt(message)
        return message

    def _edit(self, *args: Any, **kwargs: Any) -> Message:
        message = super()._edit(*args, **kwargs)
        self._record(message)
        return message


@dataclass
class Sent:
    """One action sent to the bot: the hand (its channel and number) and the player."""

    channel_id: int
    hand_no: int
    user_id: int
    it: Interaction

    @property
    def acknowledged(self) -> bool:
        it = self.it
        if it.type == 2:  # a slash command: its private original says "Done: ..."
            return it.original is not None and it.original.content.startswith("Done:")
        return it.callback_type == 6 and bool(it.followups)


class Crowd:
    """Every table's players. Cash players check when they can, else call (fold one time
    in six); players in ``shovers`` (a tournament's channels) go all-in when they can.
    One action in two is a click, the other a slash command."""

    def __init__(self, fd: CrashDiscord, think: float, seed: int,
                 shovers: set[int] | None = None) -> None:
        self.fd = fd
        self.think = think
        self.rng = random.Random(seed)
        self.shovers = shovers if shovers is not None else set()
        self.sent: list[Sent] = []
        self.refused_dispatch = 0  # actions the fake could not deliver: the bot was down
        self.tasks: set[asyncio.Task[None]] = set()

    def prompt(self, message: Message) -> None:
        found = MENTION.search(message.content)
        hand = HAND_NO.search(message.content)
        if found is None or hand is None:
            return
        task = asyncio.get_running_loop().create_task(
            self.act(message, int(found[1]), int(hand[1])))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def choose(self, message: Message) -> str:
        labels = [b.get("label") or "" for b in message.buttons()]
        if message.channel_id in self.shovers:
            shove = next((x for x in labels if x.startswith(("All-in", "Call"))), None)
            return shove or ("Check" if "Check" in labels else "Fold")
        label = "Check" if "Check" in labels else next(
            (x for x in labels if x.startswith("Call")), "Fold")
        if label != "Check" and self.rng.random() < 1 / 6:
            label = "Fold"
        return label

    async def act(self, message: Message, user_id: int, hand_no: int) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        if message.deleted:
            return  # replaced by a newer prompt meanwhile
        label, user = self.choose(message), self.fd.users[user_id]
        command = label.split()[0].lower()
        try:
            if command in ("check", "call", "fold") and self.rng.random() < 0.5:
                it = await self.fd.slash(user, self.fd.channels[message.channel_id], command)
            else:
                it = await self.fd.click(user, message, label=label)
        except Exception:  # the bot is down or dying, or the buttons are gone
            self.refused_dispatch += 1
            return
        self.sent.append(Sent(message.channel_id, hand_no, user_id, it))

    def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()

    def counts(self) -> tuple[Counter[tuple[int, int, int]], Counter[tuple[int, int, int]]]:
        """Actions sent and acknowledged, by (channel, hand number, user)."""
        sent: Counter[tuple[int, int, int]] = Counter()
        acked: Counter[tuple[int, int, int]] = Counter()
        for s in self.sent:
            key = (s.channel_id, s.hand_no, s.user_id)
            sent[key] += 1
            acked[key] += s.acknowledged
        return sent, acked
