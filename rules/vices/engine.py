"""Vices & Vengeance as a :class:`rules.engine.Engine` with turns, computer players, seats and forced moves."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.dice import DiceSource
from rules.engine import (
    NORMAL,
    ComputerPlayers,
    Engine,
    ForcedMoves,
    IllegalAction,
    Outcome,
    Places,
    Prompt,
    Rollers,
    ScoreLuck,
    Seats,
    TurnLuck,
    Turns,
)
from rules.said import Said, said
from rules.vices import effects, ending, leaving, levels, luck, pool, seating, turn
from rules.vices.actions import (
    ClaimSin,
    Envy,
    Gluttony,
    Greed,
    Lust,
    PickPair,
    Remove,
    RemoveZeros,
    VicesAction,
    Wrath,
    parse_action,
)
from rules.vices.data import SINS
from rules.vices.legality import decision, default_action, illegal_reason, legal_actions
from rules.vices.options import ALLOWED_PLAYERS, VicesOptions
from rules.vices.pool import Unit
from rules.vices.state import OUT, RESERVES, Seat, VicesState
from rules.vices.table import Table

LABELS: dict[str, Said] = {
    "claim": said("claim a Sin"),
    "remove": said("remove dice"),
    "wrath": said("choose which Sin Wrath destroys"),
    "gluttony": said("choose a Sin for Gluttony to take from the reserves"),
    "greed": said("choose which Sin Greed takes"),
    "lust": said("choose which Sin Lust takes"),
    "envy": said("choose the Sin Envy gives and the Sin it takes"),
    "tiebreak": said("choose a Mythical pair for the tie-break"),
}
"""Prompt labels by decision name."""
OPTIONAL_REMOVAL_LABEL = said("remove more dice, or none")
"""The removal's label when a penalty roll already counted as the roll's removal."""


def _claim(t: Table, actor: str, action: ClaimSin) -> None:
    seating.claim(t, actor, action.sin, "choice")
    seating.assign_sins(t)


def _remove(t: Table, actor: str, action: Remove) -> None:
    turn.remove(t, action.units)


def _zeros(t: Table, actor: str, action: RemoveZeros) -> None:
    turn.remove(t, [u.id for u in pool.zero_units(pool.removable_units(t.s))])


def _effect(t: Table, actor: str, action: Wrath | Gluttony | Greed | Lust | Envy) -> None:
    effects.choose(t, action)
    turn.after_choice(t)


def _pair(t: Table, actor: str, action: PickPair) -> None:
    ending.pick_pair(t, actor, action.pair)


_HANDLERS: dict[type[VicesAction], Callable[[Table, str, Any], None]] = {
    ClaimSin: _claim,
    Remove: _remove,
    RemoveZeros: _zeros,
    Wrath: _effect,
    Gluttony: _effect,
    Greed: _effect,
    Lust: _effect,
    Envy: _effect,
    PickPair: _pair,
}


class VicesEngine:
    """Vices & Vengeance for 3–6 players by default (2–7 allowed), every vv.* house rule."""

    kind = "vices"
    title = "Vices & Vengeance"
    min_players = ALLOWED_PLAYERS[0]
    max_players = ALLOWED_PLAYERS[1]
    options_model = VicesOptions
    state_model = VicesState

    def seat_limits(self, options: VicesOptions) -> tuple[int, int]:
        """The player counts this table allows (vv.min_players, vv.max_players)."""
        return options.min_players, options.max_players

    def start(self, options: VicesOptions, players: Sequence[str], dice: DiceSource) -> Outcome[VicesState]:
        """Setup (1.4): seat order, Sin assignment, then the first seat's first roll (or a claim prompt)."""
        low, high = self.seat_limits(options)
        if not low <= len(players) <= high:
            raise IllegalAction(
                said("Vices & Vengeance needs {low} to {high} players at this table.", low=low, high=high)
            )
        if len(set(players)) != len(players):
            raise IllegalAction(said("Each player can only take one seat."))
        if {RESERVES, OUT} & set(players):
            raise IllegalAction(said("That player id is reserved."))
        blank = VicesState(
            options=options,
            players=(),
            phase="setup",
            sins=dict.fromkeys(SINS, RESERVES),
            first_seat=players[0],
        )
        t = Table(blank, dice)
        order = seating.seat_order(t, players)
        t.put(players=tuple(Seat(id=p) for p in order), first_seat=order[0])
        t.emit("game_started", players=order, seat_order=options.seat_order, sin_assignment=options.sin_assignment)
        seating.assign_sins(t)
        return Outcome(t.s, t.events)

    def parse_action(self, data: Mapping[str, Any]) -> VicesAction:
        """Validate a JSON action (``{"type": "remove", "units": ["d12"]}``); ValidationError if it is none."""
        return parse_action(data)

    def apply(self, state: VicesState, actor: str, action: VicesAction, dice: DiceSource) -> Outcome[VicesState]:
        """Apply ``action`` by ``actor``; raises IllegalAction with a readable reason if it is not allowed now."""
        reason = illegal_reason(state, actor, action)
        if reason is not None:
            raise IllegalAction(reason)
        t = Table(state, dice)
        _HANDLERS[type(action)](t, actor, action)
        return Outcome(t.s, t.events)

    def prompts(self, state: VicesState) -> list[Prompt]:
        """Who must act now: the claimant, the defender, the attacker choosing an effect, or every tied
        player still to pick a pair."""
        waiting = decision(state)
        if waiting is None:
            return []
        label = LABELS[waiting.name]
        if waiting.name == "remove" and state.turn is not None and state.turn.penalty_met:
            label = OPTIONAL_REMOVAL_LABEL
        return [Prompt(player=p, decision=waiting.name, label=label) for p in waiting.players]

    def legal_actions(self, state: VicesState, player: str) -> list[VicesAction]:
        """Every action ``player`` may take now; for the removal, one per unit (see legality.legal_actions)."""
        return legal_actions(state, player)

    def forced_action(self, state: VicesState, player: str) -> VicesAction | None:
        """A removal with one die (or pair) left to remove and no penalty roll on this roll has one answer."""
        waiting = decision(state)
        if waiting is None or waiting.name != "remove" or player not in waiting.players:
            return None
        assert state.turn is not None
        units = pool.removable_units(state)
        if len(units) == 1 and not state.turn.penalty_met:
            return Remove(units=(units[0].id,))
        return None

    def default_action(self, state: VicesState, player: str) -> VicesAction:
        """The timeout default of RULES.md 1.8 #35 for ``player``'s pending decision."""
        return default_action(state, player)

    def computer_action(self, state: VicesState, player: str, dice: DiceSource, strength: str = NORMAL) -> VicesAction:
        """The computer player's choice at ``strength`` (:mod:`rules.vices.levels`); deterministic given the
        state (``dice`` is not used: a Strong player's rollouts are seeded by the position)."""
        return levels.choose(state, player, strength, self)

    def remove_player(self, state: VicesState, player: str, dice: DiceSource) -> Outcome[VicesState]:
        """1.8 #36: ``player`` leaves; their Sins go to the reserves, their d20 leaves play, they cannot win."""
        if state.phase == "over":
            raise IllegalAction(said("The game is over."))
        if player not in state.present():
            raise IllegalAction(said("That player is not in this game."))
        t = Table(state, dice)
        leaving.remove_player(t, player)
        return Outcome(t.s, t.events)

    def winners(self, state: VicesState) -> list[str] | None:
        """None while the game goes on, else the single winner."""
        return list(state.winners) if state.phase == "over" else None

    def places(self, state: VicesState) -> dict[str, int] | None:
        """None while the game goes on, else each remaining player's place (E1's order, the winner first)."""
        return ending.places(state) if state.phase == "over" else None

    def next_game_order(self, state: VicesState) -> list[str]:
        """E3: the seat order for a rematch, rotated so the winner goes last."""
        return ending.next_game_order(state)

    def removable_units(self, state: VicesState) -> list[Unit]:
        """What the defender may remove now, with the points each would score (for a multi-select)."""
        return pool.removable_units(state)

    def removal_points(self, state: VicesState, units: Sequence[str]) -> int:
        """What removing ``units`` would score; raises IllegalAction (with the reason) if it is not allowed."""
        return pool.removal_points(state, units)

    def rollers(self, events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        """Who rolled each die of an action: the defender their pool and penalties, attackers their own dice."""
        return luck.rollers(events)

    def score_luck(self, options: VicesOptions, events: Sequence[Mapping[str, Any]]) -> list[TurnLuck]:
        """Each defender's turns and how many points their dice saved them against fair dice (``rules.vices.luck``)."""
        return luck.score_luck(options.silver_bullet_wild_face, events)


ENGINE = VicesEngine()

# mypy checks the engine against the contract and the capabilities the core detects.
_engine: Engine[VicesOptions, VicesState, VicesAction] = ENGINE
_turns: Turns[VicesState, VicesAction] = ENGINE
_computers: ComputerPlayers[VicesState, VicesAction] = ENGINE
_seats: Seats[VicesState] = ENGINE
_forced: ForcedMoves[VicesState, VicesAction] = ENGINE
_rollers: Rollers = ENGINE
_places: Places[VicesState] = ENGINE
_luck: ScoreLuck[VicesOptions] = ENGINE
