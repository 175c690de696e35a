"""Every shipped data file is found through the installed package and validated by its pydantic model."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from rules.crowns import data as crowns
from rules.vices import data as vices
from rules.viciousness import data as viciousness

LOADERS: dict[str, Callable[[], Any]] = {
    "crowns/dice.yaml": crowns.load,
    "vices/sins.yaml": vices.load_sins,
    "vices/dice.yaml": vices.load_dice,
    **{f"viciousness/{name}": (lambda name=name: viciousness.load(name)) for name in viciousness.FILES},
}


def shipped() -> list[str]:
    """The YAML files of the ``data`` package, as ``game/file.yaml``."""
    root = resources.files("data")
    return sorted(
        f"{game.name}/{f.name}"
        for game in root.iterdir()
        if game.is_dir()
        for f in game.iterdir()
        if f.name.endswith(".yaml")
    )


def test_every_data_file_has_a_model() -> None:
    assert shipped() == sorted(LOADERS)


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_each_data_file_validates(name: str) -> None:
    assert LOADERS[name]() is not None
