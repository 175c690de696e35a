"""Setup (RULES.md 1.4): seat order and Sin assignment, then the first turn.

Setup dice: ``seat.<player>`` (d20) for the seat order; ``Mirror`` and the unassigned ``L.<Sin>`` dice
for the Mirror roll; ``sin.<player>`` (a die with one side per unassigned Sin) for random assignment.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.vices.data import LARGE, NEMESIS, SINS
from rules.vices.state import RESERVES, Claim, VicesState, large_dice
from rules.vices.table import Table
from rules.vices.turn import start_turn

SEAT_DIE_SIDES = 20


def seat_order(t: Table, players: Sequence[str]) -> list[str]:
    """vv.seat_order=d20: everyone rolls a d20, tied high rolls roll again; the highest goes first and play
    goes clockwise, i.e. on round the given order. Other modes keep the given order."""
    order = list(players)
    if t.s.options.seat_order != "d20":
        return order
    rolling = order
    while len(rolling) > 1:
        rolls = {p: t.roll(f"seat.{p}", SEAT_DIE_SIDES) for p in rolling}
        high = max(rolls.values())
        tied = [p for p in rolling if rolls[p] == high]
        t.emit(
            "seat_rolls",
            rolls=[{"player": p, "die": f"seat.{p}", "value": v} for p, v in rolls.items()],
            tied=tied if len(tied) > 1 else [],
        )
        rolling = tied
    i = order.index(rolling[0])
    return order[i:] + order[:i]


def unassigned(state: VicesState) -> list[str]:
    """Sins nobody has claimed yet (a leaver's Sin is in the reserves but was claimed)."""
    claimed = {p.sin for p in state.players}
    return [sin for sin in SINS if state.sins[sin] == RESERVES and sin not in claimed]


def assign_sins(t: Table) -> None:
    """Give Sins in seat order until someone must choose; once everyone has one, the first turn starts."""
    while True:
        waiting = [p.id for p in t.s.players if p.sin is None and not p.left]
        if not waiting:
            break
        player = waiting[0]
        free = unassigned(t.s)
        mode: str = t.s.options.sin_assignment
        if len(free) == 1:
            # Nothing to roll for or choose: the last Sin goes to the last player (7 players only).
            mode = "last_sin"
            choices = free
        elif mode == "random":
            choices = [free[t.roll(f"sin.{player}", len(free)) - 1]]
        elif mode == "choose":
            choices = free
        else:
            choices = _mirror_roll(t, player, free)
        if len(choices) > 1:
            t.put(claim=Claim(player=player, sins=tuple(choices)))
            t.emit("claim_needed", player=player, sins=choices)
            return
        claim(t, player, choices[0], mode)
    t.put(claim=None)
    t.emit("setup_done", sins={p.id: p.sin for p in t.s.players if not p.left}, reserves=t.s.reserves())
    start_turn(t, t.s.first_seat)


def _mirror_roll(t: Table, player: str, free: list[str]) -> list[str]:
    """Roll the Mirror die with every unassigned large Sin die until at least one matches it."""
    while True:
        mirror = t.roll("Mirror")
        values = {sin: t.roll(LARGE[sin]) for sin in free}
        matches = [sin for sin in free if values[sin] == mirror]
        t.emit(
            "mirror_roll",
            player=player,
            mirror=mirror,
            dice=[{"die": LARGE[sin], "value": v} for sin, v in values.items()],
            matches=matches,
        )
        if matches:
            return matches


def claim(t: Table, player: str, sin: str, how: str) -> None:
    """The claimant takes the Sin with its token and dice, and the same-coloured Nemesis d20 for the game."""
    t.put_seat(player, sin=sin)
    t.move_sin(sin, player)
    t.put(claim=None)
    t.emit("sin_claimed", player=player, sin=sin, how=how, dice=[*large_dice(sin), NEMESIS[sin]])
