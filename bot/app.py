"""The bot object: opens storage, loads the cogs, syncs the command tree."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.clock import Clock, SystemClock
from bot.components import GameButton, GameSelect
from bot.errors import report_error
from bot.runner import GameRunner
from bot.settings import Settings
from bot.storage import Database

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("cogs.meta", "cogs.game", "cogs.dice", "cogs.crowns")


class TabletopBot(commands.Bot):
    """A discord.py bot with a database and the game cogs."""

    def __init__(
        self,
        settings: Settings,
        *,
        extensions: tuple[str, ...] = EXTENSIONS,
        clock: Clock | None = None,
        **options: Any,
    ) -> None:
        # No privileged intents: everything happens through interactions.
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            help_command=None,
            **options,
        )
        self.settings = settings
        self.extensions_to_load = extensions
        self.db = Database(settings.database_path)
        self.runner = GameRunner(self, clock or SystemClock())
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        await self.db.open()
        self.add_dynamic_items(GameButton, GameSelect)
        for name in self.extensions_to_load:
            await self.load_extension(name)
        if not self.settings.skip_sync:
            await self.sync_commands()
        self.runner.start()

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Slash command errors: a short ephemeral reason, or an error id for the unexpected."""
        await report_error(interaction, error)

    async def sync_commands(self) -> None:
        """Publish the slash commands: to the dev guild instantly if set, else globally."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("Synced %d commands", len(synced))

    async def close(self) -> None:
        await self.runner.close()
        await super().close()
        await self.db.close()
