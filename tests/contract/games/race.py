"""The race game of the guide (``tests/testgame``) in the contract suite."""

from __future__ import annotations

import random

from tests.contract.kit import Game, Table, seated
from tests.testgame.cog import RaceSpec
from tests.testgame.engine import RaceOptions


def race_table(rng: random.Random) -> Table:
    return seated("race", RaceOptions(target=rng.choice([10, 30])), rng.randint(2, 4))


GAME = Game("race", RaceSpec(), race_table)
