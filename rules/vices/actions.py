"""Player actions, one small model per decision of RULES.md table 1.3, as a union discriminated by ``type``.

Field values are short strings so that an action fits in a Discord custom id (≤ 100 characters):
``{"type": "remove", "units": ["d12", "mirror_medusa"]}``, ``{"type": "greed", "sin": "Pride"}``.
Rolls have no action: the bot rolls, and a defender's next roll follows their removal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ClaimSin(_Action):
    """D1: claim a Sin at setup (one whose large die matched the Mirror die, or any, under vv.sin_assignment=choose)."""

    type: Literal["claim"] = "claim"
    sin: str


class Remove(_Action):
    """D2/D3: remove and score a set of units: single dice (``d12``, ``s.Wrath``, ``N.Envy``), whole Mythical
    pairs (``mirror_medusa``) and, under the Nemesis zero rule, equal d20s together (``N.Envy+N.Wrath``).
    An empty set keeps every die, allowed only when a penalty roll already counted as this roll's removal."""

    type: Literal["remove"] = "remove"
    units: tuple[str, ...] = Field(default=(), max_length=40)


class RemoveZeros(_Action):
    """D2/D3 shortcut: remove every unit that scores 0 on this roll (offered when there are at least two),
    short enough for a button where listing the units would not fit."""

    type: Literal["zeros"] = "zeros"


class Wrath(_Action):
    """D4: which of the defender's Sins Wrath destroys."""

    type: Literal["wrath"] = "wrath"
    sin: str


class Gluttony(_Action):
    """D5: which Sin Gluttony takes from the reserves."""

    type: Literal["gluttony"] = "gluttony"
    sin: str


class Greed(_Action):
    """D6: which of the defender's Sins Greed takes."""

    type: Literal["greed"] = "greed"
    sin: str


class Envy(_Action):
    """D7: the Sin Envy gives and the Sin it takes in exchange; both None declines (vv.envy_optional only)."""

    type: Literal["envy"] = "envy"
    give: str | None
    take: str | None


class Lust(_Action):
    """D8: which Sin Lust takes, from another attacker or the reserves."""

    type: Literal["lust"] = "lust"
    sin: str


class PickPair(_Action):
    """D9: the Mythical pair a tied player rolls in the tie-break."""

    type: Literal["pair"] = "pair"
    pair: str


VicesAction = ClaimSin | Remove | RemoveZeros | Wrath | Gluttony | Greed | Envy | Lust | PickPair
EffectAction = Wrath | Gluttony | Greed | Envy | Lust

_ADAPTER: TypeAdapter[VicesAction] = TypeAdapter(Annotated[VicesAction, Field(discriminator="type")])


def parse_action(data: Mapping[str, Any]) -> VicesAction:
    """Validate JSON data into one action; raises pydantic's ValidationError for anything else."""
    return _ADAPTER.validate_python(data)


DECISION: dict[type[BaseModel], str] = {
    ClaimSin: "claim",
    Remove: "remove",
    RemoveZeros: "remove",
    Wrath: "wrath",
    Gluttony: "gluttony",
    Greed: "greed",
    Envy: "envy",
    Lust: "lust",
    PickPair: "tiebreak",
}
"""The prompt decision each action answers."""
