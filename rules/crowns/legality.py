"""Which actions are legal now, why an action is not, and the timeout defaults of RULES.md 2.6 #37."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from rules.crowns import actions
from rules.crowns.actions import END_TURN, PASS_FATE, ROLL, SETTLE, action, die_to_rival, per_die, to_each_rival
from rules.crowns.data import ANY_DIE_REROLL_COST, DIE_IDS, SELF_REROLL_COST
from rules.crowns.phases import PHASE_OF, PHASES
from rules.crowns.scoring import (
    can_settle,
    dagger_default,
    dagger_recipients,
    fate_eligible,
    meddle_targets,
    overkill_targets,
    own_daggers,
    own_reroll_targets,
    pending_scrolls,
    reroll_groups,
    steal_victims,
)
from rules.crowns.state import CrownsState, DieState, Phase
from rules.engine import IllegalAction
from rules.said import said

_GROUP_MISSING = {
    "skulls": said("You have no free skulls to reroll."),
    "scrolls": said("You have no returned scrolls to reroll."),
    "both": said("Both needs free skulls and returned scrolls."),
}


def decider(state: CrownsState) -> str | None:
    """Who decides in the current phase (None in a fate window, where several may act, or at game end)."""
    if state.phase is Phase.DAGGER_ASSIGN:
        return state.rolling.rival if state.rolling else None
    if state.phase in (Phase.FATE_WINDOW, Phase.GAME_OVER):
        return None
    return state.active


def may_end_turn(state: CrownsState) -> bool:
    """End the turn by choice: a house rule, or the only alternative to Settle when nothing can be rerolled."""
    return state.options.allow_voluntary_end or not reroll_groups(state.counts())


def six_skulls_fate_allowed(state: CrownsState) -> bool:
    """2 Fate can be taken unless a limited supply is empty."""
    supply = state.fate_in_supply()
    return supply is None or supply > 0


def illegal_reason(state: CrownsState, actor: str, action: BaseModel) -> str | None:
    """Why ``actor`` may not take ``action`` now, in words a player can read; None if it is legal."""
    if state.phase is Phase.GAME_OVER:
        return said("The game is over.")
    if not any(p.id == actor and not p.left for p in state.players):
        return said("You are not playing in this game.")
    phase = PHASE_OF.get(type(action))
    if phase is None:
        return said("That is not a Dice of Crowns action.")
    if phase is not state.phase:
        return said("You can't do that now: waiting for {what}.", what=PHASES[state.phase].waiting)
    if phase is Phase.FATE_WINDOW:
        if actor in state.fate_passed:
            return said("You have already passed in this fate window.")
        if actor not in fate_eligible(state):
            return said("You have no Fate tokens to spend now.")
    elif actor != decider(state):
        if phase is Phase.DAGGER_ASSIGN:
            return said("Only the rival who rolled that dagger chooses who gets it.")
        return said("It's not your turn.")
    check = _CHECKS.get(type(action))
    return check(state, actor, action) if check is not None else None


def _die_exists(die_id: str) -> str | None:
    return None if die_id in DIE_IDS else said("There is no die {die}.", die=die_id)


def _check_assign(state: CrownsState, actor: str, action: actions.AssignScroll) -> str | None:
    if reason := _die_exists(action.die):
        return reason
    die = state.die(action.die)
    if die.holder != actor or die.state is not DieState.PENDING_SCROLL:
        return said("Die {die} is not a new scroll to hand out.", die=action.die)
    if action.rival == actor:
        return said("Scroll dice go to rivals, not to yourself.")
    if action.rival not in state.present():
        return said("That player is not a rival in this game.")
    return None


def _check_assign_all(state: CrownsState, actor: str, action: actions.AssignAll) -> str | None:
    if not pending_scrolls(state):
        return said("There are no new scroll dice to hand out.")
    if action.rival == actor:
        return said("Scroll dice go to rivals, not to yourself.")
    if action.rival not in state.present():
        return said("That player is not a rival in this game.")
    return None


def _check_dagger(state: CrownsState, actor: str, action: actions.GiveDagger) -> str | None:
    if action.to is None:
        return None if state.options.dagger_timeout_default == "random" else said("Choose who gets the dagger.")
    if action.to not in state.present():
        return said("That player is not in this game.")
    if action.to not in dagger_recipients(state):
        return said("That player is protected by The Messenger: no daggers for them.")
    return None


def _check_reroll(state: CrownsState, actor: str, action: actions.Reroll) -> str | None:
    return None if action.group in reroll_groups(state.counts()) else _GROUP_MISSING[action.group]


def _check_settle(state: CrownsState, actor: str, action: actions.Settle) -> str | None:
    if not state.options.fate:
        return said("Settling needs the Fate module.")
    if can_settle(state, state.counts()):
        return None
    return said("Settling needs 3 skulls, fewer than 3 daggers and a Fate token in the box.")


def _check_end(state: CrownsState, actor: str, action: actions.EndTurn) -> str | None:
    return None if may_end_turn(state) else said("You can't end your turn by choice: reroll, or settle if you can.")


def _check_six(state: CrownsState, actor: str, action: actions.SixSkulls) -> str | None:
    if action.choice == "fate" and not six_skulls_fate_allowed(state):
        return said("There are no Fate tokens left in the box.")
    return None


def _check_fate_reroll(state: CrownsState, actor: str, action: actions.FateReroll) -> str | None:
    if reason := _die_exists(action.die):
        return reason
    if actor != state.active or state.window != "post_resolution":
        return said("Only the active player can spend 1 Fate, after the scrolls are resolved.")
    if state.seat(actor).fate < SELF_REROLL_COST:
        return said("You need a Fate token for that.")
    if action.die not in own_reroll_targets(state):
        return said("Die {die} is not yours: rerolling any die on the table costs 2 Fate.", die=action.die)
    return None


def _check_meddle(state: CrownsState, actor: str, action: actions.Meddle) -> str | None:
    if reason := _die_exists(action.die):
        return reason
    if state.seat(actor).fate < ANY_DIE_REROLL_COST:
        return said("Meddling costs 2 Fate tokens.")
    if action.die not in meddle_targets(state):
        return said("Die {die} is not on the table right now.", die=action.die)
    return None


def _check_overkill(state: CrownsState, actor: str, action: actions.Overkill) -> str | None:
    if reason := _die_exists(action.die):
        return reason
    if action.die not in own_daggers(state):
        return said("Die {die} is not one of your daggers.", die=action.die)
    if action.rival == actor:
        return said("Extra daggers go to rivals.")
    if action.rival not in state.rivals(actor):
        return said("That player is not a rival in this game.")
    if action.rival not in overkill_targets(state):
        return said("That rival is protected by The Messenger: no daggers for them.")
    return None


def _check_overkill_all(state: CrownsState, actor: str, action: actions.OverkillAll) -> str | None:
    if action.rival == actor:
        return said("Extra daggers go to rivals.")
    if action.rival not in overkill_targets(state):
        return said("That rival is protected by The Messenger, or not in this game.")
    return None


def _check_steal(state: CrownsState, actor: str, action: actions.Steal) -> str | None:
    if action.rival not in state.rivals(actor):
        return said("That player is not a rival in this game.")
    return None if action.rival in steal_victims(state) else said("That rival has no Claim to steal.")


_CHECKS: dict[type[BaseModel], Callable[[CrownsState, str, Any], str | None]] = {
    actions.AssignScroll: _check_assign,
    actions.AssignAll: _check_assign_all,
    actions.GiveDagger: _check_dagger,
    actions.Reroll: _check_reroll,
    actions.Settle: _check_settle,
    actions.EndTurn: _check_end,
    actions.SixSkulls: _check_six,
    actions.FateReroll: _check_fate_reroll,
    actions.Meddle: _check_meddle,
    actions.Overkill: _check_overkill,
    actions.OverkillAll: _check_overkill_all,
    actions.Steal: _check_steal,
}


def check(state: CrownsState, actor: str, action: BaseModel) -> None:
    """Raise IllegalAction with the reason when ``actor`` may not take ``action`` now."""
    reason = illegal_reason(state, actor, action)
    if reason is not None:
        raise IllegalAction(reason)


def legal_actions(state: CrownsState, player: str) -> list[BaseModel]:
    """Every action ``player`` may take now (a new list each call: callers may change it)."""
    return list(_legal_actions(state, player))


def _legal_actions(state: CrownsState, player: str) -> Sequence[BaseModel]:
    # Shared tuples are returned as they are: legal_actions copies the answer.
    phase = state.phase
    if phase is Phase.GAME_OVER or player not in state.present():
        return []
    if phase is Phase.FATE_WINDOW:
        if player not in fate_eligible(state):
            return []
        fate = state.seat(player).fate
        offered: list[BaseModel] = []
        if player == state.active and state.window == "post_resolution" and fate >= SELF_REROLL_COST:
            offered += per_die(actions.FateReroll, tuple(own_reroll_targets(state)))
        if fate >= ANY_DIE_REROLL_COST:
            offered += per_die(actions.Meddle, tuple(meddle_targets(state)))
        return [*offered, PASS_FATE]
    if player != decider(state):
        return []
    if phase is Phase.TURN_START:
        return [ROLL]
    if phase is Phase.SCROLL_ASSIGN:
        pending, rivals = tuple(pending_scrolls(state)), tuple(state.rivals(player))
        every = to_each_rival(actions.AssignAll, rivals) if len(pending) > 1 else ()
        return [*die_to_rival(actions.AssignScroll, pending, rivals), *every]
    if phase is Phase.DAGGER_ASSIGN:
        gives: list[BaseModel] = [action(actions.GiveDagger, to=p) for p in dagger_recipients(state)]
        return (
            [*gives, action(actions.GiveDagger, to=None)] if state.options.dagger_timeout_default == "random" else gives
        )
    if phase is Phase.DECIDE:
        counts = state.counts()
        groups = reroll_groups(counts)
        decide: list[BaseModel] = [action(actions.Reroll, group=g) for g in groups]
        if can_settle(state, counts):
            decide.append(SETTLE)
        if state.options.allow_voluntary_end or not groups:
            decide.append(END_TURN)
        return decide
    if phase is Phase.SIX_SKULLS:
        choices = ["claim", "fate"] if six_skulls_fate_allowed(state) else ["claim"]
        return [action(actions.SixSkulls, choice=c) for c in choices]
    if phase is Phase.LAST_STAND:
        return [action(actions.LastStandChoice, steal=True), action(actions.LastStandChoice, steal=False)]
    if phase is Phase.STEAL:
        return [action(actions.Steal, rival=r) for r in steal_victims(state)]
    targets = tuple(overkill_targets(state))
    every = to_each_rival(actions.OverkillAll, targets) if state.overkill_left > 1 else ()
    return [*die_to_rival(actions.Overkill, tuple(own_daggers(state)), targets), *every]


def default_action(state: CrownsState, player: str) -> BaseModel:
    """What a timed-out decision does (RULES.md 2.6 #37)."""
    phase = state.phase
    if phase is Phase.FATE_WINDOW and player in fate_eligible(state):
        return PASS_FATE
    if phase in (Phase.GAME_OVER, Phase.FATE_WINDOW) or player != decider(state):
        raise IllegalAction(said("There is nothing for you to decide now."))
    if phase is Phase.TURN_START:
        return ROLL
    if phase is Phase.SCROLL_ASSIGN:
        rivals = state.rivals(player)
        return action(
            actions.AssignScroll, die=pending_scrolls(state)[0], rival=rivals[len(state.scroll_queue) % len(rivals)]
        )
    if phase is Phase.DAGGER_ASSIGN:
        random_pick = state.options.dagger_timeout_default == "random"
        return action(actions.GiveDagger, to=None if random_pick else dagger_default(state))
    if phase is Phase.DECIDE:
        groups = reroll_groups(state.counts())
        return action(actions.Reroll, group=groups[-1]) if groups else END_TURN
    if phase is Phase.SIX_SKULLS:
        return action(actions.SixSkulls, choice="claim")
    if phase is Phase.LAST_STAND:
        return action(actions.LastStandChoice, steal=True)
    if phase is Phase.STEAL:
        victims = steal_victims(state)
        most = max(state.seat(v).claims for v in victims)
        return action(actions.Steal, rival=next(v for v in victims if state.seat(v).claims == most))
    targets = overkill_targets(state)
    return action(actions.Overkill, die=own_daggers(state)[0], rival=targets[state.overkill_given % len(targets)])
