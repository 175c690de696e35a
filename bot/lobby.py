"""Lobbies: open, join, leave, add computer players, options, start, cancel, rematch.

Every change is a ``Service.update`` (or ``start``) like any other commit, so the publisher draws
the lobby message the same way it draws boards; this module only decides what changes and how a
lobby looks.
"""

from __future__ import annotations

import json
from typing import Any

import discord
from pydantic import BaseModel

from bot.board import Payload, jump_url, static_view
from bot.controls import lobby_id
from bot.errors import Busy, ChannelBusy, IllegalMove, NotPermitted, NotPlaying, SessionOver, UserError
from bot.i18n import N_, _, _n, localize
from bot.locks import KeyedLocks
from bot.models import Actor, GuildSettings, Seat, Session, Status
from bot.names import clip, escape_name, listed, relative_time, user_mention
from bot.replies import Reply
from bot.service import Service
from bot.spec import GameSpec, LobbyOption
from rules.engine import EASY, NORMAL, STRENGTHS, STRONG

OPTIONS_PER_PAGE = 4
SEATINGS = ("join", "random")
# What the bot must be allowed to do in a channel to run a game there, each as Discord's settings name it.
NEEDED_PERMISSIONS = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "read_message_history": N_("Read Message History"),
}
STRENGTH_NAMES = {EASY: N_("Easy"), NORMAL: N_("Normal"), STRONG: N_("Strong")}
CLOSED_CANCELLED = N_("this lobby is closed: the host cancelled it.")
CLOSED_EMPTY = N_("this lobby is closed: everyone left.")
CLOSED_EXPIRED = N_("this lobby is closed: it expired before the game started.")
"""Why a lobby closed, as its message says (kept in the log in English, said in the reader's language)."""


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """Permissions the bot lacks in the interaction's channel (as Discord reported them), in the language spoken."""
    have = interaction.app_permissions
    return [_(shown) for name, shown in NEEDED_PERMISSIONS.items() if not getattr(have, name)]


def computer_name(number: int, strength: str = NORMAL) -> str:
    """Name of the n-th computer player in a lobby; one that plays other than normally says how (on every board).

    Said in the host's language: the name is kept with the seat, like a member's."""
    if strength == NORMAL:
        return _("Computer {number}", number=number)
    shown = STRENGTH_NAMES.get(strength)
    return _("Computer {number} ({strength})", number=number, strength=_(shown) if shown else strength.title())


def actor_of(interaction: discord.Interaction) -> Actor:
    """The Discord-free description of whoever sent an interaction."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return Actor(interaction.user.id, interaction.user.display_name, bool(perms and perms.manage_guild))


def with_turn_timer(options: dict[str, Any], seconds: int | None) -> dict[str, Any]:
    """The options with the ``turn`` timer set, if a time is given and the game has timers."""
    if seconds is None or "timeouts" not in options:
        return options
    return {**options, "timeouts": {**options["timeouts"], "turn": seconds}}


class Lobby:
    """The lobby part of the core. Collaborators: the service, and the games' specs."""

    def __init__(self, service: Service, specs: dict[str, GameSpec[Any]]) -> None:
        self.service = service
        self.specs = specs
        # One member opening lobbies (or threads) in a loop is served one at a time.
        self._openers: KeyedLocks[tuple[int, int]] = KeyedLocks()

    def footprint(self) -> dict[str, int]:
        """What the lobby holds now: a lock per member opening a lobby, only while they are at it."""
        return {"openers": len(self._openers)}

    # -- drawing -----------------------------------------------------------------------------------

    def payload(self, session: Session) -> Payload:
        """The lobby message: players, options and the controls."""
        spec = self.specs[session.kind]
        kind = spec.kind
        options = kind.parse_options(session.engine_options)
        low, high = kind.seat_limits(options)
        lines = [
            f"{'👑 ' if s.user_id == session.host_id else ''}{escape_name(s.name)}" + (" 🤖" if s.computer else "")
            for s in session.seats
        ]
        embed = discord.Embed(title=_("{game} — lobby", game=kind.title), colour=discord.Colour.blurple())
        embed.add_field(
            name=_("Players {count}/{high}", count=len(session.seats), high=high),
            value="\n".join(lines) or _("nobody yet"),
            inline=True,
        )
        described = clip(localize(spec.describe_options(options)), 1024)
        embed.add_field(name=_("Options"), value=described or _("defaults"), inline=True)
        random_order = session.options.get("_seating") == "random"
        order = _("Seating: random order. ") if random_order else _("Seating: join order. ")
        embed.set_footer(text=("" if spec.seats_players else order) + _("Needs {low}+ players.", low=low))
        expiry = next((d.at for d in session.deadlines if d.decision == "lobby"), None)
        opened_by = session.options.get("_opened_by", session.host_id)
        content = _("**{game}** · lobby opened by {member}", game=kind.title, member=user_mention(opened_by))
        if expiry:
            content += _(" · closes {when} if not started", when=relative_time(expiry))
        if session.host_id != opened_by:
            content += "\n" + _("{member} is the host now.", member=user_mention(session.host_id))
        full = len(session.seats) >= high
        humans = [s for s in session.seats if not s.computer]
        sid = session.id
        rows: list[list[discord.ui.Item[Any]]] = []
        row: list[discord.ui.Item[Any]] = [
            _button(lobby_id(sid, "join"), _("Join"), discord.ButtonStyle.primary, disabled=full),
            _button(lobby_id(sid, "leave"), _("Leave"), discord.ButtonStyle.secondary),
        ]
        if kind.computers is not None:
            # The button names how many computers it was drawn with: a double-click adds one, not two.
            computers = sum(1 for s in session.seats if s.computer)
            cpu = lobby_id(sid, "cpu", computers)
            row.append(_button(cpu, _("Add computer"), discord.ButtonStyle.secondary, disabled=full))
            rows.append([_strength_select(lobby_id(sid, "cpus", computers), full)])
        row += [
            _button(
                lobby_id(sid, "start"),
                _("Start"),
                discord.ButtonStyle.success,
                disabled=len(session.seats) < low or not humans,
            ),
            _button(lobby_id(sid, "cancel"), _("Cancel"), discord.ButtonStyle.danger),
        ]
        rows.insert(0, row)
        if spec.lobby_options:
            rows.append([_button(lobby_id(sid, "options", 0), _("Options…"), discord.ButtonStyle.secondary)])
        return Payload(content=content, embeds=[embed], view=static_view(rows))

    def retired_line(self, session: Session) -> str:
        """What the lobby message says once the game has started."""
        names = [escape_name(s.name) for s in session.seats]
        return _("{names} sat down to play.", names=listed(names))

    # -- opening -------------------------------------------------------------------------------------

    async def open(
        self,
        reply: Reply,
        kind: str,
        options: BaseModel,
        *,
        computers: int = 0,
        seating: str = "join",
        thread: bool | None = None,
        turn_timeout: int | None = None,
    ) -> None:
        """``/<game> new``: a lobby in this channel (or a new thread) with the caller as host.

        ``thread`` None means the server's default (``/settings threads``); so does ``turn_timeout``
        (``/settings turn_seconds``, else the game's own default), for games whose options have timers.
        """
        interaction = reply.interaction
        game = self.service.registry.get(kind)
        if interaction.guild_id is None:
            raise UserError(_("Games are played in a server channel; use this command there."))
        missing = missing_permissions(interaction)
        if missing:
            raise UserError(
                _n(
                    "I can't run a game here: I need the {permissions} permission(s) in this channel.",
                    "I can't run a game here: I need the {permissions} permission(s) in this channel.",
                    len(missing),
                    permissions=", ".join(missing),
                )
            )
        high = game.seat_limits(options)[1]
        if computers and game.computers is None:
            raise UserError(_("{game} has no computer players.", game=game.title))
        if computers + 1 > high:
            raise UserError(
                _n("{game} seats at most {n} player.", "{game} seats at most {n} players.", high, game=game.title)
            )
        if seating not in SEATINGS:
            raise UserError(_("Seating must be one of: {choices}.", choices=", ".join(SEATINGS)))
        store = self.service.store
        settings = await store.guild_settings(interaction.guild_id)
        if thread is None:
            thread = settings.threads and isinstance(interaction.channel, discord.TextChannel)
        actor = actor_of(interaction)
        opener = self._openers[(interaction.guild_id or 0, actor.user_id)]
        if opener.locked():
            raise Busy(_("You're already opening a lobby; one moment."))
        async with opener:
            await self._check_lobby_limit(interaction.guild_id, actor, settings)
            channel_id = interaction.channel_id
            assert channel_id is not None
            if not thread and await self.service.live_table(channel_id) is not None:
                raise ChannelBusy(
                    _("This channel already has a game. Use `/game status` to see it, or `/game end` to end it.")
                )
            seats = [Seat(user_id=actor.user_id, name=actor.name)]
            seats += [Seat(name=computer_name(n), computer=True) for n in range(1, computers + 1)]
            timed = with_turn_timer(options.model_dump(mode="json"), turn_timeout or settings.turn_timeout_s)
            parsed = game.parse_options(timed)
            if thread:
                made = await self._thread(reply, game.title, actor)
                await self.service.create(
                    kind,
                    guild_id=interaction.guild_id,
                    channel_id=made.id,
                    host=actor,
                    options=parsed,
                    core_options={"_seating": seating, "_opened_by": actor.user_id},
                    seats=seats,
                    lobby_seconds=settings.lobby_timeout_s,
                )
                await reply.send(_("Lobby opened in {channel}.", channel=made.mention), ephemeral=True)
                return
            await self.service.create(
                kind,
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                host=actor,
                options=parsed,
                core_options={"_seating": seating, "_opened_by": actor.user_id},
                seats=seats,
                lobby_seconds=settings.lobby_timeout_s,
                origin=reply,
            )

    async def _check_lobby_limit(self, guild_id: int, actor: Actor, settings: GuildSettings) -> None:
        if await self.service.store.open_lobbies(guild_id, actor.user_id) >= settings.lobbies_per_member:
            count = settings.lobbies_per_member
            raise UserError(
                _n(
                    "You already have an open lobby in this server. Start it, or cancel it, before opening another.",
                    "You already have {n} open lobbies in this server. Start it, or cancel it, before opening another.",
                    count,
                )
            )

    @staticmethod
    async def _thread(reply: Reply, title: str, actor: Actor) -> discord.Thread:
        channel = reply.interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise UserError(_("I can only open a thread from a text channel."))
        if not reply.interaction.app_permissions.create_public_threads:
            raise UserError(_("I need the Create Public Threads permission to start a game in a thread."))
        await reply.defer(private=True)  # the answer says where the lobby is, privately
        return await channel.create_thread(name=f"{title} — {actor.name}"[:100], type=discord.ChannelType.public_thread)

    # -- buttons ---------------------------------------------------------------------------------------

    async def handle(self, reply: Reply, rest: str, values: list[str]) -> None:
        """A click on a lobby button (``l:`` namespace), or a choice in its Options menu."""
        session_id, _sep, rest = rest.partition(":")
        key, _sep, arg = rest.partition(":")
        sid = int(session_id)
        reply.session_id = sid
        actor = actor_of(reply.interaction)
        if key == "rematch":
            await self.rematch(reply, sid)
            return
        session = await self.service.store.session(sid)
        if session is None or session.status is not Status.LOBBY:
            raise SessionOver(_("This lobby is closed."))
        if key == "options":
            await self._show_options(reply, session, int(arg or 0))
        elif key == "set":
            await self._set_option(reply, session, arg, values)
        elif key == "start":
            await self.service.start(sid, actor, origin=reply)
        elif key in ("cpu", "cpus"):
            drawn_with = int(arg) if arg else None  # a button drawn before it said: add one all the same
            strength = values[0] if key == "cpus" and values else NORMAL
            await self.change(sid, actor, lambda s, a: self._add_computer(s, a, drawn_with, strength), reply)
        elif key in ("join", "leave", "cancel"):
            edit = {"join": self._join, "leave": self._leave, "cancel": self._cancel}[key]
            await self.change(sid, actor, edit, reply)
        else:
            raise UserError(_("That button is no longer in use."))

    async def change(self, session_id: int, actor: Actor, edit: Any, reply: Reply | None) -> None:
        """Apply one lobby change (``edit(session, actor)`` returns the next version) and redraw.

        A lobby the change closes (cancelled, or left by everyone) logs why, for its message.
        """
        why = CLOSED_CANCELLED if edit == self._cancel else CLOSED_EMPTY

        def closing(new: Session) -> dict[str, Any] | None:
            if new.status is Status.LOBBY:
                return None
            return {"kind": "abandon", "why": why}

        await self.service.update(
            session_id, lambda s: edit(s, actor), actor=actor, origin=reply, statuses=(Status.LOBBY,), record=closing
        )

    def _join(self, session: Session, actor: Actor) -> Session:
        high = self._limits(session)[1]
        if session.seat_of_user(actor.user_id):
            raise IllegalMove(_("You're already in this lobby."))
        if len(session.seats) >= high:
            raise IllegalMove(_("The table is full ({high} players).", high=high))
        seat = Seat(user_id=actor.user_id, name=actor.name)
        return session.successor(self.service.clock.now(), seats=[*session.seats, seat])

    def _leave(self, session: Session, actor: Actor) -> Session:
        if not session.seat_of_user(actor.user_id):
            raise NotPlaying(_("You're not in this lobby."))
        return self.without(session, actor.user_id)

    def without(self, session: Session, user_id: int) -> Session:
        """The lobby without a member (who left or was kicked): the host role passes on, and a lobby
        with no member left closes."""
        now = self.service.clock.now()
        seats = [s for s in session.seats if s.user_id != user_id]
        humans = [s.user_id for s in seats if s.user_id is not None and not s.computer]
        if not humans:
            return session.ended(now)
        host = humans[0] if session.host_id == user_id else session.host_id
        return session.successor(now, seats=seats, host_id=host)

    def drop(self, session: Session, key: str) -> Session:
        """The lobby without the seat ``key`` names (a member's id, or ``cpu:<name>`` for a computer)."""
        if key.startswith("cpu:"):
            seats = [s for s in session.seats if not (s.computer and s.user_id is None and f"cpu:{s.name}" == key)]
            return session.successor(self.service.clock.now(), seats=seats)
        return self.without(session, int(key))

    def _add_computer(self, session: Session, actor: Actor, drawn_with: int | None, strength: str) -> Session:
        """One more computer player of ``strength``, if the lobby still has the ``drawn_with`` computers the button
        was drawn with."""
        self._host_only(session, actor, N_("add computer players"))
        if strength not in STRENGTHS:
            raise UserError(_("That strength is no longer offered; pick another."))
        number = sum(1 for s in session.seats if s.computer) + 1
        if drawn_with is not None and number - 1 != drawn_with:
            raise IllegalMove(
                _n(
                    "The lobby has {n} computer player now, not {drawn_with} as you saw it: nothing was added.",
                    "The lobby has {n} computer players now, not {drawn_with} as you saw it: nothing was added.",
                    number - 1,
                    drawn_with=drawn_with,
                )
            )
        high = self._limits(session)[1]
        if len(session.seats) >= high:
            raise IllegalMove(_("The table is full ({high} players).", high=high))
        seat = Seat(name=computer_name(number, strength), computer=True, strength=strength)
        return session.successor(self.service.clock.now(), seats=[*session.seats, seat])

    def _cancel(self, session: Session, actor: Actor) -> Session:
        self._host_only(session, actor, N_("cancel the lobby"))
        return session.ended(self.service.clock.now())

    def _limits(self, session: Session) -> tuple[int, int]:
        kind = self.service.kind_of(session)
        return kind.seat_limits(kind.parse_options(session.engine_options))

    @staticmethod
    def _host_only(session: Session, actor: Actor, what: str) -> None:
        """Refuse anyone but the host; ``what`` (a marked message) is what only they may do."""
        if actor.user_id != session.host_id:
            host = user_mention(session.host_id)
            raise NotPermitted(_("Only the host, {host}, can {what}.", host=host, what=_(what)))

    async def close(self, session_id: int) -> None:
        """Close a lobby that won't start (it expired), saying why on its message."""
        await self.service.end(session_id, why=CLOSED_EXPIRED)

    # -- the Options menu (host only, private) -------------------------------------------------------------

    def _options_menu(self, session: Session, page: int) -> dict[str, Any]:
        """Keyword arguments for the private Options menu: a page of selects plus Prev/Next."""
        spec = self.specs[session.kind]
        current = spec.kind.parse_options(session.engine_options).model_dump(mode="json")
        pages = max(1, -(-len(spec.lobby_options) // OPTIONS_PER_PAGE))
        page = max(0, min(page, pages - 1))
        rows: list[list[discord.ui.Item[Any]]] = []
        for option in spec.lobby_options[page * OPTIONS_PER_PAGE : (page + 1) * OPTIONS_PER_PAGE]:
            rows.append([_option_select(session, option, current.get(option.key))])
        nav: list[discord.ui.Item[Any]] = []
        if page > 0:
            previous = _button(
                lobby_id(session.id, "options", page - 1), _("◀ Previous"), discord.ButtonStyle.secondary
            )
            nav.append(previous)
        if page < pages - 1:
            nav.append(_button(lobby_id(session.id, "options", page + 1), _("More ▶"), discord.ButtonStyle.secondary))
        if nav:
            rows.append(nav)
        text = _("**Options** (page {page}/{pages}). Changes show on the lobby at once.", page=page + 1, pages=pages)
        return {"content": text, "view": static_view(rows)}

    async def _show_options(self, reply: Reply, session: Session, page: int) -> None:
        self._host_only(session, actor_of(reply.interaction), N_("change the options"))
        menu = self._options_menu(session, page)
        message = reply.interaction.message
        if message is not None and message.flags.ephemeral:
            await reply.update(**menu)
        else:
            await reply.send(ephemeral=True, **menu)

    async def _set_option(self, reply: Reply, session: Session, key: str, values: list[str]) -> None:
        actor = actor_of(reply.interaction)
        self._host_only(session, actor, N_("change the options"))
        spec = self.specs[session.kind]
        option = next((o for o in spec.lobby_options if o.key == key), None)
        if option is None or len(values) != 1:
            raise UserError(_("That option is not available."))
        value = json.loads(values[0])
        if value not in [v for _label, v in option.choices]:
            raise UserError(_("That choice is not available."))

        def edit(current: Session) -> Session:
            self._host_only(current, actor, N_("change the options"))
            merged = {**current.engine_options, key: value}
            options = {
                **spec.kind.parse_options(merged).model_dump(mode="json"),
                **{k: v for k, v in current.options.items() if k.startswith("_")},
            }
            return current.successor(self.service.clock.now(), options=options)

        applied = await self.service.update(session.id, edit, actor=actor, statuses=(Status.LOBBY,))
        page = [o.key for o in spec.lobby_options].index(key) // OPTIONS_PER_PAGE
        await reply.update(ephemeral=True, **self._options_menu(applied.session, page))

    # -- rematch -------------------------------------------------------------------------------------

    async def rematch(self, reply: Reply, session_id: int) -> None:
        """A new lobby with the same options and the same people (the clicker hosts).

        Seats follow the game's order for a next game (a winner who must sit last), else the host sits first.
        """
        session = await self.service.store.session(session_id)
        if session is None or session.status is not Status.FINISHED:
            raise SessionOver(_("There is no finished game to replay here."))
        actor = actor_of(reply.interaction)
        if not session.seat_of_user(actor.user_id) and actor.user_id != session.host_id:
            raise NotPermitted(_("Only the players of that game can start a rematch."))
        assert session.guild_id is not None
        settings = await self.service.store.guild_settings(session.guild_id)
        await self._check_lobby_limit(session.guild_id, actor, settings)
        seats = [
            Seat(user_id=s.user_id, name=s.name, computer=s.computer, strength=s.strength)
            for s in self._rematch_order(session, actor.user_id)
            if not s.left
        ]
        kind = self.service.kind_of(session)
        await self.service.create(
            session.kind,
            guild_id=session.guild_id,
            channel_id=session.channel_id,
            host=actor,
            options=kind.parse_options(session.engine_options),
            core_options={
                **{k: v for k, v in session.options.items() if k.startswith("_")},
                "_opened_by": actor.user_id,
            },
            seats=seats,
            lobby_seconds=settings.lobby_timeout_s,
            origin=reply,
        )

    def _rematch_order(self, session: Session, host_id: int) -> list[Seat]:
        """The next game's seats: as the game orders them (a winner who must sit last), else the host first."""
        order = getattr(self.service.kind_of(session).engine, "next_game_order", None)
        if order is not None and session.state_json is not None:
            players: list[str] = order(self.service.state_of(session))
            return [session.seat_of_player(p) for p in players] + [s for s in session.seats if s.player not in players]
        return sorted(session.seats, key=lambda s: s.user_id != host_id)

    async def jump(self, session: Session) -> str:
        """A link to a lobby, for the member who asked where it is."""
        url = jump_url(session)
        return _("The lobby is open: [join here]({url}).", url=url) if url else _("The lobby is open.")


def _button(
    custom_id: str, label: str, style: discord.ButtonStyle, *, disabled: bool = False
) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, style=style, custom_id=custom_id, disabled=disabled)


STRENGTH_LABELS = {
    EASY: (N_("Easy computer"), N_("Plays like a beginner")),
    NORMAL: (N_("Normal computer"), N_("The usual computer player")),
    STRONG: (N_("Strong computer"), N_("Searches for its best chance to win")),
}


def _strength_select(custom_id: str, full: bool) -> discord.ui.Select[Any]:
    """Add computer ▸ strength: a menu that adds a computer player of the strength picked."""
    choices = [
        discord.SelectOption(label=_(label), value=strength, description=_(about))
        for strength, (label, about) in STRENGTH_LABELS.items()
    ]
    placeholder = _("Add computer ▸ strength")
    return discord.ui.Select(custom_id=custom_id, options=choices, placeholder=placeholder, disabled=full)


def _option_select(session: Session, option: LobbyOption, current: Any) -> discord.ui.Select[Any]:
    # A game declares its options once, at import, so their words are only marked there (``N_``) and said here.
    choices = [
        discord.SelectOption(label=clip(_(label), 100), value=json.dumps(value), default=value == current)
        for label, value in option.choices
    ]
    return discord.ui.Select(
        custom_id=lobby_id(session.id, "set", option.key), options=choices, placeholder=clip(_(option.label), 150)
    )
