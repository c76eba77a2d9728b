"""What the operator reads when Discord refuses the token or cannot be reached at start.

``python -m bot`` logs in over REST (``GET /users/@me`` at ``DISCORD_API_BASE``:
:func:`log_in`, which ``python -m bot sync`` uses too), then connects to the gateway
(``DISCORD_GATEWAY_URL``). When the token is refused, or either address cannot be
reached (no DNS, connection refused, a timeout, Discord answering 5xx), the bot logs one
line naming what failed and what to check, and exits with a status of its own
(:data:`EXIT_TOKEN_REFUSED`, :data:`EXIT_UNREACHABLE`; the README's "Exit statuses" lists
them all, and ``deploy/omaha-dealer.service`` restarts the bot on the second, not the
first). No traceback: nothing is wrong in the bot. So does a ``DEV_GUILD_ID`` naming a
server the bot is not in (:class:`DevGuildRefused`, a setting: :data:`EXIT_SETTINGS`),
the first-night slip of setting it before inviting the bot.

Once connected, a lost gateway is discord.py's to reconnect, as ever: only the first
connection fails fast (:func:`stop_if_never_connected`; a bot that never connected has
no session to resume). A sharded bot's shards connect on their own and keep retrying.
"""

from __future__ import annotations

import errno
import socket
import sys
from urllib.parse import urlsplit

import aiohttp
import discord

from bot.settings import DEFAULT_API_BASE, DEFAULT_GATEWAY_URL

__all__ = [
    "EXIT_SETTINGS",
    "EXIT_TOKEN_REFUSED",
    "EXIT_UNREACHABLE",
    "NETWORK_ERRORS",
    "CannotConnect",
    "DevGuildRefused",
    "DiscordUnreachable",
    "TokenRefused",
    "log_in",
    "stop_if_never_connected",
    "unreachable",
    "why",
]

#: A setting cannot be used: no token, a bad value, a deck key others can read.
EXIT_SETTINGS = 2
#: Discord refused the token (401): restarting does not help.
EXIT_TOKEN_REFUSED = 3
#: Discord could not be reached at start: a later start may succeed.
EXIT_UNREACHABLE = 4

#: What reaching Discord may raise when the network (or Discord) is down.
NETWORK_ERRORS: tuple[type[BaseException], ...] = (
    OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError,
)

#: The setting that names each address, and its default.
_SETTINGS = {
    "API": ("DISCORD_API_BASE", DEFAULT_API_BASE),
    "gateway": ("DISCORD_GATEWAY_URL", DEFAULT_GATEWAY_URL),
}


class CannotConnect(Exception):
    """Discord did not let the bot in; ``str()`` is the one line for the operator and
    ``status`` the exit status."""

    status = 1


class TokenRefused(CannotConnect):
    """Discord refused the token."""

    status = EXIT_TOKEN_REFUSED

    def __init__(self) -> None:
        super().__init__(
            "Discord refused the token (401 Unauthorized): check DISCORD_TOKEN (in .env or"
            " the environment) is your bot's current token, copied whole from"
            " https://discord.com/developers/applications > your application > Bot >"
            " Reset Token")


class DiscordUnreachable(CannotConnect):
    """Discord could not be reached."""

    status = EXIT_UNREACHABLE


class DevGuildRefused(CannotConnect):
    """Discord refused the commands for ``DEV_GUILD_ID``: the bot is not in that server
    (invited after the start, or a wrong id). Restarting does not help; the settings do."""

    status = EXIT_SETTINGS

    def __init__(self, guild_id: int, refused: discord.HTTPException) -> None:
        super().__init__(
            f"DEV_GUILD_ID is {guild_id}, a server this bot is not in (Discord answered"
            f" {refused.status} {refused.text or refused.response.reason}): invite the bot"
            " there first (README \"Inviting the bot\"), correct the id, or leave"
            " DEV_GUILD_ID empty to sync the commands to every server")


async def log_in(bot: discord.Client, token: str, api_base: str) -> None:
    """``bot.login(token)`` (then its ``setup_hook``); the login request's failures as
    :class:`TokenRefused` or :class:`DiscordUnreachable` (at ``api_base``). A failure
    once logged in (in ``setup_hook``) is not the login's: it goes on as it is."""
    try:
        await bot.login(token)
    except discord.LoginFailure:
        raise TokenRefused() from None
    except NETWORK_ERRORS as error:
        if bot.user is not None:
            raise
        raise unreachable("API", api_base, error) from error


def stop_if_never_connected(bot: discord.Client, gateway_url: str) -> None:
    """Raise :class:`DiscordUnreachable` when ``bot``'s very first gateway connection just
    failed on the network; call it as ``bot`` dispatches ``disconnect``.

    discord.py dispatches ``disconnect`` inside the ``except`` of its connect loop
    (``Client.connect``: "a connection attempt to Discord has failed"), so the failure is
    the exception being handled, and raising here ends ``connect``. Before any connection
    (``ws`` None; one unsharded connection) there is no session to resume: discord.py 2.7
    would fail on ``self.ws.sequence`` with a traceback. A connection lost later is not
    stopped here: discord.py reconnects, as ever."""
    failed = sys.exc_info()[1]
    if bot.ws is None and bot.shard_count is None and isinstance(failed, NETWORK_ERRORS):
        raise unreachable("gateway", gateway_url, failed) from failed


def why(error: BaseException, url: str) -> str:
    """What went wrong reaching ``url``, in a few words."""
    host = urlsplit(url).hostname or url
    if isinstance(error, discord.DiscordServerError):
        return f"Discord answered {error.status} (an outage? see https://discordstatus.com)"
    if isinstance(error, aiohttp.ClientConnectorCertificateError):
        return (f"the TLS certificate of {host} was not accepted (a proxy in the way,"
                " or this machine's clock or CA certificates)")
    if isinstance(error, TimeoutError):
        return f"{host} did not answer in time"
    if isinstance(getattr(error, "os_error", error), socket.gaierror):
        return f"cannot resolve {host} (DNS)"
    if getattr(error, "errno", None) == errno.ECONNREFUSED:
        return f"{host} refused the connection"
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return text.splitlines()[0]


def unreachable(where: str, url: str, error: BaseException) -> DiscordUnreachable:
    """The error for Discord's ``where`` (``"API"`` or ``"gateway"``) not reached at
    ``url``: why, and what to check (the setting too when it is not Discord's own)."""
    setting, default = _SETTINGS[where]
    check = "the network, DNS and firewall of this machine"
    if url.rstrip("/") != default.rstrip("/"):
        check += f", and {setting}"
    return DiscordUnreachable(
        f"Cannot reach Discord's {where} at {url}: {why(error, url)}; check {check}"
    )
