"""A session's log read as the review's positions (``bot/review.py``), and the review told in words."""

from __future__ import annotations

from typing import Any

from bot.models import LogEntry
from bot.registry import GameKind
from bot.review import read_log, review_text, run_review, smoothed
from rules.dice import RecordingDice, SeededDice
from tests.testgame.engine import RaceEngine, Roll, Steal

KIND = GameKind(RaceEngine())


def entry(seq: int, actor: str | None, action: dict[str, Any], dice: RecordingDice) -> LogEntry:
    return LogEntry(seq=seq, actor=actor, action=action, dice=[r.model_dump() for r in dice.rolls], at=0.0)


def a_logged_race(seed: int) -> list[LogEntry]:
    """A two-seat race to 10, both seats always taking the point, as the bot logs it (a departure-free game)."""
    engine, source = KIND.engine, SeededDice(seed)
    dice = RecordingDice(source)
    state = engine.start(engine.options_model(), ["a", "b"], dice).state
    log = [entry(1, None, {"kind": "start", "players": ["a", "b"]}, dice)]
    while not state.winner:
        actor = state.pending_steal or state.active
        action = Steal(take=True) if state.pending_steal else Roll()
        dice = RecordingDice(source)
        state = engine.apply(state, actor, action, dice).state
        log.append(entry(len(log) + 1, actor, {"kind": "act", "how": "player", "action": action.model_dump()}, dice))
    return log


def test_every_act_entry_is_a_position_with_the_state_before_it() -> None:
    log = a_logged_race(4)
    logged = read_log(KIND, {}, log)
    assert logged.players == ["a", "b"] and len(logged.positions) == len(log) - 1
    assert [p.seq for p in logged.positions] == [e.seq for e in log[1:]]
    first = logged.positions[0]
    assert first.state.scores == {"a": 0, "b": 0} and first.action == Roll()
    assert logged.final is not None and logged.final.winner


def test_the_review_in_words_fits_a_message_and_says_it_estimates() -> None:
    log = a_logged_race(4)
    result = run_review(KIND, {}, log, budget=5_000)
    assert result == run_review(KIND, {}, log, budget=5_000)
    names = {"a": "Ann", "b": "Bea"}
    text = review_text(result, names, "a", False, lambda seq: None, lambda events: [])
    assert "**Ann**" in text and "**Bea**" in text and "Estimates" in text and len(text) <= 1900
    assert ("Your costliest" in text) != ("clearly worse" in text)
    watcher = review_text(result, names, None, False, lambda seq: None, lambda events: [])
    assert "Your costliest" not in watcher and "clearly worse" not in watcher


def test_a_declined_point_is_the_costliest_decision_with_the_better_move() -> None:
    log = a_logged_race(4)
    steal = next(e for e in log if e.action.get("action", {}).get("type") == "steal")
    steal.action["action"] = {"type": "steal", "take": False}  # the same dice: the log still replays
    result = run_review(KIND, {}, log[: log.index(steal) + 1], budget=200_000)
    assert not result.finished
    names = {"a": "Ann", "b": "Bea"}
    plain = review_text(result, names, steal.actor, True, lambda seq: None, lambda events: [])
    assert f"Move {steal.seq}: steal: take no →" in plain and "Better: steal: take yes →" in plain
    assert plain.count(" · skill ") == 1 and "to win now" in plain  # a running game: one's own line only
    ended = review_text(result, names, steal.actor, False, lambda seq: None, lambda events: [])
    assert ended.count(" · skill ") == 2 and "to win when it was ended" in ended
    told = review_text(
        result, names, steal.actor, True, lambda seq: "Ann left a point.", lambda events: ["Ann took a point."]
    )
    assert f"Move {steal.seq}: Ann left a point. →" in told and "Better: Ann took a point. →" in told


def test_the_drawn_curve_is_smoothed_but_ends_at_the_result() -> None:
    assert smoothed([0.0, 1.0, 0.0, 1.0, 1.0]) == [0.5, 0.5, 0.5, 0.5, 1.0]
    assert smoothed([1.0]) == [1.0] and smoothed([]) == []
