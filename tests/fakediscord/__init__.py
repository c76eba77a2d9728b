"""A process-level fake Discord (REST + gateway on 127.0.0.1) and a runner for ``python -m bot``.

``FakeDiscord`` is the server (see :mod:`tests.fakediscord.server` for its API);
``BotProcess`` starts ``python -m bot`` unchanged against it and collects its log.
"""

from .payloads import Attachment, Channel, Guild, Message, User
from .process import BotProcess
from .server import FakeDiscord, FakeDiscordError, Interaction

__all__ = [
    "Attachment", "BotProcess", "Channel", "FakeDiscord", "FakeDiscordError", "Guild",
    "Interaction", "Message", "User",
]
