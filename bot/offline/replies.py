"""What the bot answered to one interaction in the offline Discord, as a test reads it.

:class:`Reply` wraps simcord's record of one interaction (the response, the
followups, a modal) and answers in the terms the tests use: its text, whether
only the player saw it, its buttons, its pictures. Its properties re-read
simcord's state, so they show later edits. :func:`buttons_of` reads the buttons
of any real message. The :class:`~bot.offline.harness.Harness` makes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
import simcord
from simcord import InteractionResult

if TYPE_CHECKING:
    from bot.offline.harness import Harness

__all__ = ["PNG_SIGNATURE", "Reply", "buttons_in", "buttons_of"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _had_original(result: InteractionResult) -> bool:
    """Whether the interaction had an original response message (deleted or not)."""
    return result._interaction.message_id is not None  # simcord's record of it


class Reply:
    """What the bot answered to one interaction: text, embeds, files, modal, privacy."""

    def __init__(self, harness: Harness, result: InteractionResult) -> None:
        self.harness = harness
        self.result = result

    @property
    def acknowledged(self) -> bool:
        return self.result.acknowledged

    @property
    def deferred(self) -> bool:
        return self.result.deferred

    @property
    def silent(self) -> bool:
        """Acknowledged without a word to the player: a click deferred as an update of its
        own message (the table's message shows what it did); its only followup, if any, is
        the table's next live message, public (:mod:`bot.adapter.hooks`), never a private note."""
        response = self.result.response
        quiet = response is None or not response.ephemeral
        public = not any(m.ephemeral for m in self.result.followups)
        return self.acknowledged and self.deferred and quiet and public

    @property
    def ephemeral(self) -> bool:
        """True when the first answer was visible only to the player who acted.

        When the original was deleted after a followup (a public outcome posted by
        :func:`bot.adapter.polite.announce`, or an error after a public deferral,
        :func:`bot.adapter.polite.send_private`), the answer is the first followup."""
        response = self.result.response
        if response is not None:
            return response.ephemeral
        followups = self.result.followups
        if _had_original(self.result) and followups:
            return followups[0].ephemeral
        return self.result.ephemeral

    @property
    def messages(self) -> list[simcord.ResponseMessage]:
        """The original response (if any) then the followups, as simcord sees them now."""
        out = []
        if self.result.response is not None:
            out.append(self.result.response)
        out.extend(self.result.followups)
        return out

    @property
    def text(self) -> str:
        """The response's content (after any edits); '' when there is none. When the
        original was deleted (see :attr:`ephemeral`), the first followup's."""
        response = self.result.response
        if response is not None:
            return response.content
        followups = self.result.followups
        return followups[0].content if _had_original(self.result) and followups else ""

    @property
    def texts(self) -> list[str]:
        """Content of the response and every followup, in order."""
        return [m.content for m in self.messages]

    @property
    def all_text(self) -> str:
        """Every piece of text in the answer: contents and embed titles/descriptions/fields."""
        parts: list[str] = []
        for m in self.messages:
            parts.append(m.content)
            for e in m.embeds:
                parts.extend([e.title or "", e.description or ""])
                parts.extend(f"{f.name}: {f.value}" for f in e.fields)
        return "\n".join(p for p in parts if p)

    @property
    def embeds(self) -> list[discord.Embed]:
        return [e for m in self.messages for e in m.embeds]

    @property
    def message(self) -> discord.Message | None:
        """The original response as a real ``discord.Message`` (for clicking its buttons)."""
        response = self.result.response
        return response.message if response is not None else None

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.result.modal

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Buttons on the response: dicts with label, custom_id, disabled, style."""
        response = self.result.response
        return buttons_in(response.components) if response is not None else []

    async def files(self) -> list[tuple[str, bytes]]:
        """``(filename, bytes)`` of every attachment of the response and followups."""
        out = []
        for m in self.messages:
            for a in m.attachments:
                out.append((a.filename, await a.read()))
        return out

    async def images(self) -> list[bytes]:
        """Bytes of every PNG attached to the answer (asserting they are PNGs)."""
        data = [b for _, b in await self.files()]
        for blob in data:
            assert blob.startswith(PNG_SIGNATURE), "attachment is not a PNG"
        return data

    def __repr__(self) -> str:
        return f"<Reply ephemeral={self.ephemeral} texts={self.texts!r}>"


def buttons_in(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every button (type 2) in a message's components, sections' accessories too."""
    found: list[dict[str, Any]] = []

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            if item.get("type") == 2:
                found.append(item)
            walk(item.get("components", []))
            if isinstance(item.get("accessory"), dict):
                walk([item["accessory"]])

    walk(components)
    return found


def buttons_of(message: discord.Message) -> list[discord.ui.Button[Any] | discord.Button]:
    """The buttons of a real message, in order."""
    return [
        child
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button)
    ]
