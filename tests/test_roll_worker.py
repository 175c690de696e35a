"""Rolling off the event loop: a thread pool with scripted dice, and the real process pool."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from bot.roll_worker import RollWorker
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
