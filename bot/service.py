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
import contextlib
import contextvars
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.clock import Clock
from bot.errors import (
    ChannelBusy,
    Conflict,
    IllegalMove,
    InvalidInput,
    NotPermitted,
    NotPlaying,
    NotYourTurn,
    SessionOver,
    StaleBoard,
)
from bot.locks import KeyedLocks
from bot.models import (
    Actor,
    Applied,
    Deadline,
    How,
    LogEntry,
    News,
    Scope,
    Seat,
    Session,
    Status,
    roles_of,
)
from bot.names import escape_name
from bot.registry import GameKind, Registry
from bot.replay import Folded, fold, is_barrier
from bot.storage import Duplicate, Store
from bot.storage.dice import commit_counts
from rules import engine as contract
from rules.dice import DiceSource, RecordingDice, ReplayDice, Roll, SystemDice
from rules.engine import IllegalAction, Prompt, Reminder, visible

log = logging.getLogger(__name__)

STATE_CACHE_SIZE = 1024
CORE = ""
"""Who committed a change the core made itself (a lobby seat, a role): no player."""
COMMIT_ATTEMPTS = 3
MAX_FORCED_MOVES = 50
"""Forced moves taken in a row after one action, at most (a guard against an engine that loops)."""
LOBBY_DECISION = "lobby"
TIMED_OUT = "timed_out"
"""The core's own event, before a default's events: whose time ran out."""
COMPUTER_SEAT = "computer_seat"
"""The core's own event: a seat that missed too many decisions in a row is played by a computer now."""

Hook = Callable[[Applied], None]
NewsOf = Callable[[Session, BaseModel | None, LogEntry], list[News]]
"""What the channel must be told of a log entry besides the boards (the Discord side knows how to say it)."""
Change = Callable[[Session], Awaitable[tuple[Applied, LogEntry | None]]]


@contextlib.contextmanager
def engine_refusals(*, authorizing: bool = False) -> Iterator[None]:
    """The engine's refusals as the member's errors: one mapping for every step (act, create, start, leave, undo,
    redo). While ``authorizing``, any refusal means the member may not (``NotPermitted``)."""
    try:
        yield
    except ValidationError as exc:
        raise InvalidInput.naming(exc) from None
    except contract.NotPermitted as exc:
        raise NotPermitted(exc.reason) from None
    except IllegalAction as exc:
        raise (NotPermitted(exc.reason) if authorizing else IllegalMove(exc.reason)) from None


@dataclass(frozen=True, slots=True)
class Expect:
    """The version a click or command was made against: of the session, or of one of its records."""

    version: int
    record: str | None = None
    shared: bool = False
    """The record is one several members change at once (a campaign's dice pool): a change to it by someone else
    leaves the click good, the engine checking the action again on the record as it is; the clicker's own never
    does. Otherwise any change to the record makes the click stale."""

    @classmethod
    def of(cls, session: Session, record: str | None = None) -> Expect:
        """What a control drawn now on ``session`` (or on one of its records) is made against."""
        if record is None:
            return cls(session.version)
        return cls(session.records.get(record, 0), record)


@dataclass
class _Once:
    """Changes to one session made on behalf of something that may apply once (``Service.once``)."""

    session_id: int
    key: Hashable
    committed: bool = False


_ONCE: contextvars.ContextVar[_Once | None] = contextvars.ContextVar("once", default=None)
ONCE_KEYS = 4096
"""How many things applied once a process remembers (a retry comes within seconds of the first)."""
SENT_ALREADY = "That was already sent; nothing more was changed."


class Service:
    """Applies actions to sessions and commits them; tells its hooks about every commit."""

    def __init__(self, store: Store, registry: Registry, clock: Clock, dice: DiceSource | None = None) -> None:
        self.store = store
        self.registry = registry
        self.clock = clock
        self.dice: DiceSource = dice or SystemDice()
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._states: OrderedDict[tuple[int, int], tuple[BaseModel, str | None]] = OrderedDict()
        """Parsed states by (session, version), with the player who committed that version (``CORE`` for the
        core's own changes, None when this process didn't commit it)."""
        self._hooks: list[Hook] = []
        self._applied_once: OrderedDict[Hashable, None] = OrderedDict()
        self.news_of: NewsOf | None = None
        """Turns a log entry into its news, written with the entry in the same commit (set by the bot)."""

    # -- hooks, locks, reading -------------------------------------------------------------------

    def on_commit(self, hook: Hook) -> None:
        """Call ``hook`` (synchronously, after the lock is released) with every committed change."""
        self._hooks.append(hook)

    def lock(self, session_id: int) -> asyncio.Lock:
        """The lock that serialises changes to one session within this process."""
        return self._locks[session_id]

    async def idle(self, timeout: float) -> None:
        """Wait (up to ``timeout`` seconds) until no change is being made: for a clean shutdown."""
        async with asyncio.timeout(timeout):
            for lock in self._locks.held():
                async with lock:
                    pass

    @contextlib.contextmanager
    def once(self, session_id: int, key: Hashable) -> Iterator[None]:
        """The changes made to ``session_id`` inside apply once per ``key``: a form sent again (a client retrying
        a slow answer) is refused once the first one committed, and a form's several changes all commit."""
        token = _ONCE.set(_Once(session_id, key))
        try:
            yield
        finally:
            _ONCE.reset(token)

    def _check_once(self, session_id: int) -> _Once | None:
        """The ``once`` this change is part of (refused if it applied already), or None."""
        once = _ONCE.get()
        if once is None or once.session_id != session_id:
            return None
        if not once.committed and once.key in self._applied_once:
            raise StaleBoard(SENT_ALREADY)
        return once

    def sent_already(self, session_id: int) -> bool:
        """Whether what this call applies once (``once``) was applied already: a repeat of something sent, whose
        answer must not undo the first one's."""
        once = _ONCE.get()
        return once is not None and once.session_id == session_id and once.key in self._applied_once

    def _applied(self, once: _Once | None) -> None:
        if once is None:
            return
        once.committed = True
        self._applied_once[once.key] = None
        self._applied_once.move_to_end(once.key)
        if len(self._applied_once) > ONCE_KEYS:
            self._applied_once.popitem(last=False)

    def footprint(self) -> dict[str, int]:
        """What the service holds now: locks (only while held or waited for) and parsed states (capped)."""
        return {"locks": len(self._locks), "states": len(self._states)}

    @property
    def busy(self) -> bool:
        """A change is being made."""
        return any(lock.locked() for lock in self._locks.held())

    def kind_of(self, session: Session) -> GameKind:
        """The game kind of a session."""
        return self.registry.get(session.kind)

    def state_of(self, session: Session) -> BaseModel:
        """The engine state of a started session, parsed once per version (states are immutable)."""
        cached = self._states.get((session.id, session.version))
        if cached is not None:
            return cached[0]
        if session.state_json is None:
            raise SessionOver("The game has not started yet.")
        state = self.kind_of(session).engine.state_model.model_validate_json(session.state_json)
        self.remember(session, state, None)
        return state

    def state_at(self, session_id: int, version: int) -> tuple[BaseModel, str | None] | None:
        """A state this process saw at ``version``, with who committed it, if it still remembers it."""
        return self._states.get((session_id, version))

    def remember(self, session: Session, state: BaseModel, committer: str | None) -> None:
        """Cache a session's parsed state for its current version, and who committed it (None: unknown)."""
        key = (session.id, session.version)
        known = self._states.get(key)
        if committer is None and known is not None:
            committer = known[1]  # a state read back after this process committed it: keep who did
        self._states[key] = (state, committer)
        self._states.move_to_end(key)
        if len(self._states) > STATE_CACHE_SIZE:
            self._states.popitem(last=False)

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
            names.append(f"{who} to {prompt.label}")
        return "; ".join(names) or "nobody"

    @staticmethod
    def display_name(session: Session, player: str) -> str:
        """The name of a seated player, or the id itself for open sessions."""
        seat = next((s for s in session.seats if s.player == player), None)
        return seat.name if seat is not None else player

    async def session(self, session_id: int) -> Session:
        """A live session, or a friendly error."""
        session = await self.store.session(session_id)
        if session is None or not session.live:
            raise SessionOver("This game is over; start a new one any time.")
        return session

    def player_of(self, session: Session, actor: Actor) -> str:
        """The engine player ``actor`` plays: their seat at a table, their user id in an open session."""
        if self.kind_of(session).seats is None:
            return str(actor.user_id)
        seat = session.seat_of_user(actor.user_id)
        if seat is None:
            raise NotPlaying(
                f"You're not playing in this game. Waiting for {self.waiting_text(session, self.prompts(session))}."
            )
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
        only when it has to be (see ``_still_valid``). After the commit, moves that are forced (the
        engine says the player has no real choice) are taken at once, each its own log entry.
        A timeout that counts as a missed turn gives ``takeover_after``: after that many in a row, a
        computer keeps the seat (where the game has computer players).
        """
        current = await self.session(session_id)
        self._check(current, self.state_of(current), actor, action, expect, how, player)

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            state = self.state_of(session)
            acting, parsed = self._check(session, state, actor, action, expect, how, player)
            return self._apply(
                session, state, acting, parsed, how=how, actor=actor, origin=origin, takeover_after=takeover_after
            )

        return await self._change(session_id, change, forced_after=True)

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
            raise SessionOver("This game is over; start a new one any time.")
        kind = self.kind_of(session)
        acting = player if player is not None else self.player_of(session, self._required(actor))
        with engine_refusals():  # an engine may explain what is wrong with the action's shape
            parsed = action if isinstance(action, BaseModel) else kind.engine.parse_action(action)
        if expect is not None and not self._still_valid(session, state, acting, expect):
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
                raise NotYourTurn(f"Not your move: waiting for {self.waiting_text(session, prompts)}.")
        return acting, parsed

    @staticmethod
    def _required(actor: Actor | None) -> Actor:
        if actor is None:
            raise ValueError("an action by nobody must name its player")
        return actor

    def _still_valid(self, session: Session, state: BaseModel, player: str, expect: Expect) -> bool:
        """Whether a click made at ``expect`` may still be applied.

        It may if nothing it was drawn from changed; or, for a table, if every commit since was made by
        *someone else* and left the clicker's own pending decision as it was (the same decision, the same
        legal options, pending all along): two players passing in the same window don't make each other's
        buttons stale. A commit by the clicker themselves (their own earlier click, a default or a computer
        move for their seat) always makes the click stale, so a double-click never applies twice, and a
        decision taken and then asked again is a new one. A commit this process can't vouch for (it didn't
        see it) makes it stale too.

        A control drawn on one record (a troupe, a ledger's page) is still valid if the record is as it was
        drawn; on a ``shared`` one (a dice pool several players build at once), also if every change to it since
        was committed by someone else, never by the clicker (their earlier click) nor in a version this process
        didn't see.
        """
        kind = self.kind_of(session)
        if expect.record is not None:
            return self._record_still_valid(kind, session, state, player, expect)
        if session.version == expect.version:
            return True
        then = self.state_at(session.id, expect.version)
        if then is None:
            return False
        mine = self._decision(kind, then[0], player)
        if not mine[0]:
            return False
        for version in range(expect.version + 1, session.version + 1):
            between = self.state_at(session.id, version)
            if between is None or between[1] is None or between[1] == player:
                return False
            if self._decision(kind, between[0] if version < session.version else state, player) != mine:
                return False
        return True

    def _record_still_valid(
        self, kind: GameKind, session: Session, state: BaseModel, player: str, expect: Expect
    ) -> bool:
        """``_still_valid`` for a control drawn on the record ``expect.record`` at its version ``expect.version``."""
        assert expect.record is not None
        if session.records.get(expect.record, 0) == expect.version:
            return True
        then = self.state_at(session.id, expect.version) if expect.shared else None
        if then is None:
            return False
        previous = then[0]
        for version in range(expect.version + 1, session.version + 1):
            between = self.state_at(session.id, version)
            if between is None or between[1] is None:
                return False
            current = between[0] if version < session.version else state
            if between[1] == player and expect.record in self._touched(kind, previous, current):
                return False
            previous = current
        return True

    @staticmethod
    def _decision(kind: GameKind, state: BaseModel, player: str) -> tuple[list[str], list[BaseModel]]:
        """What ``player`` is asked to decide in ``state``, and the legal answers."""
        decisions = [p.decision for p in kind.prompts(state) if p.player == player]
        return decisions, list(kind.legal_actions(state, player)) if decisions else []

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
        new = self.advance(session, state, outcome.state, actor=player)
        seat = next((s for s in new.seats if s.player == player), None)
        events = outcome.events
        if seat is not None and self._count_turn(kind, state, seat, how, takeover_after):
            events = [*events, {"type": COMPUTER_SEAT, "player": player, "missed": seat.timeouts}]
        if how == "timeout":
            events = [{"type": TIMED_OUT, "player": player}, *events]
        return self._step(
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
            touched=self._touched(kind, state, outcome.state),
        )

    def _step(
        self,
        before: Session,
        new: Session,
        state: BaseModel | None,
        action: dict[str, Any],
        *,
        actor: str | None = None,
        dice: RecordingDice | None = None,
        events: list[dict[str, Any]] | None = None,
        how: How = "core",
        user: Actor | None = None,
        origin: Any = None,
        touched: frozenset[str] = frozenset(),
    ) -> tuple[Applied, LogEntry]:
        """A change as it is committed: its log entry, and what the commit hooks hear of it (one shape for every
        step, from a click to a game's start)."""
        events = events or []
        entry = LogEntry(
            seq=new.version,
            actor=actor,
            action=action,
            dice=[r.model_dump() for r in dice.rolls] if dice is not None else [],
            events=events,
            at=self.clock.now(),
        )
        applied = Applied(
            before=before,
            session=new,
            state=state,
            events=events,
            how=how,
            actor=actor,
            user_id=user.user_id if user is not None else None,
            origin=origin,
            touched=touched,
        )
        return applied, entry

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

    @staticmethod
    def _touched(kind: GameKind, before: BaseModel, after: BaseModel) -> frozenset[str]:
        records = kind.records
        if records is None:
            return frozenset()
        old, new = records.records(before), records.records(after)
        changed = {key for key, value in new.items() if key not in old or (old[key] is not value and old[key] != value)}
        return frozenset(changed | (old.keys() - new.keys()))

    def advance(
        self, session: Session, before: BaseModel | None, state: BaseModel, actor: str | None = None
    ) -> Session:
        """The session record after a state change: new version, deadlines, records, status and winners.

        Whoever just acted (or had a default applied) starts afresh on their next decision; other
        pending decisions keep their deadlines, started or not.
        """
        kind = self.kind_of(session)
        now = self.clock.now()
        new = session.successor(now, state_json=state.model_dump_json(), chapter=kind.chapter(state))
        if kind.records is not None and before is not None:
            for key in self._touched(kind, before, state):
                new.records[key] = new.version
        elif kind.records is not None:
            new.records = dict.fromkeys(kind.records.records(state), new.version)
        seats = kind.seats
        winners = seats.winners(state) if seats is not None else None
        if winners is not None:
            new.status = Status.FINISHED
            new.winners = list(winners)
            new.deadlines = []
            return new
        kept = [d for d in session.deadlines if d.player != actor]
        new.deadlines = self.deadlines_for(new, kind.prompts(state), previous=kept)
        new.deadlines += self.reminders_for(kind.reminders(state), previous=session.deadlines, now=now)
        return new

    @staticmethod
    def reminders_for(reminders: Iterable[Reminder], *, previous: Iterable[Deadline], now: float) -> list[Deadline]:
        """A deadline per reminder the game asks for (``Reminders``); one still asked for keeps its own, sent or not."""
        kept = {(d.player, d.decision): d for d in previous if not d.expires}
        result = []
        for reminder in reminders:
            old = kept.get((reminder.player, reminder.key))
            if old is None:
                moment = reminder.at if reminder.at is not None else now + (reminder.after or 0.0)
                seconds = reminder.after or 0.0
                old = Deadline(
                    player=reminder.player, decision=reminder.key, seconds=seconds, expires=False, remind_at=moment
                )
            result.append(old)
        return result

    def deadlines_for(
        self, session: Session, prompts: Iterable[Prompt], *, previous: Iterable[Deadline]
    ) -> list[Deadline]:
        """One deadline per pending decision with a timer; a decision still pending keeps its deadline.

        New deadlines are not started: they start when the decision is first shown.
        """
        kept = {(d.player, d.decision): d for d in previous}
        timeouts: dict[str, int] = session.options.get("timeouts", {})
        result = []
        for prompt in prompts:
            old = kept.get((prompt.player, prompt.decision))
            if old is not None:
                result.append(old)
                continue
            seconds = timeouts.get(prompt.timer) if prompt.timer else None
            if not seconds:
                continue
            seat = next((s for s in session.seats if s.player == prompt.player), None)
            remind = prompt.ping and seat is not None and seat.human
            result.append(Deadline(player=prompt.player, decision=prompt.decision, seconds=seconds, remind=remind))
        return result

    async def _change(self, session_id: int, change: Change, *, forced_after: bool = False) -> Applied:
        """Run ``change`` under the session's lock on the session as stored, commit it, then tell the hooks.

        A write refused because another process committed first is tried again on fresh data.
        """
        async with self.lock(session_id):
            once = self._check_once(session_id)
            for _ in range(COMMIT_ATTEMPTS):
                session = await self.store.session(session_id)
                if session is None:
                    raise SessionOver("This game is over; start a new one any time.")
                applied, entry = await change(session)
                self._stamp(applied.session, applied.state)
                if entry is not None:
                    entry.news = self._news(applied.session, applied.state, entry)
                    applied.entries = [entry]
                if await self._save(applied.session, session.version, entry):
                    break
                log.info("Session %s changed in another process; retrying on fresh data", session_id)
            else:
                raise Conflict()
            self._applied(once)
            if applied.state is not None:
                self.remember(applied.session, applied.state, applied.actor or CORE)
            if forced_after:
                applied = await self._forced_moves(applied)
        self._notify(applied)
        return applied

    async def _save(self, session: Session, expected_version: int, entry: LogEntry | None) -> bool:
        """``Store.save``, the entry marked as where undo starts folding if undo can't go back past it."""
        kind = self.kind_of(session)
        if entry is not None and kind.undo is not None and is_barrier(kind, entry):
            session.undo_from = entry.seq
        return await self.store.save(session, expected_version, entry, commit_counts(session, entry, kind))

    async def _forced_moves(self, applied: Applied) -> Applied:
        """Take every move nobody has a real choice about, each committed with its own log entry."""
        kind = self.kind_of(applied.session)
        forced = kind.forced
        if forced is None:
            return applied
        for _ in range(MAX_FORCED_MOVES):
            session, state = applied.session, applied.state
            if session.status is not Status.ACTIVE or state is None:
                return applied
            move = next(
                (
                    (p.player, a)
                    for p in kind.prompts(state)
                    if (a := forced.forced_action(state, p.player)) is not None
                ),
                None,
            )
            if move is None:
                return applied
            try:
                step, entry = self._apply(session, state, move[0], move[1], how="auto")
                self._stamp(step.session, step.state)
                entry.news = self._news(step.session, step.state, entry)
                saved = await self._save(step.session, session.version, entry)
            except Exception:
                # What is committed stays committed and is drawn; the move waits for the next change.
                log.exception("Session %s: a forced move for %s failed", session.id, move[0])
                return applied
            if not saved:
                return applied  # another process moved on; whatever it did will be drawn
            assert step.state is not None
            self.remember(step.session, step.state, move[0])
            applied = replace(
                applied,
                session=step.session,
                state=step.state,
                events=[*applied.events, *({**e, "forced": True} for e in step.events)],
                touched=applied.touched | step.touched,
                entries=[*applied.entries, entry],
            )
        log.warning("Session %s: stopped after %d forced moves in a row", applied.session.id, MAX_FORCED_MOVES)
        return applied

    def _stamp(self, session: Session, state: BaseModel | None) -> None:
        """What a restart must find about a version about to be written: whether a computer seat must act."""
        kind = self.kind_of(session)
        session.computer_due = (
            session.status is Status.ACTIVE
            and state is not None
            and kind.computers is not None
            and any(session.seat_of_player(p.player).computer for p in kind.prompts(state))
        )

    def _news(self, session: Session, state: BaseModel | None, entry: LogEntry) -> list[News]:
        """The entry's news (``NewsOf``), or none if the bot gave the service no way to say it."""
        return self.news_of(session, state, entry) if self.news_of is not None else []

    def _notify(self, applied: Applied) -> None:
        for hook in self._hooks:
            try:
                hook(applied)
            except Exception:
                log.exception("A commit hook failed for session %s", applied.session.id)

    # -- sessions: create, update, start, leave, end -------------------------------------------------

    async def create(
        self,
        kind_name: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host: Actor,
        options: BaseModel,
        core_options: Mapping[str, Any] | None = None,
        seats: Sequence[Seat] = (),
        lobby_seconds: float | None = None,
        name: str | None = None,
        roles: Mapping[str, list[str]] | None = None,
        imported: BaseModel | None = None,
        origin: Any = None,
    ) -> Applied:
        """A new session: a lobby (for games with seats, expiring after ``lobby_seconds``), or one
        started at once (a scoresheet, a campaign), from the engine's ``start`` or from an
        ``imported`` state (a campaign moved from another channel). Raises ChannelBusy if the channel
        already has one."""
        kind = self.registry.get(kind_name)
        now = self.clock.now()
        session = Session(
            guild_id=guild_id,
            channel_id=channel_id,
            kind=kind.kind,
            scope=kind.scope,
            name=name,
            status=Status.LOBBY,
            host_id=host.user_id,
            roles={k: list(v) for k, v in (roles or {}).items()},
            options={**options.model_dump(mode="json"), **(core_options or {})},
            seats=list(seats),
            created_at=now,
            updated_at=now,
        )
        entry = None
        state: BaseModel | None = None
        events: list[dict[str, Any]] = []
        if kind.seats is not None:
            seconds = lobby_seconds or 900
            session.deadlines = [Deadline(player="", decision=LOBBY_DECISION, seconds=seconds, at=now + seconds)]
        else:
            dice = RecordingDice(self.dice)
            logged: dict[str, Any]
            if imported is not None:
                state, events = imported, [{"type": "imported"}]
                logged = {"kind": "import", "how": "core", "state": imported.model_dump(mode="json")}
            else:
                with engine_refusals():
                    outcome = kind.engine.start(options, [], dice)
                state, events = outcome.state, outcome.events
                logged = {"kind": "start", "how": "core", "players": []}
            started = self.advance(session.model_copy(update={"status": Status.ACTIVE}), None, state)
            _, entry = self._step(session, started, state, logged, dice=dice, events=events)
            session = started
        if entry is not None:
            entry.news = self._news(session, state, entry)
        try:
            created = await self.store.create_session(session, entry)
        except Duplicate:
            where = "server already has a campaign with that name" if name else "channel already has one"
            raise ChannelBusy(f"This {where}. Use `/game status` to see it.") from None
        if state is not None:
            self.remember(created, state, CORE)
        applied = Applied(
            before=created,
            session=created,
            state=state,
            events=events,
            how="core",
            user_id=host.user_id,
            origin=origin,
            entries=[entry] if entry is not None else [],
        )
        self._notify(applied)
        return applied

    async def update(
        self,
        session_id: int,
        edit: Callable[[Session], Session],
        *,
        actor: Actor | None = None,
        record: Mapping[str, Any] | Callable[[Session], Mapping[str, Any] | None] | None = None,
        origin: Any = None,
        statuses: tuple[Status, ...] = (Status.LOBBY, Status.ACTIVE),
    ) -> Applied:
        """A change the core makes itself (a lobby seat, an option, a role): ``edit`` returns the next
        version, or raises a UserError. ``record`` (or what it returns for the new version) is logged
        as the change's entry."""

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            if session.status not in statuses:
                raise SessionOver("That's already over.")
            new = edit(session)
            logged = record(new) if callable(record) else record
            state = self.state_of(new) if new.state_json is not None else None
            applied, entry = self._step(
                session, new, state, {"how": "core", **(logged or {})}, user=actor, origin=origin
            )
            return applied, entry if logged is not None else None

        return await self._change(session_id, change)

    async def start(self, session_id: int, actor: Actor, *, origin: Any = None) -> Applied:
        """The host starts a lobby: seats are ordered (join order, or shuffled with logged dice) and the
        engine sets the game up."""

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            if session.status is not Status.LOBBY:
                raise SessionOver("This lobby is closed.")
            kind = self.kind_of(session)
            options = kind.parse_options(session.engine_options)
            low, _ = kind.seat_limits(options)
            if actor.user_id != session.host_id:
                raise NotPermitted(f"Only the host, <@{session.host_id}>, can start the game.")
            if session.seat_of_user(actor.user_id) is None:
                raise NotPermitted("Join the table first: the host plays too.")
            if len(session.seats) < low:
                raise IllegalMove(f"{kind.title} needs at least {low} players.")
            seating = RecordingDice(self.dice)
            seats = [s.model_copy() for s in session.seats]
            if session.options.get("_seating") == "random":
                # Fisher–Yates with named dice, so the shuffle is in the log like any other roll.
                for i in range(len(seats) - 1, 0, -1):
                    j = seating.roll(f"seat{i}", i + 1) - 1
                    seats[i], seats[j] = seats[j], seats[i]
            for number, seat in enumerate(seats, start=1):
                seat.player = f"P{number}"
            players = [s.player for s in seats]
            dice = RecordingDice(self.dice)
            with engine_refusals():
                outcome = kind.engine.start(options, players, dice)
            started = session.model_copy(update={"seats": seats, "status": Status.ACTIVE, "deadlines": []})
            new = self.advance(started, None, outcome.state)
            seating_dice = [r.model_dump() for r in seating.rolls]
            logged = {"kind": "start", "how": "core", "players": players, "seating_dice": seating_dice}
            return self._step(
                session, new, outcome.state, logged, dice=dice, events=outcome.events, user=actor, origin=origin
            )

        return await self._change(session_id, change, forced_after=True)

    async def remove_player(
        self,
        session_id: int,
        player: str,
        *,
        how: How = "core",
        actor: Actor | None = None,
        why: str | None = None,
        origin: Any = None,
    ) -> Applied:
        """A seat leaves mid-game (left, kicked, or removed after missed turns); the engine decides the rest.

        ``why``, if given, is logged and told in the channel after the player's name ("was removed from the
        game by the host"). The host role passes to the next member still seated. When no member is left at
        the table, the game ends as abandoned: computers don't play it out alone.
        """
        left: dict[str, Any] = {"how": how, **({"why": why} if why else {})}

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            if session.status is not Status.ACTIVE:
                raise SessionOver("This game is over.")
            kind = self.kind_of(session)
            seats = kind.seats
            assert seats is not None
            state = self.state_of(session)
            seat = session.seat_of_player(player)
            if seat.left:
                raise NotPlaying("That player already left.")
            remaining = [s for s in session.humans if s.player != player]
            if not remaining:
                new = session.ended(self.clock.now())
                new.seat_of_player(player).left = True
                return self._step(
                    session, new, state, {"kind": "abandon", **left}, actor=player, how=how, user=actor, origin=origin
                )
            dice = RecordingDice(self.dice)
            with engine_refusals():
                outcome = seats.remove_player(state, player, dice)
            new = self.advance(session, state, outcome.state, actor=player)
            gone = new.seat_of_player(player)
            gone.left = True
            if new.host_id == gone.user_id:
                new.host_id = next(s.user_id for s in remaining if s.user_id is not None)
            new.deadlines = [d for d in new.deadlines if d.player != player]
            return self._step(
                session,
                new,
                outcome.state,
                {"kind": "leave", **left},
                actor=player,
                dice=dice,
                events=outcome.events,
                how=how,
                user=actor,
                origin=origin,
            )

        return await self._change(session_id, change, forced_after=True)

    async def end(
        self, session_id: int, *, actor: Actor | None = None, why: str = "ended", origin: Any = None
    ) -> Applied:
        """End a lobby or a session early: it is kept (abandoned) for history, with nothing pending."""

        def edit(session: Session) -> Session:
            return session.ended(self.clock.now())

        return await self.update(session_id, edit, actor=actor, record={"kind": "abandon", "why": why}, origin=origin)

    async def set_role(
        self,
        session_id: int,
        actor: Actor,
        user_id: int,
        role: str,
        *,
        on: bool = True,
        old_gm_keeps: str | None = None,
        origin: Any = None,
    ) -> Applied:
        """Give or take a role (a co-GM), or hand the GM role over (``role=GM``: the old GM keeps none, or the
        role ``old_gm_keeps``, in the same change).

        Only the GM, or a member with Manage Server, may change roles; every change is logged.
        """

        record: dict[str, Any] = {"kind": "roles", "user": str(user_id), "role": role, "on": on}

        def edit(session: Session) -> Session:
            held = roles_of(session, actor)
            if contract.GM not in held and contract.MANAGER not in held:
                raise NotPermitted("Only the GM (or someone with Manage Server) can change who runs this.")
            # A server manager who doesn't run it: the game tells the GMs (never silent), so the entry says so.
            record["manager"] = contract.GM not in held
            new = session.successor(self.clock.now())
            key = str(user_id)
            if role == contract.GM:
                if not on:
                    raise IllegalMove("Hand the GM role to someone else instead.")
                for roles in new.roles.values():
                    if contract.GM in roles:
                        roles.remove(contract.GM)
                        if old_gm_keeps is not None and old_gm_keeps not in roles:
                            roles.append(old_gm_keeps)
                new.roles[key] = [r for r in new.roles.get(key, []) if r != contract.CO_GM] + [contract.GM]
            elif on:
                if role in new.roles.get(key, []):
                    raise IllegalMove("They already have that role.")
                new.roles[key] = [*new.roles.get(key, []), role]
            else:
                if role not in new.roles.get(key, []):
                    raise IllegalMove("They don't have that role.")
                new.roles[key] = [r for r in new.roles[key] if r != role]
            new.roles = {k: v for k, v in new.roles.items() if v}
            return new

        record |= {"by": str(actor.user_id), **({"old_gm_keeps": old_gm_keeps} if old_gm_keeps else {})}
        return await self.update(session_id, edit, actor=actor, record=record, origin=origin, statuses=(Status.ACTIVE,))

    # -- undo and redo -----------------------------------------------------------------------------

    async def undo(
        self, session_id: int, actor: Actor, *, redo: bool = False, expect: Expect | None = None, origin: Any = None
    ) -> Applied:
        """Take back the latest undoable action (or redo the latest undone one), if the actor may take it.

        ``expect``: the version the Undo button was drawn on; a click made on an older one is stale (a
        double-click takes back one entry, not two)."""

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            kind = self.kind_of(session)
            if kind.undo is None or session.status is not Status.ACTIVE:
                raise IllegalMove("There is nothing to undo here.")
            if expect is not None and session.version != expect.version:
                raise StaleBoard()
            folded = await self._undo_stacks(kind, session)
            stack = folded.undone if redo else [entry for entry, _ in folded.done]
            if not stack:
                raise IllegalMove("There is nothing to redo." if redo else "There is nothing to undo.")
            target = stack[-1]
            assert target.actor is not None and folded.state is not None
            with engine_refusals():
                action = kind.engine.parse_action(target.action["action"])
            state = self.state_of(session)
            permissions = kind.permissions
            if permissions is not None:
                with engine_refusals(authorizing=True):
                    permissions.authorize(state, self.player_of(session, actor), roles_of(session, actor), action)
            # A redo rolls exactly what the undone action rolled, recorded again in the redo's own entry.
            dice = RecordingDice(ReplayDice(Roll.model_validate(r) for r in target.dice))
            if redo:
                with engine_refusals():
                    outcome_state = kind.engine.apply(folded.state, target.actor, action, dice).state
            else:
                outcome_state = next(before for entry, before in folded.done if entry.seq == target.seq)
            new = self.advance(session, state, outcome_state)
            who = str(actor.user_id)
            # The entry taken back (or put back) is named in the event, so a line can say what it was; what the channel
            # saw of it rides along, for the entry's news.
            public = [e for e in target.events if visible(e, contract.PUBLIC)]
            event: dict[str, Any] = {"type": "redone" if redo else "undone", "seq": target.seq, "by": who}
            event |= {"action": target.action, "events": public}
            return self._step(
                session,
                new,
                outcome_state,
                {"kind": "redo" if redo else "undo", "how": "player", "target": target.seq},
                actor=who,
                dice=dice,
                events=[event],
                how="player",
                user=actor,
                origin=origin,
                touched=self._touched(kind, state, outcome_state),
            )

        return await self._change(session_id, change)

    async def _undo_stacks(self, kind: GameKind, session: Session) -> Folded:
        """The log folded for undo and redo: from the state after the latest entry undo can't go back past
        (``Session.undo_from``, kept by the store), reading only the entries after it; from the start for a
        session that has no such state kept (its barrier came before the store kept them)."""
        base = await self.store.checkpoint(session.id) if session.undo_from is not None else None
        if base is None or base[0] != session.undo_from:
            return fold(kind, session.engine_options, await self.store.log_entries(session.id))
        seq, state = base
        entries = await self.store.log_entries(session.id, after=seq)
        return fold(kind, session.engine_options, entries, start=kind.engine.state_model.model_validate_json(state))

    # -- finding sessions ----------------------------------------------------------------------------

    async def live_table(self, channel_id: int) -> Session | None:
        """The channel's lobby, table game or scoresheet, if any."""
        return await self.store.live_session(channel_id, Scope.TABLE)

    async def campaign(self, channel_id: int, guild_id: int | None, name: str | None = None) -> Session | None:
        """The campaign called ``name`` in the server, else the channel's own campaign, if any."""
        if name and guild_id is not None:
            return await self.store.live_named(guild_id, name)
        return await self.store.live_session(channel_id, Scope.CAMPAIGN)
