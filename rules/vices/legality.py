"""Who must decide what now, which actions are legal, why one is not, and the timeout defaults (1.8 #35)."""

from __future__ import annotations

from typing import NamedTuple, cast

from rules.engine import IllegalAction
from rules.said import Said, said
from rules.vices.actions import (
    DECISION,
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
)
from rules.vices.data import PAIR_KEYS, SINS
from rules.vices.effects import envy_swaps, sin_targets
from rules.vices.pool import lowest_unit, removable_units, removal_problem, zero_units
from rules.vices.state import Effect, VicesState


class Decision(NamedTuple):
    """A decision the game waits for, and who may make it."""

    name: str
    players: tuple[str, ...]


def decision(state: VicesState) -> Decision | None:
    """What the game waits for now; None once it is over."""
    if state.phase == "setup" and state.claim is not None:
        return Decision("claim", (state.claim.player,))
    if state.phase == "turn" and state.turn is not None:
        choice = state.turn.choice
        if choice is not None:
            return Decision(choice.effect, (choice.player,))
        return Decision("remove", (state.turn.defender,))
    if state.phase == "tiebreak" and state.tiebreak is not None:
        picked = {p.player for p in state.tiebreak.picks}
        return Decision("tiebreak", tuple(p for p in state.tiebreak.contenders if p not in picked))
    return None


WAITING_FOR: dict[str, Said] = {
    "claim": said("a player to claim a Sin"),
    "remove": said("the defender to remove dice"),
    "wrath": said("the Wrath player to choose a Sin to destroy"),
    "gluttony": said("the Gluttony player to take a Sin from the reserves"),
    "greed": said("the Greed player to choose a Sin to take"),
    "lust": said("the Lust player to choose a Sin to take"),
    "envy": said("the Envy player to choose an exchange"),
    "tiebreak": said("the tied players to choose their pairs"),
}

_EFFECT_RULE: dict[Effect, Said] = {
    "wrath": said("Wrath destroys one of the defender's Sins."),
    "greed": said("Greed takes one of the defender's Sins."),
    "gluttony": said("Gluttony takes a Sin from the reserves."),
    "lust": said("Lust takes a Sin from another attacker or the reserves, never the defender's."),
}


def illegal_reason(state: VicesState, actor: str, action: VicesAction) -> str | None:
    """Why ``actor`` may not take ``action`` now, in words a player can read; None if it is legal."""
    waiting = decision(state)
    if waiting is None:
        return said("The game is over.")
    if actor not in state.present():
        return said("You are not playing in this game.")
    if DECISION[type(action)] != waiting.name:
        return said("You can't do that now: waiting for {what}.", what=WAITING_FOR[waiting.name])
    if actor not in waiting.players:
        if waiting.name == "tiebreak" and state.tiebreak and actor in state.tiebreak.contenders:
            return said("You have already chosen a pair.")
        return said("It's not your decision: waiting for {what}.", what=WAITING_FOR[waiting.name])
    if isinstance(action, Remove):
        return removal_problem(state, action.units)
    if isinstance(action, RemoveZeros):
        return (
            None
            if len(zero_units(removable_units(state))) > 1
            else said("Fewer than two dice score 0: pick them yourself.")
        )
    if isinstance(action, ClaimSin):
        assert state.claim is not None
        if action.sin in state.claim.sins:
            return None
        if action.sin not in SINS:
            return said("There is no such Sin.")
        if state.options.sin_assignment == "mirror_roll":
            return said("You can only claim a Sin whose die matched the Mirror die.")
        return said("That Sin is already taken.")
    if isinstance(action, PickPair):
        return None if action.pair in PAIR_KEYS else said("Choose one of the three Mythical pairs.")
    if isinstance(action, Envy):
        return _envy_problem(state, actor, action)
    if action.sin in sin_targets(state, action.type, actor):
        return None
    return said("There is no such Sin.") if action.sin not in SINS else _EFFECT_RULE[action.type]


def _envy_problem(state: VicesState, actor: str, action: Envy) -> str | None:
    if action.give is None and action.take is None:
        return None if state.options.envy_optional else said("Envy's exchange is not optional at this table.")
    if (action.give, action.take) in envy_swaps(state, actor):
        return None
    if action.give not in state.sins_of(actor):
        return said("You can only give a Sin you hold.")
    return said("Envy takes a Sin from the reserves or from another player.")


_EFFECT_ACTION: dict[Effect, type[Wrath | Gluttony | Greed | Lust]] = {
    "wrath": Wrath,
    "gluttony": Gluttony,
    "greed": Greed,
    "lust": Lust,
}


def legal_actions(state: VicesState, player: str) -> list[VicesAction]:
    """Every action ``player`` may take now, the timeout default first where there is a fixed order.

    The removal decision is the exception: the defender picks a *set* of units, so only one action per
    removable unit is listed, plus the empty removal when a penalty roll already counted as this roll's
    removal, plus "remove every zero-scoring unit" when that is more than one unit. ``apply`` accepts any
    set of removable units (see :func:`rules.vices.pool.removable_units`).
    """
    waiting = decision(state)
    if waiting is None or player not in waiting.players or player not in state.present():
        return []
    name = waiting.name
    if name == "remove":
        units = removable_units(state)
        actions: list[VicesAction] = [Remove(units=(u.id,)) for u in units]
        assert state.turn is not None
        if state.turn.penalty_met:
            actions.insert(0, Remove(units=()))
        if len(zero_units(units)) > 1:
            actions.append(RemoveZeros())
        return actions
    if name == "claim":
        assert state.claim is not None
        return [ClaimSin(sin=s) for s in state.claim.sins]
    if name == "tiebreak":
        return [PickPair(pair=p) for p in PAIR_KEYS]
    if name == "envy":
        swaps: list[VicesAction] = [Envy(give=g, take=t) for g, t in envy_swaps(state, player)]
        return [*swaps, Envy(give=None, take=None)] if state.options.envy_optional else swaps
    effect = cast(Effect, name)
    cls = _EFFECT_ACTION[effect]
    return [cls(sin=s) for s in sin_targets(state, effect, player)]


def default_action(state: VicesState, player: str) -> VicesAction:
    """What a timed-out decision does (1.8 #35): a removal keeps everything when a penalty already counted,
    else removes the single lowest-scoring die or pair; any other choice takes the first legal option."""
    legal = legal_actions(state, player)
    if not legal:
        raise IllegalAction(said("There is nothing for you to decide now."))
    turn = state.turn
    if state.phase == "turn" and turn is not None and turn.choice is None:
        if turn.penalty_met:
            return Remove(units=())
        return Remove(units=(lowest_unit(removable_units(state)).id,))
    return legal[0]
