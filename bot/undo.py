"""Undo and redo: the latest undoable entry taken back (the state before it, as the log folds), or the latest
undone one put back (its own dice rolled again), each committed as a new entry naming the one it concerns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.commit import Committer
from bot.errors import IllegalMove, StaleBoard
from bot.i18n import _
from bot.models import Actor, Applied, LogEntry, Session, Status, roles_of
from bot.refusals import engine_refusals
from bot.registry import GameKind
from bot.replay import Folded, fold
from bot.staleness import Expect, changed_records
from rules import engine as contract
from rules.dice import RecordingDice, ReplayDice, Roll
from rules.engine import visible


class Undoing:
    """Takes back and puts back. Collaborators: the committer, and who a member plays in a session."""

    def __init__(self, committer: Committer, player_of: Callable[[Session, Actor], str]) -> None:
        self.committer = committer
        self.player_of = player_of

    async def undo(
        self, session_id: int, actor: Actor, *, redo: bool = False, expect: Expect | None = None, origin: Any = None
    ) -> Applied:
        """Take back the latest undoable action (or redo the latest undone one), if the actor may take it.

        ``expect``: the version the Undo button was drawn on; a click made on an older one is stale (a
        double-click takes back one entry, not two)."""
        committer = self.committer

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            kind = committer.registry.get(session.kind)
            if kind.undo is None or session.status is not Status.ACTIVE:
                raise IllegalMove(_("There is nothing to undo here."))
            if expect is not None and session.version != expect.version:
                raise StaleBoard()
            folded = await self._stacks(kind, session)
            stack = folded.undone if redo else [entry for entry, _ in folded.done]
            if not stack:
                raise IllegalMove(_("There is nothing to redo.") if redo else _("There is nothing to undo."))
            target = stack[-1]
            assert target.actor is not None and folded.state is not None
            with engine_refusals():
                action = kind.engine.parse_action(target.action["action"])
            state = committer.states.state_of(session)
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
            new = committer.advance(session, state, outcome_state)
            who = str(actor.user_id)
            # The entry taken back (or put back) is named in the event, so a line can say what it was; what the
            # channel saw of it rides along, for the entry's news.
            public = [e for e in target.events if visible(e, contract.PUBLIC)]
            event: dict[str, Any] = {"type": "redone" if redo else "undone", "seq": target.seq, "by": who}
            event |= {"action": target.action, "events": public}
            return committer.step(
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
                touched=changed_records(kind, state, outcome_state),
            )

        return await committer.change(session_id, change)

    async def _stacks(self, kind: GameKind, session: Session) -> Folded:
        """The log folded for undo and redo: from the state after the latest entry undo can't go back past
        (``Session.undo_from``, kept by the store), reading only the entries after it; from the start for a
        session that has no such state kept (its barrier came before the store kept them)."""
        store = self.committer.store
        base = await store.checkpoint(session.id) if session.undo_from is not None else None
        if base is None or base[0] != session.undo_from:
            return fold(kind, session.engine_options, await store.log_entries(session.id))
        seq, state = base
        entries = await store.log_entries(session.id, after=seq)
        return fold(kind, session.engine_options, entries, start=kind.engine.state_model.model_validate_json(state))
