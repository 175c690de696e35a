"""Rolling off the event loop: a thread pool with scripted or gated dice, the real process pool, a burst."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

import pytest

from bot import roll_worker
from bot.roll_worker import RollerBusy, RollWorker
from localdiscord import LocalDiscord
from rules.dice import ScriptedDice
from rules.roll import DEFAULT_LIMITS, RollError


async def test_rolls_with_the_given_source_in_the_given_executor() -> None:
    with ThreadPoolExecutor(1) as pool:
        worker = RollWorker(ScriptedDice([6, 5, 2, 4]), executor=pool)
        result = await worker.roll("4d6kh3")
        worker.close()  # a pool passed in stays open: the caller owns it
        assert pool.submit(int).result() == 0
    assert result.sets[0].total == 15


async def test_bad_input_raises_our_error() -> None:
    with ThreadPoolExecutor(1) as pool, pytest.raises(RollError, match="can't read"):
        await RollWorker(executor=pool).roll("banana")


async def test_time_cap_reaches_the_caller() -> None:
    with ThreadPoolExecutor(1) as pool:
        worker = RollWorker(limits=replace(DEFAULT_LIMITS, time_limit_s=-1.0), executor=pool)
        with pytest.raises(RollError, match="too long"):
            await worker.roll("1000d6")


async def test_process_pool_round_trip() -> None:
    worker = RollWorker()
    worker.warm_up()
    try:
        result = await worker.roll("6x 4d6kh3 # Stats")
        with pytest.raises(RollError, match="1,001 dice"):
            await worker.roll("1001d6")
    finally:
        worker.close()
    assert len(result.sets) == 6 and result.label == "Stats"
    assert all(3 <= s.total <= 18 for s in result.sets)


def test_light_rolls_are_small_and_bounded() -> None:
    from rules.roll.engine import is_light
    from rules.roll.notation import parse_request

    def light(text: str) -> bool:
        return is_light(parse_request(text))

    assert light("4d6kh3") and light("6x 4d6kh3 # stats") and light("d20 adv")
    assert not light("101d6") and not light("20x 6d6")  # too many dice
    assert not light("3d6e6") and not light("4d6rr<3")  # open-ended
    assert not light("banana") and not light("1d6+")  # the worker explains errors


# -- a burst of big rolls: a bounded line, and a clock that only counts rolling ------------------------

BIG = "200d6"  # over the light limit, so it goes to the executor


class GatedDice:
    """Dice showing 1 whose first die of every roll waits until the test opens the gate."""

    def __init__(self) -> None:
        self.gate = threading.Event()

    def roll(self, die_id: str, sides: int) -> int:
        if die_id == "1":
            self.gate.wait(timeout=10)  # a failing test must not leave a thread hanging
        return 1


async def settle(condition: Callable[[], bool]) -> None:
    """Let the tasks run until ``condition`` holds (a few loop turns; no clock involved)."""
    for _ in range(100):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the tasks never reached the expected state")


async def test_a_full_line_is_refused_at_once_and_the_rest_still_roll() -> None:
    dice = GatedDice()
    with ThreadPoolExecutor(2) as pool:
        worker = RollWorker(dice, executor=pool, workers=2, max_waiting=3)
        rolls = [asyncio.create_task(worker.roll(BIG)) for _ in range(5)]  # 2 rolling, 3 in line
        await settle(lambda: worker.waiting == 3)
        with pytest.raises(RollerBusy, match=r"^I'm busy rolling for others; try again in a moment\.$"):
            await asyncio.wait_for(worker.roll(BIG), 5)  # answered while the gate is still closed
        dice.gate.set()
        results = await asyncio.gather(*rolls)
    assert [r.sets[0].total for r in results] == [200] * 5


async def test_time_spent_in_line_does_not_count_against_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roll_worker, "_HANDOFF_GRACE_S", 0.05)
    cap = 0.2
    dice = GatedDice()
    with ThreadPoolExecutor(1) as pool:
        worker = RollWorker(dice, replace(DEFAULT_LIMITS, time_limit_s=cap), executor=pool, workers=1)
        slow = asyncio.create_task(worker.roll(BIG))  # holds the only worker until the gate opens
        queued = asyncio.create_task(worker.roll(BIG))
        await settle(lambda: worker.waiting == 1)
        # Well past the cap and the grace: the queued roll would have timed out had its clock been running.
        await asyncio.sleep(3 * cap)
        assert not queued.done()
        dice.gate.set()
        with pytest.raises(RollError, match="too long"):
            await slow  # it was slow while rolling: that does count
        assert (await queued).sets[0].total == 200


async def test_a_pool_broken_before_the_roll_is_a_hiccup_not_a_crash() -> None:
    class Broken(ThreadPoolExecutor):
        def submit(self, *args: object, **kwargs: object) -> Future[object]:
            raise BrokenProcessPool("a worker died")

    with Broken(1) as pool:
        worker = RollWorker(executor=pool, workers=1)
        for _ in range(2):  # the slot is given back each time
            with pytest.raises(RollError, match="hiccup"):
                await worker.roll(BIG)


async def test_a_burst_of_big_rolls_through_discord(fake: LocalDiscord, bot: object) -> None:
    channel = fake.channels[0]
    burst = [fake.slash(channel, fake.members[1], "roll", options={"expression": "1000d6"}) for _ in range(100)]
    messages = [await res.message(timeout=30) for res in await asyncio.gather(*burst)]
    rolled = [m for m in messages if "rolled" in m.content]
    busy = [m for m in messages if m.content == f"⏳ {roll_worker.BUSY}"]
    assert len(rolled) + len(busy) == 100, {m.content[:80] for m in messages}
    assert rolled and all(m.ephemeral for m in busy)
