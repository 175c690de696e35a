"""Parsed engine states by session and version: a state is immutable, so it is parsed once per version, and
who committed each version is kept beside it (what tells a stale click from a good one)."""

from __future__ import annotations

from collections import OrderedDict

from pydantic import BaseModel

from bot.errors import SessionOver
from bot.i18n import _
from bot.models import Session
from bot.registry import Registry

STATE_CACHE_SIZE = 1024


class StateCache:
    """The latest ``size`` parsed states, by (session, version), with the player who committed each (``CORE``
    for the core's own changes, None when this process didn't commit it)."""

    def __init__(self, registry: Registry, size: int = STATE_CACHE_SIZE) -> None:
        self.registry = registry
        self.size = size
        self._states: OrderedDict[tuple[int, int], tuple[BaseModel, str | None]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._states)

    def state_of(self, session: Session) -> BaseModel:
        """The engine state of a started session."""
        cached = self._states.get((session.id, session.version))
        if cached is not None:
            return cached[0]
        if session.state_json is None:
            raise SessionOver(_("The game has not started yet."))
        state = self.registry.get(session.kind).engine.state_model.model_validate_json(session.state_json)
        self.remember(session, state, None)
        return state

    def at(self, session_id: int, version: int) -> tuple[BaseModel, str | None] | None:
        """A state this process saw at ``version``, with who committed it, if it still remembers it."""
        return self._states.get((session_id, version))

    def remember(self, session: Session, state: BaseModel, committer: str | None) -> None:
        """Keep a session's parsed state for its current version, and who committed it (None: unknown)."""
        key = (session.id, session.version)
        known = self._states.get(key)
        if committer is None and known is not None:
            committer = known[1]  # a state read back after this process committed it: keep who did
        self._states[key] = (state, committer)
        self._states.move_to_end(key)
        if len(self._states) > self.size:
            self._states.popitem(last=False)
