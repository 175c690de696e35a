"""Who may do what to a game, beyond taking their own turn."""

from __future__ import annotations

import discord

from bot.models import Game

# /settings end_by: who may end a game early.
END_RULES = {
    "host": "the host or members with Manage Server",
    "players": "any player, the host or members with Manage Server",
    "managers": "members with Manage Server",
}
DEFAULT_END_RULE = "host"


def is_manager(interaction: discord.Interaction) -> bool:
    """Members with Manage Server may moderate any game."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


def may_end(game: Game, interaction: discord.Interaction, rule: str) -> bool:
    """Whether the user may end ``game`` under the server's ``rule``."""
    if is_manager(interaction):
        return True
    user_id = interaction.user.id
    if rule == "managers":
        return False
    if rule == "players" and game.seat_of_user(user_id) is not None:
        return True
    return user_id == game.host_id


def may_moderate(game: Game, interaction: discord.Interaction) -> bool:
    """Kicking players: the host or a member with Manage Server."""
    return interaction.user.id == game.host_id or is_manager(interaction)
