"""Discord side of the test game: ``/race new`` and a board with Roll / Take / Leave it buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TabletopBot
from bot.errors import UserError
from bot.games import Board, BoardContext, LobbyOption
from bot.models import Game
from tests.testgame.engine import RaceEngine, RaceOptions, RaceState


class RaceSpec:
    engine = RaceEngine()
    has_computer_players = True
    lobby_options = (LobbyOption("target", "Target score", (("10", 10), ("20", 20), ("30", 30))),)

    def render(self, ctx: BoardContext) -> Board:
        state: RaceState = ctx.state  # type: ignore[assignment]
        scores = "\n".join(f"{ctx.name(p)}: {state.scores[p]}" for p in state.players)
        embed = discord.Embed(title=f"Race to {state.target}", description=scores)
        news = self.narrate(ctx.game, ctx.events)
        if news:
            embed.add_field(name="Just now", value="\n".join(news)[:1024])
        rows: list[list[Any]] = []
        if ctx.prompts:
            if state.pending_steal:
                rows.append([ctx.button("take", "Take a point"), ctx.button("leave", "Leave it")])
            else:
                rows.append([ctx.button("roll", "Roll", style=discord.ButtonStyle.primary, emoji="🎲")])
        elif ctx.game.status == "finished":
            rows.append([ctx.button("rematch", "Rematch", style=discord.ButtonStyle.success)])
        return Board(embeds=[embed], rows=rows)

    def action_for(self, ctx: BoardContext, player: str, key: str, arg: str, values: list[str]) -> dict[str, Any]:
        actions = {"roll": {"type": "roll"}, "take": {"type": "steal", "take": True}}
        actions["leave"] = {"type": "steal", "take": False}
        if key not in actions:
            raise UserError("That button is not part of this game.")
        return actions[key]

    def narrate(self, game: Game, events: list[dict[str, Any]]) -> list[str]:
        lines = []
        for e in events:
            name = discord.utils.escape_markdown(game.name_of(e["player"])) if "player" in e else ""
            if e["type"] == "rolled":
                lines.append(f"{name} rolled {e['value']}.")
            elif e["type"] == "steal":
                lines.append(f"{name} {'took' if e['take'] else 'left'} a point.")
            elif e["type"] == "won":
                lines.append(f"{name} wins!")
            elif e["type"] == "left":
                lines.append(f"{name} left.")
        return lines

    def describe_options(self, options: RaceOptions) -> str:  # type: ignore[override]
        return f"Target: {options.target}\nTurn timeout: {options.timeouts.get('turn')} s"

    def rules_summary(self) -> str:
        return "Roll a d6 on your turn; first to the target wins. After a 1, the next player may take a point."


class RaceCog(commands.GroupCog, group_name="race", group_description="A tiny race game (tests)."):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        bot.runner.register(RaceSpec())
        super().__init__()

    @app_commands.command(name="new", description="Open a race lobby.")
    @app_commands.describe(target="Score to reach.", bots="Computer players.", timeout="Seconds per turn.")
    async def new(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[int, 2, 100] = 10,
        bots: app_commands.Range[int, 0, 3] = 0,
        timeout: app_commands.Range[int, 10, 3600] | None = None,
        seating: str = "join",
        thread: bool | None = None,
    ) -> None:
        options = RaceOptions(target=target)
        await self.bot.runner.lobby.open(
            interaction, "race", options, computers=bots, seating=seating, thread=thread, turn_timeout=timeout
        )


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(RaceCog(bot))
