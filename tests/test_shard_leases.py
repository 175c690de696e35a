"""The shard leases' protocol (``bot.leases``) on a real PostgreSQL database, driven beat by beat in this process:
shares, hand-overs, a silent process's shards taken over, a process that can't renew giving its shards up, the
identify turns shared by every process. The same processes end to end: ``tests/test_shards_leased.py``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.leases import IDENTIFY_SPACING_S, TICKS_PER_LEASE, Change, ShardLeases, quotas
from bot.storage import PostgresStore
from bot.storage.leases import Heartbeat, Holder
from tests.databases import postgres_database

LEASE_S = 2.0
"""Short: a silent process's leases run out while the test waits (not shorter: a heartbeat may take a quarter of
it on a busy machine)."""
TICK_S = LEASE_S / TICKS_PER_LEASE
COUNT = 4


def holders(*held: tuple[str, set[int]]) -> list[Holder]:
    return [Holder(owner, COUNT, frozenset(shards)) for owner, shards in held]


def test_quotas_share_out_the_shards_moving_as_few_as_can_be() -> None:
    assert quotas([], COUNT) == {}
    assert quotas(holders(("a", set())), COUNT) == {"a": 4}
    # The odd shard stays with whoever holds the most: nobody moves it.
    assert quotas(holders(("a", {0, 1}), ("b", {2}), ("c", {3})), COUNT) == {"a": 2, "b": 1, "c": 1}
    assert quotas(holders(("a", {0}), ("b", {1, 2}), ("c", {3})), COUNT) == {"a": 1, "b": 2, "c": 1}
    # A process joins: the one holding everything keeps its share, the newcomer gets the rest.
    assert quotas(holders(("a", {0, 1, 2, 3}), ("b", set())), COUNT) == {"a": 2, "b": 2}
    # Equal holders: by name, the same in every process.
    assert quotas(holders(("b", {0}), ("a", {1}), ("c", set())), 5) == {"a": 2, "b": 2, "c": 1}
    assert sum(quotas(holders(*((str(n), set()) for n in range(7))), 20).values()) == 20


class Process:
    """One process's leases and what its bot was told: the shards it runs, each change in order."""

    def __init__(self, store: Any, name: str) -> None:
        self.running: set[int] = set()
        self.changes: list[tuple[str, frozenset[int]]] = []
        self.leases = ShardLeases(store, COUNT, LEASE_S, gain=self.gain, lose=self.lose)
        self.leases.owner = name

    async def gain(self, shards: frozenset[int]) -> None:
        assert not shards & self.running
        self.running |= shards
        self.changes.append((Change.GAINED.value, shards))

    async def lose(self, shards: frozenset[int], why: Change) -> None:
        assert shards <= self.running
        self.running -= shards
        self.changes.append((why.value, shards))


ON_THE_MODULES_LOOP = pytest.mark.asyncio(loop_scope="module")
"""The tests share the module's database, so its loop."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def database() -> AsyncIterator[PostgresStore]:
    """One database for the module's tests (making one takes seconds), emptied by ``store`` for each."""
    async with postgres_database() as url:
        store = PostgresStore(url, pool_size=4)
        await store.open()
        try:
            yield store
        finally:
            await store.close()


@pytest_asyncio.fixture(loop_scope="module")
async def store(database: PostgresStore) -> PostgresStore:
    async with database.pool.acquire() as conn:
        await conn.execute("TRUNCATE shard_processes, shard_leases, identify_buckets")
    return database


async def beat(*processes: Process) -> None:
    for process in processes:
        await process.leases.tick()


def run_by_all(*processes: Process) -> list[int]:
    """Every shard that some process runs, once for each process running it."""
    return sorted(s for p in processes for s in p.running)


async def settle() -> None:
    """Let the processes that beat once be known long enough (a heartbeat's time) to be given shares."""
    await asyncio.sleep(TICK_S)


@ON_THE_MODULES_LOOP
async def test_processes_share_the_shards_and_a_new_one_gets_its_share(store: PostgresStore) -> None:
    a, b = Process(store, "a"), Process(store, "b")
    await beat(a)
    assert a.running == set()  # only known: processes starting now will be counted in before anyone takes shards
    await settle()
    await beat(a)
    assert a.running == {0, 1, 2, 3}
    await beat(b)
    await beat(a)
    assert a.running == {0, 1, 2, 3}  # b is known, but can't take shards yet: a keeps them all meanwhile
    await settle()
    await beat(b)
    assert b.running == set()  # nothing is free: a gives up its extra shards at its next beat (b told it)
    await beat(a)
    assert a.running == {0, 1} and a.changes[-1] == ("released", frozenset({2, 3}))
    await beat(b)
    assert b.running == {2, 3} and run_by_all(a, b) == [0, 1, 2, 3]
    for _ in range(3):  # settled: nothing moves
        await beat(a, b)
    assert len(a.changes) == 2 and len(b.changes) == 1
    assert (await a.leases.check()).ok and (await a.leases.check()).detail["held"] == "0,1"
    await b.leases.close()  # stopping: given up at once, taken at the next beat
    assert b.changes[-1] == ("stopping", frozenset({2, 3}))
    await beat(a)
    assert a.running == {0, 1, 2, 3}


@ON_THE_MODULES_LOOP
async def test_processes_starting_together_take_their_shares_at_once(store: PostgresStore) -> None:
    a, b, c = Process(store, "a"), Process(store, "b"), Process(store, "c")
    await beat(a, b, c)
    await settle()
    await beat(a, b, c)
    assert [len(p.running) for p in (a, b, c)] == [2, 1, 1] and run_by_all(a, b, c) == [0, 1, 2, 3]
    assert all(change == "gained" for p in (a, b, c) for change, _ in p.changes)  # nobody took more than its share


@ON_THE_MODULES_LOOP
async def test_a_silent_process_has_its_shards_taken_over_and_stops_running_them(store: PostgresStore) -> None:
    a, b, c = Process(store, "a"), Process(store, "b"), Process(store, "c")
    await beat(a, b, c)
    await settle()
    await beat(a, b, c)
    assert run_by_all(a, b, c) == [0, 1, 2, 3]
    held_by_c = set(c.running)
    # c falls silent (a frozen or killed process): its leases run out, a and b take its shards.
    await asyncio.sleep(LEASE_S * 1.2)
    await beat(a, b)
    await beat(a, b)
    assert sorted(a.running | b.running) == [0, 1, 2, 3] and not a.running & b.running
    assert held_by_c <= a.running | b.running
    # c wakes: its heartbeat finds its leases gone; it stops running those shards before anything else.
    await beat(c)
    assert c.running == set() and c.changes[-1] == ("lost", frozenset(held_by_c))
    await settle()  # known anew, it gets a share again
    await beat(c, a, b, c)
    assert run_by_all(a, b, c) == [0, 1, 2, 3] and all(p.running for p in (a, b, c))


class Unreachable:
    """A database that stopped answering."""

    async def heartbeat(self, *_: Any) -> Heartbeat:
        raise OSError("connection refused")


@ON_THE_MODULES_LOOP
async def test_a_process_that_cannot_renew_gives_its_shards_up_before_its_leases_run_out(
    store: PostgresStore,
) -> None:
    a = Process(store, "a")
    await beat(a)
    await settle()
    await beat(a)
    assert a.running == {0, 1, 2, 3}
    a.leases.store = Unreachable()  # type: ignore[assignment]
    await beat(a)  # one missed beat: the leases still hold for most of a period
    assert a.running == {0, 1, 2, 3} and (await a.leases.check()).ok
    await asyncio.sleep(LEASE_S * 0.8)
    await beat(a)
    assert a.running == set() and a.changes[-1] == ("lost", frozenset({0, 1, 2, 3}))
    assert not (await a.leases.check()).ok


@ON_THE_MODULES_LOOP
async def test_identify_turns_are_taken_in_the_database_by_bucket(store: PostgresStore) -> None:
    """Two processes asking for the same bucket: the first goes now, the second waits a turn; another bucket is
    free. The turns are the database's, so processes on several machines share them."""
    assert await store.identify_turn(0, IDENTIFY_SPACING_S) == 0.0
    wait = await store.identify_turn(0, IDENTIFY_SPACING_S)
    assert IDENTIFY_SPACING_S - 1 < wait <= IDENTIFY_SPACING_S
    assert await store.identify_turn(1, IDENTIFY_SPACING_S) == 0.0
    async with store.pool.acquire() as conn:
        await conn.execute("UPDATE identify_buckets SET next_at = next_at - $1", IDENTIFY_SPACING_S)
    assert await store.identify_turn(0, IDENTIFY_SPACING_S) == 0.0  # its turn came
