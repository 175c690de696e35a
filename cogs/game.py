"""Commands shared by every game: /game …, /settings and /help."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TabletopBot
from bot.board import jump_url, static_view
from bot.errors import UserError, send_ephemeral
from bot.games import BUTTON_PREFIX, custom_id
from bot.lobby import DEFAULT_LOBBY_TIMEOUT_S
from bot.models import Game, Status
from bot.names import escape_name
from bot.permissions import DEFAULT_END_RULE, END_RULES, is_manager, may_end, may_moderate
from bot.timers import DEFAULT_MAX_TIMEOUTS

MAX_LOG_LINES = 15


class GameCommands(commands.GroupCog, group_name="game", group_description="The game in this channel."):
    """``/game status|rules|end|leave|kick|log|history``."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def runner(self):
        return self.bot.runner

    async def live(self, interaction: discord.Interaction) -> Game:
        """The lobby or game in this channel, or a UserError saying there is none."""
        game = await self.bot.db.live_game(interaction.channel_id)
        if game is None:
            raise UserError("There is no game in this channel. Start one with a game's `new` command.")
        return game

    @app_commands.command(name="status", description="Show the current board again.")
    async def status(self, interaction: discord.Interaction) -> None:
        """Post the board again; it becomes the current board."""
        game = await self.live(interaction)
        if game.status is Status.LOBBY:
            url = jump_url(game)
            await send_ephemeral(
                interaction, f"The lobby is open: [join here]({url})." if url else "The lobby is open."
            )
            return
        await self.runner.repost(game.id, interaction)

    @app_commands.command(name="rules", description="How to play the game in this channel, with its options.")
    async def rules(self, interaction: discord.Interaction) -> None:
        """A short summary of the game and the options in force (private)."""
        game = await self.live(interaction)
        spec = self.runner.spec(game.kind)
        options = self.runner.options_of(game)
        embed = discord.Embed(title=spec.engine.title, description=spec.rules_summary()[:4000])
        embed.add_field(name="Options in force", value=spec.describe_options(options)[:1024] or "defaults")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="end", description="End the game in this channel (host or Manage Server).")
    async def end(self, interaction: discord.Interaction) -> None:
        """Ask to confirm ending the game, if the server's rule allows this member."""
        game = await self.live(interaction)
        rule = await self.end_rule(interaction)
        if not may_end(game, interaction, rule):
            raise UserError(f"On this server, games are ended by {END_RULES[rule]}.")
        await self.confirm(interaction, game, "end", "End the game for everyone?", "Yes, end it")

    async def end_rule(self, interaction: discord.Interaction) -> str:
        """The server's rule for who may end games."""
        settings = await self.bot.db.guild_settings(interaction.guild_id) if interaction.guild_id else {}
        return settings.get("end_by", DEFAULT_END_RULE)

    @app_commands.command(name="leave", description="Leave the game in this channel.")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Ask to confirm leaving a running game."""
        game = await self.live(interaction)
        if game.seat_of_user(interaction.user.id) is None:
            raise UserError("You're not playing in this game.")
        if game.status is Status.LOBBY:
            raise UserError("Use the lobby's Leave button.")
        await self.confirm(interaction, game, "leave", "Leave this game? You can't come back to it.", "Yes, leave")

    async def confirm(self, interaction: discord.Interaction, game: Game, what: str, text: str, label: str) -> None:
        """An ephemeral question with one confirm button, routed like any board button."""
        button = discord.ui.Button(
            label=label, style=discord.ButtonStyle.danger, custom_id=custom_id(BUTTON_PREFIX, game, f"confirm_{what}")
        )
        await interaction.response.send_message(text, view=static_view([[button]]), ephemeral=True)

    @app_commands.command(name="kick", description="Remove a player from the game (host or Manage Server).")
    @app_commands.describe(member="The player to remove.")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Remove a player from the lobby or the running game."""
        game = await self.live(interaction)
        if not may_moderate(game, interaction):
            raise UserError(f"Only the host, <@{game.host_id}>, or someone with Manage Server can kick players.")
        if game.seat_of_user(member.id) is None:
            raise UserError(f"{escape_name(member.display_name)} is not in this game.")
        await self.runner.kick(interaction, game, member.id)

    @app_commands.command(name="log", description="What happened recently in this channel's game.")
    async def log(self, interaction: discord.Interaction) -> None:
        """The last events of this channel's game, narrated (private)."""
        game = await self.live(interaction)
        spec = self.runner.spec(game.kind)
        lines: list[str] = []
        for entry in await self.bot.db.log_entries(game.id, last=MAX_LOG_LINES):
            if entry.action.get("how") == "timeout" and entry.actor:
                lines.append(f"⏰ Time ran out for {escape_name(game.name_of(entry.actor))}; the bot chose for them.")
            lines += spec.narrate(game, entry.events)
        text = "\n".join(f"• {line}" for line in lines[-MAX_LOG_LINES:]) or "Nothing has happened yet."
        await send_ephemeral(interaction, text[:2000])

    @app_commands.command(name="history", description="Recent games and their winners.")
    @app_commands.describe(scope="This channel (default) or the whole server.")
    @app_commands.choices(
        scope=[app_commands.Choice(name="channel", value="channel"), app_commands.Choice(name="server", value="server")]
    )
    async def history(self, interaction: discord.Interaction, scope: str = "channel") -> None:
        """Recent finished games, with winners (private)."""
        games = await self.bot.db.history(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id if scope == "channel" else None,
            limit=10,
        )
        lines = []
        for game in games:
            title = self.runner.specs[game.kind].engine.title if game.kind in self.runner.specs else game.kind
            if game.status is Status.FINISHED:
                names = ", ".join(escape_name(game.name_of(p)) for p in game.winners or [])
                result = f"won by **{names}**"
            else:
                result = "ended early"
            lines.append(f"<t:{int(game.updated_at)}:d> · {title} · {result} · <#{game.channel_id}>")
        await send_ephemeral(interaction, "\n".join(lines) or "No finished games yet.")


class BotCommands(commands.Cog):
    """``/settings`` and ``/help``."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Server defaults for games (Manage Server only).")
    @app_commands.describe(
        lobby_minutes="How long an unstarted lobby stays open.",
        turn_seconds="Default time for each decision in new games (a game's own option wins).",
        max_timeouts="Missed decisions in a row before a computer (or nobody) takes the seat.",
        threads="Start each new game in its own thread.",
        end_by="Who may end a game early.",
    )
    @app_commands.choices(
        end_by=[app_commands.Choice(name=text, value=rule) for rule, text in END_RULES.items()],
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        lobby_minutes: app_commands.Range[int, 1, 1440] | None = None,
        turn_seconds: app_commands.Range[int, 30, 86400] | None = None,
        max_timeouts: app_commands.Range[int, 1, 20] | None = None,
        threads: bool | None = None,
        end_by: str | None = None,
    ) -> None:
        """Show the server's game settings, changing the ones given."""
        if not is_manager(interaction):
            raise UserError("Only members with Manage Server can change these settings.")
        assert interaction.guild_id is not None
        data: dict[str, Any] = await self.bot.db.guild_settings(interaction.guild_id)
        changes = {
            "lobby_timeout_s": None if lobby_minutes is None else lobby_minutes * 60,
            "turn_timeout_s": turn_seconds,
            "max_timeouts": max_timeouts,
            "threads": threads,
            "end_by": end_by,
        }
        changes = {k: v for k, v in changes.items() if v is not None}
        if changes:
            data |= changes
            await self.bot.db.set_guild_settings(interaction.guild_id, data)
        turn = data.get("turn_timeout_s")
        lines = [
            f"Lobbies close after **{data.get('lobby_timeout_s', DEFAULT_LOBBY_TIMEOUT_S) // 60} min**.",
            f"Decision timer: **{f'{turn} s' if turn else 'each game’s default'}**.",
            f"A seat is taken over after **{data.get('max_timeouts', DEFAULT_MAX_TIMEOUTS)}** missed decisions.",
            f"New games start **{'in their own thread' if data.get('threads') else 'in the channel'}**.",
            f"Games can be ended by **{END_RULES[data.get('end_by', DEFAULT_END_RULE)]}**.",
        ]
        await send_ephemeral(interaction, ("Saved. " if changes else "") + "\n".join(lines))

    @app_commands.command(name="help", description="What this bot can do.")
    async def help(self, interaction: discord.Interaction) -> None:
        """What the bot can do (private)."""
        games = "\n".join(f"• `/{kind} new` — {spec.engine.title}" for kind, spec in self.bot.runner.specs.items())
        text = (
            "**Tabletop games in chat**\n"
            f"{games or '• (no games loaded)'}\n"
            "• `/roll` — roll dice, e.g. `/roll 4d6kh3`\n"
            "• `/game status | rules | log | leave | end | kick | history` — the game in this channel\n"
            "• `/settings` — server defaults (Manage Server)"
        )
        await send_ephemeral(interaction, text)


async def setup(bot: TabletopBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(GameCommands(bot))
    await bot.add_cog(BotCommands(bot))
