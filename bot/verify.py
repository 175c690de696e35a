"""Checking a database against its own logs: every session's stored state must be what its log replays to, with
the game rules of the configured extensions (``python -m bot.restore``, ``python -m bot.migrate``).

And where undo starts from a kept state (``Session.undo_from``, ``Store.checkpoint``), that state must be what the
log replays to up to that entry: undo folds the rest of the log from it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.app import TabletopBot, extensions_of
from bot.models import LogEntry, Session
from bot.registry import GameKind, Registry
from bot.replay import replay
from bot.settings import Settings
from bot.storage.queries import SessionTables
from bot.storage.restored import live_ids


@dataclass(frozen=True)
class SessionCheck:
    """What checking one session found."""

    entries: int | None
    """Log entries replayed; None when there was nothing to replay (a lobby, a log the server's settings cleared)."""
    problem: str | None = None
    """What is wrong, in a few words; None when the log leads to the stored state."""


async def game_rules(settings: Settings) -> Registry:
    """Every game kind the bot knows with these settings (its extensions loaded, nothing connected)."""
    bot = TabletopBot(settings.model_copy(update={"skip_sync": True}))
    for name in extensions_of(settings):
        await bot.load_extension(name)
    return bot.registry


async def check_session(store: SessionTables, registry: Registry, session: Session) -> SessionCheck:
    """Replay ``session``'s log on ``store`` and compare it with what is stored."""
    if session.state_json is None or session.log_cleared_at is not None:
        return SessionCheck(None)
    if session.kind not in registry:
        return SessionCheck(None, f"a {session.kind!r} game, which no loaded extension knows")
    kind = registry.get(session.kind)
    entries = await store.log_entries(session.id)
    problem = _replay_problem(kind, session, entries, session.state)
    if problem is None and session.undo_from is not None:
        kept = await store.checkpoint(session.id)
        if kept is not None and kept[0] == session.undo_from:  # otherwise undo folds the whole log
            upto = [e for e in entries if e.seq <= kept[0]]
            if _replay_problem(kind, session, upto, json.loads(kept[1])) is not None:
                problem = f"the state undo starts from (after entry {kept[0]}) is not what its log leads to"
    return SessionCheck(len(entries), problem)


def _replay_problem(kind: GameKind, session: Session, entries: Sequence[LogEntry], stored: object) -> str | None:
    try:
        state = replay(kind, session.engine_options, entries)
    except Exception as exc:  # a damaged log may break the rules anywhere: that is what is being looked for
        return f"its log does not replay ({type(exc).__name__}: {exc})"
    if state is None or state.model_dump(mode="json") != stored:
        return "its log replays to another state than the one stored"
    return None


@dataclass
class Checked:
    """What checking every live session of a database found."""

    sessions: int = 0
    entries: int = 0
    problems: list[str] = field(default_factory=list)
    """One line per session that doesn't replay to its stored state: ``session 12: …``."""

    def describe(self) -> str:
        """``5 live sessions checked, 212 log entries replayed``."""
        return f"{self.sessions} live sessions checked, {self.entries} log entries replayed"


async def check_live(store: SessionTables, registry: Registry) -> Checked:
    """Check every lobby and session in progress (a batch of ids at a time)."""
    checked = Checked()
    after = 0
    while ids := await live_ids(store, after=after):
        for session_id in ids:
            session = await store.session(session_id)
            if session is None:
                continue
            found = await check_session(store, registry, session)
            checked.sessions += 1
            checked.entries += found.entries or 0
            if found.problem is not None:
                checked.problems.append(f"session {session_id}: {found.problem}")
        after = ids[-1]
    return checked
