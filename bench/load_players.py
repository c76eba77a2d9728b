"""The load benchmark's players and what they measure (``bench/bench_load.py``).

Each turn prompt (a new message mentioning the player, with a Fold button) is
answered by that player after a think time: by a click on the prompt's button
(``buttons``) or by the slash command of the same action (``commands``:
``/check``, ``/call``, ``/fold``). :class:`Steady` holds the figures of steady
play; :func:`routes` counts the requests the bot made by route.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord import FakeDiscord, Message
from tests.fakediscord.payloads import LOADING
from tests.fakediscord.server import FakeDiscordError

MENTION = re.compile(r"<@(\d+)>")
HAND_NO = re.compile(r"Hand #(\d+)")
#: How the players act.
MODES = ("buttons", "commands")


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``values`` (nearest rank), 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def stage(content: str) -> str:
    """A live message's header without its pot: the hand and its street."""
    return content.split("\n", 1)[0].split(" · pot ", 1)[0]


def hand_no(content: str) -> str:
    """The hand number in a live message's header ("" when there is none)."""
    found = HAND_NO.search(content)
    return found[1] if found else ""


def accepted(it: Any) -> bool:
    """The bot took the action: a click deferred as an update of its message (type 6), or
    a command deferred (type 5) whose private answer became the confirmation ("Done: ...")."""
    if it.callback_type == 6:
        return True
    original = it.original if it.callback_type == 5 else None
    return original is not None and original.content.startswith("Done:")


def route_of(method: str, path: str, tables: set[int]) -> str:
    """The kind of route of one request: interaction callback, interaction webhook
    (followups, ``@original``), a table's channel (by method), a DM, or anything else."""
    if path.startswith("/interactions/"):
        return "callback"
    if path.startswith("/webhooks/"):
        return "webhook"
    found = re.match(r"/channels/(\d+)/", path)
    if found:
        return f"table channel {method}" if int(found[1]) in tables else "DM"
    return "DM" if path == "/users/@me/channels" else f"other {method}"


def routes(requests: list[tuple[str, str]], tables: set[int]) -> Counter[str]:
    """Requests counted by :func:`route_of`."""
    return Counter(route_of(method, path, tables) for method, path in requests)


@dataclass
class Steady:
    seconds: float = 0.0
    actions: int = 0
    stale: int = 0
    acks: list[float] = field(default_factory=list)
    prompts: list[float] = field(default_factory=list)
    between_hands: int = 0  # actions that ended a hand: the next prompt follows the bot's pause
    thinks: list[float] = field(default_factory=list)
    rate_limited: int = 0
    prompts_seen: int = 0  # turn prompts posted while measuring
    new_pictures: int = 0  # of those, prompts whose picture differs from the table's last
    bare: int = 0  # of those, prompts without a picture (auto, far behind)
    #: action-to-prompt times of prompts not carried by the action (the channel's routes,
    #: paced under the global limit): a slow tail there is the global budget's queue
    channel_prompts: list[float] = field(default_factory=list)
    #: action-to-prompt times of the prompts that open a new street
    street_prompts: list[float] = field(default_factory=list)
    #: requests made while measuring, by route (:func:`routes`)
    by_route: Counter[str] = field(default_factory=Counter)

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def pace(self) -> float:
        think = statistics.fmean(self.thinks) if self.thinks else 0.0
        wait = statistics.fmean(self.prompts) if self.prompts else 0.0
        return think / (think + wait) if think + wait else 0.0

    def per_action(self) -> str:
        """Requests per accepted action, by route."""
        if not self.actions:
            return "no action"
        return ", ".join(f"{kind} {n / self.actions:.2f}"
                         for kind, n in sorted(self.by_route.items()))


class Players:
    """The simulated players of every table: they answer each turn prompt after a think
    time, by button or by slash command (``mode``)."""

    def __init__(self, fd: FakeDiscord, think: float, seed: int, mode: str = "buttons") -> None:
        self.fd = fd
        self.think = think
        self.mode = mode
        self.rng = random.Random(seed)
        self.users = {u.id: u for u in fd.users.values()}
        # channel id -> (when the last action was sent, the hand number and street it was in)
        self.pending: dict[int, tuple[float, str, str]] = {}
        self.clicks: list[Any] = []  # the actions' interactions (clicks or commands)
        self.sent: list[Any] = []  # every action's interaction, measured or not
        self.result = Steady()
        self.measuring = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.last_picture: dict[int, bytes] = {}  # channel id -> its last prompt's picture

    def prompt(self, message: Message) -> None:
        now = asyncio.get_running_loop().time()
        self.count_picture(message)
        sent = self.pending.pop(message.channel_id, None)
        if sent is not None and self.measuring:
            if sent[1] == hand_no(message.content):
                self.result.prompts.append(now - sent[0])
                if message.interaction_id is None:  # posted by the channel's routes
                    self.result.channel_prompts.append(now - sent[0])
                if sent[2] != stage(message.content):  # the action ended a street
                    self.result.street_prompts.append(now - sent[0])
            else:  # the action ended its hand: the wait is the bot's pause between hands
                self.result.between_hands += 1
        found = MENTION.search(message.content)
        if found is None:
            return
        task = asyncio.get_running_loop().create_task(self.act(message, int(found[1])))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def count_picture(self, message: Message) -> None:
        """Whether this prompt's table picture is new (``auto``/``street`` reuse one)."""
        if not message.attachments:
            self.result.prompts_seen += self.measuring
            self.result.bare += self.measuring
            return
        picture = hashlib.sha256(message.attachments[0].data).digest()
        last, self.last_picture[message.channel_id] = (
            self.last_picture.get(message.channel_id), picture)
        if self.measuring:
            self.result.prompts_seen += 1
            self.result.new_pictures += picture != last

    def choose(self, message: Message) -> str:
        """Check if possible, else Call (Fold one time in six): a button's label."""
        labels = [b.get("label") or "" for b in message.buttons()]
        label = "Check" if "Check" in labels else next(
            (x for x in labels if x.startswith("Call")), "Fold")
        if label != "Check" and self.rng.random() < 1 / 6:
            label = "Fold"
        return label

    async def act(self, message: Message, user_id: int) -> None:
        think = self.think * self.rng.uniform(0.5, 1.5)
        await asyncio.sleep(think)
        if message.deleted:
            return  # replaced by a newer prompt meanwhile
        label, user = self.choose(message), self.users[user_id]
        try:
            if self.mode == "commands":
                command = label.split()[0].lower()  # "Call 2" -> /call
                channel = self.fd.channels[message.channel_id]
                it = await self.fd.slash(user, channel, command)
            else:
                it = await self.fd.click(user, message, label=label)
        except Exception:
            return  # the bot shut down, or the message lost its buttons
        self.sent.append(it)
        self.pending[message.channel_id] = (
            it.dispatched_at, hand_no(message.content), stage(message.content))
        if self.measuring:
            self.result.thinks.append(think)
            self.clicks.append(it)

    async def drain(self, within: float) -> None:
        """Wait (at most ``within`` seconds) until every action sent was answered, a command's
        private answer included: the bot is not stopped with actions half done."""
        def done(it: Any) -> bool:
            original = it.original
            return it.answered_at is not None and (
                original is None or not original.flags & LOADING)

        with contextlib.suppress(FakeDiscordError):  # some never were: the bot is stopped
            await self.fd.wait_until(lambda: all(done(it) for it in self.sent), within,
                                     what="the last actions' answers")

    def close(self, seconds: float) -> Steady:
        """The figures so far (counted afresh: called again after the last answers)."""
        result = self.result
        result.seconds = seconds
        result.actions = result.stale = 0
        result.acks = []
        for it in self.clicks:
            if it.answer_time is None:
                continue
            result.acks.append(it.answer_time)
            if accepted(it):
                result.actions += 1
            else:
                result.stale += 1
        return result


__all__ = ["MODES", "Players", "Steady", "accepted", "hand_no", "pct", "route_of", "routes",
           "stage"]
