"""The Viciousness tables (data/viciousness/*.yaml), each read once with PyYAML and validated by its model."""

from __future__ import annotations

from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from rules.said import Said

DATA_DIR = resources.files("data") / "viciousness"

Severity = Literal["light", "medium", "heavy"]
Temperament = Literal["rash", "default", "shrewd"]
DieName = Literal["d4", "d6"]


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DiceClause(_Data):
    """One "Gain …" or "Add …" sentence of a trait."""

    when: Literal["gain", "add"]
    die: DieName
    n: int = Field(default=1, ge=1, le=3)
    condition: str = Field(min_length=1, max_length=300)


class TraitDef(_Data):
    """A trait: the dice it gives and what a push (or a knowledge roll) does."""

    name: str = Field(min_length=1, max_length=40)
    aliases: tuple[str, ...] = ()
    kind: Literal["normal", "knowledge", "magic", "special"]
    dice: tuple[DiceClause, ...] = ()
    push: str | None = Field(default=None, max_length=1000)
    knowledge: str | None = Field(default=None, max_length=1000)
    spell: str | None = Field(default=None, max_length=1000)
    physiology: str | None = Field(default=None, max_length=1000)
    special: str | None = Field(default=None, max_length=1000)
    push_effect: dict[str, object] | None = None
    effects: dict[str, object] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> TraitDef:
        if self.kind == "knowledge" and (self.knowledge is None or self.push is not None):
            raise ValueError(f"{self.name}: a knowledge trait has a knowledge text and no push")
        if self.kind == "magic" and (self.spell is None or self.dice):
            raise ValueError(f"{self.name}: a magic trait has a spell and no dice")
        if self.kind in ("normal", "special") and self.push is None:
            raise ValueError(f"{self.name}: a {self.kind} trait has a push")
        if self.dice and not any(c.when == "gain" for c in self.dice):
            raise ValueError(f"{self.name}: an add clause needs a gain clause")
        return self

    @property
    def pushable(self) -> bool:
        """Knowledge traits cannot be pushed (seed L24); every other kind can."""
        return self.kind != "knowledge"

    @property
    def push_text(self) -> str:
        """What a push of this trait does (the spell, for magic)."""
        return self.spell or self.push or ""


class ConsequenceEffect(_Data):
    """The part of a consequence the engine can apply."""

    kind: Literal["wealth", "rattle", "wound", "design", "calamity"]
    amount: int = Field(default=0, ge=0)
    severity: Severity | None = None


class ConsequenceRow(_Data):
    text: str
    effect: ConsequenceEffect | None = None


class ConsequenceTable(_Data):
    label: str
    rows: tuple[ConsequenceRow, ...] = Field(min_length=6, max_length=6)


class Consequences(_Data):
    light: ConsequenceTable
    medium: ConsequenceTable
    heavy: ConsequenceTable

    def table(self, severity: Severity) -> ConsequenceTable:
        """The table of ``severity``."""
        table: ConsequenceTable = getattr(self, severity)
        return table


class RankRow(_Data):
    rank: int = Field(ge=1, le=7)
    min_ip: int = Field(ge=0)
    items: tuple[str, ...]


class PriceModifier(_Data):
    key: str
    label: str
    delta: int
    exclusive_group: str | None = None


class PriceTable(_Data):
    base_price: int
    per_rank_below: int
    per_rank_above: int
    modifiers: tuple[PriceModifier, ...]
    free_at_or_below: int
    max_purchasable: int


class RewardMethod(_Data):
    key: Literal["work", "rare", "destroy"]
    label: str
    base: int
    unavailable_at_rank_gte: int | None = None


class RewardExample(_Data):
    company: int
    npc: int
    method: str
    coins: int


class RewardTable(_Data):
    methods: tuple[RewardMethod, ...]
    per_rank_difference: int
    minimum: int
    examples: tuple[RewardExample, ...] = ()


class Economy(_Data):
    default_start_rank: int = Field(ge=1, le=7)
    rank_range: tuple[int, int]
    turn_coins_per_troupe: int
    turn_coins_discard_at_turn_end: bool
    liquid_coin_to_ip: int
    ip_to_liquid_coin: int
    minion_replacement_ip: int
    replacement_extra_trait_ip: int


class StartingAsset(_Data):
    key: Literal["liquid_coin", "headquarters", "luxury_item", "favor"]
    label: str


class Characters(_Data):
    troupe_start: dict[str, int]
    traits_at_creation: dict[Literal["captain", "minion"], int]
    max_traits: int
    strong_contacts_per_trait: int
    starting_assets: tuple[StartingAsset, ...] = Field(min_length=4, max_length=4)
    example_actions: tuple[str, ...]
    contact_examples: dict[str, str]


class DeathTest(_Data):
    die: DieName
    dies_on_or_below: int
    with_medical_attention: int
    medical_window_seconds: int


class ViolenceRules(_Data):
    round_seconds: int
    phases: tuple[str, ...]
    base_die: DieName
    hit_face: int
    hit_rule: Literal["exact"]
    gm_equipment_bonus_options: tuple[int, ...]
    gm_equipment_die: DieName
    death_test: DeathTest
    recovery_turns: int


class KnaveryRules(_Data):
    base_die: DieName
    success_at_or_above: int
    free_push_face: int
    challenge_examples: tuple[str, ...]


class RattledRules(_Data):
    rolls: int
    keep: Literal["lowest"]
    cleared_by: str


class KnowledgeRules(_Data):
    die: DieName
    answer_at_or_above: int
    partial_on: int
    per_turn: int
    uses_action: bool
    rattles: bool


class Condition(_Data):
    key: Literal["reputation", "contact", "questions", "place", "asset"]
    label: str


class DiscoveryRules(_Data):
    die: DieName
    success_if_at_or_below_value: bool
    helpful_trait: str
    conditions: tuple[Condition, ...]


class RivalRules(_Data):
    ambition_per_turn: Literal["rank"]
    asset_bonus: int
    rival_die: Literal["d20"]
    max_designs: int
    default_minions: Literal["rank-2"]
    assets: int
    success_die: DieName
    success_in_4: dict[Temperament, int]
    speed_chess_refund: Literal["half_round_down"]
    deal_advance: Literal["company_rank"]


class TurnRules(_Data):
    default_length: str
    actions_per_character: int


class Procedures(_Data):
    violence: ViolenceRules
    knavery: KnaveryRules
    rattled: RattledRules
    knowledge: KnowledgeRules
    discovery: DiscoveryRules
    rivals: RivalRules
    turn: TurnRules


FILES: dict[str, Any] = {
    "traits.yaml": tuple[TraitDef, ...],
    "consequences.yaml": Consequences,
    "ranks.yaml": tuple[RankRow, ...],
    "price_modifiers.yaml": PriceTable,
    "rewards.yaml": RewardTable,
    "economy.yaml": Economy,
    "characters.yaml": Characters,
    "procedures.yaml": Procedures,
}
"""Every shipped file and the type it must validate as (the data tests load each one through it)."""


def load(name: str) -> Any:
    """Read ``data/viciousness/<name>`` and validate it as its type in FILES; pydantic says what is wrong."""
    with (DATA_DIR / name).open(encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    return TypeAdapter(FILES[name]).validate_python(raw)


TRAITS: dict[str, TraitDef] = {t.name: t for t in load("traits.yaml")}
CONSEQUENCES: Consequences = load("consequences.yaml")
RANKS: tuple[RankRow, ...] = load("ranks.yaml")
PRICES: PriceTable = load("price_modifiers.yaml")
REWARDS: RewardTable = load("rewards.yaml")
ECONOMY: Economy = load("economy.yaml")
CHARACTERS: Characters = load("characters.yaml")
PROCEDURES: Procedures = load("procedures.yaml")

MIN_IP: dict[int, int] = {r.rank: r.min_ip for r in RANKS}
MAX_TRAITS: int = CHARACTERS.max_traits
RECOVERY_TURNS: int = PROCEDURES.violence.recovery_turns
SIDES: dict[str, int] = {"d4": 4, "d6": 6}


def told(text: str) -> Said:
    """A sentence of these files (a label, a consequence) put into what an engine says, so that it is said in the
    reader's language too: the catalogs hold it through the data keys ``bot.i18n_extract`` reads."""
    return Said(text)
