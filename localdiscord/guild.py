"""The fake's world: guilds with roles, text channels and members, plus DM channels and threads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from localdiscord.snowflakes import Snowflakes, timestamp_of


class Perm:
    """Permission bits (https://discord.com/developers/docs/topics/permissions)."""

    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_EVENTS = 1 << 33
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    CREATE_EVENTS = 1 << 44
    ALL = (1 << 51) - 1

    # What @everyone may do in a fresh server (a subset; enough for permission checks).
    EVERYONE = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | ADD_REACTIONS
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    # What the bot's managed role grants: what an invite link with the README's permissions would give.
    BOT = EVERYONE | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS | CREATE_EVENTS
    # What Discord reports as app_permissions in a DM with the bot.
    DM = EVERYONE | MENTION_EVERYONE
    # What Discord reports as app_permissions where only a member's install of the app brings it (a server without
    # the bot, a DM or group DM between users): what an interaction's answer may carry; the bot itself may do nothing.
    USER_APP = EMBED_LINKS | ATTACH_FILES | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS


class ChannelType:
    """Channel types the fake models."""

    GUILD_TEXT = 0
    DM = 1
    GROUP_DM = 3
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    THREADS = (PUBLIC_THREAD, PRIVATE_THREAD)


@dataclass(eq=False)
class Role:
    """A guild role."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def to_json(self) -> dict[str, Any]:
        """The role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    """A user; a guild member when ``roles`` is not None. ``name`` is the display name people see."""

    id: int
    username: str
    name: str
    roles: list[Role] | None = None
    bot: bool = False
    accepts_dms: bool = True
    """False: the member closed their direct messages from the bot (Discord refuses a message there: 403 50007)."""
    locale: str = "en-US"
    """The language of the member's Discord (every interaction of theirs carries it)."""

    @property
    def display_name(self) -> str:
        """The name shown in chat (same as ``name``; discord.py's spelling)."""
        return self.name

    @property
    def mention(self) -> str:
        """``<@id>``: how a message mentions this user."""
        return f"<@{self.id}>"

    def user_json(self) -> dict[str, Any]:
        """The user object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "global_name": None if self.bot else self.name,
            "avatar": None,
            "discriminator": "0",
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "collectibles": None,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def permissions(self) -> int:
        """Guild-level permissions: the union of the member's roles, everything for administrators."""
        perms = 0
        for role in self.roles or []:
            perms |= role.permissions
        return Perm.ALL if perms & Perm.ADMINISTRATOR else perms

    def member_json(self, with_permissions: bool = True) -> dict[str, Any]:
        """The guild member object, as in an interaction (with ``permissions``) or a guild (without)."""
        data: dict[str, Any] = {
            "user": self.user_json(),
            "nick": None,
            "avatar": None,
            "banner": None,
            # @everyone is implicit: Discord never lists it among a member's roles.
            "roles": [str(r.id) for r in self.roles or [] if r.position > 0],
            "joined_at": timestamp_of(self.id),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "unusual_dm_activity_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread, a DM with the bot (``recipient`` set), or a DM or group DM between users
    (``people`` set: the bot is not in it, and reaches it only through the interactions of a member's install)."""

    id: int
    name: str
    type: int = ChannelType.GUILD_TEXT
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: Member | None = None
    bot_allow: int = 0
    bot_deny: int = 0
    bot_user_id: int = 0
    archived: bool = False
    locked: bool = False
    people: tuple[Member, ...] = ()

    @property
    def is_dm(self) -> bool:
        """True for the direct-message channel between a user and the bot."""
        return self.type == ChannelType.DM and not self.people

    @property
    def is_private(self) -> bool:
        """True for a DM or group DM between users, without the bot."""
        return bool(self.people)

    def to_json(self) -> dict[str, Any]:
        """The channel object."""
        if self.is_private:
            data: dict[str, Any] = {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": None,
                "flags": 0,
                "recipients": [p.user_json() for p in self.people],
            }
            if self.type == ChannelType.GROUP_DM:
                data |= {"name": self.name or None, "icon": None, "owner_id": str(self.owner_id)}
            return data
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.user_json()],
            }
        data = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.type in ChannelType.THREADS:
            data |= {
                "owner_id": str(self.owner_id),
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": timestamp_of(self.id),
                    "locked": self.locked,
                    "invitable": self.type == ChannelType.PRIVATE_THREAD,
                    "create_timestamp": timestamp_of(self.id),
                },
            }
        else:
            overwrites = []
            if self.bot_allow or self.bot_deny:
                # type 1: a member overwrite, here for the bot's own member.
                overwrites.append(
                    {"id": str(self.bot_user_id), "type": 1, "allow": str(self.bot_allow), "deny": str(self.bot_deny)}
                )
            data |= {"position": self.position, "topic": None, "nsfw": False, "permission_overwrites": overwrites}
        return data


MEMBER_NAMES = ("Alice", "Bob", "Carol", "@everyone", "Dave")


class Guild:
    """One guild: @everyone, an admin role, the bot's managed role, text channels and members.

    ``members[0]`` has Manage Server (through an administrator role); the others are plain members, and one of
    them is literally called "@everyone" to catch bots that would let a display name ping the whole server.
    """

    CHANNEL_NAMES = ("general", "games", "dice-table", "tavern")

    def __init__(
        self,
        ids: Snowflakes,
        bot_user: Member,
        *,
        channels: int = 4,
        guild_id: int | None = None,
        name: str = "Tabletop Test Server",
        member_names: tuple[str, ...] = MEMBER_NAMES,
    ) -> None:
        self.id = guild_id if guild_id is not None else ids.next()
        self.name = name
        self.preferred_locale = "en-US"
        """The server's own language (a community server's setting; what its interactions carry)."""
        self.everyone = Role(self.id, "@everyone", Perm.EVERYONE)
        self.admin_role = Role(ids.next(), "Game Master", Perm.ADMINISTRATOR | Perm.MANAGE_GUILD, position=2)
        self.bot_role = Role(ids.next(), bot_user.name, Perm.BOT, position=1, managed=True)
        self.roles = [self.everyone, self.bot_role, self.admin_role]
        # The bot is a member of every guild with that guild's roles: the first guild's is the bot user itself.
        if bot_user.roles is not None:
            bot_user = Member(bot_user.id, bot_user.username, bot_user.name, bot=True)
        self.bot_member = bot_user
        bot_user.roles = [self.everyone, self.bot_role]
        self.members: list[Member] = []
        for index, name in enumerate(member_names):
            roles = [self.everyone, self.admin_role] if index == 0 else [self.everyone]
            username = "everyone_fan" if name.startswith("@") else name.lower()
            self.members.append(Member(ids.next(), username, name, roles))
        # Without members (a fresh local server), the first member to join becomes the owner.
        self.owner_id = self.members[0].id if self.members else bot_user.id
        self.channels: list[Channel] = []
        for index in range(channels):
            name = self.CHANNEL_NAMES[index] if index < len(self.CHANNEL_NAMES) else f"table-{index}"
            self.channels.append(Channel(ids.next(), name, guild_id=self.id, position=index, bot_user_id=bot_user.id))
        self.scheduled_events: dict[int, dict[str, Any]] = {}
        """Scheduled events by id, as Discord returns them (``localdiscord/events.py``)."""

    def is_manager(self, member: Member) -> bool:
        """Whether ``member`` has the manager role (Manage Server)."""
        return self.admin_role in (member.roles or [])

    def set_manager(self, member: Member, manager: bool) -> None:
        """Give ``member`` the manager role, or take it away."""
        roles = [r for r in member.roles or [] if r is not self.admin_role]
        member.roles = [*roles, self.admin_role] if manager else roles

    def add_member(self, member_id: int, name: str) -> Member:
        """A new member called ``name`` (a display name: any script, at most 32 characters)."""
        taken = {m.username for m in self.members}
        base = "".join(c for c in name.lower() if c.isalnum() or c in "._")[:28] or "member"
        username = next(u for u in (base, *(f"{base}{n}" for n in range(2, 10_000))) if u not in taken)
        member = Member(member_id, username, name, [self.everyone])
        self.members.append(member)
        return member

    def snapshot(self) -> dict[str, Any]:
        """What ``restored`` needs to rebuild this guild with the same ids (channels and threads aside)."""
        return {
            "id": self.id,
            "name": self.name,
            "owner_id": self.owner_id,
            "roles": [[r.id, r.name, r.permissions, r.position, r.managed] for r in self.roles],
            "members": [[m.id, m.username, m.name, self.is_manager(m)] for m in self.members],
            "scheduled_events": list(self.scheduled_events.values()),
            "preferred_locale": self.preferred_locale,
        }

    @classmethod
    def restored(cls, data: dict[str, Any], bot_user: Member, channels: list[Channel]) -> Guild:
        """The guild ``snapshot`` described, with ``bot_user`` as its bot member and these text channels."""
        guild = cls.__new__(cls)
        guild.id, guild.name, guild.owner_id = data["id"], data["name"], data["owner_id"]
        guild.preferred_locale = data.get("preferred_locale", "en-US")
        guild.roles = [Role(i, n, p, position=pos, managed=m) for i, n, p, pos, m in data["roles"]]
        guild.everyone = next(r for r in guild.roles if r.id == guild.id)
        guild.bot_role = next(r for r in guild.roles if r.managed)
        guild.admin_role = next(r for r in guild.roles if r.position == 2)
        bot_user.roles = [guild.everyone, guild.bot_role]
        guild.bot_member = bot_user
        guild.members = []
        for member_id, username, name, manager in data["members"]:
            member = Member(member_id, username, name, [guild.everyone])
            guild.set_manager(member, manager)
            guild.members.append(member)
        guild.channels = channels
        guild.scheduled_events = {int(e["id"]): e for e in data.get("scheduled_events", [])}
        return guild

    def bot_permissions(self, channel: Channel) -> int:
        """The bot's permissions in ``channel``: its roles, then its member overwrite (threads use the parent's)."""
        base = self.bot_member.permissions
        if base & Perm.ADMINISTRATOR:
            return Perm.ALL
        return (base & ~channel.bot_deny) | channel.bot_allow

    def to_json(self, *, include_members: bool) -> dict[str, Any]:
        """The GUILD_CREATE payload. Without the GUILD_MEMBERS intent Discord sends only the bot's own member."""
        members = [self.bot_member, *self.members] if include_members else [self.bot_member]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "features": [],
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": str(self.channels[0].id),
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "vanity_url_code": None,
            "application_id": None,
            "roles": [r.to_json() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "joined_at": timestamp_of(self.id),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members) + 1,
            "members": [m.member_json(with_permissions=False) for m in members],
            "channels": [c.to_json() for c in self.channels],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": list(self.scheduled_events.values()),
            "soundboard_sounds": [],
            "lazy": True,
        }
