"""What the scoresheet needs to know about the Sins and the Mythical pairs (RULES.md 1.1, PART 4).

A small table of its own, so the scoresheet does not depend on the dice game's data files.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from rules.said import said

SinName = Literal["Wrath", "Sloth", "Pride", "Lust", "Greed", "Gluttony", "Envy"]
"""A Sin, named as on the sheet. A row is known by its player's original Sin, which never changes.

The names stay the rulebook's in every language (players type them, and the rules resolve them in reverse
alphabetical order of these English names); their colours and effects are translated (``said``)."""


PairKey = Literal["mirror_medusa", "david_goliath", "silverbullet_werewolf"]


@dataclass(frozen=True, slots=True)
class Sin:
    """One Sin: its colour (name from RULES.md 1.1, and the RGB the picture paints) and its effect.

    The seven RGBs stay apart for the common colour-vision deficiencies (tests/test_colour_vision.py simulates
    them), and the picture writes each Sin's name on its colour anyway."""

    name: SinName
    precedence: int
    colour: str
    rgb: tuple[int, int, int]
    effect: str


SINS: tuple[Sin, ...] = (
    Sin(
        "Wrath",
        1,
        said("red"),
        (200, 40, 40),
        said(
            "Remove the defending player's Sin from play. If they have more than one, you choose which Sin to destroy."
        ),
    ),
    Sin(
        "Sloth",
        2,
        said("light blue"),
        (86, 180, 233),
        said(
            "Remove your Sloth Nemesis die from play for the rest of the game. "
            "It is the only Nemesis die that can be removed from play."
        ),
    ),
    Sin(
        "Pride",
        3,
        said("purple"),
        (155, 65, 190),
        said(
            "Roll the extra metallic-purple Pride die. The defender scores it together with the two Pride dice "
            "in the penalty roll. Matching dice score zero."
        ),
    ),
    Sin(
        "Lust",
        4,
        said("dark blue"),
        (25, 45, 125),
        said(
            "Take a Sin and its matching token from another attacking player or the reserves. "
            "You cannot take the defending player's Sin."
        ),
    ),
    Sin("Greed", 5, said("gold"), (240, 205, 60), said("Take the defending player's Sin die and its matching token.")),
    Sin(
        "Gluttony",
        6,
        said("orange"),
        (215, 110, 0),
        said(
            "Take a Sin and its matching token from the reserves. You keep and play that Sin, and may accumulate "
            "all the Sins. The defender adds its die to the penalty roll and scores three dice, or four with "
            "Pride's extra die."
        ),
    ),
    Sin(
        "Envy",
        7,
        said("green"),
        (0, 125, 85),
        said(
            "Exchange your Sin for any Sin in the reserves or any other player's Sin. "
            "Move each matching token with its Sin."
        ),
    ),
)
"""In precedence order (Wrath → Sloth → Pride → Lust → Greed → Gluttony → Envy), the order effects resolve in."""

SIN_NAMES: tuple[SinName, ...] = tuple(s.name for s in SINS)
SIN_BY_NAME: MappingProxyType[SinName, Sin] = MappingProxyType({s.name: s for s in SINS})

PAIRS: MappingProxyType[PairKey, tuple[str, str]] = MappingProxyType(
    {
        "mirror_medusa": ("Mirror", "Medusa"),
        "david_goliath": ("David", "Goliath"),
        "silverbullet_werewolf": ("SilverBullet", "Werewolf"),
    }
)
"""Each Mythical pair's two dice, in ``dice.yaml`` order; these names end the tie-break die ids."""

PAIR_TITLES: MappingProxyType[PairKey, str] = MappingProxyType(
    {
        "mirror_medusa": "Mirror & Medusa",
        "david_goliath": "David & Goliath",
        "silverbullet_werewolf": "Silver Bullet & Werewolf",
    }
)

EXACT_TARGET = 70
"""Exactly this total wins ahead of the lowest; reaching it or more ends the game after the round."""
