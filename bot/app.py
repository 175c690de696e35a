"""The bot object: opens storage, loads the cogs, syncs the command tree."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.settings import Settings
from bot.storage import Database

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("cogs.meta",)


class TabletopBot(commands.Bot):
    """A discord.py bot with a database and the game cogs."""

    def __init__(self, settings: Settings, *, extensions: tuple[str, ...] = EXTENSIONS, **options) -> None:
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

    async def setup_hook(self) -> None:
        await self.db.open()
        for name in self.extensions_to_load:
            await self.load_extension(name)
        if not self.settings.skip_sync:
            await self.sync_commands()

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
        await super().close()
        await self.db.close()
