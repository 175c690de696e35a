"""Helpers for the Dice of Crowns tests: scripted faces, table setup, acting through the engine."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.crowns import ENGINE, CrownsOptions, CrownsState
from rules.crowns.state import DieState, Phase
from rules.dice import ScriptedDice

VALUE = {"C": 1, "D": 2, "K": 3, "S": 5}
PLAYERS = ("P1", "P2", "P3")


def faces(codes: str) -> list[int]:
    """d6 values for face codes: C crown, D dagger, K skull, S scroll (spaces ignored)."""
    return [VALUE[c] for c in codes if c != " "]


def dice(codes: str) -> ScriptedDice:
    """A global scripted sequence, in the engine's roll order."""
    return ScriptedDice(faces(codes))


def table(
    active: str = "P1",
    players: tuple[str, ...] = PLAYERS,
    claims: dict[str, int] | None = None,
    fate_tokens: dict[str, int] | None = None,
    **options: Any,
) -> CrownsState:
    """A fresh game where ``active`` has been handed all 7 dice, with the given tokens."""
    opts = CrownsOptions(first_player="host", **options)
    state = ENGINE.start(opts, players, ScriptedDice([])).state
    seats = tuple(
        s.model_copy(update={"claims": (claims or {}).get(s.id, 0), "fate": (fate_tokens or {}).get(s.id, 0)})
        for s in state.players
    )
    dice_ = tuple(d.model_copy(update={"holder": active}) for d in state.dice)
    return state.model_copy(update={"players": seats, "dice": dice_, "active": active})


class Game:
    """A game under test: applies actions, keeps the latest state and all events."""

    def __init__(self, state: CrownsState) -> None:
        self.state = state
        self.events: list[dict[str, Any]] = []

    def act(self, actor: str, action: BaseModel | dict[str, Any], codes: str = "") -> list[dict[str, Any]]:
        """Apply an action with the scripted faces it rolls; every scripted value must be used."""
        if isinstance(action, dict):
            action = ENGINE.parse_action(action)
        source = dice(codes)
        out = ENGINE.apply(self.state, actor, action, source)
        assert source.remaining == 0, "scripted faces left over"
        self.state = out.state
        self.events += out.events
        return out.events

    def legal(self, player: str | None = None) -> list[BaseModel]:
        """Legal actions of ``player`` (default: the active player)."""
        return ENGINE.legal_actions(self.state, player or self.state.active)

    def kinds(self) -> list[str]:
        """Event types so far."""
        return [e["type"] for e in self.events]

    def claims(self) -> dict[str, int]:
        return {p.id: p.claims for p in self.state.players}

    def fate(self) -> dict[str, int]:
        return {p.id: p.fate for p in self.state.players}

    def holding(self, player: str) -> list[str]:
        """Die ids ``player`` holds (any state), ascending."""
        return [d.id for d in self.state.dice if d.holder == player]

    @property
    def phase(self) -> Phase:
        return self.state.phase

    def handed_to(self, player: str) -> list[str]:
        return [d.id for d in self.state.dice if d.holder == player and d.state is DieState.HANDED]
