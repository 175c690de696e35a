"""The world the local Discord serves: the application and its bot user, the guilds and their channels, threads,
DMs, installs, the synced commands and the uploaded files, and the questions asked of them. The parts that serve it
(the HTTP API, the Gateway, the interactions, the CDN) read it from here."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from localdiscord.changes import Changes
from localdiscord.guild import MEMBER_NAMES, Channel, ChannelType, Guild, Member, Perm
from localdiscord.installs import InstallWorld
from localdiscord.snowflakes import Snowflakes


class World(InstallWorld):
    """Who and what exists in the local Discord, and what the bot may do where."""

    def __init__(
        self,
        changes: Changes,
        *,
        channels: int,
        guilds: int,
        shards: int,
        member_names: tuple[str, ...] = MEMBER_NAMES,
        guild_name: str = "Tabletop Test Server",
    ) -> None:
        self.changes = changes
        self.token = ""
        """The bot's token: what its requests and its IDENTIFY must carry."""
        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.application_flags = 1 << 23  # APPLICATION_COMMAND_BADGE, as any bot with slash commands has
        self.bot_user = Member(self.application_id, "tabletop-bot", "Tabletop Bot", bot=True)
        self.guilds = [
            Guild(
                self.ids,
                self.bot_user,
                channels=channels,
                guild_id=self.ids.on_shard(index % shards, shards) if shards > 1 else None,
                name=guild_name if index == 0 else f"{guild_name} {index + 1}",
                member_names=member_names,
            )
            for index in range(guilds)
        ]
        self.guild = self.guilds[0]
        self.dm_user = Member(self.ids.next(), "erin", "Erin")
        self.threads: list[Channel] = []
        self.dm_channels: dict[int, Channel] = {}
        self.user_installs: set[int] = set()
        """Members who added the app to their own account (``install_for_user``)."""
        self.guilds_without_bot: list[Guild] = []
        """Servers the bot was never added to (``server_without_bot``): a member's install is all that reaches them."""
        self.private_channels: dict[int, Channel] = {}
        """DMs and group DMs between users (``private_dm``, ``group_dm``): the bot is in none of them."""
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.uploads: MutableMapping[int, bytes] = {}
        """The bytes of every file the bot uploaded, by attachment id (see ``attachment_bytes``)."""
        self.base_url = ""
        """Where the bot reaches the server (set when it starts)."""
        self.hosting = False
        """Listening beyond this machine (``--host``): a request may then name the server by any address."""
        self.long_running = False
        """A server people play on for hours (``python -m localdiscord``), not a test's: it keeps no requests in
        ``requests``, forgets a file once no message shows it, and an interaction once its token has expired."""

    def world_changed(self) -> None:
        """Tell the observers that commands, members or roles changed, and wake the waiters."""
        self.changes.world_changed()

    def channel_changed(self, channel: Channel) -> None:
        """Tell the observers about a created or changed channel, and wake the waiters."""
        self.changes.channel_changed(channel)

    @property
    def guild_id(self) -> int:
        """The first guild's id."""
        return self.guild.id

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild a channel or thread is in (None for a DM)."""
        return next((g for g in (*self.guilds, *self.guilds_without_bot) if g.id == channel.guild_id), None)

    @property
    def channels(self) -> list[Channel]:
        """The first guild's text channels."""
        return self.guild.channels

    @property
    def members(self) -> list[Member]:
        """The first guild's members (not the bot); ``members[0]`` has Manage Server, one is shown as "@everyone"."""
        return self.guild.members

    @property
    def bot_user_id(self) -> int:
        """The bot's user id (equal to the application id, as for every modern bot)."""
        return self.bot_user.id

    @property
    def users(self) -> dict[int, Member]:
        """Every user the fake knows, by id."""
        everyone = (m for g in (*self.guilds, *self.guilds_without_bot) for m in g.members)
        return {u.id: u for u in (self.bot_user, self.dm_user, *everyone)}

    @property
    def commands(self) -> list[dict[str, Any]]:
        """The synced command schema: guild commands first, then global ones."""
        return [c for cmds in self.guild_commands.values() for c in cmds] + self.global_commands

    def commands_for(self, channel: Channel) -> list[dict[str, Any]]:
        """The commands synced for ``channel``: the guild's own, then the global ones (``offered``: which a given
        member sees there)."""
        guild_commands = [] if channel.guild_id is None else self.guild_commands.get(channel.guild_id, [])
        return guild_commands + self.global_commands

    def channel(self, channel_id: int) -> Channel | None:
        """Any channel, thread or DM by id (also those the bot isn't in: see ``bot_sees``)."""
        private = self.private_channels.get(channel_id)
        if private is not None:
            return private
        guilds = (*self.guilds, *self.guilds_without_bot)
        for channel in (*(c for g in guilds for c in g.channels), *self.threads, *self.dm_channels.values()):
            if channel.id == channel_id:
                return channel
        return None

    def dm_channel(self, user: Member | None = None) -> Channel:
        """The DM channel between ``user`` (default ``dm_user``) and the bot, created on first use."""
        user = user or self.dm_user
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = Channel(self.ids.next(), "", type=ChannelType.DM, recipient=user)
            self.channel_changed(self.dm_channels[user.id])
        return self.dm_channels[user.id]

    def bot_permissions(self, channel: Channel) -> int:
        """What the bot may do in ``channel`` (what Discord sends as ``app_permissions``)."""
        if channel.is_dm:
            return Perm.DM
        if not self.bot_sees(channel):
            return Perm.USER_APP
        guild = self.guild_of(channel)
        assert guild is not None
        if channel.type in ChannelType.THREADS:
            parent = self.channel(channel.parent_id or 0)
            assert parent is not None
            return guild.bot_permissions(parent)
        return guild.bot_permissions(channel)

    def add_member(self, name: str) -> Member:
        """A new member of the first guild; the first one to join owns the server and manages it."""
        guild = self.guild
        member = guild.add_member(self.ids.next(), name)
        if len(guild.members) == 1:
            guild.owner_id = member.id
            guild.set_manager(member, True)
        self.changes.member_added(member)
        return member
