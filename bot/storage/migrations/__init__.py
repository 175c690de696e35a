"""The numbered schema migrations, one module each (``m001_guild_settings.py`` …), for every backend.

A migration is a module ``mNNN_<what>.py`` whose ``steps(dialect)`` gives its statements, applied in one
transaction; its number is its version. SQLite keeps the version in ``user_version``, PostgreSQL in the
``schema_version`` table. Never edit a released migration: add the next one (a new file; it is found by its
name, and the numbers must run 1, 2, 3… without a gap or a repeat). How the backends' SQL differs is
``bot.storage.dialect``'s business.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable

from bot.storage.dialect import POSTGRESQL, SQLITE, Both, Dialect, Step

NAME = re.compile(r"m(\d{3})_\w+")


def released() -> list[Callable[[Dialect], tuple[Step | Both, ...]]]:
    """Each migration's ``steps``, in order of their numbers (which must be 1, 2, 3…)."""
    found = sorted(
        (int(match.group(1)), module.name)
        for module in pkgutil.iter_modules(__path__)
        if (match := NAME.fullmatch(module.name))
    )
    numbers = [number for number, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3… without gaps or repeats: {numbers}")
    return [importlib.import_module(f"{__name__}.{name}").steps for _, name in found]


def migrations(d: Dialect) -> tuple[tuple[Step, ...], ...]:
    """Every migration, in ``d``'s SQL."""
    rendered = ((s.for_dialect(d) if isinstance(s, Both) else s for s in steps(d)) for steps in released())
    # An empty statement is a step one backend needs and the other does not (a trigger's function).
    return tuple(tuple(s for s in step if s) for step in rendered)


SQLITE_MIGRATIONS = migrations(SQLITE)
POSTGRES_MIGRATIONS = migrations(POSTGRESQL)
