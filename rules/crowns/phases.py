"""One declaration per phase: the decision it asks for, how the board says so, and the actions it takes."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from rules.crowns import actions
from rules.crowns.state import Phase
from rules.said import said


@dataclass(frozen=True)
class PhaseRule:
    """What a phase waits for."""

    decision: str
    """Machine name of the decision (the prompt's ``decision``)."""
    label: str
    """What the player is asked, after "waiting for @player to …"."""
    waiting: str
    """Who the phase waits for, in a refusal: "You can't do that now: waiting for …"."""
    actions: tuple[type[BaseModel], ...]
    """The actions taken in this phase."""


PHASES: dict[Phase, PhaseRule] = {
    Phase.TURN_START: PhaseRule("roll", said("roll the dice"), said("the active player to roll"), (actions.Roll,)),
    Phase.SCROLL_ASSIGN: PhaseRule(
        "assign_scroll",
        said("give each new scroll die to a rival"),
        said("the active player to hand out scroll dice"),
        (actions.AssignScroll, actions.AssignAll),
    ),
    Phase.DAGGER_ASSIGN: PhaseRule(
        "give_dagger",
        said("choose who gets the dagger they rolled"),
        said("a rival to choose who gets a dagger"),
        (actions.GiveDagger,),
    ),
    Phase.FATE_WINDOW: PhaseRule(
        "fate_window",
        said("spend Fate or pass"),
        said("the fate window to close"),
        (actions.FateReroll, actions.Meddle, actions.PassFate),
    ),
    Phase.DECIDE: PhaseRule(
        "reroll",
        said("reroll skulls, scrolls or both"),
        said("the active player to reroll"),
        (actions.Reroll, actions.Settle, actions.EndTurn),
    ),
    Phase.SIX_SKULLS: PhaseRule(
        "six_skulls",
        said("take 1 Claim or 2 Fate"),
        said("the active player to take a Claim or 2 Fate"),
        (actions.SixSkulls,),
    ),
    Phase.LAST_STAND: PhaseRule(
        "last_stand",
        said("steal the Crown or take your roll"),
        said("the active player to decide about the Crown"),
        (actions.LastStandChoice,),
    ),
    Phase.STEAL: PhaseRule(
        "steal",
        said("steal a Claim from a rival"),
        said("the active player to choose whom to steal from"),
        (actions.Steal,),
    ),
    Phase.OVERKILL_ASSIGN: PhaseRule(
        "overkill",
        said("give an extra dagger to a rival"),
        said("the active player to hand out extra daggers"),
        (actions.Overkill, actions.OverkillAll),
    ),
}

PHASE_OF: dict[type[BaseModel], Phase] = {action: phase for phase, rule in PHASES.items() for action in rule.actions}
"""The phase each action belongs to."""
