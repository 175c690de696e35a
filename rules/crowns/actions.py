"""Player actions, one small model per decision of RULES.md 2.3, as a union discriminated by ``type``.

Scroll dice and overkill daggers are handed out one die per action, which keeps ``legal_actions``
small and fits Discord's component limits. A rival's scroll roll is made by the engine (the bot
rolls, RULES.md S5b), so it has no action.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from rules.engine import IllegalAction
from rules.said import said


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Roll(_Action):
    """The mandatory start-of-turn roll of every handed die (S2)."""

    type: Literal["roll"] = "roll"


class AssignScroll(_Action):
    """C1: give one new scroll die to a rival to roll."""

    type: Literal["assign_scroll"] = "assign_scroll"
    die: str
    rival: str


class GiveDagger(_Action):
    """C2: the rival who rolled a dagger for a scroll chooses who gets it.

    ``to=None`` lets the dice pick among the allowed players; it is offered (and is the timeout
    default) only with doc.dagger_timeout_default=random, since the default needs the dice source.
    """

    type: Literal["give_dagger"] = "give_dagger"
    to: str | None


class Reroll(_Action):
    """C3: reroll every free skull, every returned scroll, or both."""

    type: Literal["reroll"] = "reroll"
    group: Literal["skulls", "scrolls", "both"]


class Settle(_Action):
    """C4: Mistress of Fate, take 1 Fate token and end the turn."""

    type: Literal["settle"] = "settle"


class EndTurn(_Action):
    """Stop without a token (only with doc.allow_voluntary_end)."""

    type: Literal["end_turn"] = "end_turn"


class SixSkulls(_Action):
    """C5: with 6+ skulls take 1 Claim or 2 Fate."""

    type: Literal["six_skulls"] = "six_skulls"
    choice: Literal["claim", "fate"]


class FateReroll(_Action):
    """C6: the active player spends 1 Fate to reroll one die they hold, locks and sets ignored."""

    type: Literal["fate_reroll"] = "fate_reroll"
    die: str


class Meddle(_Action):
    """C7: anyone spends 2 Fate to reroll any one die on the table, in a fate window."""

    type: Literal["meddle"] = "meddle"
    die: str


class PassFate(_Action):
    """Close my part of the fate window."""

    type: Literal["pass_fate"] = "pass_fate"


class Overkill(_Action):
    """C8: give one extra dagger to a rival after a Betrayal."""

    type: Literal["overkill"] = "overkill"
    die: str
    rival: str


class AssignAll(_Action):
    """C1, the usual case in one go: every new scroll die to the same rival."""

    type: Literal["assign_all"] = "assign_all"
    rival: str


class OverkillAll(_Action):
    """C8, the usual case in one go: every extra dagger still to give to the same rival."""

    type: Literal["overkill_all"] = "overkill_all"
    rival: str


class Steal(_Action):
    """C9: Twists of Fate, steal a Claim from this rival."""

    type: Literal["steal"] = "steal"
    rival: str


class LastStandChoice(_Action):
    """C10: with 7 crowns or 7 skulls while a rival holds the Crown, steal it or take the normal result."""

    type: Literal["last_stand"] = "last_stand"
    steal: bool


CrownsAction = Annotated[
    Roll
    | AssignScroll
    | AssignAll
    | GiveDagger
    | Reroll
    | Settle
    | EndTurn
    | SixSkulls
    | FateReroll
    | Meddle
    | PassFate
    | Overkill
    | OverkillAll
    | Steal
    | LastStandChoice,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Any] = TypeAdapter(CrownsAction)


def parse_action(data: Mapping[str, Any]) -> BaseModel:
    """Validate a JSON action; an unknown or malformed one is an IllegalAction."""
    if data.get("type") == "reroll" and "dice" in data:
        # Players (and UIs) may try to pick single dice; the rules only allow whole groups (2.6 #6).
        raise IllegalAction(
            said(
                "Matching dice must be rerolled together: choose Skulls, Scrolls or Both. "
                "Locked crowns and daggers need a Fate token."
            )
        )
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise IllegalAction(said("That is not a Dice of Crowns action.")) from exc


ActionT = TypeVar("ActionT", bound=_Action)


@lru_cache(maxsize=4096)
def action(cls: type[ActionT], **fields: Any) -> ActionT:
    """A shared instance of an action; they are immutable, and ``legal_actions`` builds many per step."""
    return cls(**fields)


DieActionT = TypeVar("DieActionT", FateReroll, Meddle)
PairActionT = TypeVar("PairActionT", AssignScroll, Overkill)
AllActionT = TypeVar("AllActionT", AssignAll, OverkillAll)


@lru_cache(maxsize=1024)
def per_die(cls: type[DieActionT], dice: tuple[str, ...]) -> tuple[DieActionT, ...]:
    """Shared instances of ``cls(die=...)`` for each die, in order."""
    return tuple(cls(die=d) for d in dice)


@lru_cache(maxsize=1024)
def die_to_rival(cls: type[PairActionT], dice: tuple[str, ...], rivals: tuple[str, ...]) -> tuple[PairActionT, ...]:
    """Shared instances of ``cls(die=..., rival=...)`` for each die and rival, die by die."""
    return tuple(cls(die=d, rival=r) for d in dice for r in rivals)


@lru_cache(maxsize=256)
def to_each_rival(cls: type[AllActionT], rivals: tuple[str, ...]) -> tuple[AllActionT, ...]:
    """Shared instances of ``cls(rival=...)`` for each rival."""
    return tuple(cls(rival=r) for r in rivals)


ROLL = Roll()
SETTLE = Settle()
END_TURN = EndTurn()
PASS_FATE = PassFate()
