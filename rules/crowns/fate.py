"""S6, the Fate window (RULES.md 2.4, 2.6 #19, #27–28): after scrolls resolve (and, by option, before each scroll
outcome) anyone who can afford it may spend Fate to reroll a die (C6, C7) until all have passed."""

from __future__ import annotations

from typing import Any, Literal

from rules.crowns.data import ANY_DIE_REROLL_COST, SELF_REROLL_COST
from rules.crowns.evaluation import evaluate
from rules.crowns.scoring import fate_eligible, pending_scrolls
from rules.crowns.scrolls import resolve_scrolls, roll_scrolls, scroll_outcome
from rules.crowns.state import DieState, Phase
from rules.crowns.table import LOCKS, OWN_ROLL_STATE, RETURNED_STATE, Tabletop


def after_resolution(t: Tabletop) -> None:
    """After scrolls are resolved: the fate window (if anyone can spend), then evaluation."""
    if t.s.options.fate and open_window(t, "post_resolution"):
        return
    evaluate(t)


def open_window(t: Tabletop, kind: Literal["post_resolution", "pre_scroll"]) -> bool:
    """Open a fate window if someone can afford a spend in it (2.6 #19)."""
    s = t.s
    t.put(window=kind, fate_passed=())
    eligible = fate_eligible(s)
    if not eligible:
        t.put(window=None)
        return False
    t.put(phase=Phase.FATE_WINDOW)
    t.emit("fate_window_opened", kind=kind, players=eligible)
    return True


def pass_fate(t: Tabletop, player: str) -> None:
    """``player`` is done with this window; it closes when everyone who could act has passed."""
    t.put(fate_passed=(*t.s.fate_passed, player))
    t.emit("fate_passed", player=player)
    if not fate_eligible(t.s):
        close_window(t)


def close_window(t: Tabletop) -> None:
    """Close the fate window and carry on from where it opened."""
    s = t.s
    kind = s.window
    t.put(window=None, fate_passed=())
    t.emit("fate_window_closed", kind=kind)
    if kind == "pre_scroll":
        if scroll_outcome(t):
            roll_scrolls(t)
    else:
        evaluate(t)


def fate_reroll(t: Tabletop, player: str, die_id: str, kind: Literal["own", "meddle"]) -> None:
    """C6/C7: spend Fate and reroll one die where it is (2.6 #27, #28)."""
    s = t.s
    cost = SELF_REROLL_COST if kind == "own" else ANY_DIE_REROLL_COST
    t.set_seat(player, fate=s.seat(player).fate - cost)
    before = s.die(die_id)
    face = t.roll_face(die_id)
    update: dict[str, Any] = {"face": face, "by_fate": True}
    moved_to = None
    if before.state is DieState.AT_RIVAL:
        pass  # the rival's fresh scroll roll: its outcome applies with the new face when the window closes
    elif before.holder == s.active:
        update["state"] = OWN_ROLL_STATE[face]
    elif face in LOCKS or s.options.meddle_held_die == "stays":
        update["state"] = DieState.LOCKED
    else:
        moved_to = s.active
        update.update(holder=s.active, state=RETURNED_STATE[face])
    t.set_die(die_id, **update)
    t.emit(
        "fate_reroll",
        player=player,
        kind=kind,
        cost=cost,
        die=die_id,
        holder=before.holder,
        old_face=str(before.face),
        face=str(face),
        moved_to=moved_to,
    )
    t.put(fate_passed=())
    if s.window == "post_resolution" and pending_scrolls(t.s):
        t.put(window=None)
        t.emit("fate_window_closed", kind="post_resolution")
        resolve_scrolls(t)
    elif not fate_eligible(s):
        close_window(t)
