"""`python -m bot`, unchanged, plays a whole hand over the fake Discord on 127.0.0.1.

Three players sit at a pot-limit Omaha table (blinds 1/2, buy-in 200 each) and
play hand #1 to a showdown through slash commands, turn buttons and the raise
form. Checked: every player's DM carries a real PNG of their cards; no public
channel message (nor any version of an edited one) shows a hole card before the
showdown, and the folded hand never; the channel gets the table picture, the
showdown picture and the result; balances plus stacks always make 3 x the
starting balance (``/balance``, ``/table info`` and ``python -m bot audit``),
and after everyone leaves every chip is back in the balances. During play every
request to the table's channel takes 350 ms: each action is still answered within
Discord's 3 seconds, and the channel gets at most 2 requests per action (the request
budget of issue 9).

Seats by role (3-handed): the button acts first before the flop, then the small
blind (SB) and the big blind (BB); after the flop the SB acts first. The script::

    preflop  BTN /call 2        SB  [Call 1]          BB  [Check]
    flop     SB  /check         BB  /bet 4            BTN /raise to 12
             SB  [Fold]         BB  [Call 8]
    turn     BB  /check         BTN [Check]
    river    BB  [Bet…] form 15 BTN [Call 15]          showdown BTN vs BB, pot 60
"""

from __future__ import annotations

import asyncio
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from tests.card_text import WRITTEN, shorthand
from tests.fakediscord import BotProcess, Channel, FakeDiscord, Message, User
from tests.fakediscord.payloads import EPHEMERAL
from tests.fakediscord.process import REPO
from tests.fakediscord.server import Interaction

PNG = b"\x89PNG\r\n\x1a\n"
DEADLINE = 3.0  # Discord's deadline for the first answer to an interaction
ROUND_TRIP = 0.35  # seconds added to every request to the table's channel during play
BUYIN = 200
CARD = WRITTEN  # cards in text read K♠ 10♥ (bot.i18n.cards.written)
CARD_RUN = re.compile(rf"(?<![A-Za-z0-9]){CARD}(?:\s+{CARD}){{3,}}(?![A-Za-z0-9])")
CARD_TOKEN = re.compile(rf"(?<![A-Za-z0-9])({CARD})(?![A-Za-z0-9])")


@dataclass(frozen=True)
class Version:
    """One state of a public channel message: as posted, or after an edit."""

    message_id: int
    content: str


class RecordingDiscord(FakeDiscord):
    """The fake Discord, also keeping every version of every public guild message."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.versions: list[Version] = []

    def _record(self, message: Message) -> None:
        channel = self.channels[message.channel_id]
        if channel.guild_id is not None and not message.flags & EPHEMERAL:
            self.versions.append(Version(message.id, message.content))

    def _new_message(self, *args: Any, **kwargs: Any) -> Message:
        message = super()._new_message(*args, **kwargs)
        self._record(message)
        return message

    def _edit(self, *args: Any, **kwargs: Any) -> Message:
        message = super()._edit(*args, **kwargs)
        self._record(message)
        return message


def png_size(data: bytes) -> tuple[int, int]:
    """The size of a real PNG (signature checked, Pillow decodes it)."""
    assert data.startswith(PNG)
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        image.load()
        return image.size


def chips(text: str) -> int:
    return int(text.replace(",", ""))


async def audit(database: str) -> str:
    """``python -m bot audit`` on the database; asserts it exits 0 (every chip accounted)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "audit", "--db", database, cwd=REPO,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    assert proc.returncode == 0, out.decode()
    return out.decode()


async def silent(it: Interaction) -> None:
    """The bot acknowledged a click or form as a deferred update: nothing private to the
    player; its only followup, if any, is the table's next live message (public, with the
    turn's buttons), posted through the click's token (bot/adapter/hooks.py)."""
    await it.answer()
    await asyncio.sleep(0.2)  # a followup, if the bot wrongly sent one, would arrive by now
    assert it.callback_type == 6 and it.original is None, (it.callback_type, it.messages)
    assert len(it.followups) <= 1, it.followups
    for m in it.followups:
        assert not m.ephemeral and m.buttons() and "your turn" in m.content, m.content


def table_requests(fd: FakeDiscord, channel: Channel, first: int) -> list[tuple[str, str]]:
    """Requests to the table's channel and through its clicks' and forms' tokens (not the
    slash commands' private answers) since request number ``first``."""
    tokens = {it.token for it in fd.interactions.values() if it.type in (3, 5)}
    return [
        r for r in fd.requests[first:]
        if f"/channels/{channel.id}/" in r[1]
        or (r[1].startswith("/webhooks/") and r[1].split("/")[3] in tokens)
    ]


class Players:
    """Drives the table as its three players would, turn by turn."""

    def __init__(self, fd: RecordingDiscord, channel: Channel, users: list[User]) -> None:
        self.fd = fd
        self.channel = channel
        self.users = users
        self.last_turn_id = 0
        self.role: dict[str, User] = {}
        self.actions: list[Interaction] = []

    async def balance(self, user: User) -> int:
        reply = await (await self.fd.slash(user, self.channel, "balance")).reply()
        found = re.fullmatch(r"You have ([\d,]+) chips\.", reply.content)
        assert found, reply.content
        return chips(found[1])

    async def stacks(self) -> dict[str, int]:
        info = await (await self.fd.slash(self.users[0], self.channel, "table info")).reply()
        assert info.ephemeral
        found = dict(re.findall(r"Seat \d+: (\w+) · ([\d,]+) chips", info.content))
        return {name: chips(n) for name, n in found.items()}

    async def next_turn(self) -> tuple[User, Message]:
        """The next turn message (newer than the last one handled) and who it calls on."""

        def find() -> Message | None:
            return next((
                m for m in self.fd.channel_messages(self.channel)
                if m.id > self.last_turn_id and "your turn" in m.content
                and any(b.get("label") == "Fold" for b in m.buttons())
            ), None)

        turn: Message = await self.fd.wait_until(find, 15, what="the next turn message")
        self.last_turn_id = turn.id
        (actor,) = [u for u in self.users if u.mention in turn.content]
        return actor, turn

    async def act(self, role: str, how: str, *, expect: str, **options: Any) -> Message:
        """The player in ``role`` acts on their turn: ``/cmd`` or a ``[label]`` click."""
        actor, turn = await self.next_turn()
        if role in self.role:
            assert actor is self.role[role], f"{actor.name} is called on, expected the {role}"
        else:
            self.role[role] = actor
        if how.startswith("/"):
            it = await self.fd.slash(actor, self.channel, how[1:], **options)
            reply = await it.reply()
            assert reply.ephemeral and reply.content == f"Done: {expect}.", reply.content
        else:  # a click is acknowledged silently: the table's message shows what it did
            it = await self.fd.click(actor, turn, label=how)
            await silent(it)
        self.actions.append(it)
        return turn


async def test_three_players_play_a_hand_to_showdown_over_the_wire(tmp_path: Path) -> None:
    """A real process deals a hand to three players who play it to showdown; no chip moves."""
    async with RecordingDiscord() as fd:
        guild = fd.add_guild("Poker Club")
        poker = fd.add_channel(guild, "poker")
        users = [fd.add_member(guild, name) for name in ("alice", "bob", "carol")]
        table = Players(fd, poker, users)
        async with BotProcess(fd, tmp_path) as bot:
            await fd.wait_until_ready()
            start = [await table.balance(u) for u in users]
            assert start[0] > BUYIN and start == [start[0]] * 3
            total = 3 * start[0]

            created = await (await fd.slash(
                users[0], poker, "table create", small_blind=1, big_blind=2,
            )).reply()
            assert "Table 1 is open" in created.content and not created.ephemeral
            for u in users:
                joined = await (await fd.slash(u, poker, "table join", buyin=str(BUYIN))).reply()
                assert joined.ephemeral and f"with {BUYIN:,} chips" in joined.content

            # the deal comes after the real 5 s pause: a DM with a PNG to each player
            for u in users:
                dm = await fd.wait_for_message(
                    lambda m, u=u: m.channel_id == fd.dm_channel(u).id, within=20
                )
                assert "Your cards for hand #1 at table 1" in dm.content
                assert f"/channels/{guild.id}/{poker.id}" in dm.content
                assert len(dm.attachments) == 1 and dm.attachments[0].filename.endswith(".png")
                width, height = png_size(dm.file())
                assert 200 <= width <= 4000 and 100 <= height <= 4000, (width, height)

            # each player reads their own cards privately: /cards, or their seat panel
            # (the hand's My seat button)
            hand_msg = await fd.wait_for_message(
                lambda m: m.channel_id == poker.id and m.content.startswith("**Hand #1**")
            )
            hole: dict[str, frozenset[str]] = {}
            for i, u in enumerate(users):
                if i == 0:
                    it = await fd.click(u, hand_msg, label="My seat")
                else:
                    it = await fd.slash(u, poker, "cards")
                mine = await it.reply()
                assert mine.ephemeral and mine.file().startswith(PNG)
                found = re.search(rf"^Your cards: ({CARD}(?: {CARD}){{3}})$", mine.content,
                                  re.MULTILINE)
                assert found, mine.content
                hole[u.name] = frozenset(found[1].split())
            assert len(frozenset().union(*hole.values())) == 12

            # everyone sits out from the next hand, so the table rests after this one
            for u in users:
                out = await (await fd.slash(u, poker, "table sitout")).reply()
                assert out.ephemeral and "play this one out" in out.content

            # preflop; a player acting out of turn is refused privately, and nothing moves
            _, first_turn = await table.next_turn()
            table.last_turn_id = first_turn.id - 1
            other = next(u for u in users if u.mention not in first_turn.content)
            refused = await (await fd.slash(other, poker, "check")).reply()
            assert refused.ephemeral and "not your turn" in refused.content.lower()
            # from here every request to the table's channel takes a far-away round trip
            fd.delay("*", rf"/channels/{poker.id}/.*", ROUND_TRIP)
            first_request = len(fd.requests)
            await table.act("BTN", "/call", expect="you call 2")
            await table.act("SB", "Call 1", expect="you call 1")
            await table.act("BB", "Check", expect="you check")
            # flop
            await table.act("SB", "/check", expect="you check")
            await table.act("BB", "/bet", amount="4", expect="you bet 4")
            await table.act("BTN", "/raise", to="12", expect="you raise to 12")
            await table.act("SB", "Fold", expect="you fold")
            await table.act("BB", "Call 8", expect="you call 8")
            # turn
            await table.act("BB", "/check", expect="you check")
            await table.act("BTN", "Check", expect="you check")
            # river: the bet goes through the form (a modal), then a button call
            actor, turn = await table.next_turn()
            assert actor is table.role["BB"]
            opened = await (await fd.click(actor, turn, label="Bet…")).answer()
            assert opened.modal is not None
            form = await fd.submit_modal(actor, opened, {"amount": "15"})
            await silent(form)
            table.actions.append(form)
            await table.act("BTN", "Call 15", expect="you call 15")

            result = await fd.wait_for_message(
                lambda m: m.channel_id == poker.id and "**Hand #1 result**" in m.content
            )
            # the request budget: at most 2 requests to the channel or through the clicks'
            # tokens per action, on average; every action answered within Discord's deadline
            # although each channel request is slow (the table's channel task may be sending
            # meanwhile: it never blocks one)
            sent = table_requests(fd, poker, first_request)
            assert len(table.actions) == 12 and len(sent) <= 2 * 12, sent
            # a click or form that passes the turn carries the next turn message as its
            # followup and deletes the message it was on (its @original): outside the
            # global rate limit; the last click (the river call) ends the hand instead
            clicks = [it for it in table.actions if it.type in (3, 5)]
            assert len(clicks) == 7, clicks
            assert [len(it.followups) for it in clicks] == [1] * 6 + [0], [
                (len(it.followups), it.source_message.id if it.source_message else None)
                for it in clicks
            ]
            assert all(it.source_message and it.source_message.deleted for it in clicks[:-1])
            hooked = [r for r in sent if r[1].startswith("/webhooks/")]
            assert len([r for r in hooked if r[0] == "POST"]) == 6, hooked
            for it in table.actions:
                assert it.answer_time is not None and it.answer_time < DEADLINE, it.answer_time
            print(f"{len(sent)} channel or webhook requests for {len(table.actions)} actions")
            assert not result.ephemeral
            assert result.attachments and result.attachments[0].filename == "showdown-1.png"
            assert min(png_size(result.file())) >= 100
            assert any(" wins " in line or " split " in line
                       for line in result.content.splitlines())
            # one live message per turn, the old one deleted; the last becomes the result
            assert hand_msg.attachments[0].filename == "table-1-hand-1.png"
            assert min(png_size(hand_msg.file())) >= 100
            # its one button opens the hand's log privately (no log under it)
            assert hand_msg.deleted and result.edits >= 1 and not result.embeds
            assert [b.get("label") for b in result.buttons()] == ["Hand log"]
            assert [m.id for m in fd.channel_messages(poker) if m.buttons()] == [result.id]

            # stacks: the folded SB lost its 2 preflop chips; the pot of 60 went to BTN and/or BB
            btn, sb, bb = (table.role[r].name for r in ("BTN", "SB", "BB"))
            stacks = await table.stacks()
            assert set(stacks) == {"alice", "bob", "carol"}
            assert stacks[sb] == BUYIN - 2
            assert stacks[btn] + stacks[bb] == 2 * (BUYIN - 29) + 60
            balances = {u.name: await table.balance(u) for u in users}
            assert all(b == start[0] - BUYIN for b in balances.values())
            assert sum(balances.values()) + sum(stacks.values()) == total
            seated = await audit(bot.database)
            assert f"stacks {3 * BUYIN} " in seated and f"= {total}; granted {total}: OK" in seated

            # hole cards: never public before the showdown; the folded hand never at all
            # the hands shown: the winner's "alice (Ah Kd 9c 2s) wins 60", the others' "bob
            # shows ...:" (no line a player: one pot)
            shown = dict(re.findall(rf"^(\w+) shows ({CARD}(?: {CARD}){{3}}):", result.content,
                                    flags=re.MULTILINE))
            shown.update(re.findall(rf"(\w+) \(({CARD}(?: {CARD}){{3}})\)", result.content))
            assert shown and set(shown) <= {btn, bb}
            for name, cards in shown.items():
                assert frozenset(cards.split()) == hole[name]
            river = next(ln for v in fd.versions for ln in v.content.splitlines()
                         if ln.startswith("> River:"))  # the live message's log
            board = frozenset(re.findall(CARD, river))
            assert len(board) == 5
            for v in fd.versions:
                if v.content.startswith("Drawing for the button"):
                    continue  # the draw for the button uses its own cards
                text = v.content
                if v.message_id == result.id:
                    text = "\n".join(re.sub(rf"\(({CARD}(?: {CARD}){{3}})\)", "", ln)
                                     for ln in text.splitlines() if " shows " not in ln)
                for run in CARD_RUN.findall(text):
                    assert set(run.split()) <= board, f"hole cards in public: {v.content!r}"
                for token in CARD_TOKEN.findall(text):
                    assert all(token not in h for h in hole.values()), v.content
            for cards in hole.values():  # logs write cards as Ks Th
                assert " ".join(sorted(shorthand(c) for c in cards)) not in bot.log

            # everyone leaves: every chip goes back; the creator closes the empty table
            for u in users:
                left = await (await fd.slash(u, poker, "table leave")).reply()
                assert left.ephemeral and "went back to your balance" in left.content
            closed = await (await fd.slash(users[0], poker, "table close")).reply()
            assert "closed" in closed.content
            after = {u.name: await table.balance(u) for u in users}
            assert after == {name: balances[name] + stacks[name] for name in after}
            assert sum(after.values()) == total
            assert await bot.stop() == 0
        assert fd.unhandled == []
        assert fd.token not in bot.log
    final = await audit(bot.database)
    assert f"balances {total} + stacks 0 + pools 0 = {total}; granted {total}: OK" in final
