"""``python -m bot.backup`` and ``python -m bot.restore`` on SQLite, run as an operator would (new processes, the
bot's environment): what they write, what they refuse, and the one line each ends with.

Games going on through a backup and a restore, with the bot running and the local Discord showing later boards:
``tests/test_backup_play.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.models import Actor, Scope
from bot.registry import GameKind, Registry
from bot.service import Service
from bot.storage import PostgresStore, SqliteStore, StorageError
from bot.storage import snapshot as snapshot_module
from bot.storage.filelock import DatabaseLock
from bot.storage.migrations import SQLITE_MIGRATIONS
from bot.storage.snapshot import SnapshotError, copy_database
from rules.dice import ScriptedDice
from tests.bot_process import REPO, SETTINGS_PREFIXES
from tests.core.clock import FakeClock
from tests.databases import postgres_database
from tests.test_migrate import play_races, races
from tests.testgame.engine import RaceEngine

RACE = "cogs.meta,cogs.game,tests.testgame.cog"


def tool(module: str, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m module args`` in a new process with the bot's settings ``env`` (and the race game loaded)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_PREFIXES)}
    clean |= {"PYTHONPATH": str(REPO), "EXTENSIONS": RACE} | env
    command = [sys.executable, "-m", module, *args]
    return subprocess.run(command, cwd=cwd, env=clean, capture_output=True, text=True, timeout=60)


async def run_tool(module: str, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``tool`` without holding up the event loop (a store of the test may be open meanwhile)."""
    return await asyncio.to_thread(tool, module, *args, cwd=cwd, **env)


def refusal(result: subprocess.CompletedProcess[str]) -> str:
    """The one line a failed run ended with; fails on a traceback or a zero exit."""
    assert result.returncode != 0, result
    assert "Traceback" not in result.stderr and result.stdout == "", result
    return result.stderr.splitlines()[-1]


def stored(path: Path) -> dict[int, tuple[int, str]]:
    """Every session of the file: its version and state."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return {r[0]: (r[1], r[2]) for r in conn.execute("SELECT id, version, state FROM sessions")}


def names(folder: Path, pattern: str = "*") -> list[str]:
    """The names in ``folder`` matching ``pattern``, sorted."""
    return sorted(p.name for p in folder.glob(pattern))


async def play_on(store: SqliteStore) -> None:
    """One more move in every race of ``store`` (Bob takes the point Alice's 1 left him)."""
    registry = Registry()
    registry.add(GameKind(RaceEngine()))
    service = Service(store, registry, FakeClock(), ScriptedDice([]))
    for session_id in stored(store.path):
        await service.act(session_id, Actor(2, "Bob"), {"type": "steal", "take": True})


async def test_a_backup_is_one_checked_file_holding_every_commit(tmp_path: Path) -> None:
    """Made while the store is open with its last commits still in the WAL: the copy has them, alone in one file."""
    db = tmp_path / "bot.sqlite3"
    store = await races(db, 3)
    try:
        assert (tmp_path / "bot.sqlite3-wal").stat().st_size > 0  # commits not yet in the database file
        made = await run_tool("bot.backup", "copy.sqlite3", cwd=tmp_path, DATABASE_PATH=str(db))
        assert made.returncode == 0 and made.stderr == "", made
        assert made.stdout.startswith(f"Backed up {db} to copy.sqlite3: ")
        assert "3 sessions (3 live); integrity ok" in made.stdout and len(made.stdout.splitlines()) == 1
        copy = tmp_path / "copy.sqlite3"
        assert stored(copy) == stored(db)
        assert names(tmp_path, "copy*") == ["copy.sqlite3"]
        with contextlib.closing(sqlite3.connect(copy)) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        dated = await run_tool("bot.backup", "backups/", cwd=tmp_path, DATABASE_PATH=str(db))
        assert dated.returncode == 0, dated
        (name,) = [p.name for p in (tmp_path / "backups").iterdir()]
        assert name.startswith("bot-") and name.endswith(".sqlite3") and f"backups/{name}" in dated.stdout
    finally:
        await store.close()


async def test_a_failed_copy_leaves_the_old_backup_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "bot.sqlite3"
    await (await races(db, 1)).close()
    target = tmp_path / "backup.sqlite3"
    target.write_bytes(b"the backup of yesterday")
    before = names(tmp_path)

    def damaged(conn: sqlite3.Connection, path: Path) -> None:
        raise SnapshotError("damaged (page 3)")

    monkeypatch.setattr(snapshot_module, "check", damaged)
    with pytest.raises(SnapshotError):
        copy_database(db, target)
    assert target.read_bytes() == b"the backup of yesterday"
    assert names(tmp_path) == before


def test_backup_failures_are_one_line(tmp_path: Path) -> None:
    missing = tool("bot.backup", "out.sqlite3", cwd=tmp_path, DATABASE_PATH="gone.sqlite3")
    assert refusal(missing) == "Backup failed: DATABASE_PATH gone.sqlite3: no such file."
    assert missing.returncode == 2
    db = tmp_path / "bot.sqlite3"
    sqlite3.connect(db).close()
    nowhere = tool("bot.backup", "no/such/folder/out.sqlite3", cwd=tmp_path, DATABASE_PATH=str(db))
    assert refusal(nowhere) == "Backup failed: can't write no/such/folder/out.sqlite3 (No such file or directory)."
    url = "postgresql://bot:s3cret@db.example:5432/bot"
    postgres = tool("bot.backup", "bot.dump", cwd=tmp_path, DATABASE_URL=url)
    line = refusal(postgres)
    assert postgres.returncode == 2 and "s3cret" not in postgres.stderr
    assert line.endswith(
        "pg_dump --format=custom --no-owner --no-privileges --file=bot.dump postgresql://bot@db.example:5432/bot"
    ), line
    assert not (tmp_path / "out.sqlite3").exists() and not (tmp_path / "bot.dump").exists()


async def test_a_checked_backup_is_put_in_place_and_the_old_database_kept(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    store = await races(db, 3)
    await run_tool("bot.backup", "backup.sqlite3", cwd=tmp_path, DATABASE_PATH=str(db))
    backed_up = stored(tmp_path / "backup.sqlite3")
    await play_on(store)
    await store.close()
    later = stored(db)
    assert later != backed_up

    checked = await run_tool("bot.restore", "--check-only", "backup.sqlite3", cwd=tmp_path, DATABASE_PATH=str(db))
    assert checked.returncode == 0, checked
    assert "3 live sessions checked, 6 log entries replayed, no problems. Check only: nothing was changed." in (
        checked.stdout
    )
    assert stored(db) == later

    restored = await run_tool("bot.restore", "backup.sqlite3", cwd=tmp_path, DATABASE_PATH=str(db))
    assert restored.returncode == 0 and restored.stderr == "", restored
    (aside_name,) = names(tmp_path, "bot.sqlite3.before-restore-*")
    aside = tmp_path / aside_name
    assert f"Restored: it is now {db} (the old one is kept as {aside}); 3 live sessions" in restored.stdout
    assert stored(db) == backed_up and stored(aside) == later
    assert not names(tmp_path, ".bot.sqlite3.restore-*")  # its workspace is gone
    store = SqliteStore(db)
    await store.open()
    try:
        for session_id in backed_up:
            session = await store.session(session_id)
            assert session is not None and session.restored_at is not None and session.drawn == -1
            assert all(board.shown_version == -1 for board in session.boards.values())
            assert session.deadlines and all(d.at is None and d.remind_at is None for d in session.deadlines)
            assert session.id in await store.attention()  # redrawn at startup
    finally:
        await store.close()


async def test_no_restore_while_a_bot_uses_the_database_and_no_bot_while_a_restore_runs(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    store = await races(db, 1)
    await run_tool("bot.backup", "backup.sqlite3", cwd=tmp_path, DATABASE_PATH=str(db))
    try:
        refused = await run_tool("bot.restore", "backup.sqlite3", cwd=tmp_path, DATABASE_PATH=str(db))
        assert refusal(refused) == (
            f"Refused: a bot (or another tool) is using DATABASE_PATH {db}; stop it first; nothing was changed."
        )
        assert not names(tmp_path, "*before-restore*")
    finally:
        await store.close()
    lock = DatabaseLock(db)
    assert lock.take_alone()  # as the restore holds it while it swaps the files
    try:
        with pytest.raises(StorageError, match=r"python -m bot\.restore is replacing it; start again once it is done"):
            await SqliteStore(db).open()
    finally:
        lock.release()


async def test_every_session_that_does_not_replay_is_named_and_the_backup_refused(tmp_path: Path) -> None:
    db = tmp_path / "backup.sqlite3"
    store = await races(db, 3)
    await store.conn.execute("UPDATE sessions SET state = json_set(state, '$.target', 99) WHERE id IN (1, 3)")
    await store.close()
    live = tmp_path / "bot.sqlite3"
    refused = await run_tool("bot.restore", "backup.sqlite3", cwd=tmp_path, DATABASE_PATH=str(live))
    assert refused.stderr.splitlines()[:2] == [
        "session 1: its log replays to another state than the one stored",
        "session 3: its log replays to another state than the one stored",
    ], refused
    assert refusal(refused) == (
        "Refused the backup backup.sqlite3: 2 of 3 live sessions don't replay to their stored state (above); "
        "nothing was changed."
    )
    assert not live.exists()


async def test_a_backup_from_a_newer_bot_or_not_a_database_is_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    await (await races(newer, 1)).close()
    with contextlib.closing(sqlite3.connect(newer)) as conn:
        conn.execute(f"PRAGMA user_version = {len(SQLITE_MIGRATIONS) + 1}")
    result = await run_tool("bot.restore", "newer.sqlite3", cwd=tmp_path, DATABASE_PATH="bot.sqlite3")
    assert refusal(result) == (
        f"Refused the backup newer.sqlite3: it was made by a newer version of the bot (schema "
        f"{len(SQLITE_MIGRATIONS) + 1}, this version knows {len(SQLITE_MIGRATIONS)}); upgrade the bot first; "
        "nothing was changed."
    )
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all" * 100)
    junk = await run_tool("bot.restore", "junk.sqlite3", cwd=tmp_path, DATABASE_PATH="bot.sqlite3")
    assert refusal(junk) == "Refused the backup junk.sqlite3: file is not a database; nothing was changed."
    missing = await run_tool("bot.restore", "gone.sqlite3", cwd=tmp_path, DATABASE_PATH="bot.sqlite3")
    assert refusal(missing) == "Refused the backup gone.sqlite3: no such file; nothing was changed."
    assert [name for name in names(tmp_path) if not name.startswith("newer")] == ["junk.sqlite3"]


async def test_an_older_backup_is_migrated_then_checked(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite3"
    store = await races(old, 2)
    await store.fold_luck()
    await store.close()
    with contextlib.closing(sqlite3.connect(old)) as conn:  # as schema 12 left it: no luck journal, no languages
        conn.execute("DROP TABLE luck_journal")
        conn.execute("DROP TABLE member_languages")
        conn.execute("PRAGMA user_version = 12")
    result = await run_tool("bot.restore", "old.sqlite3", cwd=tmp_path, DATABASE_PATH="bot.sqlite3")
    assert result.returncode == 0, result
    assert "Checked old.sqlite3: integrity ok, schema 12; 2 live sessions checked, 4 log entries replayed" in (
        result.stdout
    )
    with contextlib.closing(sqlite3.connect(tmp_path / "bot.sqlite3")) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (len(SQLITE_MIGRATIONS),)
    with contextlib.closing(sqlite3.connect(old)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (12,)  # the backup itself is never changed
    store = SqliteStore(tmp_path / "bot.sqlite3")
    await store.open()
    try:
        session = await store.live_session(10, Scope.TABLE)
        assert session is not None and session.restored_at is not None
    finally:
        await store.close()


async def test_postgresql_is_checked_in_place_and_not_marked_while_a_bot_is_connected(tmp_path: Path) -> None:
    async with postgres_database() as url:
        store = PostgresStore(url)
        await store.open()
        try:
            await play_races(store, 2)
            connected = await run_tool("bot.restore", cwd=tmp_path, DATABASE_URL=url)
            line = refusal(connected)
            assert line.startswith("Refused: ") and "other connections to DATABASE_URL" in line, line
            assert line.endswith("(a bot running?); stop them first; nothing was changed."), line
            checked = await run_tool("bot.restore", "--check-only", cwd=tmp_path, DATABASE_URL=url)
            assert checked.returncode == 0, checked
            assert "2 live sessions checked, 4 log entries replayed, no problems. Check only" in checked.stdout
            await store.pool.execute("UPDATE sessions SET state = jsonb_set(state, '{target}', '99') WHERE id = 2")
        finally:
            await store.close()
        refused = await run_tool("bot.restore", cwd=tmp_path, DATABASE_URL=url)
        assert refused.stderr.splitlines()[0] == "session 2: its log replays to another state than the one stored"
        assert refusal(refused).endswith(
            "1 of 2 live sessions don't replay to their stored state (above); nothing was changed."
        )
        store = PostgresStore(url)
        await store.open()
        try:
            session = await store.session(1)
            assert session is not None and session.restored_at is None  # refused: nothing marked
        finally:
            await store.close()
