"""The session record after a state change: the next version, its records, status, winners and deadlines."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

from bot.models import Deadline, Session, Status
from bot.registry import GameKind
from bot.staleness import changed_records
from rules.engine import Prompt, Reminder


def successor(
    kind: GameKind, session: Session, before: BaseModel | None, state: BaseModel, *, now: float, actor: str | None
) -> Session:
    """The session record after ``state`` replaced ``before`` (None: the game starts).

    Whoever just acted (``actor``, or a default applied for them) starts afresh on their next decision; other
    pending decisions keep their deadlines, started or not.
    """
    new = session.successor(now, state_json=state.model_dump_json(), chapter=kind.chapter(state))
    if kind.records is not None and before is not None:
        for key in changed_records(kind, before, state):
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
    new.deadlines = deadlines_for(new, kind.prompts(state), previous=kept)
    new.deadlines += reminders_for(kind.reminders(state), previous=session.deadlines, now=now)
    return new


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


def deadlines_for(session: Session, prompts: Iterable[Prompt], *, previous: Iterable[Deadline]) -> list[Deadline]:
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
