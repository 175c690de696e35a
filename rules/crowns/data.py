"""The printed dice, set sizes and token supply of Dice of Crowns, read once from data/crowns/dice.yaml."""

from __future__ import annotations

from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

DATA_PATH = resources.files("data") / "crowns" / "dice.yaml"
FaceName = Literal["CROWN", "DAGGER", "SKULL", "SCROLL"]


class _Spec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Sets(_Spec):
    crowns_for_claim: int = Field(ge=1)
    skulls_for_claim: int = Field(ge=1)
    daggers_end_turn: int = Field(ge=1)


class Targets(_Spec):
    quick: int
    advanced: int


class PicturedPair(_Spec):
    crowns: int
    skulls: int
    claim: int
    fate: int


class Fate(_Spec):
    skulls_for_fate: int
    six_skulls_fate: int
    pictured_pair: PicturedPair
    self_reroll_cost: int
    any_die_reroll_cost: int


class Legendary(_Spec):
    name: str
    claims: int = 0
    steal_claims: int = 0
    lose_claims: int = 0
    immunity: str | None = None
    pass_all: bool = False


class Overkill(_Spec):
    max_extra: int


class Supply(_Spec):
    claim_tokens: int
    fate_tokens: int


class CrownsData(_Spec):
    """data/crowns/dice.yaml: seven identical dice and the numbers of every set and token."""

    dice: int = Field(ge=1)
    faces: tuple[FaceName, FaceName, FaceName, FaceName, FaceName, FaceName]
    names: dict[FaceName, str]
    sets: Sets
    targets: Targets
    fate: Fate
    legendary: dict[FaceName, Legendary]
    overkill: Overkill
    supply: Supply


def load() -> CrownsData:
    """Read and validate the data file."""
    with DATA_PATH.open(encoding="utf-8") as fh:
        return CrownsData.model_validate(yaml.safe_load(fh))


DATA = load()

DIE_IDS: tuple[str, ...] = tuple(str(i) for i in range(1, DATA.dice + 1))
FACE_BY_VALUE: tuple[str, ...] = DATA.faces
"""d6 value v shows FACE_BY_VALUE[v - 1]."""
FACE_NAMES: dict[str, str] = {face: name for face, name in DATA.names.items()}
LEGENDARY_NAMES: dict[str, str] = {face: entry.name for face, entry in DATA.legendary.items()}

CROWNS_FOR_CLAIM: int = DATA.sets.crowns_for_claim
SKULLS_FOR_CLAIM: int = DATA.sets.skulls_for_claim
DAGGERS_END_TURN: int = DATA.sets.daggers_end_turn

SKULLS_FOR_FATE: int = DATA.fate.skulls_for_fate
SIX_SKULLS: int = 2 * SKULLS_FOR_FATE
SIX_SKULLS_FATE: int = DATA.fate.six_skulls_fate
PAIR_CROWNS: int = DATA.fate.pictured_pair.crowns
PAIR_SKULLS: int = DATA.fate.pictured_pair.skulls
PAIR_CLAIM: int = DATA.fate.pictured_pair.claim
PAIR_FATE: int = DATA.fate.pictured_pair.fate
SELF_REROLL_COST: int = DATA.fate.self_reroll_cost
ANY_DIE_REROLL_COST: int = DATA.fate.any_die_reroll_cost

BIRTHRIGHT_CLAIMS: int = DATA.legendary["CROWN"].claims
TWISTS_STEAL: int = DATA.legendary["SKULL"].steal_claims
FEAST_LOSS: int = DATA.legendary["DAGGER"].lose_claims
OVERKILL_MAX: int = DATA.overkill.max_extra
FATE_SUPPLY: int = DATA.supply.fate_tokens
