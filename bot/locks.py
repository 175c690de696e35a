"""Locks by key (a session, a member) that take no memory once nobody holds or waits for them.

Red's per-key lock cache is the model: the locks live in a ``WeakValueDictionary``, so a lock exists only while a
coroutine holds it or waits on it (each keeps a reference), and a bot that has served a million sessions keeps
none of their locks.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class KeyedLocks(Generic[K]):
    """An ``asyncio.Lock`` per key, made on first use and released with its last user."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[K, asyncio.Lock] = weakref.WeakValueDictionary()

    def __getitem__(self, key: K) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    def __len__(self) -> int:
        return len(self._locks)

    def held(self) -> Iterator[asyncio.Lock]:
        """The locks that exist now (held, or waited for)."""
        return iter(list(self._locks.values()))
