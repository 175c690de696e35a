"""The migrations are one module each, found by name, numbered without gaps or repeats."""

from __future__ import annotations

import pkgutil
from collections.abc import Iterator
from typing import Any

import pytest

from bot.storage import migrations
from bot.storage.dialect import POSTGRESQL, SQLITE


def test_each_migration_is_a_numbered_module_and_every_one_is_applied() -> None:
    names = [m.name for m in pkgutil.iter_modules(migrations.__path__)]
    numbered = [n for n in names if migrations.NAME.fullmatch(n)]
    assert set(names) - set(numbered) == {"triggers"}  # the one module of shared SQL
    assert len(migrations.released()) == len(numbered) == len(migrations.SQLITE_MIGRATIONS)
    assert len(migrations.POSTGRES_MIGRATIONS) == len(numbered)
    for steps in migrations.released():
        assert steps(SQLITE) and steps(POSTGRESQL)


@pytest.mark.parametrize("found", [["m001_a", "m003_c"], ["m001_a", "m002_b", "m002_c"]], ids=["gap", "repeat"])
def test_a_gap_or_a_repeat_is_refused(monkeypatch: pytest.MonkeyPatch, found: list[str]) -> None:
    def modules(path: Any) -> Iterator[pkgutil.ModuleInfo]:
        return iter(pkgutil.ModuleInfo(None, name, False) for name in found)  # type: ignore[arg-type]

    monkeypatch.setattr(pkgutil, "iter_modules", modules)
    with pytest.raises(RuntimeError, match="without gaps or repeats"):
        migrations.released()
