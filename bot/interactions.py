"""Clicks, selects and modals on sessions, turned into service calls (namespaces ``a``, ``m``, ``c``, ``u``)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import Any

import discord
from pydantic import BaseModel

from bot.board import static_view
from bot.controls import Router, core_id, decode_action, parse_action_id, parse_ui_id
from bot.errors import InvalidInput, NotPermitted, NotPlaying, SessionOver, StaleBoard, UserError
from bot.forms import read_action
from bot.i18n import N_, _
from bot.lobby import Lobby, actor_of
from bot.models import Session, Status, viewer_of
from bot.names import escape_name
from bot.permissions import END_RULES, may_end
from bot.publisher import Publisher
from bot.replies import Reply
from bot.service import Expect, Service
from bot.spec import ANY_ACTION, GameSpec
from rules.said import said


def drawn_before_restore(session: Session, interaction: discord.Interaction) -> bool:
    """Whether the control clicked is on a message last drawn before the session was restored from a backup (then
    the message may show what the restore undid). Discord's clock and the restoring machine's are taken to agree
    to within the time it takes to restore and start the bot."""
    restored_at, message = session.restored_at, interaction.message
    if restored_at is None or message is None:
        return False
    return (message.edited_at or message.created_at).timestamp() < restored_at


CONFIRMATIONS = {
    "leave": (N_("Leave this game? You can't come back to it."), N_("Yes, leave")),
    "end": (N_("End the game for everyone?"), N_("Yes, end it")),
}


class Interactions:
    """The handlers of every routed control. Collaborators: service, publisher, lobby, specs."""

    def __init__(
        self, service: Service, publisher: Publisher, lobby: Lobby, specs: Mapping[str, GameSpec[Any]]
    ) -> None:
        self.service = service
        self.publisher = publisher
        self.lobby = lobby
        self.specs = specs

    def register(self, router: Router) -> None:
        """Route the core's namespaces here."""
        router.on("a", self.action)
        router.on("m", self.modal)
        router.on("c", self.core)
        router.on("u", self.game_ui)
        router.on("l", self.lobby.handle)

    # -- engine actions -----------------------------------------------------------------------------

    async def action(self, reply: Reply, rest: str, values: list[str]) -> None:
        """A button or select that takes an engine action."""
        route = parse_action_id(rest)
        reply.session_id = route.session_id
        if route.action.partition(";")[0] == ANY_ACTION:
            if len(values) != 1:
                raise InvalidInput(_("Pick one option."))
            action = decode_action(values[0])
        else:
            action = decode_action(route.action, values)
        await self._act(reply, route.session_id, Expect(route.version, route.record), action)

    async def modal(self, reply: Reply, rest: str, values: list[str]) -> None:
        """A submitted modal: its inputs fill in the fields of the action it was opened for."""
        route = parse_action_id(rest)
        reply.session_id = route.session_id
        session = await self.service.session(route.session_id)
        action = read_action(reply.interaction, route.action, self.service.kind_of(session).engine.parse_action)
        await self._act(reply, route.session_id, Expect(route.version, route.record), action)

    async def _act(self, reply: Reply, session_id: int, expect: Expect, action: Mapping[str, Any] | BaseModel) -> None:
        async with self._stale_redraws(reply, session_id):
            await self._not_drawn_before_restore(reply, session_id)
            await self.service.act(session_id, actor_of(reply.interaction), action, expect=expect, origin=reply)

    async def _not_drawn_before_restore(self, reply: Reply, session_id: int) -> None:
        """Raise StaleBoard for a control on a message drawn before the session was restored from a backup: it may
        name a version the restored session has not reached, or reached again by other moves."""
        session = await self.service.session(session_id)
        if drawn_before_restore(session, reply.interaction):
            raise StaleBoard()

    @contextlib.asynccontextmanager
    async def _stale_redraws(self, reply: Reply, session_id: int) -> AsyncIterator[None]:
        """A click made on an older version is refused, or redraws a board stuck on it (``Publisher.stale``)."""
        try:
            yield
        except StaleBoard:
            session = await self.service.session(session_id)
            error = self.publisher.stale(session, reply)
            if error is not None:
                raise error from None

    # -- the core's own buttons ----------------------------------------------------------------------

    async def core(self, reply: Reply, rest: str, values: list[str]) -> None:
        """Confirmations (leave, end), undo, redo, rematch, and ``private``: the board as the clicker may see it
        (their own hidden dice or cards, the GM's secrets), sent to them alone."""
        session_id, _sep, rest = rest.partition(":")
        key, _sep, version = rest.partition(":")
        sid = int(session_id)
        reply.session_id = sid
        actor = actor_of(reply.interaction)
        if key == "rematch":
            await self.lobby.rematch(reply, sid)
        elif key == "private":
            session = await self.service.session(sid)
            await self.publisher.send_private(reply, session, viewer_of(session, actor))
        elif key in ("undo", "redo"):
            expect = Expect(int(version)) if version else None
            async with self._stale_redraws(reply, sid):
                await self._not_drawn_before_restore(reply, sid)
                await self.service.undo(sid, actor, redo=key == "redo", expect=expect, origin=reply)
        elif key == "confirm_end":
            session = await self.service.session(sid)
            await self._check_may_end(session, reply)
            await reply.update(content=_("Game ended."), view=None)
            await self.service.end(sid, actor=actor, why=said("{name} ended the game.", name=escape_name(actor.name)))
        elif key == "confirm_leave":
            session = await self.service.session(sid)
            seat = session.seat_of_user(actor.user_id)
            if seat is None:
                raise NotPlaying(_("You're not playing in this game."))
            await reply.update(content=_("You left the game."), view=None)
            if session.status is Status.LOBBY:
                await self.lobby.change(sid, actor, lambda s, a: self.lobby.without(s, a.user_id), None)
            else:
                await self.service.remove_player(sid, seat.player, actor=actor)
        else:
            raise UserError(_("That button is no longer in use."))

    async def _check_may_end(self, session: Session, reply: Reply) -> None:
        if session.guild_id is None:
            return
        rule = (await self.service.store.guild_settings(session.guild_id)).end_by
        if not may_end(session, actor_of(reply.interaction), rule):
            raise NotPermitted(_("On this server, games are ended by {who}.", who=_(END_RULES[rule])))

    async def confirm(self, reply: Reply, session: Session, what: str) -> None:
        """A private question with one confirm button (``leave`` or ``end``)."""
        text, label = CONFIRMATIONS[what]
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_(label), style=discord.ButtonStyle.danger, custom_id=core_id(session.id, f"confirm_{what}")
        )
        await reply.send(_(text), ephemeral=True, view=static_view([[button]]))

    # -- the games' own controls -----------------------------------------------------------------------

    async def game_ui(self, reply: Reply, rest: str, values: list[str]) -> None:
        """``u:<kind>:<session>[@<version>]:<key>[@<drawn>][:<arg>]``: handed to the game's spec. A form opened on a
        version (``form_id``) changes its session once, however often it is sent; a control drawn on a version of one
        of the session's records (``drawn``) tells the game what its clicker saw (``Reply.drawn``)."""
        route = parse_ui_id(rest)
        reply.drawn = route.drawn
        spec = self.specs.get(route.kind)
        session = await self.service.store.session(route.session_id)
        reply.session_id = route.session_id
        if spec is None or session is None or not session.live:
            raise SessionOver(_("This is over; start a new one any time."))
        if drawn_before_restore(session, reply.interaction):
            error = self.publisher.stale(session, reply)
            if error is not None:
                raise error
            return  # the click redraws the board it came from
        if route.version is None:
            await spec.on_ui(reply, session, route.key, route.arg, values)
            return
        sent = (rest, reply.interaction.user.id)
        with self.service.once(route.session_id, sent):
            await spec.on_ui(reply, session, route.key, route.arg, values)
