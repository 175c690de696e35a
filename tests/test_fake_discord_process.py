"""``python -m bot`` as a real process against the local Discord: answering, and failing with one clear line."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from localdiscord import LocalDiscord
from tests.bot_process import run_bot_process, spawn_bot_process

SECRET = "wrong-token-S3CRET-do-not-print"


def assert_one_clear_line(output: str, *needles: str) -> None:
    """No traceback, no secret, and exactly one ERROR line saying what went wrong."""
    assert "Traceback" not in output, output
    assert SECRET not in output and "fake-token" not in output, output
    errors = [line for line in output.splitlines() if "ERROR" in line or "error" in line.lower()]
    assert len(errors) == 1, output
    assert all(n in errors[0] for n in needles), output


async def test_subprocess_bot_answers_ping(fake: LocalDiscord, tmp_path: Path) -> None:
    proc = await spawn_bot_process(fake, tmp_path / "bot.sqlite3")
    try:
        res = await fake.slash(fake.channels[0], fake.members[1], "ping")
        assert (await res.message()).content == "Pong!"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()


async def test_rejected_token_ends_with_one_clear_line(fake: LocalDiscord, tmp_path: Path) -> None:
    result = await run_bot_process(fake, tmp_path / "bot.sqlite3", {"DISCORD_TOKEN": SECRET})
    assert result.returncode != 0
    assert_one_clear_line(result.stdout, "token")
    assert fake.rejections == ["401 GET /api/v10/users/@me"]


async def test_missing_token_ends_with_one_clear_line(fake: LocalDiscord, tmp_path: Path) -> None:
    result = await run_bot_process(fake, tmp_path / "bot.sqlite3", {"DISCORD_TOKEN": None})
    assert result.returncode != 0
    assert_one_clear_line(result.stdout, "DISCORD_TOKEN")
    assert fake.requests == []


async def test_disallowed_intents_close_ends_with_one_clear_line(fake: LocalDiscord, tmp_path: Path) -> None:
    fake.close_on_identify(4014)
    result = await run_bot_process(fake, tmp_path / "bot.sqlite3")
    assert result.returncode != 0
    assert_one_clear_line(result.stdout, "4014")


@pytest.mark.fake(guilds=2)
async def test_sharding_required_close_ends_with_one_clear_line(fake: LocalDiscord, tmp_path: Path) -> None:
    """Discord refuses one session for more guilds than a shard may hold (4011): the bot says to set SHARD_COUNT."""
    fake.session_starts.guilds_per_shard = 1
    result = await run_bot_process(fake, tmp_path / "bot.sqlite3")
    assert result.returncode == 2
    assert_one_clear_line(result.stdout, "4011", "SHARD_COUNT")


async def test_sigterm_shuts_down_cleanly_and_closes_the_database(fake: LocalDiscord, tmp_path: Path) -> None:
    from tests.bot_process import output_path, process_exit

    db = tmp_path / "bot.sqlite3"
    proc = await spawn_bot_process(fake, db)
    try:
        res = await fake.slash(fake.channels[0], fake.members[1], "ping")
        await res.message()
        exited = process_exit(proc)
        os.kill(proc.pid, signal.SIGTERM)
        assert await exited == 0
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    output = output_path(db).read_text()
    assert "Stopped cleanly." in output and "Traceback" not in output, output
    # SQLite removes the write-ahead log when the last connection closes cleanly.
    assert not db.with_name(db.name + "-wal").exists()
