"""Whether a click is still good: made on the version its controls were drawn on, or on one since which nothing
the clicker decides on changed."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from bot.models import Session
from bot.registry import GameKind
from bot.states import StateCache


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


def changed_records(kind: GameKind, before: BaseModel, after: BaseModel) -> frozenset[str]:
    """The keys of the records (``Records``) that differ between two states (none, for a game without records)."""
    records = kind.records
    if records is None:
        return frozenset()
    old, new = records.records(before), records.records(after)
    changed = {key for key, value in new.items() if key not in old or (old[key] is not value and old[key] != value)}
    return frozenset(changed | (old.keys() - new.keys()))


class Staleness:
    """Judges clicks against the states this process saw being committed."""

    def __init__(self, states: StateCache) -> None:
        self.states = states

    def still_valid(self, kind: GameKind, session: Session, state: BaseModel, player: str, expect: Expect) -> bool:
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
        if expect.record is not None:
            return self._record_still_valid(kind, session, state, player, expect)
        if session.version == expect.version:
            return True
        then = self.states.at(session.id, expect.version)
        if then is None:
            return False
        mine = self._decision(kind, then[0], player)
        if not mine[0]:
            return False
        for version in range(expect.version + 1, session.version + 1):
            between = self.states.at(session.id, version)
            if between is None or between[1] is None or between[1] == player:
                return False
            if self._decision(kind, between[0] if version < session.version else state, player) != mine:
                return False
        return True

    def _record_still_valid(
        self, kind: GameKind, session: Session, state: BaseModel, player: str, expect: Expect
    ) -> bool:
        """``still_valid`` for a control drawn on the record ``expect.record`` at its version ``expect.version``."""
        assert expect.record is not None
        if session.records.get(expect.record, 0) == expect.version:
            return True
        then = self.states.at(session.id, expect.version) if expect.shared else None
        if then is None:
            return False
        previous = then[0]
        for version in range(expect.version + 1, session.version + 1):
            between = self.states.at(session.id, version)
            if between is None or between[1] is None:
                return False
            current = between[0] if version < session.version else state
            if between[1] == player and expect.record in changed_records(kind, previous, current):
                return False
            previous = current
        return True

    @staticmethod
    def _decision(kind: GameKind, state: BaseModel, player: str) -> tuple[list[str], list[BaseModel]]:
        """What ``player`` is asked to decide in ``state``, and the legal answers."""
        decisions = [p.decision for p in kind.prompts(state) if p.player == player]
        return decisions, list(kind.legal_actions(state, player)) if decisions else []
