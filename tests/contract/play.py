"""Random legal play of any game in the suite, with seeded dice, recorded as the core would log it."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.models import LogEntry, roles_of
from rules.dice import RecordingDice, SeededDice
from rules.engine import IllegalAction
from tests.contract.kit import Game, Table

PASS_SHARE = 0.85
"""How often a random player passes a decision whose legal actions include a pass: random play that never passes
makes some games (Dice of Crowns' fate windows) far longer than people play them."""


@dataclass
class Step:
    """One accepted action: who took it, the action's JSON, and the state and events it led to."""

    actor: str
    action: dict[str, Any]
    state: BaseModel
    events: list[dict[str, Any]]


@dataclass
class Played:
    """A game played at random: its table, the log the core would keep, every state, and every refusal."""

    game: Game
    table: Table
    start: BaseModel
    start_events: list[dict[str, Any]]
    steps: list[Step] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    refused: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)
    """Actions the engine refused: who, what, and the reason it gave."""
    universe: list[BaseModel] = field(default_factory=list)
    """Every action that was legal for someone at some point (table games)."""
    drawn: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    """What the checks drew from this game, kept for the next check that needs the same."""

    @property
    def states(self) -> list[BaseModel]:
        """The state after the start and after each accepted action."""
        return [self.start, *(s.state for s in self.steps)]


def entry(seq: int, actor: str | None, action: dict[str, Any], dice: RecordingDice, events: list[Any]) -> LogEntry:
    """A log entry as the service writes it."""
    return LogEntry(
        seq=seq, actor=actor, action=action, dice=[r.model_dump() for r in dice.rolls], events=events, at=0.0
    )


def play(game: Game, seed: int) -> Played:
    """One game of ``game`` at random from ``seed``: the same seed, the same game."""
    rng = random.Random(seed)
    table = game.table(rng)
    engine = game.kind.engine
    dice = RecordingDice(SeededDice(seed))
    outcome = engine.start(table.options, table.players, dice)
    played = Played(game, table, outcome.state, outcome.events)
    played.log.append(entry(1, None, {"kind": "start", "players": table.players}, dice, outcome.events))
    state = outcome.state
    for _ in range(game.steps):
        move = _legal_move(game, rng, state, played) if game.kind.turns is not None else _any_move(game, rng, state)
        if move is None:
            break
        actor, data = move
        dice = RecordingDice(SeededDice(rng.randrange(2**32)))
        before = state.model_dump_json()
        try:
            action = engine.parse_action(data)
            _authorize(game, table, state, actor, action)
            outcome = engine.apply(state, actor, action, dice)
        except IllegalAction as exc:
            assert game.kind.turns is None, f"{game}: {actor} was offered {data} and refused it: {exc.reason}"
            played.refused.append((actor, data, exc.reason))
            continue
        except ValidationError:
            played.refused.append((actor, data, ""))  # the service answers a malformed action by naming the field
            continue
        assert state.model_dump_json() == before, f"{game}: apply changed the state it was given"
        state = outcome.state
        logged = {"kind": "act", "how": "player", "action": action.model_dump(mode="json")}
        played.log.append(entry(len(played.log) + 1, actor, logged, dice, outcome.events))
        played.steps.append(Step(actor, json.loads(json.dumps(data)), state, outcome.events))
    return played


def _legal_move(game: Game, rng: random.Random, state: BaseModel, played: Played) -> tuple[str, dict[str, Any]] | None:
    prompts = game.kind.prompts(state)
    if not prompts:
        return None
    player = rng.choice(prompts).player
    legal = list(game.kind.legal_actions(state, player))
    assert legal, f"{game}: {player} is asked to act with nothing to do"
    played.universe.extend(a for a in legal if a not in played.universe)
    passes = [a for a in legal if "pass" in a.model_dump(mode="json").get("type", "")]
    action = rng.choice(passes) if passes and rng.random() < PASS_SHARE else rng.choice(legal)
    return player, action.model_dump(mode="json")


def _any_move(game: Game, rng: random.Random, state: BaseModel) -> tuple[str, dict[str, Any]]:
    assert game.move is not None, f"{game} has no Turns: it must say how to try a move"
    return game.move(rng, state)


def _authorize(game: Game, table: Table, state: BaseModel, actor: str, action: BaseModel) -> None:
    """The engine's ``Permissions``, asked with the roles the actor holds in the session (as the service does)."""
    permissions = game.kind.permissions
    if permissions is None:
        return
    member = next((m for m in table.members if str(m.user_id) == actor), None)
    roles = roles_of(table.session, member) if member is not None else frozenset()
    permissions.authorize(state, actor, roles, action)
