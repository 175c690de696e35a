"""The printed dice, set sizes and token supply of Dice of Crowns, read once from data/crowns/dice.yaml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

DATA_PATH = Path(__file__).resolve().parents[2] / "data" / "crowns" / "dice.yaml"


def _load() -> dict[str, Any]:
    with DATA_PATH.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


DATA: dict[str, Any] = _load()

DIE_IDS: tuple[str, ...] = tuple(str(i) for i in range(1, DATA["dice"] + 1))
FACE_BY_VALUE: tuple[str, ...] = tuple(DATA["faces"])
"""d6 value v shows FACE_BY_VALUE[v - 1]."""
FACE_NAMES: dict[str, str] = dict(DATA["names"])
LEGENDARY_NAMES: dict[str, str] = {face: entry["name"] for face, entry in DATA["legendary"].items()}

CROWNS_FOR_CLAIM: int = DATA["sets"]["crowns_for_claim"]
SKULLS_FOR_CLAIM: int = DATA["sets"]["skulls_for_claim"]
DAGGERS_END_TURN: int = DATA["sets"]["daggers_end_turn"]

SKULLS_FOR_FATE: int = DATA["fate"]["skulls_for_fate"]
SIX_SKULLS: int = 2 * SKULLS_FOR_FATE
SIX_SKULLS_FATE: int = DATA["fate"]["six_skulls_fate"]
PAIR_CROWNS: int = DATA["fate"]["pictured_pair"]["crowns"]
PAIR_SKULLS: int = DATA["fate"]["pictured_pair"]["skulls"]
PAIR_CLAIM: int = DATA["fate"]["pictured_pair"]["claim"]
PAIR_FATE: int = DATA["fate"]["pictured_pair"]["fate"]
SELF_REROLL_COST: int = DATA["fate"]["self_reroll_cost"]
ANY_DIE_REROLL_COST: int = DATA["fate"]["any_die_reroll_cost"]

BIRTHRIGHT_CLAIMS: int = DATA["legendary"]["CROWN"]["claims"]
TWISTS_STEAL: int = DATA["legendary"]["SKULL"]["steal_claims"]
FEAST_LOSS: int = DATA["legendary"]["DAGGER"]["lose_claims"]
OVERKILL_MAX: int = DATA["overkill"]["max_extra"]
FATE_SUPPLY: int = DATA["supply"]["fate_tokens"]
