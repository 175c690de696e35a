"""Shared fixtures: a fresh local Discord per test, and bots connected to it.

- ``fake``: a started LocalDiscord; at teardown it asserts ``fake.failures`` is empty. Options for its constructor
  come from ``@pytest.mark.fake(channels=…, response_deadline=…)``.
- ``make_bot``: ``await make_bot(db_path=None, extensions=None, database_url=None, metrics_port=None, **options)``
  → a ready TabletopBot; closed at teardown. The default database is one file per test, so a second call after
  ``await bot.close()`` is a restart; ``database_url`` puts it on PostgreSQL instead; ``metrics_port=0`` serves
  ``/metrics`` and ``/healthz`` on a free port (``bot.status_server.port``).
- ``bot``: one such bot with the default extensions.
- ``database``: an empty database, parametrised over both backends (SQLite file, PostgreSQL database).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import TabletopBot
from bot.endpoint import use_api_base
from bot.settings import Settings
from localdiscord import LocalDiscord
from tests import databases
from tests.databases import BACKENDS, Database

BOT_READY_TIMEOUT = 15.0

MakeBot = Callable[..., Awaitable[TabletopBot]]


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``fake`` marker."""
    config.addinivalue_line("markers", "fake(**options): keyword arguments for the LocalDiscord of this test")


@pytest.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[LocalDiscord]:
    """A started local Discord; the test fails if anything Discord would have rejected happened."""
    marker = request.node.get_closest_marker("fake")
    server = LocalDiscord(**(marker.kwargs if marker else {}))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    assert not server.failures, "fake Discord recorded problems:\n" + "\n".join(server.failures)


@pytest.fixture
async def make_bot(fake: LocalDiscord, tmp_path: Path) -> AsyncIterator[MakeBot]:
    """Factory for ready bots pointed at ``fake``; every bot it made is closed at teardown."""
    running: list[tuple[TabletopBot, asyncio.Task[None]]] = []

    async def factory(
        db_path: Path | str | None = None,
        extensions: tuple[str, ...] | list[str] | None = None,
        database_url: str | None = None,
        metrics_port: int | None = None,
        **options: Any,
    ) -> TabletopBot:
        use_api_base(fake.base_url)
        settings = Settings(
            discord_token=fake.token,
            database_path=Path(db_path) if db_path else tmp_path / "bot.sqlite3",
            database_url=database_url,
            skip_sync=False,
            dev_guild_id=None,
            discord_api_base=fake.base_url,
            metrics_port=metrics_port,
            _env_file=None,  # a developer's .env must not leak into tests
        )
        if extensions is not None:
            options["extensions"] = tuple(extensions)
        options.setdefault("guild_ready_timeout", 0.1)
        bot = TabletopBot(settings, **options)
        # login() runs setup_hook (database, cogs, command sync); errors surface here, not in a background task.
        await bot.login(fake.token)
        task = asyncio.create_task(bot.connect(), name="bot.connect")
        running.append((bot, task))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=BOT_READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()  # re-raises why the bot stopped
            raise TimeoutError("the bot did not become ready")
        return bot

    try:
        yield factory
    finally:
        # A bot whose connection died on its own (not closed by the test) is a test failure.
        crashed = [task.exception() for _, task in running if task.done() and not task.cancelled()]
        for bot, task in running:
            await bot.close()
            with contextlib.suppress(Exception):
                await task
        errors = [exc for exc in crashed if exc is not None]
        if errors:
            raise errors[0]


@pytest.fixture
async def bot(make_bot: MakeBot) -> TabletopBot:
    """A ready bot with the default extensions."""
    return await make_bot()


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """An empty database, once with SQLite and once with PostgreSQL (a database of its own on the local server)."""
    async with databases.database(request.param, tmp_path) as db:
        yield db
