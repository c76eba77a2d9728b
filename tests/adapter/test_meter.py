"""The Discord side's numbers: routes by kind (no token in a label), 429s, latencies,
and the gateway's connection per shard."""

from __future__ import annotations

from bot.adapter.meter import DiscordMeter, Gateway, invalid, route_kind
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


def test_invalid_requests_are_counted_as_discord_counts_them() -> None:
    """401, 403 and 429 count (Discord bans a bot at 10,000 in 10 minutes), but not a 429
    of the shared scope, nor a 5xx, a 404 or a 400."""
    assert invalid(401, None) and invalid(403, None)
    assert invalid(429, "global") and invalid(429, "user") and invalid(429, None)
    assert not invalid(429, "shared")
    assert not any(invalid(status, None) for status in (200, 204, 400, 404, 500, 502, 503))
    metrics = Metrics()
    meter = DiscordMeter(metrics, Clock())
    for status, scope in ((429, "global"), (429, "global"), (429, "shared"), (403, None),
                          (502, None), (200, None)):
        meter.answered("/channels/3/messages", status, scope)
    meter.answered(f"/webhooks/2/{TOKEN}", 401, None)
    text = metrics.exposition().decode()
    counted = 'omaha_discord_invalid_requests_total{route="%s",status="%s"} %s'
    assert counted % ("channel_messages", "429", "2.0") in text
    assert counted % ("channel_messages", "403", "1.0") in text
    assert counted % ("interaction_webhook", "401", "1.0") in text
    assert text.count("omaha_discord_invalid_requests_total{") == 3


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
