"""Dice of Crowns in the contract suite: many games, since its modules make tables differ most."""

from __future__ import annotations

import random

from cogs.crowns import CrownsSpec
from rules.crowns.playout import random_options
from tests.contract.kit import Game, Table, seated


def crowns_table(rng: random.Random) -> Table:
    return seated("crowns", random_options(rng), rng.randint(2, 6))


GAME = Game("crowns", CrownsSpec(), crowns_table, steps=400, games=40)
