"""``python -m bot`` failing at startup: one clear last line, a non-zero exit, a traceback only at DEBUG.

Each case runs the real process against the local Discord. Database problems must stop the bot before
it logs in, so those cases also check that the fake received no request at all.

Tests run as root in CI, and root ignores file modes: a 0o444 file or a 0o555 folder stops nobody. The
mode-based cases therefore run the bot without the capabilities that let root ignore them (``file_modes``: still
uid 0, so the advice names the same user), and each has a twin for a root that keeps them: SQLite can't create a
file in ``/proc``, nor open ``/proc/version`` for writing, whoever asks.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage.base import StorageError
from bot.storage.migrations import SQLITE_MIGRATIONS
from bot.storage.sqlite import SqliteStore
from localdiscord import LocalDiscord
from tests.bot_process import bot_output_until, run_bot_process
from tests.databases import admin_url, postgres_database, with_user

AS_ROOT = os.geteuid() == 0
UID = os.getuid()


def failure_line(output: str, returncode: int) -> str:
    """The one clear line the process ended with (log prefix removed); fails on a traceback or extra errors."""
    assert returncode != 0, output
    assert "Traceback" not in output and "fake-token" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()]
    assert errors == [lines[-1]], output
    return lines[-1].split(" bot: ", 1)[-1]


async def fail_to_start(
    fake: LocalDiscord, tmp_path: Path, env: dict[str, str | None] | None = None, *, file_modes: bool = False
) -> str:
    """Run the bot in ``tmp_path`` until it gives up; return its last line. ``file_modes``: they stop it even as
    root."""
    result = await run_bot_process(fake, tmp_path / "bot.sqlite3", env, file_modes=file_modes)
    return failure_line(result.stdout, result.returncode)


async def fail_to_open(fake: LocalDiscord, tmp_path: Path, database: Path | str, *, file_modes: bool = False) -> str:
    """Like ``fail_to_start`` with ``DATABASE_PATH=database``, checking the bot never tried to log in."""
    line = await fail_to_start(fake, tmp_path, {"DATABASE_PATH": str(database)}, file_modes=file_modes)
    assert fake.requests == [], "the database must be opened before logging in"
    return line


async def healthy_database(path: Path) -> Path:
    """A database made and closed by the bot's own store, fully checkpointed (no -wal file beside it)."""
    store = SqliteStore(path)
    await store.open()
    await store.close()
    return path


@pytest.fixture
def locked_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder this user may read but not write (made writable again for pytest's clean-up)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)


# -- the database ------------------------------------------------------------------------------


async def test_read_only_database_file(fake: LocalDiscord, tmp_path: Path) -> None:
    db = await healthy_database(tmp_path / "data" / "bot.sqlite3")
    db.chmod(0o444)
    line = await fail_to_open(fake, tmp_path, db, file_modes=True)
    expected = f"the file is read-only for this user (uid {UID}); make it writable or choose another path."
    assert line == f"DATABASE_PATH {db}: {expected}"


async def test_read_only_file_even_for_root(fake: LocalDiscord, tmp_path: Path) -> None:
    line = await fail_to_open(fake, tmp_path, "/proc/version")
    if AS_ROOT:
        expected = "can't write there (unable to open database file); choose a path on a writable disk."
    else:
        expected = f"the file is read-only for this user (uid {UID}); make it writable or choose another path."
    assert line == f"DATABASE_PATH /proc/version: {expected}"


async def test_read_only_folder_with_the_database_in_it(
    fake: LocalDiscord, tmp_path: Path, locked_folder: Path
) -> None:
    # The file itself is writable, but SQLite must also create bot.sqlite3-wal and -shm beside it.
    db = await healthy_database(locked_folder / "bot.sqlite3")
    os.chmod(locked_folder, 0o555)
    line = await fail_to_open(fake, tmp_path, db, file_modes=True)
    assert line.startswith(f"DATABASE_PATH {db}: the folder {locked_folder} is not writable by this user (uid {UID})")


async def test_docker_bind_mount_owned_by_root(fake: LocalDiscord, tmp_path: Path, locked_folder: Path) -> None:
    # The volume's folder exists (Docker made it) but belongs to someone else: the file can't be created.
    os.chmod(locked_folder, 0o555)
    db = locked_folder / "bot.sqlite3"
    line = await fail_to_open(fake, tmp_path, db, file_modes=True)
    assert line == (
        f"DATABASE_PATH {db}: the folder {locked_folder} is not writable by this user (uid {UID}); make it "
        f"writable (for a Docker bind mount: chown {UID} on the host folder) or choose another path."
    )


async def test_folder_where_no_file_can_be_created_even_by_root(fake: LocalDiscord, tmp_path: Path) -> None:
    line = await fail_to_open(fake, tmp_path, "/proc/bot.sqlite3")
    if AS_ROOT:
        expected = "can't write there (unable to open database file); choose a path on a writable disk."
    else:
        expected = f"the folder /proc is not writable by this user (uid {UID}); make it writable"
    assert line.startswith(f"DATABASE_PATH /proc/bot.sqlite3: {expected}")


async def test_database_path_under_a_regular_file(fake: LocalDiscord, tmp_path: Path) -> None:
    file = tmp_path / "x" / "file.txt"
    file.parent.mkdir()
    file.write_text("not a folder")
    db = file / "bot.sqlite3"
    line = await fail_to_open(fake, tmp_path, db)
    assert line == f"DATABASE_PATH {db}: {file} is a file, not a folder; choose another path."


async def test_database_header_overwritten(fake: LocalDiscord, tmp_path: Path) -> None:
    db = await healthy_database(tmp_path / "data" / "bot.sqlite3")
    with db.open("r+b") as f:
        f.write(b"this is no longer SQLite" * 4)
    line = await fail_to_open(fake, tmp_path, db)
    assert line == (
        f"DATABASE_PATH {db}: the file is not a healthy SQLite database (file is not a database); "
        "restore it from a backup or move it aside to start afresh."
    )


async def test_database_with_a_malformed_page(fake: LocalDiscord, tmp_path: Path) -> None:
    db = await healthy_database(tmp_path / "data" / "bot.sqlite3")
    conn = sqlite3.connect(db)
    (page_size,), (pages,) = conn.execute("PRAGMA page_size").fetchone(), conn.execute("PRAGMA page_count").fetchone()
    conn.close()
    assert pages > 2
    with db.open("r+b") as f:
        f.seek(page_size * (pages // 2))  # a whole page in the middle: its b-tree header is then garbage
        f.write(b"\xa5" * page_size)
    line = await fail_to_open(fake, tmp_path, db)
    assert line.startswith(
        f"DATABASE_PATH {db}: the file is not a healthy SQLite database (database disk image is malformed"
    )
    assert line.endswith("restore it from a backup or move it aside to start afresh.")


async def test_database_from_a_newer_version(fake: LocalDiscord, tmp_path: Path) -> None:
    db = await healthy_database(tmp_path / "data" / "bot.sqlite3")
    newer = len(SQLITE_MIGRATIONS) + 1
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {newer}")
    conn.close()
    line = await fail_to_open(fake, tmp_path, db)
    assert line == (
        f"DATABASE_PATH {db}: the database was made by a newer version of the bot "
        f"(schema {newer}, this version knows {len(SQLITE_MIGRATIONS)}); upgrade the bot."
    )


async def test_traceback_only_at_debug_and_still_ending_with_the_line(fake: LocalDiscord, tmp_path: Path) -> None:
    db = tmp_path / "data" / "bot.sqlite3"
    db.parent.mkdir()
    db.write_bytes(b"garbage" * 100)
    result = await run_bot_process(fake, tmp_path / "bot.sqlite3", {"DATABASE_PATH": str(db), "LOG_LEVEL": "DEBUG"})
    assert result.returncode != 0
    assert "Traceback" in result.stdout and "sqlite3.DatabaseError: file is not a database" in result.stdout
    # aiosqlite's thread may still log a DEBUG line of its own after ours: the last line above DEBUG is ours.
    last = [line for line in result.stdout.splitlines() if line.strip() and " DEBUG " not in line][-1]
    assert " ERROR " in last and f"DATABASE_PATH {db}: the file is not a healthy SQLite database" in last


# -- Discord -----------------------------------------------------------------------------------


def closed_port() -> int:
    """A local port nothing listens on (it was free a moment ago, and nobody else here picks ports)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_discord_unreachable(fake: LocalDiscord, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    line = await asyncio.wait_for(fail_to_start(fake, tmp_path, {"DISCORD_API_BASE": base}), 20)
    assert line == f"Can't reach Discord at {base}: check the network."


# -- a start that works -------------------------------------------------------------------------


async def test_a_start_says_who_where_and_how_to_invite_without_voice_warnings(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "data" / "bot.sqlite3"
    output = await bot_output_until(fake, tmp_path / "bot.sqlite3", "Invite it", {"DATABASE_PATH": str(db)})
    lines = [line.split(" bot", 1)[-1].split(": ", 1)[-1] for line in output.splitlines()]
    app = fake.application_id
    assert f"Database: SQLite file {db}" in lines, output
    assert f"Logged in as {fake.bot_user.username} ({app}) in 1 server" in lines, output
    invite = next(line for line in lines if line.startswith("Invite it to a server: "))
    url = invite.removeprefix("Invite it to a server: ")
    # View Channels, Send Messages, Embed Links, Attach Files, Read Message History, threads, Create Events: the
    # README's list.
    expected = 1024 | 2048 | 16384 | 32768 | 65536 | (1 << 35) | (1 << 38) | (1 << 44)
    assert url == (
        f"https://discord.com/oauth2/authorize?client_id={app}&scope=bot+applications.commands&permissions={expected}"
    )
    own = next(line for line in lines if line.startswith("Or add it to your own account (dice everywhere): "))
    assert own.endswith(f"authorize?client_id={app}&integration_type=1&scope=applications.commands")
    assert f"Synced {len(fake.commands)} slash commands everywhere" in output
    assert "PyNaCl" not in output and "davey" not in output and "voice" not in output.lower(), output
    assert "Traceback" not in output and "fake-token" not in output


# -- configuration -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pasted", "hint"),
    [
        ("Bot fake-token", 'has "Bot " in front'),
        ('"fake-token"', "has quotes"),
        ("'Bot fake-token'", 'has quotes and "Bot " in front'),
        ("fake token", "has a space in it; copy the token again, as one word"),
    ],
)
async def test_a_token_pasted_with_something_around_it_gets_a_hint(
    fake: LocalDiscord, tmp_path: Path, pasted: str, hint: str
) -> None:
    line = await fail_to_start(fake, tmp_path, {"DISCORD_TOKEN": pasted})
    assert line.startswith(f"Configuration error: DISCORD_TOKEN {hint}"), line
    assert fake.requests == [], "a token that can't be right is not sent to Discord"


async def test_env_file_that_is_not_utf8(fake: LocalDiscord, tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"# settings\nCOMPUTER_DELAY=2\xe9\n")  # Latin-1 'é'
    line = await fail_to_start(fake, tmp_path)
    assert line == f"Configuration error: {(tmp_path / '.env').resolve()} is not UTF-8 text (line 2); save it as UTF-8."


async def test_unknown_log_level(fake: LocalDiscord, tmp_path: Path) -> None:
    line = await fail_to_start(fake, tmp_path, {"LOG_LEVEL": "LOUD"})
    assert line == "Configuration error: LOG_LEVEL: invalid value 'LOUD' (use DEBUG, INFO, WARNING or ERROR)."


async def test_invalid_value_says_invalid(fake: LocalDiscord, tmp_path: Path) -> None:
    line = await fail_to_start(fake, tmp_path, {"COMPUTER_DELAY": "abc"})
    assert line == "Configuration error: COMPUTER_DELAY: invalid value 'abc' (input should be a valid number)."


async def test_missing_and_invalid_together_on_one_line(fake: LocalDiscord, tmp_path: Path) -> None:
    line = await fail_to_start(fake, tmp_path, {"DISCORD_TOKEN": None, "COMPUTER_DELAY": "abc"})
    assert line == (
        "Configuration error: set DISCORD_TOKEN (environment or .env); "
        "COMPUTER_DELAY: invalid value 'abc' (input should be a valid number)."
    )


async def test_a_metrics_port_that_is_taken_or_not_a_port(fake: LocalDiscord, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = await fail_to_start(fake, tmp_path, {"METRICS_PORT": str(port)})
    assert (
        line == f"METRICS_PORT {port}: can't listen there (Address already in use); choose another port, or unset it."
    )
    line = await fail_to_start(fake, tmp_path, {"METRICS_PORT": "http"})
    assert line == "Configuration error: METRICS_PORT: invalid value 'http' (input should be a valid integer)."


async def test_anything_unforeseen_still_ends_with_one_line(fake: LocalDiscord, tmp_path: Path) -> None:
    line = await fail_to_start(fake, tmp_path, {"EXTENSIONS": "cogs.no_such_cog"})
    assert line.startswith("Stopped by an unexpected error: ExtensionNotFound: Extension 'cogs.no_such_cog'")
    assert line.endswith("(LOG_LEVEL=DEBUG shows where).")


# The rarer database paths, checked on the store directly (the process tests above show the line reaches the user).


async def test_database_path_that_is_a_folder(tmp_path: Path) -> None:
    with pytest.raises(StorageError) as caught:
        await SqliteStore(tmp_path).open()
    assert (
        str(caught.value)
        == f"DATABASE_PATH {tmp_path} is a folder; give the path of a file in it, e.g. {tmp_path}/bot.sqlite3."
    )


async def test_folder_that_cannot_be_created_even_by_root() -> None:
    with pytest.raises(StorageError) as caught:
        await SqliteStore(Path("/proc/no-such-folder/bot.sqlite3")).open()
    assert str(caught.value) == (
        "DATABASE_PATH /proc/no-such-folder/bot.sqlite3: can't create the folder /proc/no-such-folder "
        "(No such file or directory); create it yourself or choose another path."
    )


async def test_postgresql_server_unreachable(fake: LocalDiscord, tmp_path: Path) -> None:
    port = closed_port()
    line = await fail_to_start(fake, tmp_path, {"DATABASE_URL": f"postgresql://bot:s3cret@127.0.0.1:{port}/bot"})
    assert line.startswith(f"DATABASE_URL postgresql://bot:***@127.0.0.1:{port}/bot: "), line
    assert "can't reach the server" in line and "s3cret" not in line and "PostgreSQL is running" in line, line
    assert fake.requests == [], "the database must be opened before logging in"


async def test_postgresql_credentials_refused(fake: LocalDiscord, tmp_path: Path) -> None:
    """A role the server does not know: refused as credentials, in one line, before logging in."""
    async with postgres_database() as url:
        wrong = with_user(url, "no_such_role", "pw")
        line = await fail_to_start(fake, tmp_path, {"DATABASE_URL": wrong})
    assert "refused the credentials" in line and "no_such_role" in line and ":pw@" not in line, line
    assert fake.requests == []


async def test_postgresql_database_missing(fake: LocalDiscord, tmp_path: Path) -> None:
    url = admin_url().rsplit("/", 1)[0] + "/no_such_database_here"
    line = await fail_to_start(fake, tmp_path, {"DATABASE_URL": url})
    assert "no_such_database_here" in line and "createdb" in line, line


async def test_not_a_postgresql_url(fake: LocalDiscord, tmp_path: Path) -> None:
    line = await fail_to_start(fake, tmp_path, {"DATABASE_URL": "mysql://bot@localhost/bot"})
    assert line.startswith("Configuration error: DATABASE_URL: invalid value"), line
