"""Questions the turn procedure asks about a state: sets, 7-of-a-kind, who may receive or spend what."""

from __future__ import annotations

from rules.crowns.data import (
    ANY_DIE_REROLL_COST,
    CROWNS_FOR_CLAIM,
    DAGGERS_END_TURN,
    SELF_REROLL_COST,
    SKULLS_FOR_CLAIM,
    SKULLS_FOR_FATE,
)
from rules.crowns.state import Counts, CrownsState, DieState, Face

_ON_TABLE_EXCLUDED = (DieState.HANDED, DieState.IN_TRANSIT, DieState.AT_RIVAL)

# Enum members tested in per-die loops, as module names (see rules.crowns.state for why).
_PENDING_SCROLL = DieState.PENDING_SCROLL


def seven_of_a_kind(state: CrownsState, face: Face) -> bool:
    """The x7 condition of 2.6 #20 for the active player, under the table's legendary_mode."""
    allow_fate = state.options.legendary_on_fate_reroll
    for d in state.dice:
        if d.holder != state.active or d.state in _ON_TABLE_EXCLUDED or d.face is not face:
            return False
        if d.by_fate and not allow_fate:
            return False
    return state.options.legendary_mode == "possession" or state.seven_roll is face


def dagger_recipients(state: CrownsState) -> list[str]:
    """Who may get a dagger: anyone still playing who is not Messenger-immune (2.6 #8, #23)."""
    return [p.id for p in state.players if not p.left and not p.messenger]


def overkill_targets(state: CrownsState) -> list[str]:
    """Rivals who may get an overkill dagger, clockwise from the active player (2.6 #25)."""
    return [r for r in state.rivals(state.active) if not state.seat(r).messenger]


def meddle_targets(state: CrownsState) -> list[str]:
    """Dice on the table a 2-Fate meddle may reroll: held dice, and the scroll die a rival has just rolled."""
    rolling = state.rolling.die if state.rolling else None
    return [d.id for d in state.dice if d.holder is not None and (d.state not in _ON_TABLE_EXCLUDED or d.id == rolling)]


def own_reroll_targets(state: CrownsState) -> list[str]:
    """Dice the active player may reroll for 1 Fate: any die they hold (2.6 #19)."""
    active = state.active
    return [d.id for d in state.dice if d.holder == active and d.state not in _ON_TABLE_EXCLUDED]


def fate_eligible(state: CrownsState) -> list[str]:
    """Players who can still act in the open (or about to open) fate window, in seat order."""
    eligible = []
    for p in state.players:
        if p.left or p.id in state.fate_passed:
            continue
        if p.fate >= ANY_DIE_REROLL_COST or (
            p.id == state.active
            and state.window == "post_resolution"
            and p.fate >= SELF_REROLL_COST
            and own_reroll_targets(state)
        ):
            eligible.append(p.id)
    return eligible


def can_settle(state: CrownsState, counts: Counts) -> bool:
    """Mistress of Fate: 3+ skulls, fewer than 3 daggers, and a Fate token to take (2.6 #16)."""
    if not state.options.fate:
        return False
    supply = state.fate_in_supply()
    return counts.skulls >= SKULLS_FOR_FATE and counts.daggers < DAGGERS_END_TURN and (supply is None or supply > 0)


def reroll_groups(counts: Counts) -> list[str]:
    """The reroll buttons on offer: skulls, scrolls, both, for the groups that exist (C3)."""
    groups = []
    if counts.free_skulls:
        groups.append("skulls")
    if counts.ret_scrolls:
        groups.append("scrolls")
    if len(groups) == 2:
        groups.append("both")
    return groups


def pending_scrolls(state: CrownsState) -> list[str]:
    """The active player's new scroll dice still to hand out."""
    active = state.active
    return [d.id for d in state.dice if d.holder == active and d.state is _PENDING_SCROLL]


def own_daggers(state: CrownsState) -> list[str]:
    """The active player's dagger dice."""
    return [d.id for d in state.held(state.active) if d.face is Face.DAGGER]


def steal_victims(state: CrownsState) -> list[str]:
    """Rivals with a Claim to steal, clockwise from the active player."""
    return [r for r in state.rivals(state.active) if state.seat(r).claims > 0]


def dagger_default(state: CrownsState) -> str | None:
    """Who gets the rolled dagger by default (2.6 #8, #34, #37) under self/active; None = into transit.

    The preferred player if allowed; a leaver's own default goes on with their dice; otherwise the
    first allowed player clockwise from the roller; if nobody is allowed, the roller keeps it.
    """
    item = state.rolling
    assert item is not None
    choices = dagger_recipients(state)
    preferred = state.active if state.options.dagger_timeout_default == "active" else item.rival
    if preferred in choices:
        return preferred
    roller_left = state.seat(item.rival).left
    if preferred == item.rival and roller_left:
        return None
    ids = [p.id for p in state.players]
    start = ids.index(item.rival)
    for pid in ids[start:] + ids[:start]:
        if pid in choices:
            return pid
    return None if roller_left else item.rival


def set_reachable(counts: Counts) -> bool:
    """2.6 #4 (b): could rerolls still bring 3 crowns or 5 skulls?"""
    rerollable = counts.free_skulls + counts.ret_scrolls
    return counts.crowns + rerollable >= CROWNS_FOR_CLAIM or counts.skulls + counts.ret_scrolls >= SKULLS_FOR_CLAIM
