"""Rebuild a game's state from its event log: the proof that the log is complete."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from bot.models import Game, LogEntry
from rules.dice import ReplayDice, Roll


class ReplayMismatch(AssertionError):
    """The log does not reproduce the stored state."""


def replay(engine: Any, game: Game, entries: Iterable[LogEntry]) -> BaseModel | None:
    """Apply every logged start, action and departure with the recorded dice; return the final state.

    Raises ReplayMismatch if an entry does not use exactly the dice it recorded. The seating
    shuffle's own rolls are kept apart in the start entry; its outcome is the recorded player order.
    """
    state: BaseModel | None = None
    options = engine.options_model.model_validate(game.engine_options)
    for entry in entries:
        dice = ReplayDice(Roll.model_validate(r) for r in entry.dice)
        kind = entry.action.get("kind")
        if kind == "start":
            state = engine.start(options, entry.action["players"], dice).state
        elif kind == "act":
            assert state is not None and entry.actor is not None
            state = engine.apply(state, entry.actor, engine.parse_action(entry.action["action"]), dice).state
        elif kind == "leave":
            assert state is not None and entry.actor is not None
            state = engine.remove_player(state, entry.actor, dice).state
        if not dice.exhausted:
            raise ReplayMismatch(f"entry {entry.seq} recorded dice that replay did not use")
    return state
