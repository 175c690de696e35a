"""Discord side of secret dice: ``/secret new``, a board with a bid menu, Call, and "Your die" (private)."""

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
from bot.spec import Choice, GameSpec, View, ViewContext
from tests.secret.engine import ENGINE, Bid, Call, Reroll, SecretOptions, SecretState

HIDDEN = "🎲 hidden"


class SecretSpec(GameSpec[SecretState]):
    kind = GameKind(ENGINE)

    def render(self, ctx: ViewContext[SecretState]) -> View:
        state = ctx.state
        lines = [f"{ctx.name(p)}: {HIDDEN if state.dice[p] is None else f'🎲 {state.dice[p]}'}" for p in state.players]
        bid = f"Last bid: **{state.bid}** by {ctx.name(state.bidder)}" if state.bidder else "No bid yet."
        embed = discord.Embed(title="Secret dice", description="\n".join([*lines, bid]))
        mine = state.dice.get(ctx.viewer.id or "")
        if mine is not None and not state.revealed:  # drawn for one player only: send_private
            embed.add_field(name="Only you see this", value=f"Your die shows **{mine}**.")
        news = self.narrate(ctx.session, ctx.events)
        if news:
            embed.add_field(name="Just now", value="\n".join(news)[-1024:], inline=False)
        rows: list[list[Any]] = []
        if ctx.prompts and ctx.viewer.id is None:  # controls on the channel's board only
            legal = ENGINE.legal_actions(state, ctx.prompts[0].player)
            bids = [Choice(f"At least {a.total}", a) for a in legal if isinstance(a, Bid)]
            if bids:
                rows.append([ctx.select(bids, placeholder="Bid: the dice add up to at least…")])
            buttons = [ctx.core_button("Your die", "private", emoji="👁️")]
            if any(isinstance(a, Reroll) for a in legal):
                buttons.insert(0, ctx.button("Reroll my die", Reroll(), emoji="🎲"))
            if any(isinstance(a, Call) for a in legal):
                buttons.insert(0, ctx.button("Call", Call(), style=discord.ButtonStyle.danger))
            rows.append(buttons)
        elif ctx.over and ctx.viewer.id is None:
            rows.append([ctx.core_button("Rematch", "rematch")])
        return View(embeds=[embed], rows=rows)

    def retired(self, ctx: ViewContext[SecretState]) -> str:
        return " ".join(self.narrate(ctx.session, ctx.events)) or "nothing happened."

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        lines = []
        for e in events:
            name = escape_name(session.name_of(e["player"])) if "player" in e else ""
            if e["type"] == "rolled":  # only its owner sees this event
                lines.append(f"{name} rolled a secret {e['value']}.")
            elif e["type"] == "rerolled":
                lines.append(f"{name} rerolls their die.")
            elif e["type"] == "bid":
                lines.append(f"{name} bids at least {e['total']}.")
            elif e["type"] == "called":
                faces = ", ".join(f"{escape_name(session.name_of(p))} {v}" for p, v in e["dice"].items())
                lines.append(f"{name} calls! The dice: {faces} (total {e['total']}).")
            elif e["type"] == "won":
                lines.append(f"{name} wins!")
            elif e["type"] == "left":
                lines.append(f"{name} left the game.")
        return lines

    def describe_options(self, options: BaseModel) -> str:
        assert isinstance(options, SecretOptions)
        return f"Turn timeout: {options.timeouts.get('turn')} s"

    def rules_summary(self) -> str:
        return (
            "Everyone rolls a secret d6. Bid on the total of all dice, higher each time, or call the last bid. "
            "Once a game you may reroll your die first."
        )


@app_commands.guild_only()
class SecretCog(commands.GroupCog, group_name="secret", group_description="Secret dice (tests)."):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        bot.register(SecretSpec())
        super().__init__()

    @app_commands.command(name="new", description="Open a secret dice lobby.", extras=PUBLIC_ANSWER)
    @app_commands.describe(timeout="Seconds per turn.")
    async def new(
        self, interaction: discord.Interaction, timeout: app_commands.Range[int, 10, 3600] | None = None
    ) -> None:
        await self.bot.lobby.open(Reply.of(interaction), "secret", SecretOptions(), turn_timeout=timeout)


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(SecretCog(bot))
