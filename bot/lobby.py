"""Lobbies: open, join, leave, add computer players, start, cancel, expire, rematch."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.board import Payload, sent_message, static_view
from bot.errors import UserError
from bot.games import BUTTON_PREFIX, SELECT_PREFIX, custom_id
from bot.models import Applied, Deadline, Game, LogEntry, Seat, Status
from bot.names import escape_name
from bot.storage import ChannelBusy, Database
from rules.dice import RecordingDice

if TYPE_CHECKING:
    from bot.runner import GameRunner

LOBBY_DECISION = "lobby"
DEFAULT_LOBBY_TIMEOUT_S = 900
OPTIONS_PER_PAGE = 4
SEATINGS = ("join", "random")
# What the bot must be allowed to do in a channel to run a game there.
NEEDED_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "read_message_history")


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """Permissions the bot lacks in the interaction's channel (as Discord reported them)."""
    have = interaction.app_permissions
    return [name.replace("_", " ").title() for name in NEEDED_PERMISSIONS if not getattr(have, name)]


def computer_name(number: int) -> str:
    """Name of the n-th computer player in a lobby."""
    return f"Computer {number}"


class Lobby:
    """The lobby part of the core; one per runner."""

    def __init__(self, runner: GameRunner) -> None:
        self.runner = runner

    @property
    def db(self) -> Database:
        """The bot's database."""
        return self.runner.db

    # -- rendering -------------------------------------------------------------------------------

    def payload(self, game: Game, *, note: str = "") -> Payload:
        """The lobby message: players, options and the controls."""
        spec = self.runner.spec(game.kind)
        engine = spec.engine
        humans = [s for s in game.seats if not s.computer]
        lines = [
            f"{'👑 ' if s.user_id == game.host_id else ''}{escape_name(s.name)}" + (" 🤖" if s.computer else "")
            for s in game.seats
        ]
        embed = discord.Embed(title=f"{engine.title} — lobby", colour=discord.Colour.blurple())
        embed.add_field(
            name=f"Players {len(game.seats)}/{engine.max_players}", value="\n".join(lines) or "nobody yet", inline=True
        )
        options = engine.options_model.model_validate(game.engine_options)
        embed.add_field(name="Options", value=spec.describe_options(options)[:1024] or "defaults", inline=True)
        expiry = next((d.at for d in game.deadlines if d.decision == LOBBY_DECISION), None)
        footer = f"Seating: {game.options.get('_seating', 'join')} order. Needs {engine.min_players}+ players."
        embed.set_footer(text=footer)
        content = f"**{engine.title}** · lobby opened by <@{game.host_id}>"
        if expiry:
            content += f" · closes <t:{int(expiry)}:R> if not started"
        if note:
            content += f"\n{note}"
        full = len(game.seats) >= engine.max_players
        row: list[discord.ui.Item[Any]] = [
            self._button(game, "lobby_join", "Join", discord.ButtonStyle.primary, disabled=full),
            self._button(game, "lobby_leave", "Leave", discord.ButtonStyle.secondary),
        ]
        if spec.has_computer_players:
            row.append(self._button(game, "lobby_cpu", "Add computer", discord.ButtonStyle.secondary, disabled=full))
        row += [
            self._button(
                game,
                "lobby_start",
                "Start",
                discord.ButtonStyle.success,
                disabled=len(game.seats) < engine.min_players or not humans,
            ),
            self._button(game, "lobby_cancel", "Cancel", discord.ButtonStyle.danger),
        ]
        rows = [row]
        if spec.lobby_options:
            rows.append([self._button(game, "lobby_options", "Options…", discord.ButtonStyle.secondary)])
        return Payload(content=content, embeds=[embed], view=static_view(rows), ping=[])

    @staticmethod
    def _button(
        game: Game, key: str, label: str, style: discord.ButtonStyle, *, disabled: bool = False, arg: object = ""
    ) -> discord.ui.Button[Any]:
        return discord.ui.Button(
            label=label, style=style, custom_id=custom_id(BUTTON_PREFIX, game, key, str(arg)), disabled=disabled
        )

    def new_lobby(
        self,
        guild_id: int | None,
        channel_id: int,
        kind: str,
        host_id: int,
        options: dict[str, Any],
        seats: list[Seat],
        settings: dict[str, Any],
    ) -> Game:
        """A lobby record (not yet stored) that expires after the guild's lobby timeout."""
        now = self.runner.clock.now()
        expires = now + settings.get("lobby_timeout_s", DEFAULT_LOBBY_TIMEOUT_S)
        return Game(
            guild_id=guild_id,
            channel_id=channel_id,
            kind=kind,
            status=Status.LOBBY,
            host_id=host_id,
            options=options,
            seats=seats,
            deadlines=[Deadline(player="", decision=LOBBY_DECISION, at=expires)],
            created_at=now,
            updated_at=now,
        )

    # -- opening -----------------------------------------------------------------------------------

    async def open(
        self,
        interaction: discord.Interaction,
        kind: str,
        options: BaseModel,
        *,
        computers: int = 0,
        seating: str = "join",
        thread: bool | None = None,
        turn_timeout: int | None = None,
    ) -> None:
        """``/<game> new``: create a lobby in this channel (or a new thread) with the caller as host.

        ``thread`` None means the server's default (``/settings threads``); so does ``turn_timeout``
        (``/settings turn_seconds``, else the game's own default), for games whose options have timers.
        """
        spec = self.runner.spec(kind)
        engine = spec.engine
        if interaction.guild_id is None:
            raise UserError("Games are played in a server channel; use this command there.")
        missing = missing_permissions(interaction)
        if missing:
            raise UserError(f"I can't run a game here: I need the {', '.join(missing)} permission(s) in this channel.")
        if computers and not spec.has_computer_players:
            raise UserError(f"{engine.title} has no computer players.")
        if computers + 1 > engine.max_players:
            raise UserError(f"{engine.title} seats at most {engine.max_players} players.")
        if seating not in SEATINGS:
            raise UserError(f"Seating must be one of: {', '.join(SEATINGS)}.")
        settings = await self.db.guild_settings(interaction.guild_id)
        if thread is None:
            thread = bool(settings.get("threads", False)) and isinstance(interaction.channel, discord.TextChannel)
        channel = interaction.channel
        if thread:
            if not isinstance(channel, discord.TextChannel):
                raise UserError("I can only open a thread from a text channel.")
            if not interaction.app_permissions.create_public_threads:
                raise UserError("I need the Create Public Threads permission to start a game in a thread.")
        elif await self.db.live_game(interaction.channel_id) is not None:
            raise UserError("This channel already has a game. Use `/game status` to see it, or `/game end` to end it.")
        user = interaction.user
        seats = [Seat(user_id=user.id, name=user.display_name)]
        seats += [Seat(name=computer_name(n), computer=True) for n in range(1, computers + 1)]
        game = self.new_lobby(
            interaction.guild_id,
            interaction.channel_id,
            kind,
            user.id,
            {
                **self.with_turn_timer(options.model_dump(mode="json"), turn_timeout or settings.get("turn_timeout_s")),
                "_seating": seating,
            },
            seats,
            settings,
        )
        if thread:
            assert isinstance(channel, discord.TextChannel)
            await interaction.response.defer(ephemeral=True, thinking=True)
            made = await channel.create_thread(
                name=f"{engine.title} — {user.display_name}"[:100], type=discord.ChannelType.public_thread
            )
            game.channel_id = made.id
            await self.publish_new(game, lambda payload: made.send(**payload.kwargs(pinging=False)))
            await interaction.followup.send(f"Lobby opened in {made.mention}.", ephemeral=True)
        else:
            await self.publish_new(game, lambda payload: self._answer_with(interaction, payload))

    @staticmethod
    def with_turn_timer(options: dict[str, Any], seconds: int | None) -> dict[str, Any]:
        """The options with the ``turn`` timer set, if a time is given and the game has timers."""
        if seconds is None or "timeouts" not in options:
            return options
        return {**options, "timeouts": {**options["timeouts"], "turn": seconds}}

    async def publish_new(
        self, game: Game, post: Callable[[Payload], Awaitable[discord.Message | discord.InteractionMessage]]
    ) -> Game:
        """Store a new lobby and post its message, under the channel's lock so no click sees it half made."""
        async with self.runner.lock(game.channel_id):
            try:
                game = await self.db.create_game(game)
            except ChannelBusy:
                raise UserError("This channel already has a game. Use `/game status` to see it.") from None
            message = await post(self.payload(game))
            await self.runner.remember_board(game, message.id)
        self.runner.timers.schedule(game.next_deadline)
        return game

    @staticmethod
    async def _answer_with(
        interaction: discord.Interaction, payload: Payload
    ) -> discord.Message | discord.InteractionMessage:
        response = await interaction.response.send_message(**payload.kwargs(pinging=False))
        return await sent_message(interaction, response)

    # -- buttons -----------------------------------------------------------------------------------

    async def handle(
        self, interaction: discord.Interaction, game_id: int, key: str, arg: str = "", values: list[str] | None = None
    ) -> None:
        """A click on a lobby button, or a choice in its Options menu."""
        game = await self.db.game(game_id)
        if game is None or game.status is not Status.LOBBY:
            raise UserError("This lobby is closed.")
        handler = {
            "lobby_join": self._join,
            "lobby_leave": self._leave,
            "lobby_cpu": self._add_computer,
            "lobby_start": self._start,
            "lobby_cancel": self._cancel,
        }.get(key)
        if key == "lobby_options":
            await self._show_options(interaction, game, int(arg or 0))
            return
        if key == "lobby_set":
            async with self.runner.lock(game.channel_id):
                current = await self.db.game(game_id)
                if current is None or current.status is not Status.LOBBY:
                    raise UserError("This lobby is closed.")
                await self._set_option(interaction, current, arg, values or [])
            return
        if handler is None:
            raise UserError("That button is no longer in use.")
        async with self.runner.lock(game.channel_id):
            game = await self.db.game(game_id)
            if game is None or game.status is not Status.LOBBY:
                raise UserError("This lobby is closed.")
            await handler(interaction, game)

    async def _save_and_show(
        self, game: Game, interaction: discord.Interaction | None, note: str = "", **changes: Any
    ) -> None:
        """Save the lobby's next version and redraw it (through the click, if there was one)."""
        new = game.successor(self.runner.clock.now(), **changes)
        if not await self.db.save_game(new, game.version):
            raise UserError("The lobby changed at the same moment; please try again.")
        if interaction is not None:
            await interaction.response.edit_message(**self.payload(new, note=note).kwargs(pinging=False))
        else:
            await self.refresh(new)

    async def _join(self, interaction: discord.Interaction, game: Game) -> None:
        engine = self.runner.spec(game.kind).engine
        if game.seat_of_user(interaction.user.id):
            raise UserError("You're already in this lobby.")
        if len(game.seats) >= engine.max_players:
            raise UserError(f"The table is full ({engine.max_players} players).")
        seat = Seat(user_id=interaction.user.id, name=interaction.user.display_name)
        await self._save_and_show(game, interaction, seats=[*game.seats, seat])

    async def _leave(self, interaction: discord.Interaction, game: Game) -> None:
        if not game.seat_of_user(interaction.user.id):
            raise UserError("You're not in this lobby.")
        await self.drop_seat(game, interaction.user.id, interaction)

    async def drop_seat(self, game: Game, user_id: int, interaction: discord.Interaction | None = None) -> None:
        """A member leaves or is kicked from a lobby: the host role passes on, and a lobby with no one closes."""
        seats = [s for s in game.seats if s.user_id != user_id]
        humans = [s.user_id for s in seats if s.user_id and not s.computer]
        if not humans:
            await self.close(game, "everyone left", interaction)
            return
        host = humans[0] if game.host_id == user_id else game.host_id
        note = f"<@{host}> is the host now." if host != game.host_id else ""
        await self._save_and_show(game, interaction, note, seats=seats, host_id=host)

    # -- the Options menu (host only, ephemeral) ------------------------------------------------------

    def _options_menu(self, game: Game, page: int) -> dict[str, Any]:
        """Kwargs for the ephemeral Options menu: a page of selects plus Prev/Next."""
        spec = self.runner.spec(game.kind)
        options = spec.engine.options_model.model_validate(game.engine_options).model_dump(mode="json")
        per_page = OPTIONS_PER_PAGE
        pages = max(1, -(-len(spec.lobby_options) // per_page))
        page = max(0, min(page, pages - 1))
        rows: list[list[discord.ui.Item[Any]]] = []
        for option in spec.lobby_options[page * per_page : (page + 1) * per_page]:
            current = options.get(option.key)
            choices = [
                discord.SelectOption(label=label[:100], value=json.dumps(value), default=value == current)
                for label, value in option.choices
            ]
            rows.append(
                [
                    discord.ui.Select(
                        custom_id=custom_id(SELECT_PREFIX, game, "lobby_set", option.key),
                        options=choices,
                        placeholder=option.label[:150],
                    )
                ]
            )
        nav: list[discord.ui.Item[Any]] = []
        if page > 0:
            nav.append(self._button(game, "lobby_options", "◀ Previous", discord.ButtonStyle.secondary, arg=page - 1))
        if page < pages - 1:
            nav.append(self._button(game, "lobby_options", "More ▶", discord.ButtonStyle.secondary, arg=page + 1))
        if nav:
            rows.append(nav)
        text = f"**Options** (page {page + 1}/{pages}). Changes show on the lobby at once."
        return {"content": text, "view": static_view(rows)}

    async def _show_options(self, interaction: discord.Interaction, game: Game, page: int) -> None:
        self._host_only(interaction, game, "change the options")
        menu = self._options_menu(game, page)
        from_menu = interaction.message is not None and interaction.message.flags.ephemeral
        if from_menu:
            await interaction.response.edit_message(**menu)
        else:
            await interaction.response.send_message(**menu, ephemeral=True)

    async def _set_option(self, interaction: discord.Interaction, game: Game, key: str, values: list[str]) -> None:
        self._host_only(interaction, game, "change the options")
        spec = self.runner.spec(game.kind)
        option = next((o for o in spec.lobby_options if o.key == key), None)
        if option is None or len(values) != 1:
            raise UserError("That option is not available.")
        value = json.loads(values[0])
        if value not in [v for _, v in option.choices]:
            raise UserError("That choice is not available.")
        merged = {**game.engine_options, key: value}
        options = {
            **spec.engine.options_model.model_validate(merged).model_dump(mode="json"),
            **{k: v for k, v in game.options.items() if k.startswith("_")},
        }
        new = game.successor(self.runner.clock.now(), options=options)
        if not await self.db.save_game(new, game.version):
            raise UserError("The lobby changed at the same moment; please try again.")
        page = [o.key for o in spec.lobby_options].index(key) // OPTIONS_PER_PAGE
        await interaction.response.edit_message(**self._options_menu(new, page))
        await self.refresh(new)

    async def refresh(self, game: Game) -> None:
        """Redraw the lobby message after a change made elsewhere (options menu, kick)."""
        if game.board_message_id is None:
            return
        channel = self.runner.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(game.board_message_id).edit(**self.payload(game).kwargs(pinging=False))

    async def _add_computer(self, interaction: discord.Interaction, game: Game) -> None:
        self._host_only(interaction, game, "add computer players")
        engine = self.runner.spec(game.kind).engine
        if len(game.seats) >= engine.max_players:
            raise UserError(f"The table is full ({engine.max_players} players).")
        number = sum(1 for s in game.seats if s.computer) + 1
        seat = Seat(name=computer_name(number), computer=True)
        await self._save_and_show(game, interaction, seats=[*game.seats, seat])

    def _host_only(self, interaction: discord.Interaction, game: Game, what: str) -> None:
        if interaction.user.id != game.host_id:
            raise UserError(f"Only the host, <@{game.host_id}>, can {what}.")

    async def _cancel(self, interaction: discord.Interaction, game: Game) -> None:
        self._host_only(interaction, game, "cancel the lobby")
        await self.close(game, "the host cancelled it", interaction)

    async def _start(self, interaction: discord.Interaction, game: Game) -> None:
        self._host_only(interaction, game, "start the game")
        engine = self.runner.spec(game.kind).engine
        if len(game.seats) < engine.min_players:
            raise UserError(f"{engine.title} needs at least {engine.min_players} players.")
        if game.seat_of_user(interaction.user.id) is None:
            raise UserError("Join the table first: the host plays too.")
        applied, entry = self.start(game)
        if not await self.db.save_game(applied.game, game.version, entry):
            raise UserError("The lobby changed at the same moment; please try again.")
        self.runner.remember_state(applied.game, applied.state)
        await self.runner.show(applied, interaction)

    def start(self, game: Game) -> tuple[Applied, LogEntry]:
        """Seat the players and set the game up.

        The seating shuffle uses recorded dice of its own, kept in the start entry apart from the
        engine's setup rolls, so a replay of the log starts the engine with exactly its dice.
        """
        engine = self.runner.spec(game.kind).engine
        seating = RecordingDice(self.runner.dice)
        seats = [s.model_copy() for s in game.seats]
        if game.options.get("_seating") == "random":
            # Fisher–Yates with named dice, so the shuffle is in the log like any other roll.
            for i in range(len(seats) - 1, 0, -1):
                j = seating.roll(f"seat{i}", i + 1) - 1
                seats[i], seats[j] = seats[j], seats[i]
        for number, seat in enumerate(seats, start=1):
            seat.player = f"P{number}"
        players = [s.player for s in seats]
        options = engine.options_model.model_validate(game.engine_options)
        dice = RecordingDice(self.runner.dice)
        outcome = engine.start(options, players, dice)
        started = game.clone()
        started.seats = seats
        started.status = Status.ACTIVE
        started.deadlines = []
        new = self.runner.advance(started, outcome.state)
        entry = LogEntry(
            seq=new.version,
            actor=None,
            action={
                "kind": "start",
                "how": "core",
                "players": players,
                "seating_dice": [r.model_dump() for r in seating.rolls],
            },
            dice=[r.model_dump() for r in dice.rolls],
            events=outcome.events,
            at=self.runner.clock.now(),
        )
        return Applied(before=game, game=new, state=outcome.state, events=outcome.events), entry

    async def expire(self, game: Game) -> None:
        """A lobby nobody started in time."""
        await self.close(game, "it expired before the game started")

    async def close(self, game: Game, why: str, interaction: discord.Interaction | None = None) -> None:
        """Close a lobby that won't start, saying why on its message (through the click, if there was one)."""
        if not await self.db.save_game(game.ended(self.runner.clock.now()), game.version):
            if interaction is None:
                return
            raise UserError("The lobby changed at the same moment; please try again.")
        title = self.runner.spec(game.kind).engine.title
        closed = {
            "content": f"**{title}** · this lobby is closed: {why}.",
            "embeds": [],
            "view": None,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if interaction is not None:
            await interaction.response.edit_message(**closed)
        elif game.board_message_id is not None:
            channel = self.runner.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(game.board_message_id).edit(**closed)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Open a new lobby with the same options and the same people (the clicker hosts)."""
        game = await self.db.game(game_id)
        if game is None or game.status is not Status.FINISHED:
            raise UserError("There is no finished game to replay here.")
        if not game.seat_of_user(interaction.user.id) and interaction.user.id != game.host_id:
            raise UserError("Only the players of that game can start a rematch.")
        settings = await self.db.guild_settings(game.guild_id) if game.guild_id else {}
        seats = [Seat(user_id=s.user_id, name=s.name, computer=s.computer) for s in game.seats if not s.left]
        host = next((s for s in seats if s.user_id == interaction.user.id), None)
        if host is not None:
            seats.remove(host)
            seats.insert(0, host)
        new = self.new_lobby(
            game.guild_id, game.channel_id, game.kind, interaction.user.id, game.options, seats, settings
        )
        await self.publish_new(new, lambda payload: self._answer_with(interaction, payload))
