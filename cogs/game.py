"""Commands shared by every table game: /game …, /settings and /help."""

from __future__ import annotations

import asyncio
import functools
import io
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TabletopBot
from bot.errors import NoSession, NotPermitted, NotPlaying, UserError
from bot.i18n import N_, _, localize
from bot.lobby import actor_of
from bot.models import MAIN_VIEW, GuildSettings, Scope, Session, Status, viewer_of
from bot.names import clip, escape_name, user_mention
from bot.permissions import END_RULES, may_end, may_moderate
from bot.pictures import PictureWorker
from bot.replies import PUBLIC_ANSWER, Reply
from bot.review import review_text, run_review, shown_players, smoothed
from bot.review_chart import alt_text, draw_review_chart
from bot.spec import GameSpec
from rules.engine import visible
from rules.review import NotReviewable, Review, check_reviewable

MAX_LOG_LINES = 15
KEPT_REVIEWS = 8
CLEARED = N_(
    "This game's move-by-move log was cleared, as this server's settings ask; `/game history` keeps its result."
)
REMOVED_BY_HOST = N_("was removed from the game by the host")
REMOVED_BY_MODERATOR = N_("was removed from the game by a moderator")


@app_commands.guild_only()
class GameCommands(commands.GroupCog, group_name="game", group_description="The game in this channel."):
    """``/game status|rules|end|leave|kick|log|history``."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.worker = PictureWorker()
        """Reviews and their charts are worked out here, off the event loop."""
        self.reviews: dict[tuple[int, int], Review] = {}
        """The latest reviews by session and last log entry: asked again (shown publicly, say), not worked again."""
        super().__init__()

    async def cog_unload(self) -> None:
        """Stop the review worker."""
        await asyncio.to_thread(self.worker.close)

    async def live(self, interaction: discord.Interaction) -> Session:
        """The lobby or table session in this channel, or a UserError saying there is none."""
        assert interaction.channel_id is not None
        session = await self.bot.service.live_table(interaction.channel_id)
        if session is None:
            raise NoSession(_("There is no game in this channel. Start one with a game's `new` command."))
        return session

    async def table_or_campaign(self, interaction: discord.Interaction) -> Session:
        """The table game in this channel, else the channel's campaign (its rules are asked for the same way)."""
        assert interaction.channel_id is not None
        try:
            return await self.live(interaction)
        except NoSession:
            campaign = await self.bot.service.campaign(interaction.channel_id, interaction.guild_id)
            if campaign is None:
                raise
            return campaign

    @app_commands.command(name="status", description="Show the current board again.", extras=PUBLIC_ANSWER)
    async def status(self, interaction: discord.Interaction) -> None:
        """Players get the board posted again (it becomes the board); anyone else a private copy."""
        reply = Reply.of(interaction)
        session = await self.table_or_campaign(interaction)
        if session.scope is Scope.CAMPAIGN:  # a campaign's sheet is everyone's to bring back down
            await self.bot.publisher.post_view(session, MAIN_VIEW, reply)
            return
        if session.status is Status.LOBBY:
            await reply.send(await self.bot.lobby.jump(session), ephemeral=True)
            return
        actor = actor_of(interaction)
        if session.seat_of_user(actor.user_id) is None:
            await self.bot.publisher.send_private(reply, session, viewer_of(session, actor))
            return
        await self.bot.publisher.post_view(session, MAIN_VIEW, reply)

    @app_commands.command(name="rules", description="How to play a game, with the options in force here.")
    @app_commands.describe(game="Which game (default: the one in this channel).")
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """A short summary of a game and, for the game in this channel, the options in force (private)."""
        reply = Reply.of(interaction)
        session = None if game else await self.table_or_campaign(interaction)
        kind_name = game or (session.kind if session else "")
        if kind_name not in self.bot.specs:
            raise UserError(_("I don't know that game. Pick one from the list."))
        spec = self.bot.specs[kind_name]
        embed = discord.Embed(title=spec.kind.title, description=clip(localize(spec.rules_summary()), 4000))
        if spec.legend:
            embed.add_field(name=_("Key"), value=clip(localize(spec.legend), 1024), inline=False)
        if session is not None:
            described = clip(localize(spec.describe_options(spec.options_of(session))), 1024)
            embed.add_field(name=_("Options in force"), value=described or _("defaults"))
        await reply.send(embed=embed, ephemeral=True)

    @rules.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=spec.kind.title, value=kind)
            for kind, spec in self.bot.specs.items()
            if current.lower() in spec.kind.title.lower()
        ][:25]

    @app_commands.command(name="end", description="End the game in this channel.")
    async def end(self, interaction: discord.Interaction) -> None:
        """Ask to confirm ending the game, if the server's rule allows this member."""
        reply = Reply.of(interaction)
        session = await self.live(interaction)
        rule = await self.end_rule(interaction)
        if not may_end(session, actor_of(interaction), rule):
            raise NotPermitted(_("On this server, games are ended by {who}.", who=_(END_RULES[rule])))
        await self.bot.interactions.confirm(reply, session, "end")

    async def end_rule(self, interaction: discord.Interaction) -> str:
        """The server's rule for who may end games."""
        return (await self.settings_of(interaction)).end_by

    async def settings_of(self, interaction: discord.Interaction) -> GuildSettings:
        """The server's settings (defaults outside a server)."""
        if interaction.guild_id is None:
            return GuildSettings()
        return await self.bot.store.guild_settings(interaction.guild_id)

    @app_commands.command(name="leave", description="Leave the game in this channel.")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Ask to confirm leaving a running game (a lobby has its own Leave button)."""
        reply = Reply.of(interaction)
        session = await self.live(interaction)
        if session.seat_of_user(interaction.user.id) is None:
            raise NotPlaying(_("You're not playing in this game."))
        if session.status is Status.LOBBY:
            raise UserError(_("Use the lobby's Leave button."))
        await self.bot.interactions.confirm(reply, session, "leave")

    @app_commands.command(name="kick", description="Remove a player from the game (host or Manage Server).")
    @app_commands.describe(player="The player to remove (computer players too).")
    async def kick(self, interaction: discord.Interaction, player: str) -> None:
        """Remove a player (a member or a computer seat) from the lobby or the running game."""
        reply = Reply.of(interaction)
        session = await self.live(interaction)
        actor = actor_of(interaction)
        if not may_moderate(session, actor):
            raise NotPermitted(
                _(
                    "Only the host, {host}, or someone with Manage Server can kick players.",
                    host=user_mention(session.host_id),
                )
            )
        seat = next((s for s in session.seats if not s.left and _seat_key(s) == player), None)
        if seat is None:
            raise NotPlaying(_("That player is not in this game. Pick one from the list."))
        why = REMOVED_BY_HOST if actor.user_id == session.host_id else REMOVED_BY_MODERATOR
        name = escape_name(seat.name)
        if session.status is Status.LOBBY:
            await self.bot.lobby.change(session.id, actor, lambda s, a: self.bot.lobby.drop(s, _seat_key(seat)), None)
        else:
            await self.bot.service.remove_player(session.id, seat.player, actor=actor, why=why)
        await reply.send(_("{name} was removed from the game.", name=name), ephemeral=True)

    @kick.autocomplete("player")
    async def _seated(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        assert interaction.channel_id is not None
        session = await self.bot.service.live_table(interaction.channel_id)
        if session is None:
            return []
        return [
            app_commands.Choice(
                name=clip(_("{name} (computer)", name=s.name) if s.computer else s.name, 100), value=_seat_key(s)
            )
            for s in session.seats
            if not s.left and current.lower() in s.name.lower()
        ][:25]

    @app_commands.command(name="log", description="What happened recently in this channel's game.")
    async def log(self, interaction: discord.Interaction) -> None:
        """The last events of this channel's game (its campaign's, when no table game runs here), or of the last one
        to end here, narrated, as this member may see them (private)."""
        reply = Reply.of(interaction)
        assert interaction.channel_id is not None
        session = await self.bot.service.live_table(interaction.channel_id)
        if session is None:  # the channel's campaign, else a game that has just ended: still worth reading back
            session = await self.bot.service.campaign(interaction.channel_id, interaction.guild_id)
        if session is None:
            ended = await self.bot.store.history(guild_id=None, channel_id=interaction.channel_id, limit=1)
            session = ended[0] if ended else await self.live(interaction)  # live() says there is none
        spec = self.bot.specs[session.kind]
        viewer = viewer_of(session, actor_of(interaction))
        lines: list[str] = []
        for entry in await self.bot.store.log_entries(session.id, last=MAX_LOG_LINES):
            if entry.action.get("how") == "timeout" and entry.actor:
                name = escape_name(self.bot.service.display_name(session, entry.actor))
                lines.append(_("⏰ Time ran out for {name}; the bot chose for them.", name=name))
            lines += map(localize, spec.narrate(session, [e for e in entry.events if visible(e, viewer)]))
        nothing = _(CLEARED) if session.log_cleared_at is not None else _("Nothing has happened yet.")
        text = "\n".join(f"• {line}" for line in lines[-MAX_LOG_LINES:]) or nothing
        await reply.send(text[:2000], ephemeral=True)

    @app_commands.command(name="history", description="Recent games and their winners.")
    @app_commands.describe(scope="This channel (default) or the whole server.")
    @app_commands.choices(
        scope=[app_commands.Choice(name="channel", value="channel"), app_commands.Choice(name="server", value="server")]
    )
    async def history(self, interaction: discord.Interaction, scope: str = "channel") -> None:
        """Recent finished games, with winners (private)."""
        reply = Reply.of(interaction)
        sessions = await self.bot.store.history(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id if scope == "channel" else None,
            limit=10,
        )
        lines = []
        for session in sessions:
            spec = self.bot.specs.get(session.kind)
            title = spec.kind.title if spec else session.kind
            if session.status is Status.FINISHED:
                names = ", ".join(escape_name(session.name_of(p)) for p in session.winners or [])
                result = _("won by **{names}**", names=names)
            else:
                result = _("ended early")
            lines.append(f"<t:{int(session.updated_at)}:d> · {title} · {result} · <#{session.channel_id}>")
        lines += await self.campaigns(interaction, scope)
        await reply.send("\n".join(lines)[:2000] or _("No finished games yet."), ephemeral=True)

    async def reviewable(self, interaction: discord.Interaction) -> list[Session]:
        """This channel's table game, then its recent finished ones: the games /game review offers."""
        assert interaction.channel_id is not None
        live = await self.bot.service.live_table(interaction.channel_id)
        ended = await self.bot.store.history(guild_id=None, channel_id=interaction.channel_id, limit=10)
        return [s for s in ([live] if live and live.status is not Status.LOBBY else []) + ended]

    @app_commands.command(name="review", description="Why you won or lost: your decisions rated, skill and luck.")
    @app_commands.describe(
        game="Which game (default: this channel's latest).", public="Show it to the channel (default: only you)."
    )
    async def review(self, interaction: discord.Interaction, game: str | None = None, public: bool = False) -> None:
        """Each player's decisions rated by simulated games: private unless asked, one's own only while it runs."""
        reply = Reply.of(interaction)
        await reply.defer(private=not public)  # a review takes seconds
        sessions = await self.reviewable(interaction)
        session = next((s for s in sessions if game is None or str(s.id) == game), None)
        if session is None:
            raise NoSession(_("There's no game to review in this channel. Pick one from the list."))
        spec = self.bot.specs.get(session.kind)
        if spec is None:
            raise UserError(_("This game is no longer on this bot."))
        try:
            check_reviewable(spec.kind.engine)
        except NotReviewable as refused:
            raise UserError(refused.reason) from None
        if session.log_cleared_at is not None:
            raise UserError(_(CLEARED))
        seat = next((s for s in session.seats if s.user_id == interaction.user.id), None)
        running = session.status is Status.ACTIVE
        if running and seat is None:
            raise NotPlaying(_("You're not playing in this game: its review opens to everyone once it ends."))
        entries = await self.bot.store.log_entries(session.id)
        key = (session.id, entries[-1].seq if entries else 0)
        found = self.reviews.get(key)
        if found is None:
            found = await self.worker.run(functools.partial(run_review, spec.kind, session.engine_options, entries))
            self.reviews = {**dict(list(self.reviews.items())[-(KEPT_REVIEWS - 1) :]), key: found}
        player = None if seat is None else seat.player
        names = {s.player: escape_name(s.name) for s in session.seats}
        narrated = {e.seq: [localize(line) for line in spec.narrate(session, e.events)] for e in entries}
        text = review_text(
            found,
            names,
            player,
            running,
            lambda seq: " ".join(narrated.get(seq, [])) or None,
            lambda events: [localize(line) for line in spec.narrate(session, events)],
        )
        curves = [(session.name_of(p), smoothed(found.curve[p])) for p in shown_players(found, player, running)]
        title = _("{game}: chance to win", game=spec.kind.title)
        png = await self.worker.draw(
            functools.partial(draw_review_chart, title, curves, _("moves (estimates, smoothed)"))
        )
        file = discord.File(io.BytesIO(png), filename="review.png", description=alt_text(title, curves))
        await reply.send(
            _("**Review of {game}**", game=spec.kind.title)
            + ("" if running else f" · <t:{int(session.updated_at)}:d>")
            + "\n"
            + text[:1900],
            ephemeral=not public,
            file=file,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @review.autocomplete("game")
    async def _reviewable(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        choices = []
        for session in await self.reviewable(interaction):
            spec = self.bot.specs.get(session.kind)
            title = spec.kind.title if spec else session.kind
            ended = time.strftime("%Y-%m-%d", time.gmtime(session.updated_at))
            when = _("running") if session.status is Status.ACTIVE else ended
            label = f"{title} · {when} · " + ", ".join(s.name for s in session.seats)
            if current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=str(session.id)))
        return choices[:25]

    async def campaigns(self, interaction: discord.Interaction, scope: str) -> list[str]:
        """The campaigns of the channel (or the server), running or archived: they outlive any table game."""
        if interaction.guild_id is None:
            return []
        found = await self.bot.store.live_in_guild(interaction.guild_id, Scope.CAMPAIGN)
        lines = []
        for session in found:
            spec = self.bot.specs.get(session.kind)
            if spec is None or (scope == "channel" and session.channel_id != interaction.channel_id):
                continue
            summary = spec.summary(session)
            campaign = _("{game} campaign", game=spec.kind.title)
            lines.append(campaign + (f" · {localize(summary)}" if summary else "") + f" · <#{session.channel_id}>")
        return lines


def start_command(kind: str, spec: GameSpec[Any]) -> str:
    """The command that starts a game: ``crowns new`` for a group, or the whole command a spec names (``vv sheet``)."""
    command = spec.command or kind
    return command if " " in command else f"{command} new"


def _seat_key(seat: Any) -> str:
    """How /game kick names a seat: the member's id, or the computer seat's name."""
    return str(seat.user_id) if seat.user_id is not None else f"cpu:{seat.name}"


class BotCommands(commands.Cog):
    """``/help`` (``/settings`` is the core's: ``bot.server_settings``)."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot can do.")
    async def help(self, interaction: discord.Interaction) -> None:
        """What the bot can do, with the rules in force on this server (private)."""
        reply = Reply.of(interaction)
        specs = self.bot.specs.items()
        games = "\n".join(f"• `/{start_command(kind, spec)}` — {spec.kind.title}" for kind, spec in specs)
        rule = END_RULES["host"]
        if interaction.guild_id is not None:
            rule = END_RULES[(await self.bot.store.guild_settings(interaction.guild_id)).end_by]
        text = _(
            "**Tabletop games in chat**\n"
            "{games}\n"
            "• `/roll` — roll dice, e.g. `/roll 4d6kh3`\n"
            "• `/game status | rules | log | review | leave | end | kick | history` — the game in this channel "
            "(games here are ended by {rule})\n"
            "• `/settings` — server defaults (Manage Server)",
            games=games or _("• (no games loaded)"),
            rule=_(rule),
        )
        await reply.send(text, ephemeral=True)


async def setup(bot: TabletopBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(GameCommands(bot))
    await bot.add_cog(BotCommands(bot))
