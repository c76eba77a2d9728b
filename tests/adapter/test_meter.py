"""The Discord side's numbers: routes by kind (no token in a label), 429s, latencies,
and the gateway's connection per shard."""

from __future__ import annotations

from bot.adapter.meter import DiscordMeter, Gateway, route_kind
from bot.metrics import Metrics

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_routes_are_counted_by_kind_never_by_token() -> None:
    assert route_kind(f"/interactions/1/{TOKEN}/callback") == "interaction_callback"
    assert route_kind(f"/webhooks/2/{TOKEN}/messages/@original") == "interaction_webhook"
    assert route_kind("/channels/3/messages/4") == "channel_messages"
    assert route_kind("/channels/3") == "channel"
    assert route_kind("/users/@me/channels") == "dm_open"
    assert route_kind("/applications/5/guilds/6/commands") == "commands"
    assert route_kind("/applications/5/commands") == "commands"
    assert route_kind("/guilds/6/members/7") == "guild"
    assert route_kind("/gateway/bot") == "other"


def test_acknowledgements_and_429s_are_counted() -> None:
    metrics, clock = Metrics(), Clock()
    meter = DiscordMeter(metrics, clock)
    meter.arrived(11)
    clock.now += 0.25
    meter.answered(f"/interactions/11/{TOKEN}/callback", 204, None)
    meter.answered(f"/interactions/12/{TOKEN}/callback", 204, None)  # never seen arrive
    meter.answered("/channels/3/messages", 429, "shared")
    meter.answered("/channels/3/messages", 200, None)
    text = metrics.exposition().decode()
    assert TOKEN not in text
    assert 'omaha_interaction_ack_seconds_bucket{le="0.25"} 1.0' in text
    assert 'omaha_interaction_ack_seconds_bucket{le="0.1"} 0.0' in text
    assert "omaha_interaction_ack_seconds_count 1.0" in text
    assert ('omaha_discord_requests_total{route="interaction_callback",status="204"} 2.0'
            in text)
    assert 'omaha_discord_requests_total{route="channel_messages",status="429"} 1.0' in text
    assert 'omaha_discord_rate_limited_total{route="channel_messages",scope="shared"} 1.0' in text
    clock.now += 1.0
    meter.prompted(11)  # the turn message after interaction 11's action
    assert "omaha_prompt_seconds_sum 1.25" in metrics.exposition().decode()


def test_the_gateway_is_down_until_every_shard_is_up() -> None:
    gateway = Gateway()
    assert gateway.problem() == "gateway disconnected"  # not connected yet
    gateway.connected()
    assert gateway.problem() is None
    gateway.disconnected(1)
    gateway.disconnected()
    gateway.connected()  # shard 0's connect: the client's event
    assert gateway.problem() == "gateway disconnected (shards 1)"
    gateway.connected(1)
    assert gateway.problem() is None
