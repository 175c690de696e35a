"""The round of turns (RULES.md 2.4): S1 a turn starts, S2–S4 the active player rolls, S9 the dice pass on."""

from __future__ import annotations

from typing import Literal

from rules.crowns.data import LEGENDARY_NAMES
from rules.crowns.scoring import seven_of_a_kind
from rules.crowns.state import Dice, DieState, Face, Phase, die_value
from rules.crowns.table import OWN_ROLL_STATE, Tabletop

# Enum members tested in per-die loops, as module names (see rules.crowns.state for why).
_HANDED = DieState.HANDED
_IN_TRANSIT = DieState.IN_TRANSIT


def start_turn(t: Tabletop) -> None:
    """S1: the active player's turn begins; roll if anything was handed, else go straight on."""
    s = t.s
    active = s.active
    t.put(crown_turn=s.options.last_stand and s.crown_holder == active, seven_roll=None)
    handed = [d.id for d in s.dice if d.holder == active and d.state is _HANDED]
    held = [d.id for d in s.dice if d.holder == active and d.state is not _HANDED]
    t.emit(
        "turn_started",
        player=active,
        turn=s.turn_no,
        round=s.round_no,
        handed=handed,
        held=held,
        crown_turn=s.crown_turn,
    )
    if handed:
        t.put(phase=Phase.TURN_START)
    else:
        t.emit("no_roll", player=active)
        t.after_resolution()


def own_roll(t: Tabletop, die_ids: list[str], reason: Literal["turn_roll", "reroll"], group: str | None = None) -> None:
    """S2–S4: the active player rolls ``die_ids`` (ascending); ends their Messenger immunity, then S5."""
    s = t.s
    active = s.active
    if s.seat(active).messenger:
        t.set_seat(active, messenger=False)
        t.emit("messenger_ended", player=active)
    faces = {die_id: t.roll_face(die_id) for die_id in sorted(die_ids, key=int)}
    t.set_dice(faces, OWN_ROLL_STATE)
    t.emit(
        "rolled",
        player=active,
        reason=reason,
        group=group,
        dice=[{"die": i, "face": str(f)} for i, f in faces.items()],
    )
    distinct = set(faces.values())
    t.put(seven_roll=distinct.pop() if len(faces) == len(s.dice) and len(distinct) == 1 else None)
    if s.options.legendary and seven_of_a_kind(s, Face.SCROLL):
        t.set_seat(active, messenger=True)
        t.emit("legendary", player=active, face=str(Face.SCROLL), name=LEGENDARY_NAMES["SCROLL"])
    t.resolve_scrolls()


def end_turn(t: Tabletop, reason: str) -> None:
    """S9: pass every die the active player holds, and dice in transit, to the next player."""
    s = t.s
    if s.phase is Phase.GAME_OVER:
        return
    active = s.active
    nxt = s.next_seat(active)
    dice = s.dice
    moving = [d.id for d in dice if d.holder == active or d.state is _IN_TRANSIT]
    passed = (die_value(d.id, d.face, nxt, DieState.HANDED, False) if d.id in moving else d for d in dice)
    t.put(dice=Dice(passed))
    t.emit("turn_ended", player=active, reason=reason)
    t.emit("dice_passed", player=active, to=nxt, dice=moving)
    ids = [p.id for p in s.players]
    t.put(
        round_no=s.round_no + (ids.index(nxt) <= ids.index(active)),
        active=nxt,
        turn_no=s.turn_no + 1,
        overkill_left=0,
        overkill_given=0,
        window=None,
        fate_passed=(),
    )
    start_turn(t)
