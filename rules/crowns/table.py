"""The tabletop a Dice of Crowns action is applied to: a working copy of the state, the dice source and the events.

Its methods are the changes every part of the turn makes: write fields, replace a die or a seat, roll a die,
gain tokens (S8) and end the game. The working copy is a shallow copy of the input state whose tuples of frozen
models are replaced, never changed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal

from rules.crowns.data import DIE_IDS, FACE_BY_VALUE
from rules.crowns.state import CrownsState, Dice, DieState, Face, Phase, Players, die_value
from rules.dice import DiceSource

_FACES = tuple(Face(f) for f in FACE_BY_VALUE)
_INDEX = {die_id: index for index, die_id in enumerate(DIE_IDS)}

LOCKS = {Face.CROWN: DieState.LOCKED, Face.DAGGER: DieState.LOCKED}
"""Crowns and daggers lock where they are rolled (S4)."""
OWN_ROLL_STATE = {**LOCKS, Face.SKULL: DieState.FREE_SKULL, Face.SCROLL: DieState.PENDING_SCROLL}
"""Each face's state after the active player rolls it (S4)."""
RETURNED_STATE = {**LOCKS, Face.SKULL: DieState.FREE_SKULL, Face.SCROLL: DieState.RETURNED_SCROLL}
"""Each face's state when a die comes back to the active player (C3, C7)."""
LAST_STAND_CLAIMS = 4
"""Under Last Stand a Claim that would be the 5th is the Crown instead (S8)."""


class Tabletop(ABC):
    """A working copy of one state plus the events of the action being applied.

    The parts of the turn are module functions taking the tabletop, each importing the parts it goes on to. The
    three steps below lead back to an earlier part (a roll to its scrolls, scrolls to the Fate window), so they
    are reached through the tabletop; :class:`rules.crowns.turn.Table` wires them.
    """

    def __init__(self, state: CrownsState, dice: DiceSource) -> None:
        self.s = state.model_copy()
        self.dice = dice
        self.events: list[dict[str, Any]] = []

    @abstractmethod
    def resolve_scrolls(self) -> None:
        """S5: hand out new scrolls, else go on."""

    @abstractmethod
    def after_resolution(self) -> None:
        """After scrolls are resolved: the Fate window, then evaluation."""

    @abstractmethod
    def open_window(self, kind: Literal["post_resolution", "pre_scroll"]) -> bool:
        """Open a Fate window if someone can afford a spend in it."""

    # -- changes ---------------------------------------------------------------------------

    def emit(self, event: str, /, **fields: Any) -> None:
        """Record an event for the narrator."""
        self.events.append({"type": event, **fields})

    def put(self, **fields: Any) -> None:
        """Set fields of the working copy.

        The copy is ours alone (``model_copy`` made it) and gets only values of the declared types,
        so its field values are written as they are: pydantic's per-attribute ``__setattr__`` costs
        more than the rest of a typical action, for checks this private copy doesn't need.
        """
        self.s.__dict__.update(fields)

    def set_die(self, die_id: str, **update: Any) -> None:
        """Replace die ``die_id`` with a copy changed by ``update`` (face, holder, state, by_fate)."""
        dice = self.s.dice
        index = _INDEX[die_id]
        old = dice[index]
        new = die_value(
            die_id,
            update.get("face", old.face),
            update.get("holder", old.holder),
            update.get("state", old.state),
            update.get("by_fate", old.by_fate),
        )
        self.put(dice=Dice((*dice[:index], new, *dice[index + 1 :])))

    def set_dice(self, faces: dict[str, Face], states: dict[Face, DieState]) -> None:
        """Give each die of ``faces`` its rolled face and that face's state in ``states``, as one new tuple
        rather than one per die."""
        dice = list(self.s.dice)
        for die_id, face in faces.items():
            index = _INDEX[die_id]
            dice[index] = die_value(die_id, face, dice[index].holder, states[face], False)
        self.put(dice=Dice(dice))

    def set_seat(self, player: str, **update: Any) -> None:
        """Replace ``player``'s seat with an updated copy."""
        self.put(players=Players(p.model_copy(update=update) if p.id == player else p for p in self.s.players))

    def roll_face(self, die_id: str) -> Face:
        """Roll one die through the dice source."""
        return _FACES[self.dice.roll(die_id, 6) - 1]

    # -- S8: tokens and winning ----------------------------------------------------------------

    def gain_claims(self, player: str, count: int, reason: str) -> None:
        """S8: add Claims; under Last Stand a would-be 5th Claim takes the Crown instead."""
        s = self.s
        counted = 0
        for _ in range(count):
            seat = s.seat(player)
            if s.options.last_stand and s.crown_holder != player and seat.claims >= LAST_STAND_CLAIMS:
                self.take_crown(player, "fifth_claim")
            else:
                self.set_seat(player, claims=seat.claims + 1)
                counted += 1
        if counted:
            self.emit("claim_gained", player=player, count=counted, total=s.seat(player).claims, reason=reason)
        if not s.options.last_stand and s.seat(player).claims >= s.options.claim_target:
            self.game_over(player, "claims")

    def take_crown(self, player: str, reason: str) -> None:
        """The Crown moves to ``player`` (from its holder, or from the box)."""
        self.emit("crown_taken", player=player, rival=self.s.crown_holder, reason=reason)
        self.put(crown_holder=player)

    def gain_fate(self, player: str, count: int, reason: str) -> None:
        """Add Fate tokens, as many as the supply allows when it is limited."""
        supply = self.s.fate_in_supply()
        if supply is not None:
            count = min(count, supply)
        if count:
            total = self.s.seat(player).fate + count
            self.set_seat(player, fate=total)
            self.emit("fate_gained", player=player, count=count, total=total, reason=reason)

    def game_over(self, winner: str, reason: str) -> None:
        """The game ends with ``winner``; standings list everyone still seated."""
        s = self.s
        self.put(winner=winner, phase=Phase.GAME_OVER, window=None, fate_passed=())
        standings = [
            {"player": p.id, "claims": p.claims, "fate": p.fate, "crown": s.crown_holder == p.id, "left": p.left}
            for p in sorted(s.players, key=lambda p: (p.id != winner, p.left, -p.claims, -p.fate))
        ]
        self.emit("game_over", winner=winner, reason=reason, standings=standings)
