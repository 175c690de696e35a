"""The action pipeline: load → lock → check → apply → commit → render → reply, for any game."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

import discord
from pydantic import BaseModel, ValidationError

from bot.board import Payload, compose, jump_url, mention, sent_message, who_must_act
from bot.clock import Clock
from bot.errors import UserError
from bot.games import BoardContext, GameSpec
from bot.lobby import Lobby
from bot.models import Applied, Deadline, Game, LogEntry, Status
from bot.names import escape_name
from bot.permissions import DEFAULT_END_RULE, END_RULES, may_end
from bot.timers import TimerLoop
from rules.dice import DiceSource, RecordingDice, SystemDice
from rules.engine import IllegalAction, Prompt

if TYPE_CHECKING:
    from bot.app import TabletopBot
    from bot.storage import Database

log = logging.getLogger(__name__)

How = Literal["player", "timeout", "computer", "core"]

# Discord limits edits to old messages, so boards older than this keep their buttons; the version in
# their custom ids makes the core refuse those clicks.
EDITABLE_BOARD_AGE_S = 3600
STATE_CACHE_SIZE = 512
MOVED_ON = "this board has moved on; the game continues below."
GAME_OVER_BELOW = "the game is over; the final standings are below."
TIMEOUT_NOTE = "⏰ Time ran out for {name}; the bot took the default for them."
SHUTDOWN_GRACE_S = 5.0


class StaleBoard(UserError):
    """A click on a board that is no longer current."""

    def __init__(self, game: Game | None) -> None:
        url = jump_url(game) if game else None
        text = "This board is out of date; nothing was changed."
        if url:
            text += f" Here is the [current board]({url})."
        super().__init__(text)


class GameRunner:
    """Runs every game: the registry of game specs, the pipeline, boards, computer players."""

    def __init__(self, bot: TabletopBot, clock: Clock, *, dice: DiceSource | None = None) -> None:
        self.bot = bot
        self.clock = clock
        self.dice = dice or SystemDice()
        self.specs: dict[str, GameSpec] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._tasks: set[asyncio.Task[None]] = set()
        self._states: OrderedDict[tuple[int, int], BaseModel] = OrderedDict()
        self._channels: dict[int, int] = {}
        self.lobby = Lobby(self)
        self.timers = TimerLoop(self)

    # -- registry and helpers ----------------------------------------------------------------

    @property
    def db(self) -> Database:
        """The bot's database."""
        return self.bot.db

    def register(self, spec: GameSpec) -> None:
        """Make a game known to the core (called by its cog)."""
        self.specs[spec.engine.kind] = spec

    def spec(self, kind: str) -> GameSpec:
        """The spec of a registered game kind."""
        try:
            return self.specs[kind]
        except KeyError:
            raise UserError("That game is not available on this bot right now.") from None

    async def channel_of(self, game_id: int) -> int:
        """The channel a game is played in (it never changes, so it is remembered)."""
        channel_id = self._channels.get(game_id)
        if channel_id is None:
            game = await self.db.game(game_id)
            if game is None:
                raise UserError("This game is over; start a new one any time.")
            channel_id = self._channels[game_id] = game.channel_id
        return channel_id

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that serialises every change to the game in a channel."""
        return self._locks[channel_id]

    def state_of(self, game: Game) -> BaseModel:
        """The engine state of an active or finished game, parsed once per version (states are immutable)."""
        key = (game.id, game.version)
        state = self._states.get(key)
        if state is None:
            if game.state_json is None:
                raise UserError("The game has not started yet.")
            state = self.spec(game.kind).engine.state_model.model_validate_json(game.state_json)
            self.remember_state(game, state)
        return state

    def remember_state(self, game: Game, state: BaseModel) -> None:
        """Cache a game's parsed state for its current version (a few hundred games at most)."""
        self._states[(game.id, game.version)] = state
        if len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)

    def options_of(self, game: Game) -> BaseModel:
        """The engine options of a game."""
        return self.spec(game.kind).engine.options_model.model_validate(game.engine_options)

    def prompts_of(self, game: Game, state: BaseModel | None = None) -> list[Prompt]:
        """Who must act now in an active game."""
        if game.status is not Status.ACTIVE:
            return []
        return self.spec(game.kind).engine.prompts(state if state is not None else self.state_of(game))

    def context(self, game: Game, state: BaseModel, events: list[dict[str, Any]]) -> BoardContext:
        """A board context for the cog."""
        return BoardContext(game=game, state=state, prompts=self.prompts_of(game, state), events=events)

    def spawn(self, coro: Any) -> None:
        """Run a background coroutine, keeping a reference and logging its failure."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("Background game task failed", exc_info=task.exception())

    def start(self) -> None:
        """Start the timer loop, and let computer players whose move it was when the bot stopped move."""
        self.timers.start()
        self.spawn(self.resume_computers())

    async def resume_computers(self) -> None:
        """After a restart, every game waiting for a computer player gets its move."""
        for game in await self.db.active_games():
            if game.kind in self.specs:
                self.after_commit(game)

    async def close(self) -> None:
        """Stop timers and computer moves, then let actions in flight finish (up to a few seconds).

        A computer move that is cancelled is simply made again after a restart; a player's click that
        has started is allowed to commit and answer before the database closes.
        """
        await self.timers.stop()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(SHUTDOWN_GRACE_S):
                for lock in list(self._locks.values()):
                    async with lock:
                        pass

    async def route(
        self, interaction: discord.Interaction, game_id: int, version: int, key: str, arg: str, values: list[str]
    ) -> None:
        """Every click or select on a board comes here, from the custom_id alone."""
        if key.startswith("lobby_"):
            await self.lobby.handle(interaction, game_id, key, arg, values)
        elif key == "rematch":
            await self.lobby.rematch(interaction, game_id)
        elif key in ("confirm_leave", "confirm_end"):
            await self.confirmed(interaction, game_id, key.removeprefix("confirm_"))
        else:
            await self.handle_move(interaction, game_id, version, key, arg, values)

    async def confirmed(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        """The confirm button of ``/game leave`` or ``/game end`` (valid whatever the board's version)."""
        game = await self.db.game(game_id)
        if game is None or game.status not in (Status.LOBBY, Status.ACTIVE):
            raise UserError("That game is already over.")
        async with self.lock(game.channel_id):
            game = await self.db.game(game_id)
            if game is None or game.status not in (Status.LOBBY, Status.ACTIVE):
                raise UserError("That game is already over.")
            if what == "end":
                settings = await self.db.guild_settings(game.guild_id) if game.guild_id else {}
                rule = settings.get("end_by", DEFAULT_END_RULE)
                if not may_end(game, interaction, rule):
                    raise UserError(f"On this server, games are ended by {END_RULES[rule]}.")
                await interaction.response.edit_message(content="Game ended.", view=None)
                name = escape_name(interaction.user.display_name)
                await self.abandon(game, reason=f"{name} ended the game. It stays in `/game history`.")
                return
            seat = game.seat_of_user(interaction.user.id)
            if seat is None:
                raise UserError("You're not playing in this game.")
            await interaction.response.edit_message(content="You left the game.", view=None)
            if game.status is Status.LOBBY:
                await self.lobby.drop_seat(game, interaction.user.id)
                return
            await self.remove_player(game, seat.player, how="core", interaction=None)
            await self.announce(game, f"{escape_name(seat.name)} left the game.")

    async def kick(self, interaction: discord.Interaction, game: Game, user_id: int) -> None:
        """Remove a member from a lobby or a running game (the caller checked permissions)."""
        async with self.lock(game.channel_id):
            current = await self.db.game(game.id)
            seat = current.seat_of_user(user_id) if current else None
            if current is None or seat is None or current.status not in (Status.LOBBY, Status.ACTIVE):
                raise UserError("That player is not in a game here.")
            name = escape_name(seat.name)
            await interaction.response.send_message(f"{name} was removed from the game.", ephemeral=True)
            if current.status is Status.LOBBY:
                await self.lobby.drop_seat(current, user_id)
            else:
                await self.remove_player(current, seat.player, how="core", interaction=None)
                await self.announce(current, f"{name} was removed from the game by the host.")

    async def announce(self, game: Game, text: str) -> None:
        """A short notice in the game's channel that pings nobody."""
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())

    # -- the pipeline --------------------------------------------------------------------------

    async def load_current(self, game_id: int, version: int) -> Game:
        """The game if ``version`` is still its current version, else a StaleBoard error."""
        game = await self.db.game(game_id)
        if game is None or game.status not in (Status.LOBBY, Status.ACTIVE):
            raise UserError("This game is over; start a new one any time.")
        if game.version != version:
            raise StaleBoard(game)
        return game

    def actor_check(self, game: Game, user_id: int, state: BaseModel) -> str:
        """The engine player the user plays, if they must act now; else a UserError saying who must."""
        prompts = self.prompts_of(game, state)
        seat = game.seat_of_user(user_id)
        waiting = who_must_act(game, prompts) or "nobody"
        if seat is None:
            raise UserError(f"You're not playing in this game. Waiting for {waiting}.")
        if seat.player not in {p.player for p in prompts}:
            raise UserError(f"Not your move: waiting for {waiting}.")
        return seat.player

    async def handle_move(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        key: str,
        arg: str,
        values: list[str],
    ) -> None:
        """A click or select on a game board: check, apply, commit, then answer by editing the board.

        The version and the player are checked first on the cached game, so a refusal is answered
        at once (and privately) even while another move holds the channel; then again under the
        channel's lock on the game as stored, where the move is applied and committed.
        """
        game = await self.load_current(game_id, version)
        self.actor_check(game, interaction.user.id, self.state_of(game))
        async with self.lock(game.channel_id):
            game = await self.load_current(game_id, version)
            spec = self.spec(game.kind)
            state = self.state_of(game)
            player = self.actor_check(game, interaction.user.id, state)
            action = spec.action_for(self.context(game, state, []), player, key, arg, values)
            applied = await self.apply(game, player, action, how="player")
            await self.show(applied, interaction)

    async def show(self, applied: Applied, interaction: discord.Interaction | None) -> None:
        """Publish a committed change, whatever Discord says, and then let timers and computers go on.

        The change is already stored: if answering through the interaction fails (it expired, say),
        the board is updated through the channel instead, and the game never stalls on a failed reply.
        """
        try:
            try:
                await self.publish(applied, interaction)
            except discord.HTTPException:
                if interaction is None:
                    raise
                log.warning("Game %s: answering the click failed; updating the board directly", applied.game.id)
                await self.publish(applied, None)
        finally:
            self.after_commit(applied.game)

    async def apply(
        self,
        game: Game,
        player: str,
        action: dict[str, Any],
        *,
        how: How,
        remove: bool = False,
        takeover_after: int | None = None,
        counts: bool = True,
    ) -> Applied:
        """Apply one engine action (or a player leaving) and commit it with its log entry.

        Must be called under the channel's lock. Raises UserError for an illegal action and
        StaleBoard if another process committed first; in both cases nothing is changed. A
        timeout of a required decision (``counts``) counts against the seat; after ``takeover_after``
        in a row a computer player takes it (where the game has them), in the same commit. A player
        whose seat was taken over gets it back by acting.
        """
        engine = self.spec(game.kind).engine
        state = self.state_of(game)
        dice = RecordingDice(self.dice)
        try:
            if remove:
                outcome = engine.remove_player(state, player, dice)
                logged = {"kind": "leave", "how": how}
            else:
                parsed = engine.parse_action(action)
                outcome = engine.apply(state, player, parsed, dice)
                logged = {"kind": "act", "how": how, "action": parsed.model_dump(mode="json")}
        except IllegalAction as exc:
            raise UserError(exc.reason) from None
        except ValidationError:
            raise UserError("That move isn't valid here.") from None
        new = self.advance(game, outcome.state, actor=player)
        seat = new.seat_of_player(player)
        if remove:
            seat.left = True
            if new.host_id == seat.user_id:
                new.host_id = next((s.user_id for s in new.seats if s.user_id and not s.left), new.host_id)
        elif how == "player":
            seat.timeouts = 0
            seat.computer = seat.computer and seat.user_id is None
        elif how == "timeout" and counts:
            seat.timeouts += 1
            if takeover_after and seat.timeouts >= takeover_after and self.spec(game.kind).has_computer_players:
                seat.computer = True
        entry = LogEntry(
            seq=new.version,
            actor=player,
            action=logged,
            dice=[r.model_dump() for r in dice.rolls],
            events=outcome.events,
            at=self.clock.now(),
        )
        if not await self.db.save_game(new, game.version, entry):
            raise StaleBoard(await self.db.game(game.id))
        self.remember_state(new, outcome.state)
        return Applied(before=game, game=new, state=outcome.state, events=outcome.events, how=how, actor=player)

    def advance(self, game: Game, state: BaseModel, actor: str | None = None) -> Game:
        """The game record after a state change: new version, deadlines, status and winners.

        Whoever just acted (or had a default applied) starts afresh on their next decision; other
        pending decisions keep their deadlines.
        """
        engine = self.spec(game.kind).engine
        now = self.clock.now()
        new = game.clone()
        new.state_json = state.model_dump_json()
        new.version = game.version + 1
        new.updated_at = now
        winners = engine.winners(state)
        if winners is not None:
            new.status = Status.FINISHED
            new.winners = list(winners)
            new.deadlines = []
            return new
        kept = [d for d in game.deadlines if d.player != actor]
        new.deadlines = self.deadlines_for(new, engine.prompts(state), previous=kept, now=now)
        return new

    def deadlines_for(
        self, game: Game, prompts: Iterable[Prompt], *, previous: Iterable[Deadline], now: float
    ) -> list[Deadline]:
        """One deadline per pending decision; a decision still pending keeps its deadline."""
        kept = {(d.player, d.decision): d for d in previous}
        timeouts: dict[str, int] = game.options.get("timeouts", {})
        result = []
        for prompt in prompts:
            old = kept.get((prompt.player, prompt.decision))
            if old is not None:
                result.append(old)
                continue
            seconds = timeouts.get(prompt.timer) if prompt.timer else None
            if not seconds:
                continue
            seat = game.seat_of_player(prompt.player)
            remind = now + seconds / 2 if prompt.ping and not seat.computer else None
            result.append(Deadline(player=prompt.player, decision=prompt.decision, at=now + seconds, remind_at=remind))
        return result

    def after_commit(self, game: Game) -> None:
        """Tell the timer loop about new deadlines, and let computer players move if it is their turn."""
        self.timers.schedule(game.next_deadline)
        if game.status is Status.ACTIVE and any(game.seat_of_player(p.player).computer for p in self.prompts_of(game)):
            self.spawn(self.computer_moves(game.id, game.version))

    async def computer_moves(self, game_id: int, version: int) -> None:
        """After a short delay, each computer player who must act takes its move."""
        await asyncio.sleep(self.bot.settings.computer_delay)
        game = await self.db.game(game_id)
        if game is None or game.version != version or game.status is not Status.ACTIVE:
            return
        async with self.lock(game.channel_id):
            game = await self.db.game(game_id)
            if game is None or game.version != version:
                return
            engine = self.spec(game.kind).engine
            state = self.state_of(game)
            player = next((p.player for p in engine.prompts(state) if game.seat_of_player(p.player).computer), None)
            if player is None:
                return
            action = engine.computer_action(state, player, self.dice).model_dump(mode="json")
            applied = await self.apply(game, player, action, how="computer")
            await self.show(applied, None)

    # -- boards --------------------------------------------------------------------------------

    def payload(
        self, game: Game, state: BaseModel | None, events: list[dict[str, Any]], ping: list[int], note: str = ""
    ) -> Payload:
        """The full board message for a game in any status, with an optional note under the status line."""
        spec = self.spec(game.kind)
        if state is None:
            state = self.state_of(game)
        ctx = self.context(game, state, events)
        return compose(game, spec.engine.title, ctx.prompts, spec.render(ctx), ping, note)

    def new_pings(self, applied: Applied) -> list[int]:
        """Users who must act now but did not have to before this action: they get a new message."""
        before = {p.player for p in self.prompts_of(applied.before)} if applied.before.state_json else set()
        users = []
        for prompt in self.prompts_of(applied.game, applied.state):
            seat = applied.game.seat_of_player(prompt.player)
            fresh = prompt.ping and prompt.player not in before
            if fresh and seat.user_id and not seat.computer and seat.user_id not in users:
                users.append(seat.user_id)
        return users

    async def publish(self, applied: Applied, interaction: discord.Interaction | None) -> None:
        """Show the change: edit the board, or post a new one when someone new must be pinged.

        Discord does not notify for a mention added by an edit, so a prompt that must ping is
        always a new message; the previous board then loses its controls. When a click caused it,
        the click is answered first, by retiring the board it came from.
        """
        game = applied.game
        pings = self.new_pings(applied)
        finished = game.status is Status.FINISHED
        note = ""
        if applied.how == "timeout" and applied.actor is not None:
            note = TIMEOUT_NOTE.format(name=escape_name(game.name_of(applied.actor)))
        if not (pings or finished):
            await self.edit_board(game, self.payload(game, applied.state, applied.events, pings, note), interaction)
            return
        clicked = interaction.message.id if interaction and interaction.message else None
        retired = GAME_OVER_BELOW if finished else MOVED_ON
        if interaction is not None and not interaction.response.is_done():
            # Answer the click at once by retiring the clicked board; the board that pings is drawn after.
            await interaction.response.edit_message(
                content=self.moved_on(game, retired), view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        if applied.before.board_message_id != clicked:
            await self.retire_board(applied.before, retired)
        await self.post_board(game, self.payload(game, applied.state, applied.events, pings, note))

    async def retire_board(self, old: Game, note: str = "") -> None:
        """Take the controls off a game's stored board, keeping what it showed, if it is still editable.

        Discord stops bots editing old messages, so boards over an hour old are left as they are;
        the version in their buttons makes the core refuse their clicks.
        """
        if old.board_message_id is None or old.board_posted_at is None:
            return
        if self.clock.now() - old.board_posted_at > EDITABLE_BOARD_AGE_S:
            return
        await self.strip_controls(old, old.board_message_id, note or MOVED_ON)

    async def strip_controls(self, game: Game, message_id: int, note: str) -> None:
        """Replace a board's status line with ``note`` and remove its buttons (a gone message is fine)."""
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await channel.get_partial_message(message_id).edit(
                content=self.moved_on(game, note), view=None, allowed_mentions=discord.AllowedMentions.none()
            )

    def moved_on(self, game: Game, note: str = MOVED_ON) -> str:
        """The status line of a board that is no longer current."""
        return f"**{self.spec(game.kind).engine.title}** · {note}"

    async def post_board(self, game: Game, payload: Payload) -> None:
        """Post a new board message and remember it; abandon the game if the channel is gone."""
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            message = await channel.send(**payload.kwargs(pinging=True))
        except (discord.Forbidden, discord.NotFound):
            log.warning("Game %s: channel %s is unreachable; abandoning", game.id, game.channel_id)
            await self.abandon(game, notice=False)
            return
        await self.remember_board(game, message.id)

    async def remember_board(self, game: Game, message_id: int) -> None:
        """Store the current board message (no version change: old clicks stay valid)."""
        game.board_message_id = message_id
        game.board_posted_at = self.clock.now()
        await self.db.set_board(game.id, game.version, message_id, game.board_posted_at)

    async def edit_board(self, game: Game, payload: Payload, interaction: discord.Interaction | None) -> None:
        """Edit the board in place: the clicked message, else the stored board (posted again if deleted).

        Any message whose controls carry the current version shows the current game, so a click always
        updates the message it came from; if that is not the stored board (``/game status`` posted
        another), it becomes the board and the old one loses its controls.
        """
        if interaction is not None and not interaction.response.is_done() and interaction.message is not None:
            await interaction.response.edit_message(**payload.kwargs(pinging=False))
            if interaction.message.id != game.board_message_id:
                await self.retire_board(game)
                await self.remember_board(game, interaction.message.id)
            return
        if game.board_message_id is not None:
            channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            try:
                await channel.get_partial_message(game.board_message_id).edit(**payload.kwargs(pinging=False))
                return
            except discord.NotFound:
                log.info("Game %s: board was deleted; posting a new one", game.id)
            except discord.Forbidden:
                await self.abandon(game, notice=False)
                return
        await self.post_board(game, payload)

    async def repost(self, game_id: int, interaction: discord.Interaction) -> None:
        """``/game status``: post the board again as the answer, pinging nobody; it becomes the board."""
        async with self.lock(await self.channel_of(game_id)):
            game = await self.db.game(game_id)
            if game is None or game.status is not Status.ACTIVE:
                raise UserError("There is no game in progress here.")
            entries = await self.db.log_entries(game.id, last=1)
            payload = self.payload(game, self.state_of(game), entries[-1].events if entries else [], [])
            response = await interaction.response.send_message(**payload.kwargs(pinging=False))
            message = await sent_message(interaction, response)
            await self.retire_board(game, note="this board was posted again below.")
            await self.remember_board(game, message.id)

    async def abandon(self, game: Game, *, notice: bool = True, reason: str = "This game was ended.") -> Game:
        """Mark a game abandoned (kept for history); tell the channel if it can."""
        current = await self.db.game(game.id) or game
        new = current.ended(self.clock.now())
        entry = LogEntry(seq=new.version, actor=None, action={"kind": "abandon", "how": "core"}, at=new.updated_at)
        if not await self.db.save_game(new, current.version, entry):
            raise StaleBoard(await self.db.game(game.id))
        if notice:
            await self.retire_board(current, note="this game was ended.")
            await self.announce(game, reason)
        return new

    async def remove_player(
        self, game: Game, player: str, *, how: How, interaction: discord.Interaction | None
    ) -> None:
        """A seat leaves mid-game (left, kicked, or skipped after timeouts); the engine decides the rest."""
        applied = await self.apply(game, player, {}, how=how, remove=True)
        applied.game.seat_of_player(player).left = True
        await self.db.save_game(applied.game, applied.game.version)
        await self.show(applied, interaction)

    async def remind(self, game: Game, deadline: Deadline) -> None:
        """Half-time reminder: a new message that mentions the player who must act."""
        seat = game.seat_of_player(deadline.player)
        if seat.user_id is None or seat.computer:
            return
        url = jump_url(game)
        text = f"{mention(game, deadline.player)}, a reminder: it's your move <t:{int(deadline.at)}:R>."
        if url:
            text += f" [Go to the board]({url})"
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(seat.user_id)]
                ),
            )
