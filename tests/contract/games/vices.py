"""Vices & Vengeance, the table game, in the contract suite."""

from __future__ import annotations

import random

from cogs.vices.table import TableSpec
from rules.vices.playout import random_options
from tests.contract.kit import Game, Table, seated


def vices_table(rng: random.Random) -> Table:
    return seated("vices", random_options(rng), rng.randint(3, 6))


GAME = Game("vices", TableSpec(bot=None), vices_table, steps=400, games=20)  # type: ignore[arg-type]  # drawing needs no bot
