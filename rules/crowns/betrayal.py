"""S7c, Betrayal (RULES.md 2.4, 2.6 #25–26): 3+ daggers end the turn with no token, and under Overkill the extra
daggers go to rivals first (C8)."""

from __future__ import annotations

from rules.crowns.data import DAGGERS_END_TURN, OVERKILL_MAX
from rules.crowns.rounds import end_turn
from rules.crowns.scoring import overkill_targets, own_daggers
from rules.crowns.state import DieState, Phase
from rules.crowns.table import Tabletop


def betrayal(t: Tabletop, daggers: int) -> None:
    """S7c: 3+ daggers end the turn with no token; overkill extras go out first (2.6 #25, #26)."""
    s = t.s
    t.emit("betrayal", player=s.active, daggers=daggers, crown_kept=s.crown_turn)
    extras = min(daggers - DAGGERS_END_TURN, OVERKILL_MAX) if s.options.overkill else 0
    if extras:
        targets = overkill_targets(s)
        if len(targets) > 1:
            t.put(overkill_left=extras)
            t.put(phase=Phase.OVERKILL_ASSIGN)
            return
        if targets:
            for die_id in own_daggers(t.s)[:extras]:
                give_overkill(t, die_id, targets[0])
        else:
            t.emit("overkill_kept", player=s.active, count=extras)
    end_turn(t, "betrayal")


def give_overkill(t: Tabletop, die_id: str, rival: str) -> None:
    """C8: an extra dagger goes to ``rival``, locked until their turn."""
    t.set_die(die_id, holder=rival, state=DieState.LOCKED)
    t.emit("overkill", player=t.s.active, die=die_id, rival=rival)
    t.put(overkill_given=t.s.overkill_given + 1)


def chosen_overkill(t: Tabletop, die_id: str, rival: str) -> None:
    """One chosen extra dagger is out; the turn ends once all are."""
    give_overkill(t, die_id, rival)
    t.put(overkill_left=t.s.overkill_left - 1)
    if not t.s.overkill_left:
        end_turn(t, "betrayal")


def finish_overkill(t: Tabletop) -> None:
    """Hand the remaining overkill extras to the only allowed rival (or keep them), then end the turn."""
    s = t.s
    targets = overkill_targets(s)
    if targets:
        for die_id in own_daggers(t.s)[: s.overkill_left]:
            give_overkill(t, die_id, targets[0])
    t.put(overkill_left=0)
    end_turn(t, "betrayal")
