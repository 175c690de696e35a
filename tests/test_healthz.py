"""``/healthz``, answered by the bot's own event loop: healthy only while the loop turns, the Gateway is connected (or
resuming within its grace) and the database answers. Each failure is provoked for real and must show within its
bound, then clear: the loop blocked, the Gateway held down, the database gone (both backends); and the container's
probe, ``python -m bot.healthz``, against a real ``python -m bot`` process that is frozen and thawed.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import asyncpg
import discord
from discord.ext import commands

from bot.healthz import probe
from bot.liveness import GatewayWatch
from localdiscord.server import LocalDiscord
from tests.bot_process import REPO, output_path, spawn_bot_process
from tests.conftest import MakeBot
from tests.databases import Database, admin_url

PROBE_TIMEOUT_S = 0.5
POLL_S = 0.05
FREEZE_S = 2.5
GRACE_S = 0.5
WITHIN_S = 10.0
"""How long a test waits for a change it caused to show (generous: a busy machine)."""


def healthz(port: int, timeout: float = 5.0) -> tuple[int, dict[str, Any]]:
    """``GET /healthz``: the status and the JSON body."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


async def until(port: int, *, healthy: bool, failing: str | None = None) -> dict[str, Any]:
    """Ask ``/healthz`` until it is ``healthy`` (or not, with the check ``failing`` among those failing), as Docker
    asks it, over and over; the body that said so."""
    async with asyncio.timeout(WITHIN_S):
        while True:
            status, body = await asyncio.to_thread(healthz, port)
            if status == (200 if healthy else 503) and (failing is None or not body["checks"][failing]["ok"]):
                return body
            await asyncio.sleep(POLL_S)


def probe_command(port: int | str) -> subprocess.CompletedProcess[str]:
    """``python -m bot.healthz`` as Docker runs it: a new process, the container's environment."""
    env = {k: v for k, v in os.environ.items() if k != "METRICS_PORT"} | {"PYTHONPATH": str(REPO)}
    env["METRICS_PORT"] = str(port)
    return subprocess.run(
        [sys.executable, "-m", "bot.healthz"], env=env, capture_output=True, text=True, timeout=30, check=False
    )


async def test_a_healthy_bot_says_so_check_by_check(make_bot: MakeBot) -> None:
    bot = await make_bot(metrics_port=0)
    status, body = await asyncio.to_thread(healthz, bot.status_server.port)
    assert status == 200 and body["healthy"] is True
    checks = body["checks"]
    assert set(checks) == {"event_loop", "gateway", "database"}
    assert all(check["ok"] for check in checks.values())
    assert checks["event_loop"]["lag_s"] < checks["event_loop"]["limit_s"]
    assert checks["gateway"]["down_s"] == 0 and checks["gateway"]["down_shards"] == 0
    assert checks["database"]["took_s"] < 5
    assert await asyncio.to_thread(probe, bot.status_server.port) is None


class Poller:
    """A thread that probes ``/healthz`` as Docker would, while the test blocks the event loop: each result with
    the moment it came back."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.results: list[tuple[float, str | None]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="healthz-poller", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            problem = probe(self.port, timeout=PROBE_TIMEOUT_S)
            self.results.append((time.monotonic(), problem))
            self._stop.wait(POLL_S)

    def __enter__(self) -> Poller:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    async def healthy_after(self, moment: float) -> float:
        """Wait for a healthy answer that came after ``moment``; when it came."""
        async with asyncio.timeout(WITHIN_S):
            while True:
                healthy = [at for at, problem in self.results if at > moment and problem is None]
                if healthy:
                    return healthy[0]
                await asyncio.sleep(POLL_S)


async def test_a_frozen_event_loop_fails_the_probe_within_its_timeout_then_recovers(make_bot: MakeBot) -> None:
    bot = await make_bot(metrics_port=0)
    with Poller(bot.status_server.port) as poller:
        await poller.healthy_after(time.monotonic())
        frozen = time.monotonic()
        time.sleep(FREEZE_S)  # noqa: ASYNC251 -- the point: the bot's event loop (this one) stops turning
        thawed = time.monotonic()
        recovered = await poller.healthy_after(thawed)
    during = [(at, problem) for at, problem in poller.results if frozen < at <= thawed]
    assert during and all(problem is not None and "did not answer within" in problem for _, problem in during)
    # The first probe to fail did so within its own timeout (and a poll) of the freeze.
    assert during[0][0] - frozen <= PROBE_TIMEOUT_S + POLL_S + 0.5
    assert recovered - thawed < 5


async def test_a_gateway_down_past_its_grace_is_unhealthy_until_it_resumes(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await make_bot(metrics_port=0)
    port = bot.status_server.port
    bot.gateway.grace = GRACE_S
    fake.hold_gateway()  # the bot connects again at once, but no RESUME is answered: an outage
    await fake.drop_gateway()
    dropped = time.monotonic()
    body = await until(port, healthy=False, failing="gateway")
    assert time.monotonic() - dropped >= GRACE_S
    assert body["checks"]["gateway"]["down_s"] >= GRACE_S and body["checks"]["gateway"]["down_shards"] == 1
    assert body["checks"]["event_loop"]["ok"] and body["checks"]["database"]["ok"]
    told = await asyncio.to_thread(probe_command, port)
    assert told.returncode == 1 and re.match(r"Unhealthy: failing: gateway \(down_s [\d.]+, grace_s 0.5", told.stderr)
    fake.release_gateway()
    await fake.wait_for_resume()
    await until(port, healthy=True)
    assert (await asyncio.to_thread(probe_command, port)).returncode == 0


async def test_each_shard_is_watched_on_its_own() -> None:
    bot = commands.AutoShardedBot(command_prefix="!", intents=discord.Intents.none(), shard_count=3, shard_ids=[0, 2])
    async with bot:
        watch = GatewayWatch(bot, (0, 2), grace=0)

        async def down_shards(*events: tuple[str, int]) -> int:
            for event in events:
                bot.dispatch(*event)
            await asyncio.sleep(0)  # the listeners run as tasks of their own, each at once
            return int((await watch.check()).detail["down_shards"] or 0)

        assert await down_shards() == 2  # none connected yet
        assert await down_shards(("shard_connect", 0), ("shard_connect", 2)) == 0
        assert (await watch.check()).ok
        assert await down_shards(("shard_disconnect", 2), ("shard_disconnect", 2)) == 1
        assert not (await watch.check()).ok and watch.down_for() > 0
        bot.dispatch("connect")  # what a sharded bot also says, for any shard: not this watch's concern
        assert await down_shards(("shard_resumed", 2)) == 0 and (await watch.check()).ok


async def stop_answering(database: Database) -> None:
    """The database goes away: the SQLite file moved off its path (a volume gone); PostgreSQL refusing every
    connection, the bot's cut."""
    if database.url is None:
        database.path.rename(database.path.with_name("aside.sqlite3"))
        return
    name = database.url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(admin_url())
    try:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name)
    finally:
        await admin.close()


async def answer_again(database: Database) -> None:
    """Undo ``stop_answering``."""
    if database.url is None:
        database.path.with_name("aside.sqlite3").rename(database.path)
        return
    name = database.url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(admin_url())
    try:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    finally:
        await admin.close()


async def test_a_database_that_stops_answering_is_unhealthy_until_it_answers(
    database: Database, make_bot: MakeBot
) -> None:
    bot = await make_bot(database.path, database_url=database.url, metrics_port=0)
    port = bot.status_server.port
    await stop_answering(database)
    body = await until(port, healthy=False, failing="database")
    assert body["checks"]["event_loop"]["ok"] and body["checks"]["gateway"]["ok"]
    if database.url is None:
        assert "no longer there" in body["checks"]["database"]["error"]
    await answer_again(database)
    await until(port, healthy=True)


def served_port(output: Path) -> int:
    """The port a bot process says it serves ``/healthz`` on (it was given port 0)."""
    found = re.search(r"Metrics on http://[\d.]+:(\d+)/metrics", output.read_text())
    assert found, output.read_text()
    return int(found[1])


async def test_the_container_probe_sees_a_stopped_bot_process(fake: LocalDiscord, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    proc = await spawn_bot_process(fake, db, {"METRICS_PORT": "0"})
    try:
        port = served_port(output_path(db))
        healthy = await asyncio.to_thread(probe_command, port)
        assert (healthy.returncode, healthy.stdout, healthy.stderr) == (0, "", "")
        proc.send_signal(signal.SIGSTOP)  # frozen whole: nothing answers
        try:
            problem = await asyncio.to_thread(probe, port, timeout=PROBE_TIMEOUT_S)
        finally:
            proc.send_signal(signal.SIGCONT)
        assert problem is not None and "did not answer within 0.5 s" in problem
        assert (await asyncio.to_thread(probe_command, port)).returncode == 0
    finally:
        proc.kill()
        proc.wait()
    gone = await asyncio.to_thread(probe_command, port)
    assert gone.returncode == 1 and gone.stderr.startswith(f"Unhealthy: nothing answers at http://127.0.0.1:{port}")
    unset = await asyncio.to_thread(probe_command, "")
    assert unset.stderr == "Unhealthy: METRICS_PORT is not set to a port: the bot serves /healthz there\n"
