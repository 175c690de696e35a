"""The campaign's next session (issue: a table that calls its players): the GM plans it (the cog makes a Discord
Scheduled Event for it), moves it or calls it off; the players are reminded at the times the GM set."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine import IllegalAction, Reminder
from rules.said import said
from rules.viciousness.actions import Action, CancelSession, PlanSession
from rules.viciousness.state import CampaignState
from rules.viciousness.work import Work

EVERYONE = "*"
"""Whom a session reminder is for: every player of the campaign."""


def reminder_key(start: float, minutes: int) -> str:
    """A session reminder's key: the start is in it, so a session moved is reminded anew."""
    return f"session:{int(start)}:{minutes}"


def reminders(state: CampaignState) -> list[Reminder]:
    """The planned session's reminders, at the times the GM set (one already past is due at once: the cog says
    only the latest of those, and nothing once the session has begun)."""
    planned = state.planned
    if planned is None or state.archived:
        return []
    return [
        Reminder(player=EVERYONE, key=reminder_key(planned.start, m), at=planned.start - m * 60.0)
        for m in planned.reminders
    ]


def _plan(w: Work, a: PlanSession) -> None:
    planned = a.session.model_copy(update={"reminders": tuple(sorted(set(a.session.reminders), reverse=True))})
    before = w.s.planned
    w.put(planned=planned)
    w.emit(
        "session_planned",
        start=planned.start,
        minutes=planned.minutes,
        description=planned.description,
        reminders=list(planned.reminders),
        event=planned.event,
        moved=before.start if a.move and before is not None and before.start != planned.start else None,
    )


def _cancel(w: Work, a: CancelSession) -> None:
    planned = w.s.planned
    if planned is None:
        raise IllegalAction(said("No session is planned: `/vic-gm session schedule` plans one."))
    w.put(planned=None)
    w.emit("session_cancelled", start=planned.start)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {PlanSession: _plan, CancelSession: _cancel}
