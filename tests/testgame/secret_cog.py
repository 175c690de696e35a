"""A race whose engine has ``HiddenInformation`` (nothing is hidden, but the core can't know): a game /game review
must refuse, since a review would replay every seat's secrets. ``/secretrace new``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TabletopBot
from bot.registry import GameKind
from bot.replies import PUBLIC_ANSWER, Reply
from rules.engine import Viewer
from tests.testgame.cog import RaceSpec
from tests.testgame.engine import RaceEngine, RaceOptions, RaceState


class SecretRaceEngine(RaceEngine):
    kind = "secretrace"
    title = "Secret race"

    def view(self, state: RaceState, viewer: Viewer) -> RaceState:
        return state


class SecretRaceSpec(RaceSpec):
    kind = GameKind(SecretRaceEngine())


@app_commands.guild_only()
class SecretRaceCog(commands.GroupCog, group_name="secretrace", group_description="A race with secrets (tests)."):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        bot.register(SecretRaceSpec())
        super().__init__()

    @app_commands.command(name="new", description="Open a secret race lobby.", extras=PUBLIC_ANSWER)
    async def new(self, interaction: discord.Interaction, bots: app_commands.Range[int, 0, 3] = 0) -> None:
        await self.bot.lobby.open(Reply.of(interaction), "secretrace", RaceOptions(), computers=bots)


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(SecretRaceCog(bot))
