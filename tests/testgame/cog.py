"""Discord side of the test game: ``/race new`` and a board with Roll / Take / Leave it buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TabletopBot
from bot.models import Session
from bot.names import escape_name
from bot.registry import GameKind
from bot.replies import PUBLIC_ANSWER, Reply
from bot.spec import FaceLuck, GameSpec, LobbyOption, View, ViewContext
from tests.testgame.engine import RaceEngine, RaceOptions, RaceState, Roll, Steal


class RaceSpec(GameSpec[RaceState]):
    kind = GameKind(RaceEngine())
    luck_faces = (FaceLuck("🎯 sixes", 6, 6),)  # /stats luck tells how often its d6 showed a six
    lobby_options = (LobbyOption("target", "Target score", (("10", 10), ("20", 20), ("30", 30))),)

    def render(self, ctx: ViewContext[RaceState]) -> View:
        state = ctx.state
        scores = "\n".join(f"{ctx.name(p)}: {state.scores[p]}" for p in state.players)
        embed = discord.Embed(title=f"Race to {state.target}", description=scores)
        news = self.narrate(ctx.session, ctx.events)
        if news:
            embed.add_field(name="Just now", value="\n".join(news)[-1024:])
        rows: list[list[Any]] = []
        if ctx.prompts:
            if state.pending_steal:
                rows.append([ctx.button("Take a point", Steal(take=True)), ctx.button("Leave it", Steal(take=False))])
            else:
                rows.append([ctx.button("Roll", Roll(), style=discord.ButtonStyle.primary, emoji="🎲")])
        elif ctx.over:
            rows.append([ctx.core_button("Rematch", "rematch")])
        return View(embeds=[embed], rows=rows)

    def retired(self, ctx: ViewContext[RaceState]) -> str:
        return " ".join(self.narrate(ctx.session, ctx.events)) or "nothing happened."

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        lines = []
        for e in events:
            name = escape_name(session.name_of(e["player"])) if "player" in e else ""
            if e["type"] == "rolled":
                lines.append(f"{name} rolled {e['value']}.")
            elif e["type"] == "steal":
                lines.append(f"{name} {'took' if e['take'] else 'left'} a point.")
            elif e["type"] == "won":
                lines.append(f"{name} wins!")
            elif e["type"] == "left":
                lines.append(f"{name} left the game.")
        return lines

    def describe_options(self, options: BaseModel) -> str:
        assert isinstance(options, RaceOptions)
        return f"Target: {options.target}\nTurn timeout: {options.timeouts.get('turn')} s"

    def rules_summary(self) -> str:
        return "Roll a d6 on your turn; first to the target wins. After a 1, the next player may take a point."


@app_commands.guild_only()
class RaceCog(commands.GroupCog, group_name="race", group_description="A tiny race game (tests)."):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        bot.register(RaceSpec())
        super().__init__()

    @app_commands.command(name="new", description="Open a race lobby.", extras=PUBLIC_ANSWER)
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
        await self.bot.lobby.open(
            Reply.of(interaction), "race", options, computers=bots, seating=seating, thread=thread, turn_timeout=timeout
        )


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(RaceCog(bot))
