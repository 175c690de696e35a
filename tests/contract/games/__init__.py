"""Every game in the contract suite: each module here says how one game is played by it (``GAME``), so a new
game joins the suite by adding its own file, with no list to edit."""

from __future__ import annotations

import importlib
import pkgutil

from tests.contract.kit import Game

GAMES: list[Game] = [
    importlib.import_module(f"{__name__}.{module.name}").GAME for module in pkgutil.iter_modules(__path__)
]
