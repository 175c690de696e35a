"""How a query written once runs on either backend: its text rendered for the dialect, and the connection it runs on.

A query is written in one text with ``:name`` parameters (or ``?`` ones) and PostgreSQL's casts (``:x::jsonb``,
needed where PostgreSQL can't guess a parameter's type). For SQLite the casts are dropped (its columns take any
type, by affinity) and the parameters stay as they are; for PostgreSQL the parameters become ``$1, $2, …``.
What can't be said the same way in both (JSON functions, arrays, a lateral join) is a ``Both(sqlite=…,
postgresql=…)`` pair, side by side where the query is written, as in ``bot.storage.migrations``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

from bot.shards import Shards
from bot.storage.dialect import SQLITE, Dialect
from bot.storage.rows import Row, shard_of

_CAST = re.compile(r"::\w+(?:\[\])?")
_NAME = re.compile(r"(?<!:):([A-Za-z_]\w*)")
"""A ``:name`` parameter (not the second colon of a cast)."""
_MARK = re.compile(r"\?")


class Sql(Protocol):
    """A connection (or a transaction's) as the shared queries use it. A statement takes ``?`` marks with
    positional parameters, or ``:name`` marks with named ones, never both."""

    async def fetch(self, sql: str, /, *args: Any, **named: Any) -> Sequence[Row]:
        """Rows of a query (or of a statement's ``RETURNING``)."""
        ...

    async def execute(self, sql: str, /, *args: Any, **named: Any) -> int:
        """Run a statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run a statement with ``?`` marks once for each row of parameters."""
        ...


@lru_cache(maxsize=1024)
def _sqlite_text(sql: str) -> str:
    return _CAST.sub("", sql)


@lru_cache(maxsize=1024)
def _postgres_text(sql: str, named: bool) -> tuple[str, tuple[str, ...]]:
    """``sql`` with ``$1, $2, …`` for its parameters, and the names they stand for (a name used twice is one)."""
    if not named:  # ``?`` marks, in order (PostgreSQL's ``?`` operator is only ever in a named statement)
        count = iter(range(1, len(sql) + 1))
        return _MARK.sub(lambda _: f"${next(count)}", sql), ()
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in names:
            names.append(match[1])
        return f"${names.index(match[1]) + 1}"

    return _NAME.sub(number, sql), tuple(names)


def bind(dialect: Dialect, sql: str, args: Sequence[Any], named: Mapping[str, Any]) -> tuple[str, Any]:
    """``sql`` as ``dialect`` spells it, and its parameters as that backend's driver takes them: for SQLite
    ``args`` or ``named`` as they are (names a statement doesn't use are ignored), for PostgreSQL a list in
    the order of the numbers."""
    if dialect is SQLITE:
        return _sqlite_text(sql), named or args
    text, names = _postgres_text(sql, bool(named))
    return text, [named[name] for name in names] if named else list(args)


def any_of(dialect: Dialect, column: str, name: str, values: Iterable[int], kind: str) -> tuple[str, dict[str, Any]]:
    """``column`` is one of ``values`` (named ``name``): SQLite's ``IN (:name_0, …)``, PostgreSQL's
    ``= ANY(:name::kind[])`` (one parameter however many values, so one statement to prepare)."""
    if dialect is SQLITE:
        params = {f"{name}_{n}": value for n, value in enumerate(values)}
        return f"{column} IN ({', '.join(f':{key}' for key in params)})", params
    return f"{column} = ANY(:{name}::{kind}[])", {name: list(values)}


def owned(dialect: Dialect, shards: Shards, alias: str = "s") -> tuple[str, dict[str, Any]]:
    """``AND`` the server of the row ``alias`` names (a session, by default) is in one of ``shards`` (nothing when
    they are all of them)."""
    if shards.everything:
        return "", {}
    where, params = any_of(dialect, f"{shard_of(alias)} % :shards", "shard", shards.ids, "int")
    return f" AND {where}", {"shards": shards.count, **params}
