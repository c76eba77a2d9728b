"""The fake Discord's world and the JSON shapes Discord gives for it.

Plain dataclasses hold the state (users, guilds, roles, channels, messages,
interactions); the ``*_payload`` functions turn them into the JSON Discord's
API v10 sends, with the fields discord.py 2.7 requires (members carry
``flags``, interactions ``attachment_size_limit`` ...).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.offline.replies import buttons_in

EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Permission bits (https://discord.com/developers/docs/topics/permissions).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_HISTORY = 1 << 16
USE_APP_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
#: A new server's @everyone (as Discord sets it: members may write in threads too; a
#: public answer in a thread needs the member's Send Messages in Threads, issue 29).
EVERYONE = (
    VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_HISTORY | USE_APP_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
#: The bot's permissions in every channel unless a test takes some away (``deny_bot``).
BOT_PERMISSIONS = EVERYONE | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS

EPOCH_MS = 1_420_070_400_000
_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh, increasing snowflake id (2026 timestamps)."""
    ms = 1_767_225_600_000 - EPOCH_MS
    return (ms << 22) + next(_counter)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0


@dataclass
class Channel:
    id: int
    name: str | None
    type: int = 0  # 0 text, 1 DM
    guild_id: int | None = None
    recipient_id: int | None = None  # DMs
    parent_id: int | None = None  # threads (type 11)
    auto_archive_duration: int = 1440  # threads: minutes without a message
    archived: bool = False  # threads: archived refuses messages (50083) until unarchived
    locked: bool = False  # threads: locked by a moderator refuses the bot (160005)
    owner_id: int | None = None  # threads: who opened it (the bot may archive its own)


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, list[int]] = field(default_factory=dict)  # user id -> role ids

    def permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return (1 << 53) - 1
        bits = self.roles[self.id].permissions
        for role_id in self.members.get(user_id, []):
            bits |= self.roles[role_id].permissions
        if bits & ADMINISTRATOR:
            return (1 << 53) - 1
        return bits


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None  # the alt text


@dataclass
class Message:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    interaction_id: int | None = None
    #: Discord's ``interaction_metadata`` of a message posted in answer to an interaction.
    interaction_metadata: dict[str, Any] | None = None
    edits: int = 0
    deleted: bool = False
    created_at: str = field(default_factory=now_iso)
    edited_at: str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def buttons(self) -> list[dict[str, Any]]:
        """Every button in the message's components."""
        return buttons_in(self.components)

    def file(self, index: int = 0) -> bytes:
        return self.attachments[index].data


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
    }


def member_payload(guild: Guild, user: User, *, with_user: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in guild.members.get(user.id, [])],
        "nick": None,
        "avatar": None,
        "joined_at": "2026-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_payload(user)
    return data


def role_payload(role: Role) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def channel_payload(channel: Channel, users: dict[int, User]) -> dict[str, Any]:
    if channel.type == 1:
        assert channel.recipient_id is not None
        return {
            "id": str(channel.id),
            "type": 1,
            "last_message_id": None,
            "recipients": [user_payload(users[channel.recipient_id])],
        }
    if channel.type in (10, 11, 12):
        return {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "parent_id": str(channel.parent_id),
            "owner_id": str(next(iter(users))),
            "name": channel.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": channel.archived,
                "auto_archive_duration": channel.auto_archive_duration,
                "archive_timestamp": "2026-01-01T00:00:00+00:00", "locked": channel.locked,
            },
        }
    return {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def guild_payload(guild: Guild, users: dict[int, User], bot_user: User) -> dict[str, Any]:
    """A GUILD_CREATE payload (only the bot among the members: no members intent)."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": "2026-01-01T00:00:00+00:00",
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members),
        "voice_states": [],
        "members": [member_payload(guild, bot_user)],
        "channels": [
            channel_payload(c, users) for c in guild.channels.values() if c.type not in (10, 11, 12)
        ],
        "threads": [
            channel_payload(c, users) for c in guild.channels.values() if c.type in (10, 11, 12)
        ],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment_payload(att: Attachment, channel_id: int, base_url: str) -> dict[str, Any]:
    url = f"{base_url}/attachments/{channel_id}/{att.id}/{att.filename}"
    data: dict[str, Any] = {
        "id": str(att.id),
        "filename": att.filename,
        "size": len(att.data),
        "url": url,
        "proxy_url": url,
    }
    if att.content_type:
        data["content_type"] = att.content_type
    if att.description is not None:
        data["description"] = att.description
    return data


def message_payload(
    message: Message, channel: Channel, users: dict[int, User], base_url: str
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "author": user_payload(users[message.author_id]),
        "content": message.content,
        "timestamp": message.created_at,
        "edited_timestamp": message.edited_at,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment_payload(a, channel.id, base_url) for a in message.attachments],
        "embeds": message.embeds,
        "components": message.components,
        "pinned": False,
        "type": message.type,
        "flags": message.flags,
    }
    if channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
    if message.interaction_metadata is not None:
        data["interaction_metadata"] = message.interaction_metadata
    return data
