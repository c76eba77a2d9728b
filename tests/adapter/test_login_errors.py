"""The operator's one line when Discord cannot be reached: each failure named from the
real error aiohttp or discord.py raises (a name that does not resolve, a port where
nothing listens, a server that never answers, a certificate nobody signed, Discord
answering 503), and the setting to check named only when it is not Discord's own address.

The processes that print these lines are in ``tests/test_process_start.py``.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import ssl
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import aiohttp
import discord
import pytest
from aiohttp import web

from bot.adapter.login_errors import (
    NETWORK_ERRORS,
    DiscordUnreachable,
    stop_if_never_connected,
    unreachable,
    why,
)
from bot.settings import DEFAULT_API_BASE, DEFAULT_GATEWAY_URL


def free_port() -> int:
    """A local port where nothing listens (bound, then let go)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


Respond = Callable[[aiohttp.ClientResponse], Awaitable[None]]


async def failure(url: str, wait: float = 5.0, respond: Respond | None = None) -> BaseException:
    """What a GET of ``url`` raises within ``wait`` seconds (``respond`` turns a response
    into an error)."""
    session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=wait))
    try:
        async with session, session.get(url) as response:
            if respond is not None:
                await respond(response)
    except Exception as error:
        return error
    raise AssertionError(f"GET {url} did not fail")


@pytest.fixture
async def silent_port() -> AsyncIterator[int]:
    """A port that accepts connections and never answers."""
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    async with server:
        yield server.sockets[0].getsockname()[1]


@pytest.fixture
async def outage() -> AsyncIterator[str]:
    """A server answering every request 503, as Discord in an outage."""
    async def down(request: web.Request) -> web.Response:
        return web.Response(status=503, text="down")

    app = web.Application()
    app.router.add_get("/{tail:.*}", down)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    yield f"http://127.0.0.1:{port}/api/v10"
    await runner.cleanup()


async def test_a_name_that_does_not_resolve() -> None:
    url = "https://omaha-dealer.invalid/api/v10"  # .invalid never resolves (RFC 2606)
    error = await failure(url)
    assert isinstance(error, NETWORK_ERRORS)
    assert why(error, url) == "cannot resolve omaha-dealer.invalid (DNS)"


async def test_a_port_where_nothing_listens() -> None:
    url = f"http://127.0.0.1:{free_port()}/api/v10"
    error = await failure(url)
    assert isinstance(error, NETWORK_ERRORS)
    assert why(error, url) == "127.0.0.1 refused the connection"


async def test_a_server_that_never_answers(silent_port: int) -> None:
    url = f"http://127.0.0.1:{silent_port}/api/v10"
    error = await failure(url, wait=0.3)
    assert isinstance(error, NETWORK_ERRORS)
    assert why(error, url) == "127.0.0.1 did not answer in time"


async def test_discord_answering_503(outage: str) -> None:
    async def as_discord(response: aiohttp.ClientResponse) -> None:
        raise discord.DiscordServerError(response, await response.text())

    error = await failure(outage + "/users/@me", respond=as_discord)
    assert isinstance(error, NETWORK_ERRORS)
    assert why(error, outage) == "Discord answered 503 (an outage? see https://discordstatus.com)"


@pytest.fixture
def untrusted(tmp_path: Path) -> ssl.SSLContext:
    """A TLS server's context with a certificate no CA signed (as a proxy in the way)."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


async def test_a_certificate_this_machine_does_not_trust(untrusted: ssl.SSLContext) -> None:
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0, ssl=untrusted)
    async with server:
        url = f"https://127.0.0.1:{server.sockets[0].getsockname()[1]}/api/v10"
        error = await failure(url)
    assert isinstance(error, NETWORK_ERRORS)
    assert why(error, url) == ("the TLS certificate of 127.0.0.1 was not accepted (a proxy in"
                               " the way, or this machine's clock or CA certificates)")


async def test_the_line_names_the_setting_only_when_it_is_not_discords_own() -> None:
    refused = await failure(f"http://127.0.0.1:{free_port()}/")
    own = unreachable("API", DEFAULT_API_BASE, refused)
    assert str(own) == (
        "Cannot reach Discord's API at https://discord.com/api/v10: discord.com refused the"
        " connection; check the network, DNS and firewall of this machine")
    proxy = unreachable("gateway", "ws://127.0.0.1:9/gateway", refused)
    assert str(proxy).endswith("of this machine, and DISCORD_GATEWAY_URL")
    assert "DISCORD_GATEWAY_URL" not in str(unreachable("gateway", DEFAULT_GATEWAY_URL, refused))
    assert "\n" not in str(own) + str(proxy)


def test_only_a_network_failure_before_the_first_connection_stops_the_bot() -> None:
    """Called while discord.py handles a failed connection attempt: a network error with
    no connection yet stops; any other error does not (a bot connected before keeps
    reconnecting: ``tests/test_process_start.py``)."""
    client = discord.Client(intents=discord.Intents.none())
    refused = ConnectionRefusedError(111, "Connect call failed")
    try:
        raise refused
    except OSError:
        with pytest.raises(DiscordUnreachable) as stopped:
            stop_if_never_connected(client, "ws://127.0.0.1:9/gateway")
    assert stopped.value.__cause__ is refused
    try:
        raise ValueError("not the network")
    except ValueError:
        stop_if_never_connected(client, "ws://127.0.0.1:9/gateway")  # discord.py decides
    stop_if_never_connected(client, "ws://127.0.0.1:9/gateway")  # nothing being handled
