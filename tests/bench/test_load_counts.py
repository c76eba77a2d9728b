"""The load benchmark counts each click once and each new picture once (bench/bench_load.py).

``Players.close`` is called when the measurement ends and again after the last
answers came in; it once added every click a second time, which doubled the
actions per second the benchmark printed.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_load
import load_players

from tests.fakediscord.payloads import Attachment, Message


def click(answer_time: float | None, callback_type: int = 6) -> SimpleNamespace:
    return SimpleNamespace(answer_time=answer_time, callback_type=callback_type)


def test_closing_twice_counts_every_click_once() -> None:
    players = bench_load.Players(bench_load.LoadDiscord(), think=1.0, seed=1)
    players.clicks = [click(0.01), click(0.02), click(None), click(0.03, callback_type=4)]
    first = players.close(10.0)
    assert (first.actions, first.stale, len(first.acks)) == (2, 1, 3)
    players.clicks.append(click(0.5))  # answered after the measurement ended
    again = players.close(first.seconds)
    assert (again.actions, again.stale, len(again.acks)) == (3, 1, 4)
    assert again.per_second == 0.3


def picture(channel_id: int, png: bytes) -> Message:
    attachment = Attachment(1, "table.png", png, "image/png")
    return Message(1, channel_id, 2, content="", attachments=[attachment])


def test_a_prompt_counts_as_a_new_picture_only_when_its_table_showed_another() -> None:
    players = bench_load.Players(bench_load.LoadDiscord(), think=1.0, seed=1)
    players.count_picture(picture(7, b"street"))  # before the measurement: remembered only
    players.measuring = True
    for channel_id, png in ((7, b"street"), (8, b"street"), (7, b"turn"), (7, b"turn")):
        players.count_picture(picture(channel_id, png))
    players.count_picture(Message(2, 7, 2, content=""))
    assert (players.result.prompts_seen, players.result.new_pictures) == (5, 2)
    assert players.result.bare == 1


def test_a_command_counts_as_an_action_only_when_confirmed() -> None:
    """A slash command is always deferred (type 5): it is an action when its private answer
    became the confirmation ("Done: ..."), stale when it is a refusal."""
    def command(text: str) -> SimpleNamespace:
        return SimpleNamespace(callback_type=5, original=Message(1, 7, 2, content=text))

    assert load_players.accepted(command("Done: you call 2."))
    assert not load_players.accepted(command("It is not your turn: bob is to act."))
    assert not load_players.accepted(SimpleNamespace(callback_type=5, original=None))


def test_requests_are_counted_by_route() -> None:
    requests = [("POST", "/interactions/1/t/callback"), ("POST", "/webhooks/9/t"),
                ("DELETE", "/webhooks/9/t/messages/5"), ("POST", "/channels/7/messages"),
                ("POST", "/channels/8/messages"), ("POST", "/users/@me/channels")]
    assert load_players.routes(requests, {7}) == {
        "callback": 1, "webhook": 2, "table channel POST": 1, "DM": 2}
