"""A game's log turned into the positions ``rules.review`` rates, and the review told in words (no Discord here).

The positions come from folding the log (``bot.replay.fold``): each "act" entry's state before it, its actor and
action. Departures, undo and redo are folded like any replay; an undone action is not
a decision of the game any more, so it is dropped (and reviewed again if it is redone). ``run_review`` is what the
worker process runs: a module-level function of picklable arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.i18n import _
from bot.models import LogEntry
from bot.registry import GameKind
from bot.replay import Folded, fold
from rules.review import Decision, NotReviewable, Position, Review, review
from rules.said import said

BUDGET = 60_000
"""Rollout actions a review spends: a long game reviews in seconds (docs/review.md has the timings)."""
TOP = 3
"""The costliest decisions shown to a member."""
SMOOTHING = 7
"""Positions a drawn win-chance point is the mean of: one position's estimate has a few rollouts, a handful of them
in a row tell the trend."""


@dataclass
class Logged:
    """A log read as a review needs it: the seats in order, each decision's position, and the state now."""

    players: list[str]
    positions: list[Position]
    final: BaseModel | None


def read_log(kind: GameKind, options: dict[str, Any], entries: Sequence[LogEntry]) -> Logged:
    """Every decision still standing in the log, with the state before it."""
    positions: list[Position] = []
    players: list[str] = []

    def seen(entry: LogEntry, folded: Folded) -> None:
        what = entry.action.get("kind")
        if what == "start":
            players[:] = entry.action["players"]
        elif what == "act" and folded.state is not None and entry.actor is not None:
            action = kind.engine.parse_action(entry.action["action"])
            positions.append(Position(entry.seq, entry.actor, folded.state, action))
        elif what == "undo":
            positions[:] = [p for p in positions if p.seq != entry.action["target"]]
        elif what == "redo" and folded.state is not None and folded.undone:
            target = folded.undone[-1]
            assert target.actor is not None
            action = kind.engine.parse_action(target.action["action"])
            positions.append(Position(target.seq, target.actor, folded.state, action))

    final = fold(kind, options, entries, watch=seen).state
    return Logged(players, positions, final)


def run_review(kind: GameKind, options: dict[str, Any], entries: Sequence[LogEntry], budget: int = BUDGET) -> Review:
    """The review of a session's log (run in a worker process: it takes seconds)."""
    logged = read_log(kind, options, entries)
    if logged.final is None or not logged.players:
        raise NotReviewable(said("This game never started, so there is nothing to review."))
    return review(kind.engine, logged.players, logged.positions, logged.final, budget)


def percent(chance: float) -> str:
    """A win chance for people: ``42 %``."""
    return f"{round(chance * 100)} %"


def points(change: float) -> str:
    """A change of win chance in percentage points, signed: ``+12``, ``−3``."""
    value = round(change * 100)
    return f"+{value}" if value > 0 else ("±0" if value == 0 else f"−{-value}")


def describe(action: BaseModel, names: Mapping[str, str]) -> str:
    """An action in plain words from its fields: ``reroll: group scrolls``, players by their names."""
    data = action.model_dump(mode="json")
    what = str(data.pop("type", type(action).__name__)).replace("_", " ")
    parts = []
    for key, value in data.items():
        if isinstance(value, bool):
            value = _("yes") if value else _("no")
        shown = names.get(value, value) if isinstance(value, str) else value
        parts.append(f"{key.replace('_', ' ')} {shown}")
    return what + (": " + ", ".join(parts) if parts else "")


def player_lines(result: Review, names: Mapping[str, str], players: Sequence[str], running: bool) -> list[str]:
    """One line per player: the result (or the chance to win now, or when the game was ended early), skill and luck
    with their uncertainty."""
    lines = []
    for player in players:
        end = result.curve[player][-1]
        lines.append(
            _(
                "**{name}** · {result} · skill {skill} (±{skill_error}) · luck {luck} (±{luck_error})",
                name=names.get(player, player),
                result=_outcome(result, end, running),
                skill=points(result.skill(player)),
                skill_error=round(200 * result.skill_se(player)),
                luck=points(result.luck[player]),
                luck_error=round(200 * result.luck_se[player]),
            )
        )
    return lines


def _outcome(result: Review, end: float, running: bool) -> str:
    """A player's result: won, lost, their share of a shared win, or their chance to win now (or when it ended)."""
    if result.finished:
        return _("won") if end == 1 else _("{chance} of the win", chance=percent(end)) if end else _("lost")
    if running:
        return _("{chance} to win now", chance=percent(end))
    return _("{chance} to win when it was ended", chance=percent(end))


def costliest(result: Review, player: str) -> list[Decision]:
    """``player``'s costliest decisions, the costliest first (those that cost nothing left out)."""
    mine = [d for d in result.decisions if d.actor == player and d.cost > 0]
    return sorted(mine, key=lambda d: -d.cost)[:TOP]


Narrate = Callable[[list[dict[str, Any]]], list[str]]
"""The game's words for events (its spec's narration), one line each."""


def decision_line(
    decision: Decision, names: Mapping[str, str], told: Callable[[int], str | None], narrate: Narrate
) -> str:
    """One costly decision: what was chosen and the better move (in the game's words where they exist: ``told`` the
    chosen entry's, ``narrate`` the better move's events), and the gain."""
    chosen = told(decision.seq) or describe(decision.action, names)
    words = narrate(decision.best_events) if decision.best_events else []
    better = " ".join(words) if words else describe(decision.best, names)
    return _(
        "Move {seq}: {chosen} → {after} to win. Better: {better} → {before} ({cost} ±{error}).",
        seq=decision.seq,
        chosen=chosen,
        after=percent(decision.after),
        better=better,
        before=percent(decision.before),
        cost=points(decision.cost),
        error=round(200 * decision.se),
    )


def smoothed(values: Sequence[float]) -> list[float]:
    """The curve as drawn: each estimate the mean of the SMOOTHING around it; the last point (the result, or the
    current estimate with the most rollouts) as it is."""
    half = SMOOTHING // 2
    body = values[:-1]
    drawn = [
        sum(body[max(0, i - half) : i + half + 1]) / len(body[max(0, i - half) : i + half + 1])
        for i in range(len(body))
    ]
    return [*drawn, *values[-1:]]


def shown_players(result: Review, player: str | None, running: bool) -> list[str]:
    """Whose figures a member sees: everyone's once the game is over, only their own while it runs."""
    return [player] if running and player is not None else list(result.players)


def review_text(
    result: Review,
    names: Mapping[str, str],
    player: str | None,
    running: bool,
    told: Callable[[int], str | None],
    narrate: Narrate,
) -> str:
    """The review in words, for a member who played ``player`` (None: not in the game); ``names`` already escaped."""
    lines = player_lines(result, names, shown_players(result, player, running), running)
    if player is not None:
        mine = costliest(result, player)
        if mine:
            lines.append(_("**Your costliest decisions**"))
            lines += [f"• {decision_line(d, names, told, narrate)}" for d in mine]
        else:
            lines.append(_("None of your decisions was clearly worse than another choice. Well played!"))
    lines.append(
        _(
            "-# Estimates from simulated games played on by the computer (± about 95 %). Skill: win chance given away "
            "against the best move found; luck: what the dice did."
        )
    )
    return "\n".join(lines)
