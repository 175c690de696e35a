"""A protocol-level local Discord (HTTP API + Gateway) for end-to-end tests of the unmodified bot."""

from localdiscord.guild import Channel, ChannelType, Member, Perm, Role
from localdiscord.interactions import InteractionResult
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord

__all__ = ["Channel", "ChannelType", "InteractionResult", "LocalDiscord", "Member", "Message", "Perm", "Role"]
