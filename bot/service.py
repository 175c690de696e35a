"""The one way anything changes a session, whatever asked for it: buttons, selects, slash commands,
modals, deadlines, computer players. Discord-free.

Every change goes load → lock → check (version, actor, role) → apply → commit with its log entry
→ ``on_commit`` hooks, and nothing is told about it before the commit. Refusals are checked once
before the lock on the cached session, so they are answered at once even while another change
holds the session, and again under the lock on the session as stored. The lock is per session,
so a campaign never waits on the table game in the same channel; it is never held across anything
but the engine and the database.

In-process caches and locks are an optimisation only: every write carries the version it expects,
and a write refused because another process got there first is retried on fresh data.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable, Iterable, Mapping
from contextlib import AbstractContextManager
from typing import Any

from pydantic import BaseModel

from bot.clock import Clock
from bot.commit import CORE, GAME_OVER, Committer, Hook, NewsOf
from bot.errors import NotPlaying, NotYourTurn, SessionOver, StaleBoard
from bot.i18n import _, localize
from bot.lifecycle import LOBBY_DECISION, Lifecycle
from bot.models import Actor, Applied, How, LogEntry, Scope, Seat, Session, Status, roles_of
from bot.names import escape_name
from bot.once import SENT_ALREADY, OnceGuard
from bot.refusals import engine_refusals
from bot.registry import GameKind, Registry
from bot.staleness import Expect, Staleness, changed_records
from bot.states import StateCache
from bot.storage import Store
from bot.undo import Undoing
from rules.dice import DiceSource, RecordingDice, SystemDice
from rules.engine import Prompt

__all__ = ["COMPUTER_SEAT", "CORE", "LOBBY_DECISION", "SENT_ALREADY", "TIMED_OUT", "Expect", "Service"]

log = logging.getLogger(__name__)

TIMED_OUT = "timed_out"
"""The core's own event, before a default's events: whose time ran out."""
COMPUTER_SEAT = "computer_seat"
"""The core's own event: a seat that missed too many decisions in a row is played by a computer now."""


class Service:
    """Applies actions to sessions and commits them; tells its hooks about every commit.

    Its collaborators each own one thing: the parsed states (``StateCache``), what applies once (``OnceGuard``),
    whether a click is stale (``Staleness``), committing and telling (``Committer``), a session's life from
    creation to its end (``Lifecycle``), and undo (``Undoing``).
    """

    def __init__(self, store: Store, registry: Registry, clock: Clock, dice: DiceSource | None = None) -> None:
        self.store = store
        self.registry = registry
        self.clock = clock
        self.dice: DiceSource = dice or SystemDice()
        self.states = StateCache(registry)
        self.onces = OnceGuard()
        self.staleness = Staleness(self.states)
        self.committer = Committer(store, registry, clock, self.states, self.onces)
        self.sessions = Lifecycle(self.committer, lambda: self.dice, self._forced_move)
        self.undos = Undoing(self.committer, self.player_of)
        # The session's life and undo, as the service's own: one way in for the cogs, whichever part does it.
        self.create = self.sessions.create
        self.update = self.sessions.update
        self.start = self.sessions.start
        self.remove_player = self.sessions.remove_player
        self.end = self.sessions.end
        self.set_role = self.sessions.set_role
        self.undo = self.undos.undo

    # -- hooks, locks, reading -------------------------------------------------------------------

    @property
    def news_of(self) -> NewsOf | None:
        """Turns a log entry into its news, written with the entry in the same commit (set by the bot)."""
        return self.committer.news_of

    @news_of.setter
    def news_of(self, news_of: NewsOf | None) -> None:
        self.committer.news_of = news_of

    def on_commit(self, hook: Hook) -> None:
        """Call ``hook`` (synchronously, after the lock is released) with every committed change."""
        self.committer.hooks.append(hook)

    def lock(self, session_id: int) -> asyncio.Lock:
        """The lock that serialises changes to one session within this process."""
        return self.committer.locks[session_id]

    async def idle(self, timeout: float) -> None:
        """Wait (up to ``timeout`` seconds) until no change is being made: for a clean shutdown."""
        await self.committer.idle(timeout)

    def once(self, session_id: int, key: Hashable) -> AbstractContextManager[None]:
        """The changes made to ``session_id`` inside apply once per ``key``: a form sent again (a client retrying
        a slow answer) is refused once the first one committed, and a form's several changes all commit."""
        return self.onces.scope(session_id, key)

    def sent_already(self, session_id: int) -> bool:
        """Whether what this call applies once (``once``) was applied already: a repeat of something sent, whose
        answer must not undo the first one's."""
        return self.onces.sent_already(session_id)

    def footprint(self) -> dict[str, int]:
        """What the service holds now: locks (only while held or waited for) and parsed states (capped)."""
        return {"locks": len(self.committer.locks), "states": len(self.states)}

    @property
    def busy(self) -> bool:
        """A change is being made."""
        return self.committer.busy

    def kind_of(self, session: Session) -> GameKind:
        """The game kind of a session."""
        return self.registry.get(session.kind)

    def state_of(self, session: Session) -> BaseModel:
        """The engine state of a started session, parsed once per version (states are immutable)."""
        return self.states.state_of(session)

    def prompts(self, session: Session, state: BaseModel | None = None) -> list[Prompt]:
        """Who must act now in an active session."""
        if session.status is not Status.ACTIVE:
            return []
        return self.kind_of(session).prompts(state if state is not None else self.state_of(session))

    @staticmethod
    def waiting_text(session: Session, prompts: Iterable[Prompt]) -> str:
        """``@Alice to roll the dice; @Bob to choose who gets the dagger`` (for private refusals: no pings)."""
        names = []
        for prompt in prompts:
            seat = next((s for s in session.seats if s.player == prompt.player), None)
            who = seat.mention if seat is not None else escape_name(prompt.player)
            names.append(_("{names} to {label}", names=who, label=localize(prompt.label)))
        return "; ".join(names) or _("nobody")

    @staticmethod
    def display_name(session: Session, player: str) -> str:
        """The name of a seated player, or the id itself for open sessions."""
        seat = next((s for s in session.seats if s.player == player), None)
        return seat.name if seat is not None else player

    async def session(self, session_id: int) -> Session:
        """A live session, or a friendly error."""
        session = await self.store.session(session_id)
        if session is None or not session.live:
            raise SessionOver(_(GAME_OVER))
        return session

    def player_of(self, session: Session, actor: Actor) -> str:
        """The engine player ``actor`` plays: their seat at a table, their user id in an open session."""
        if self.kind_of(session).seats is None:
            return str(actor.user_id)
        seat = session.seat_of_user(actor.user_id)
        if seat is None:
            waiting = self.waiting_text(session, self.prompts(session))
            raise NotPlaying(_("You're not playing in this game. Waiting for {who}.", who=waiting))
        return seat.player

    # -- the pipeline ------------------------------------------------------------------------------

    async def act(
        self,
        session_id: int,
        actor: Actor | None,
        action: Mapping[str, Any] | BaseModel,
        *,
        expect: Expect | None = None,
        how: How = "player",
        player: str | None = None,
        origin: Any = None,
        takeover_after: int | None = None,
    ) -> Applied:
        """Apply one engine action to a session and commit it.

        ``actor`` is the member acting (None for a deadline or a computer seat, which name the
        ``player``). ``expect`` is the version the click was made on: a click is refused as stale
        only when it has to be (``Staleness.still_valid``). After the commit, moves that are forced (the
        engine says the player has no real choice) are taken at once, each its own log entry.
        A timeout that counts as a missed turn gives ``takeover_after``: after that many in a row, a
        computer keeps the seat (where the game has computer players).
        """
        # load, and check on the cached session: a refusal is answered at once, even while another change runs
        current = await self.session(session_id)
        self._check(current, self.state_of(current), actor, action, expect, how, player)

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            # under the lock, on the session as stored: check again, then apply
            state = self.state_of(session)
            acting, parsed = self._check(session, state, actor, action, expect, how, player)
            return self._apply(
                session, state, acting, parsed, how=how, actor=actor, origin=origin, takeover_after=takeover_after
            )

        # lock → change → commit with its log entry → forced moves → tell the hooks
        return await self.committer.change(session_id, change, forced=self._forced_move)

    def _check(
        self,
        session: Session,
        state: BaseModel,
        actor: Actor | None,
        action: Mapping[str, Any] | BaseModel,
        expect: Expect | None,
        how: How,
        player: str | None,
    ) -> tuple[str, BaseModel]:
        """Who acts and the parsed action, or the UserError that refuses it."""
        if not session.live or session.status is not Status.ACTIVE:
            raise SessionOver(_(GAME_OVER))
        kind = self.kind_of(session)
        acting = player if player is not None else self.player_of(session, self._required(actor))
        with engine_refusals():  # an engine may explain what is wrong with the action's shape
            parsed = action if isinstance(action, BaseModel) else kind.engine.parse_action(action)
        if expect is not None and not self.staleness.still_valid(kind, session, state, acting, expect):
            raise StaleBoard()
        if how != "player":
            return acting, parsed
        permissions = kind.permissions
        if permissions is not None:
            assert actor is not None
            with engine_refusals(authorizing=True):
                permissions.authorize(state, acting, roles_of(session, actor), parsed)
        if kind.turns is not None:
            prompts = kind.prompts(state)
            if acting not in {p.player for p in prompts}:
                raise NotYourTurn(_("Not your move: waiting for {who}.", who=self.waiting_text(session, prompts)))
        return acting, parsed

    @staticmethod
    def _required(actor: Actor | None) -> Actor:
        if actor is None:
            raise ValueError("an action by nobody must name its player")
        return actor

    def _apply(
        self,
        session: Session,
        state: BaseModel,
        player: str,
        action: BaseModel,
        *,
        how: How,
        actor: Actor | None = None,
        origin: Any = None,
        takeover_after: int | None = None,
    ) -> tuple[Applied, LogEntry]:
        kind = self.kind_of(session)
        dice = RecordingDice(self.dice)
        with engine_refusals():
            outcome = kind.engine.apply(state, player, action, dice)
        new = self.committer.advance(session, state, outcome.state, actor=player)
        seat = next((s for s in new.seats if s.player == player), None)
        events = outcome.events
        if seat is not None and self._count_turn(kind, state, seat, how, takeover_after):
            events = [*events, {"type": COMPUTER_SEAT, "player": player, "missed": seat.timeouts}]
        if how == "timeout":
            events = [{"type": TIMED_OUT, "player": player}, *events]
        return self.committer.step(
            session,
            new,
            outcome.state,
            {"kind": "act", "how": how, "action": action.model_dump(mode="json")},
            actor=player,
            dice=dice,
            events=events,
            how=how,
            user=actor,
            origin=origin,
            touched=changed_records(kind, state, outcome.state),
        )

    def _count_turn(self, kind: GameKind, state: BaseModel, seat: Seat, how: How, takeover_after: int | None) -> bool:
        """Missed turns in a row: reset by acting (which also takes back a seat a computer was
        keeping), counted for a timeout of a decision the game waited for. True if a computer takes the
        seat now."""
        if how == "player":
            seat.timeouts = 0
            seat.computer = seat.computer and seat.user_id is None
        elif how == "timeout" and takeover_after is not None:
            seat.timeouts += 1
            if seat.timeouts >= takeover_after and kind.computers is not None and not seat.computer:
                seat.computer = True
                return True
        return False

    def _forced_move(
        self, session: Session, state: BaseModel, player: str, action: BaseModel
    ) -> tuple[Applied, LogEntry]:
        """A move nobody has a choice about, applied as the engine's own (``how="auto"``)."""
        return self._apply(session, state, player, action, how="auto")

    # -- finding sessions ----------------------------------------------------------------------------

    async def live_table(self, channel_id: int) -> Session | None:
        """The channel's lobby, table game or scoresheet, if any."""
        return await self.store.live_session(channel_id, Scope.TABLE)

    async def campaign(self, channel_id: int, guild_id: int | None, name: str | None = None) -> Session | None:
        """The campaign called ``name`` in the server, else the channel's own campaign, if any."""
        if name and guild_id is not None:
            return await self.store.live_named(guild_id, name)
        return await self.store.live_session(channel_id, Scope.CAMPAIGN)
