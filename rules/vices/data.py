"""The Sins and dice of Vices & Vengeance, read once from data/vices/*.yaml and checked by pydantic models.

Die ids (RULES.md, engine advice): ``s.<Sin>`` small Sin d6, ``L.<Sin>`` large Sin d6, ``M`` the metallic
Pride d6, ``N.<Sin>`` Nemesis d20, ``d12``/``d10``/``d8`` the spoilers, and the Mythical dice by name
without spaces (``Mirror``, ``Medusa``, ``David``, ``Goliath``, ``SilverBullet``, ``Werewolf``).
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from typing import NamedTuple

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.vices.scoring import SILVER_BULLET_PAIR

DATA_DIR = resources.files("data") / "vices"
SINS_PATH = DATA_DIR / "sins.yaml"
DICE_PATH = DATA_DIR / "dice.yaml"


class _Spec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SinSpec(_Spec):
    """One Sin: its name, colour, place in the resolution order, extra die and effect text."""

    sin: str
    color: str
    precedence: int = Field(ge=1)
    extra_die: str | None
    effect: str


class SinList(_Spec):
    """sins.yaml: the seven Sins, listed in precedence order."""

    sins: tuple[SinSpec, ...]

    @model_validator(mode="after")
    def _in_precedence_order(self) -> SinList:
        if [s.precedence for s in self.sins] != list(range(1, len(self.sins) + 1)):
            raise ValueError("sins must be listed in precedence order 1, 2, 3, …")
        if len({s.sin for s in self.sins}) != len(self.sins):
            raise ValueError("each Sin must be listed once")
        if sum(s.extra_die is not None for s in self.sins) != 1:
            raise ValueError("exactly one Sin (Pride) brings an extra die")
        return self


class WildSpec(_Spec):
    """The Silver Bullet's wild face (the default of vv.silver_bullet_wild_face)."""

    die: str
    face: int = Field(ge=1, le=6)


class PairSpec(_Spec):
    """A Mythical Match-up pair of d6s, scored together."""

    key: str
    dice: tuple[str, str]
    wild: WildSpec | None = None

    @model_validator(mode="after")
    def _wild_die_in_pair(self) -> PairSpec:
        if self.wild is not None and self.wild.die != self.dice[0]:
            raise ValueError("the wild die must be the first die of its pair")
        return self

    @property
    def ids(self) -> tuple[str, str]:
        """The two die ids (names without spaces)."""
        return die_id(self.dice[0]), die_id(self.dice[1])


class PoolSpec(_Spec):
    """What the defender rolls at the start of a turn."""

    small_sin_d6: int
    spoilers: tuple[str, ...]
    mythical_pairs: int
    own_nemesis_d20: int


class WinSpec(_Spec):
    """The 70 rule."""

    exact_target: int
    trigger_at_or_above: int
    lowest_wins: bool


class DiceSpec(_Spec):
    """dice.yaml."""

    defender_pool: PoolSpec
    mythical_pairs: tuple[PairSpec, ...]
    win: WinSpec

    @model_validator(mode="after")
    def _pairs_counted(self) -> DiceSpec:
        if len(self.mythical_pairs) != self.defender_pool.mythical_pairs:
            raise ValueError("defender_pool.mythical_pairs must count the pairs listed")
        for spoiler in self.defender_pool.spoilers:
            if not spoiler.startswith("d") or not spoiler[1:].isdigit():
                raise ValueError(f"spoiler {spoiler!r} must be written dN")
        return self


def die_id(name: str) -> str:
    """A Mythical die's id: its printed name without spaces."""
    return name.replace(" ", "")


def load_sins(path: Traversable = SINS_PATH) -> SinList:
    """Read and check sins.yaml."""
    with path.open(encoding="utf-8") as fh:
        return SinList(sins=yaml.safe_load(fh))


def load_dice(path: Traversable = DICE_PATH) -> DiceSpec:
    """Read and check dice.yaml."""
    with path.open(encoding="utf-8") as fh:
        return DiceSpec.model_validate(yaml.safe_load(fh))


class Pair(NamedTuple):
    """A Mythical pair as the engine uses it."""

    key: str
    dice: tuple[str, str]


SIN_SPECS: tuple[SinSpec, ...] = load_sins().sins
DICE: DiceSpec = load_dice()
if DICE.defender_pool.small_sin_d6 != len(SIN_SPECS):
    raise ValueError("dice.yaml must have one small d6 per Sin of sins.yaml")

SINS: tuple[str, ...] = tuple(s.sin for s in SIN_SPECS)
"""Sin names in precedence order (Wrath first, Envy last)."""
PRECEDENCE: dict[str, int] = {s.sin: s.precedence for s in SIN_SPECS}
PRIDE: str = next(s.sin for s in SIN_SPECS if s.extra_die is not None)
"""The Sin that brings the metallic die."""
WRATH, SLOTH, LUST, GREED, GLUTTONY, ENVY = "Wrath", "Sloth", "Lust", "Greed", "Gluttony", "Envy"
if not {WRATH, SLOTH, PRIDE, LUST, GREED, GLUTTONY, ENVY} <= set(SINS):
    raise ValueError("sins.yaml must name the seven Sins the effects are written for")

SMALL: dict[str, str] = {sin: f"s.{sin}" for sin in SINS}
LARGE: dict[str, str] = {sin: f"L.{sin}" for sin in SINS}
NEMESIS: dict[str, str] = {sin: f"N.{sin}" for sin in SINS}
SIN_OF_DIE: dict[str, str] = {die: sin for table in (SMALL, LARGE, NEMESIS) for sin, die in table.items()}
METALLIC = "M"

PAIRS: tuple[Pair, ...] = tuple(Pair(p.key, p.ids) for p in DICE.mythical_pairs)
PAIR_KEYS: tuple[str, ...] = tuple(p.key for p in PAIRS)
PAIR_OF: dict[str, Pair] = {die: pair for pair in PAIRS for die in pair.dice}
"""The pair each Mythical die belongs to."""
DEFAULT_WILD_FACE: int | None = next((p.wild.face for p in DICE.mythical_pairs if p.wild), None)
if [p.key for p in DICE.mythical_pairs if p.wild] != [SILVER_BULLET_PAIR]:
    raise ValueError(f"dice.yaml: the wild die must be in the {SILVER_BULLET_PAIR} pair (rules.vices.scoring)")

SPOILERS: tuple[str, ...] = DICE.defender_pool.spoilers
BASE_POOL: tuple[str, ...] = (
    *SMALL.values(),
    *SPOILERS,
    *(die for pair in PAIRS for die in pair.dice),
)
"""The defender's dice every turn, in roll order, before their own Nemesis d20."""

SIDES: dict[str, int] = {
    **dict.fromkeys(SMALL.values(), 6),
    **dict.fromkeys(LARGE.values(), 6),
    METALLIC: 6,
    **dict.fromkeys(NEMESIS.values(), 20),
    **{s: int(s[1:]) for s in SPOILERS},
    **dict.fromkeys(PAIR_OF, 6),
}
"""Sides of every die of the game (31 dice)."""

EXACT_TARGET: int = DICE.win.exact_target
TRIGGER_AT: int = DICE.win.trigger_at_or_above
