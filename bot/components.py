"""Restart-safe buttons and selects: everything needed to route a click is in its custom_id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.errors import report_error

if TYPE_CHECKING:
    from bot.app import TabletopBot

_TEMPLATE = r"(?P<game>\d+):(?P<version>\d+):(?P<key>[a-z0-9_]+)(?::(?P<arg>[^:]*))?"


async def _route(interaction: discord.Interaction, match: dict[str, str], values: list[str]) -> None:
    bot: TabletopBot = interaction.client  # type: ignore[assignment]
    try:
        await bot.runner.route(
            interaction,
            int(match["game"]),
            int(match["version"]),
            match["key"],
            match.get("arg") or "",
            values,
        )
    except Exception as exc:
        await report_error(interaction, exc)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"g:{_TEMPLATE}"):
    """Any button on a game or lobby board."""

    def __init__(self, button: discord.ui.Button[Any], groups: dict[str, str]) -> None:
        super().__init__(button)
        self.groups = groups

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> GameButton:
        return cls(discord.ui.Button(custom_id=item.custom_id), match.groupdict())  # type: ignore[attr-defined]

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.groups, [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"gs:{_TEMPLATE}"):
    """Any select menu on a game board."""

    def __init__(self, select: discord.ui.Select[Any], groups: dict[str, str]) -> None:
        super().__init__(select)
        self.groups = groups

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any, /
    ) -> GameSelect:
        return cls(discord.ui.Select(custom_id=item.custom_id), match.groupdict())  # type: ignore[attr-defined]

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await _route(interaction, self.groups, values)
