"""Where the app is installed, and what that lets a member run where: a server that added the bot (a guild
install), a member who added the app to their own account (a user install), and the places only the latter reaches
(a server without the bot, a DM or group DM between users).

As Discord does it (https://discord.com/developers/docs/interactions/application-commands#contexts):
- an interaction's ``context`` is 0 in a server, 1 in the DM with the bot, 2 in any other DM or group DM;
- ``authorizing_integration_owners`` maps each install that authorised it (``"0"``: the server's id, or ``"0"`` in
  the bot's DM; ``"1"``: the id of the member whose install it is) — only installs the command declares in its
  ``integration_types``; a click inherits the owners of the interaction that made its message;
- a command is offered where one of its ``integration_types`` is installed and its ``contexts`` hold the place
  (guild commands: in their server, through its install only);
- where only a user install brings the app, the bot can neither read nor post: it answers through the interaction
  (its response and its webhook's follow-ups, at most ``USER_ONLY_FOLLOWUPS`` of them).
"""

from __future__ import annotations

from typing import Any

from localdiscord.guild import Channel, ChannelType, Guild, Member
from localdiscord.snowflakes import Snowflakes

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
USER_ONLY_FOLLOWUPS = 5
"""Discord's limit on follow-ups to an interaction only a user install authorised, in a server without the bot."""


def context_of(channel: Channel) -> int:
    """The interaction context type of ``channel``."""
    if channel.guild_id is not None:
        return GUILD
    return PRIVATE_CHANNEL if channel.is_private else BOT_DM


def installs_at(world: InstallWorld, channel: Channel, member: Member) -> dict[int, str]:
    """Every install that reaches ``member`` in ``channel``: integration type → its owner's id, as Discord writes it."""
    owners: dict[int, str] = {}
    if channel.is_dm:
        owners[GUILD_INSTALL] = "0"  # the bot's own DM: a server install of the app authorises it
    elif channel.guild_id is not None and world.bot_in_guild(channel.guild_id):
        owners[GUILD_INSTALL] = str(channel.guild_id)
    if member.id in world.user_installs:
        owners[USER_INSTALL] = str(member.id)
    return owners


def allowed_contexts(schema: dict[str, Any]) -> set[int]:
    """The contexts a synced command may run in (a command without ``contexts`` follows ``dm_permission``)."""
    contexts = schema.get("contexts")
    if contexts is not None:
        return set(contexts)
    return {GUILD, PRIVATE_CHANNEL} | ({BOT_DM} if schema.get("dm_permission", True) is not False else set())


def authorising(schema: dict[str, Any], world: InstallWorld, channel: Channel, member: Member) -> dict[str, str]:
    """The ``authorizing_integration_owners`` of ``member`` running ``schema`` in ``channel`` (empty: not offered)."""
    if context_of(channel) not in allowed_contexts(schema):
        return {}
    if schema.get("guild_id") is not None:  # a guild command: its server's install only
        kinds = {GUILD_INSTALL}
    else:
        kinds = set(schema.get("integration_types") or [GUILD_INSTALL])
    owners = installs_at(world, channel, member)
    return {str(kind): owner for kind, owner in sorted(owners.items()) if kind in kinds}


def unavailable(schema: dict[str, Any], world: InstallWorld, channel: Channel, member: Member) -> str | None:
    """Why Discord's client doesn't offer ``schema`` to ``member`` in ``channel`` (None: it does)."""
    name = schema["name"]
    if context_of(channel) not in allowed_contexts(schema):
        where = {GUILD: "in servers", BOT_DM: "in DMs", PRIVATE_CHANNEL: "in DMs and group DMs between users"}
        return f"/{name} is not available {where[context_of(channel)]}"
    if not authorising(schema, world, channel, member):
        return f"/{name} is not installed here for {member.name} (integration_types {schema.get('integration_types')})"
    return None


def user_only(owners: dict[str, str]) -> bool:
    """Only a member's install authorised the interaction (the bot is not where it happens, or not for it)."""
    return str(GUILD_INSTALL) not in owners


class InstallWorld:
    """The local Discord's installs and the places only a member's install reaches (the base of the ``World``)."""

    ids: Snowflakes
    bot_user: Member
    guilds: list[Guild]
    user_installs: set[int]
    guilds_without_bot: list[Guild]
    private_channels: dict[int, Channel]

    def world_changed(self) -> None:
        """Tell the observers (``LocalDiscord.world_changed``)."""

    def install_for_user(self, member: Member) -> None:
        """``member`` adds the app to their own account: its user-installable commands follow them everywhere."""
        self.user_installs.add(member.id)
        self.world_changed()

    def server_without_bot(self, member_names: tuple[str, ...] = ("Zoe", "Yann", "Xavi")) -> Guild:
        """A server the bot was never added to (it gets no GUILD_CREATE, can't read or post in its channels)."""
        guild = Guild(
            self.ids,
            Member(self.bot_user.id, self.bot_user.username, self.bot_user.name, bot=True),
            channels=3,
            name=f"Server without the bot {len(self.guilds_without_bot) + 1}",
            member_names=member_names,
        )
        self.guilds_without_bot.append(guild)
        return guild

    def bot_in_guild(self, guild_id: int) -> bool:
        """Whether the bot was added to the server ``guild_id``."""
        return any(g.id == guild_id for g in self.guilds)

    def bot_sees(self, channel: Channel) -> bool:
        """Whether the bot is where ``channel`` is: its own DMs and its servers' channels, not the others."""
        if channel.is_private:
            return False
        return channel.guild_id is None or self.bot_in_guild(channel.guild_id)

    def private_dm(self, member: Member, other: Member) -> Channel:
        """A DM between two users (not the bot)."""
        channel = Channel(self.ids.next(), "", type=ChannelType.DM, people=(member, other))
        self.private_channels[channel.id] = channel
        return channel

    def group_dm(self, owner: Member, *others: Member, name: str = "") -> Channel:
        """A group DM of ``owner`` and ``others`` (not the bot)."""
        channel = Channel(self.ids.next(), name, type=ChannelType.GROUP_DM, owner_id=owner.id, people=(owner, *others))
        self.private_channels[channel.id] = channel
        return channel
