"""Whatever a game's ``view`` hides from someone reaches them nowhere: the contract's secrecy check.

A game says what is secret once, in ``view(state, viewer)``. The check changes what a view hides and looks at
everything that reaches the viewer: if nothing they may see of the state changed, nothing they are shown may change
either. A hidden part of a state comes from a die or from what someone typed, so the check changes one die of a
logged action (another face) or one value the action was given (a name, a number), replays the game from there with
the same actions and the same other dice, and, for the channel and each member, while their view of the state stays
the same (until the secret is revealed), compares what reaches them in the two games:

- the entry's events they may see, and their narration (boards, ``/game log``);
- the channel's news of the entry (``bot.news.news_of``, as the service writes it);
- who the game waits for, and on what (the "waiting for" lines every board shows);
- every view of the session drawn for them (``wire``; at the secret's first entries and then ever more rarely:
  drawing is the costly part);
- the luck statistics the entry adds that they may read (everyone's public tallies, their own private ones);
- what they may export (a campaign's file);
- the choice of a computer in their seat, at every strength (``GameKind.computer_action``: the core hands it its
  seat's view);
- every log line written while drawing all of that (at DEBUG).

A die or a value that changes nothing of the state (or no one's view hides) is not a secret and is not checked.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.models import LogEntry, Status, viewer_of
from bot.news import news_of
from bot.storage.luck import entry_tallies, turn_tallies
from rules.dice import ReplayDice, Roll, SeededDice
from rules.engine import PUBLIC, STRENGTHS, HiddenInformation, IllegalAction, Viewer, visible
from tests.contract.drawing import session_at, wire
from tests.contract.play import Played

PERTURBATIONS = 12
"""At most this many secrets changed per game played (chosen at random among those someone may not see)."""


def draws_boards(offset: int) -> bool:
    """Whether boards are drawn ``offset`` entries into a secret's life: at 0, 1, 2, 4, 8… (drawing is the costly
    part, and what a board shows besides the viewer's view and events, its prompts, is compared at every entry)."""
    return offset & (offset - 1) == 0


@dataclass(frozen=True)
class Seer:
    """Someone things are drawn for: the channel (no member), or one member as the core maps them."""

    viewer: Viewer
    member: int | None = None

    def __str__(self) -> str:
        return "the channel" if self.member is None else f"member {self.member} ({self.viewer.id})"


@dataclass(frozen=True)
class Step:
    """One entry of a game as played, or as replayed with a secret changed: the entry and the state after it."""

    entry: LogEntry
    state: BaseModel


@dataclass(frozen=True)
class Change:
    """One secret changed: at log entry ``index``, these dice, or this action."""

    index: int
    dice: list[dict[str, Any]]
    action: dict[str, Any] | None
    what: str


def seers(p: Played) -> list[Seer]:
    """The channel and every member of the table."""
    return [Seer(PUBLIC), *(Seer(viewer_of(p.table.session, m), m.user_id) for m in p.table.members)]


def played_steps(p: Played) -> list[Step]:
    """The game as played: each log entry with the state after it."""
    return [Step(entry, state) for entry, state in zip(p.log, p.states, strict=True)]


def _rerun(p: Played, before: BaseModel | None, entry: LogEntry) -> Step | None:
    """``entry`` applied again to ``before`` with its own dice; None if it can't be (the game went another way)."""
    engine = p.game.kind.engine
    dice = ReplayDice(Roll.model_validate(r) for r in entry.dice)
    try:
        if entry.action.get("kind") == "start":
            outcome = engine.start(p.table.options, entry.action["players"], dice)
        else:
            assert before is not None and entry.actor is not None
            outcome = engine.apply(before, entry.actor, engine.parse_action(entry.action["action"]), dice)
    except (IllegalAction, ValidationError, AssertionError, LookupError, ValueError):
        return None
    if not dice.exhausted:
        return None
    return Step(entry.model_copy(update={"events": outcome.events}), outcome.state)


def _changed(entry: LogEntry, change: Change) -> LogEntry:
    action = entry.action if change.action is None else {**entry.action, "action": change.action}
    return entry.model_copy(update={"dice": change.dice, "action": action})


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every string and number in an action's JSON (not its type), with its path."""
    if isinstance(data, dict):
        for key, value in data.items():
            if path or key != "type":
                yield from _leaves(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _leaves(value, (*path, index))
    elif isinstance(data, str | int) and not isinstance(data, bool):
        yield path, data


def _with(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    changed = copy.deepcopy(data)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


def changes(p: Played) -> Iterator[Change]:
    """Every secret the check may change: each die of each entry (another face), each value of each action."""
    rng = random.Random(len(p.log))
    for index, entry in enumerate(p.log):
        for k, die in enumerate(entry.dice):
            faces = [f for f in range(1, int(die["sides"]) + 1) if f != die["value"]]
            if faces:
                dice = [*entry.dice[:k], {**die, "value": rng.choice(faces)}, *entry.dice[k + 1 :]]
                yield Change(index, dice, None, f"die {die['die']} of entry {index}")
        action = entry.action.get("action")
        if action is not None:
            for path, value in _leaves(action):
                other = value + "ʹ" if isinstance(value, str) else value + 1
                yield Change(index, entry.dice, _with(action, path, other), f"{path} of entry {index}'s action")


def _blind(p: Played, seen: list[Seer], ours: BaseModel, theirs: BaseModel) -> list[Seer]:
    """Those whose view of the two states is the same."""
    view = p.game.kind.view
    return [s for s in seen if view(ours, s.viewer) == view(theirs, s.viewer)]


def secrets(p: Played) -> list[tuple[Change, list[Seer]]]:
    """The changes that alter a state someone may not see alter, each with who may not (a sample)."""
    if not isinstance(p.game.kind.engine, HiddenInformation):
        return []  # every view is the whole state: nothing is hidden from anyone
    steps, everyone = played_steps(p), seers(p)
    found = []
    for change in changes(p):
        before = p.states[change.index - 1] if change.index else None
        step = _rerun(p, before, _changed(p.log[change.index], change))
        if step is None or step.state == steps[change.index].state:
            continue
        blind = _blind(p, everyone, step.state, steps[change.index].state)
        if blind:
            found.append((change, blind))
    return random.Random(len(found)).sample(found, min(PERTURBATIONS, len(found)))


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name} {record.levelname} {record.getMessage()}")


@contextlib.contextmanager
def _logged() -> Iterator[list[str]]:
    """Every log line written inside, at every level."""
    root, handler = logging.getLogger(), _Lines()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler.lines
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def reaching(p: Played, step: Step, seer: Seer, *, boards: bool, index: int, log: list[str]) -> dict[str, Any]:
    """Everything drawn from ``step`` that reaches ``seer``; ``log`` is where log lines are being written."""
    game, kind, state, entry = p.game, p.game.kind, step.state, step.entry
    session = session_at(p, state)
    events = [e for e in entry.events if visible(e, seer.viewer)]
    written = len(log)
    told = {
        "events": events,
        "prompts": kind.prompts(state) if session.status is Status.ACTIVE else [],
        "narration": game.narrate(session, state, events),
        "news": [
            n.model_dump()
            for n in news_of(game.spec, kind, session, state, entry)
            if not n.private or seer.member in n.dms  # private news reaches its members alone
        ],
        "luck": [
            repr(t)
            for t in [*entry_tallies(session, entry, kind), *turn_tallies(session, entry, kind)]
            if not t.where.hidden or t.where.user_id == seer.member
        ],
        "export": game.exports(state, seer.viewer),
    }
    if boards:
        told["boards"] = [wire(p, state, entry.events, seer.viewer, view) for view in game.views(state)]
    if kind.computers is not None and seer.viewer.id in {pr.player for pr in kind.prompts(state)}:
        told["computer"] = {
            strength: kind.computer_action(state, seer.viewer.id, SeededDice(index), strength).model_dump(mode="json")
            for strength in STRENGTHS
        }
    told["log"] = log[written:]
    return told


def _reached(p: Played, steps: list[Step], index: int, seer: Seer, boards: bool, log: list[str]) -> dict[str, Any]:
    """What reaches ``seer`` at ``index`` in the game as played (the same for every secret changed in it)."""
    key = ("reaching", index, seer, boards)
    if key not in p.drawn:
        p.drawn[key] = reaching(p, steps[index], seer, boards=boards, index=index, log=log)
    result: dict[str, Any] = p.drawn[key]
    return result


def check_secret(p: Played, change: Change, blind: list[Seer]) -> int:
    """Replay the game with ``change`` and compare what reaches each of ``blind`` while they can't see it; returns
    how many (entry, seer) were compared. Raises AssertionError naming what showed the secret to whom."""
    steps = played_steps(p)
    before = p.states[change.index - 1] if change.index else None
    step = _rerun(p, before, _changed(p.log[change.index], change))
    compared = 0
    with _logged() as log:
        for index in range(change.index, len(steps)):
            if index > change.index and step is not None:
                step = _rerun(p, step.state, steps[index].entry)
            if step is None:
                break  # the same actions no longer fit: the two games part here
            ours = steps[index]
            blind = _blind(p, blind, step.state, ours.state)  # who sees it now has been shown it (a reveal)
            boards = draws_boards(index - change.index) or index == len(steps) - 1
            for seer in blind:
                theirs = reaching(p, step, seer, boards=boards, index=index, log=log)
                mine = _reached(p, steps, index, seer, boards, log)
                for key in mine:
                    assert theirs[key] == mine[key], (
                        f"{p.game}: {key} of entry {index} ({ours.entry.action}) shows {seer} a secret their view "
                        f"hides: changing {change.what} changed it\n  was: {mine[key]}\n  now: {theirs[key]}"
                    )
                compared += 1
            if not blind or step.state == ours.state:
                break
    return compared
