"""Helpers for the Vices & Vengeance tests: a table set up by hand, scripted dice per die id, and a game
driven through the engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from pydantic import BaseModel

from rules.dice import ScriptedDice
from rules.engine import IllegalAction
from rules.vices.actions import Remove, VicesAction
from rules.vices.data import PRECEDENCE, SINS
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from rules.vices.pool import removable_units
from rules.vices.state import RESERVES, Seat, VicesState
from rules.vices.table import Table
from rules.vices.turn import start_turn

Script = Mapping[str, list[int]]


class QuietDice:
    """Scripted values per die id first; any other die gets a value that matches nothing: small Sin dice and
    spoilers and Mythical dice their maximum, large dice and the metallic die 1, each d20 a value of its own
    (12 for Wrath … 18 for Envy). Keeps every roll, so tests can check who rolled what."""

    def __init__(self, script: Script | None = None) -> None:
        self.scripted = ScriptedDice({k: list(v) for k, v in (script or {}).items()})
        self.left = {k: len(v) for k, v in (script or {}).items()}
        self.rolls: list[tuple[str, int, int]] = []
        """(die, sides, value) of every roll, in order."""

    def roll(self, die_id: str, sides: int) -> int:
        if self.left.get(die_id):
            self.left[die_id] -= 1
            value = self.scripted.roll(die_id, sides)
        elif die_id.startswith("L.") or die_id == "M":
            value = 1
        elif die_id.startswith("N."):
            value = 11 + PRECEDENCE[die_id[2:]]
        else:
            value = sides
        self.rolls.append((die_id, sides, value))
        return value

    @property
    def remaining(self) -> int:
        """Scripted values not used yet."""
        return self.scripted.remaining


def options(**flags: Any) -> VicesOptions:
    """Options for a hand-built table (seats as given, Sins chosen)."""
    defaults: dict[str, Any] = {
        "seat_order": "join_order",
        "sin_assignment": "choose",
        "min_players": 2,
        "max_players": 7,
    }
    return VicesOptions(**{**defaults, **flags})


def table(
    seats: Mapping[str, str],
    *,
    holds: Mapping[str, str] | None = None,
    totals: Mapping[str, int] | None = None,
    round_no: int = 1,
    **flags: Any,
) -> VicesState:
    """A table after setup: players in seat order with their original Sins; unclaimed Sins in the reserves;
    ``holds`` then moves Sins (Sin → player, ``reserves`` or ``out``)."""
    sins = dict.fromkeys(SINS, RESERVES)
    sins.update({sin: player for player, sin in seats.items()})
    sins.update(holds or {})
    return VicesState(
        options=options(**flags),
        players=tuple(Seat(id=p, sin=s, total=(totals or {}).get(p, 0)) for p, s in seats.items()),
        phase="setup",
        sins=sins,
        first_seat=next(iter(seats)),
        round_no=round_no,
    )


class Game:
    """A game under test: applies actions with scripted dice, keeps the latest state and every event."""

    def __init__(self, state: VicesState) -> None:
        self.state = state
        self.events: list[dict[str, Any]] = []
        self.last: list[dict[str, Any]] = []

    @classmethod
    def turn(cls, state: VicesState, defender: str, script: Script | None = None, *, strict: bool = True) -> Game:
        """Start ``defender``'s turn on a hand-built table; the script covers the first roll."""
        dice = _dice(script, strict)
        t = Table(state, dice)
        start_turn(t, defender)
        _check_used(dice)
        game = cls(t.s)
        game.last = game.events = t.events
        return game

    def act(
        self, actor: str, action: BaseModel | dict[str, Any], script: Script | None = None, *, strict: bool = True
    ) -> list[dict[str, Any]]:
        """Apply an action with the scripted dice it rolls; every scripted value must be used."""
        parsed: VicesAction = ENGINE.parse_action(action if isinstance(action, dict) else action.model_dump())
        dice = _dice(script, strict)
        out = ENGINE.apply(self.state, actor, parsed, dice)
        _check_used(dice)
        self.state = out.state
        self.last = out.events
        self.events = [*self.events, *out.events]
        return out.events

    def remove(self, *units: str, script: Script | None = None, strict: bool = True) -> list[dict[str, Any]]:
        """The defender removes ``units``."""
        return self.act(self.defender, Remove(units=units), script, strict=strict)

    def keep_only(self, *dice: str, script: Script | None = None, strict: bool = True) -> list[dict[str, Any]]:
        """The defender removes every unit except those holding ``dice``."""
        keep = set(dice)
        units = [u.id for u in removable_units(self.state) if "+" not in u.id and not keep & set(u.dice)]
        return self.remove(*units, script=script, strict=strict)

    def reject(self, actor: str, action: BaseModel | dict[str, Any], reason: str) -> None:
        """The action is refused with a reason containing ``reason`` (any case); nothing changes."""
        before = self.state.model_dump_json()
        with pytest.raises(IllegalAction) as info:
            self.act(actor, action)
        assert reason.lower() in info.value.reason.lower(), info.value.reason
        assert self.state.model_dump_json() == before

    @property
    def defender(self) -> str:
        assert self.state.turn is not None
        return self.state.turn.defender

    def pool(self) -> dict[str, int]:
        """Die id → value of the defender's active pool."""
        assert self.state.turn is not None
        return {d.id: d.value for d in self.state.turn.pool}

    def points(self) -> dict[str, int]:
        """Unit id → points, for what may be removed now."""
        return {u.id: u.points for u in removable_units(self.state)}

    def score(self) -> int:
        assert self.state.turn is not None
        return self.state.turn.score

    def of_type(self, kind: str, events: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Events of one type (of the last action by default)."""
        return [e for e in (self.last if events is None else events) if e["type"] == kind]

    def rolled_by(self, events: list[dict[str, Any]] | None = None) -> dict[str, dict[str, int]]:
        """Player → {die: value} of the latest roll among ``events``."""
        rolled = self.of_type("rolled", events)[-1]
        return {g["player"]: {d["die"]: d["value"] for d in g["dice"]} for g in rolled["groups"]}

    def totals(self) -> dict[str, int]:
        return {p.id: p.total for p in self.state.players}


def _dice(script: Script | None, strict: bool) -> ScriptedDice | QuietDice:
    return ScriptedDice({k: list(v) for k, v in (script or {}).items()}) if strict else QuietDice(script)


def _check_used(dice: ScriptedDice | QuietDice) -> None:
    assert dice.remaining == 0, "scripted dice left over"
