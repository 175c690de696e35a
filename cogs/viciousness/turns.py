"""``/vic turn start|end`` and ``/vic log``: the turn loop (RULES.md P2) and what happened in each turn.

The log is read from the session's own log (every action and its events), so it needs nothing kept in
the state; GM-only events reach only a GM's log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import InvalidInput
from bot.models import Session
from bot.replies import Reply
from cogs.viciousness.common import PUBLIC_REPLY, VicBase, viewer_of
from cogs.viciousness.narrate import narrate
from cogs.viciousness.rivals import rival_news
from cogs.viciousness.spec import UI
from cogs.viciousness.text import cut
from rules.engine import Viewer, visible
from rules.viciousness.actions import TurnEnd, TurnStart
from rules.viciousness.state import CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot

LOG_BUDGET = 5500
SETUP = 0


async def turns_of(bot: TabletopBot, session: Session, viewer: Viewer) -> dict[int, list[str]]:
    """What happened in each turn (0: before the first), as the viewer may read it, oldest first."""
    state = bot.service.state_of(session)
    assert isinstance(state, CampaignState)
    events: dict[int, list[dict[str, Any]]] = {SETUP: []}
    current = SETUP
    for entry in await bot.store.log_entries(session.id):
        for event in entry.events:
            if not visible(event, viewer):
                continue
            if event.get("type") == "turn_started":
                current = int(event["turn"])
                events[current] = []
            events[current].append(event)
    # A turn is narrated as a whole, so a pool's later events can name its sides as it was opened with.
    return {number: narrate(state, turn) for number, turn in events.items()}


def title(number: int) -> str:
    """A turn's heading."""
    return "Before the first turn" if number == SETUP else f"Turn {number}"


def log_embed(turns: dict[int, list[str]], only: int | None) -> discord.Embed:
    """The latest turns that fit (or one turn, as much of it as fits), newest last."""
    if only is not None:
        if only not in turns:
            raise InvalidInput(f"There is no turn {only} yet.")
        lines = turns[only] or ["Nothing happened."]
        return discord.Embed(title=title(only), description=cut("\n".join(lines), 4096))
    embed = discord.Embed(title="The campaign so far")
    used = 0
    shown: list[tuple[str, str]] = []
    for number in sorted(turns, reverse=True):
        value = cut("\n".join(turns[number]) or "Nothing happened.", 1024)
        if used + len(value) > LOG_BUDGET or len(shown) == 25:
            break
        shown.append((title(number), value))
        used += len(value) + len(title(number))
    for name, value in reversed(shown):
        embed.add_field(name=name, value=value, inline=False)
    if len(shown) < len(turns):
        embed.set_footer(text="Older turns: /vic log turn:<number>")
    return embed


async def _log(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """``Log`` on the company sheet: the latest turns, privately."""
    turns = await turns_of(bot, session, viewer_of(session, reply.interaction))
    await reply.send(embed=log_embed(turns, None), ephemeral=True)


UI["log"] = _log


class TurnCommands(VicBase):
    """``/vic turn start|end``, ``/vic log``."""

    turn = app_commands.Group(name="turn", description="Turns (GM)")

    @turn.command(name="start", description="Next turn: a coin per troupe", extras=PUBLIC_REPLY)
    async def turn_start(self, interaction: discord.Interaction) -> None:
        """Each character may then take one action."""
        applied = await self.act_and_tell(interaction, TurnStart())
        await rival_news(self.bot, interaction, applied)  # issue 12: the rivals' moves, privately to the GM

    @turn.command(name="end", description="End the turn", extras=PUBLIC_REPLY)
    async def turn_end(self, interaction: discord.Interaction) -> None:
        """Liquid coins stay; those who rested shake off being rattled and recover from wounds."""
        applied = await self.act_and_tell(interaction, TurnEnd())
        await rival_news(self.bot, interaction, applied)  # issue 12: the rivals' turn, privately to the GM

    @app_commands.command(name="log", description="What happened, by turn")
    async def log(
        self, interaction: discord.Interaction, turn: app_commands.Range[int, 0, 100000] | None = None
    ) -> None:
        """GM-only events appear only in a GM's log."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        turns = await turns_of(self.bot, session, viewer_of(session, interaction))
        await reply.send(embed=log_embed(turns, turn))
