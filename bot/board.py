"""Turning a game into a Discord message: the status line, mentions and controls."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot.games import Board
from bot.models import Game, Status
from bot.names import escape_name
from rules.engine import Prompt

MAX_CONTENT = 2000
MAX_ROWS = 5


def static_view(rows: list[list[discord.ui.Item[Any]]]) -> discord.ui.View | None:
    """A view holding the given rows, stopped so discord.py does not keep it in memory.

    Clicks are routed by the core's DynamicItems from the custom_id alone, which is what makes
    boards work after a restart; a stored view would only leak.
    """
    if not rows:
        return None
    if len(rows) > MAX_ROWS:
        raise ValueError(f"a message holds at most {MAX_ROWS} rows of components")
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows):
        for item in row:
            item.row = index
            view.add_item(item)
    view.stop()
    return view


def mention(game: Game, player: str) -> str:
    """A user mention for a human seat, the escaped name for a computer or a named table seat."""
    seat = game.seat_of_player(player)
    if seat.user_id is not None and not seat.computer:
        return f"<@{seat.user_id}>"
    return f"**{escape_name(seat.name)}**"


def who_must_act(game: Game, prompts: Iterable[Prompt]) -> str:
    """``@A to roll the dice (<t:…:R>); @B to choose who gets the dagger``."""
    deadlines = {(d.player, d.decision): d.at for d in game.deadlines}
    parts = []
    for prompt in prompts:
        part = f"{mention(game, prompt.player)} to {prompt.label}"
        at = deadlines.get((prompt.player, prompt.decision))
        if at is not None:
            part += f" (<t:{int(at)}:R>)"
        parts.append(part)
    return "; ".join(parts)


def status_line(game: Game, title: str, prompts: list[Prompt]) -> str:
    """The first line of every board: the game, and who must act by when (or the result)."""
    if game.status is Status.FINISHED:
        names = ", ".join(mention(game, p) for p in game.winners or [])
        return f"**{title}** · game over · 🏆 {names}"
    if game.status is Status.ABANDONED:
        return f"**{title}** · this game was ended."
    if not prompts:
        return f"**{title}**"
    return f"**{title}** · waiting for {who_must_act(game, prompts)}"


@dataclass
class Payload:
    """Keyword arguments for send/edit, plus who the message may ping."""

    content: str
    embeds: list[discord.Embed]
    view: discord.ui.View | None
    ping: list[int]

    def kwargs(self, *, pinging: bool) -> dict[str, Any]:
        """For ``send`` (``pinging``: a new message that should notify) or ``edit``."""
        users = [discord.Object(u) for u in self.ping] if pinging else []
        return {
            "content": self.content,
            "embeds": self.embeds,
            "view": self.view,
            "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False),
        }


def compose(game: Game, title: str, prompts: list[Prompt], board: Board, ping: list[int], note: str = "") -> Payload:
    """Build the message for a board; the status line always says who must act."""
    content = status_line(game, title, prompts)
    if note:
        content += "\n" + note
    if len(content) > MAX_CONTENT:
        content = content[: MAX_CONTENT - 1] + "…"
    return Payload(content=content, embeds=board.embeds, view=static_view(board.rows), ping=ping)


def jump_url(game: Game) -> str | None:
    """Link to the game's current board message."""
    if game.board_message_id is None:
        return None
    guild = game.guild_id if game.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}/{game.board_message_id}"


async def sent_message(
    interaction: discord.Interaction, response: discord.InteractionCallbackResponse
) -> discord.InteractionMessage | discord.Message:
    """The message an interaction response created (asking Discord only if the response didn't say)."""
    if isinstance(response.resource, discord.InteractionMessage | discord.Message):
        return response.resource
    return await interaction.original_response()
