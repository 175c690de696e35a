"""A protocol-level local Discord (HTTP API + Gateway) for end-to-end tests of the unmodified bot."""

from tests.fakediscord.guild import Channel, ChannelType, Member, Perm, Role
from tests.fakediscord.interactions import InteractionResult
from tests.fakediscord.messages import Message
from tests.fakediscord.server import FakeDiscord

__all__ = ["Channel", "ChannelType", "FakeDiscord", "InteractionResult", "Member", "Message", "Perm", "Role"]
