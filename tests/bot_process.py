"""Running the bot as a real process (``python -m bot``) against the fake, for kill/restart and exit tests.

The child runs with the repository on PYTHONPATH but in the database's folder, so a developer's ``.env``
cannot leak in. Its output (stdout and stderr) goes to ``output_path(db_path)``. Callers kill it by PID.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

from localdiscord.server import LocalDiscord

REPO = Path(__file__).resolve().parents[1]
# Settings the child must not inherit from the developer's shell.
SETTINGS_PREFIXES = (
    "DISCORD_",
    "DATABASE_",
    "SHARD_",
    "DEV_GUILD_ID",
    "SKIP_SYNC",
    "LOG_LEVEL",
    "EXTENSIONS",
    "METRICS_PORT",
)
ROOT_OVERRIDES = "-dac_override,-dac_read_search,-fowner"
"""The capabilities that let root ignore file modes (CI runs as root): without them, a 0o444 file or a 0o555 folder
stops root as it stops anyone."""


def bot_environment(fake: LocalDiscord, db_path: Path, env: dict[str, str | None] | None = None) -> dict[str, str]:
    """The child's environment: pointed at ``fake``; ``env`` overrides, and a None value unsets a variable."""
    result = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_PREFIXES)}
    result |= {
        "PYTHONPATH": str(REPO),
        "PYTHONUNBUFFERED": "1",
        "DISCORD_API_BASE": fake.base_url,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_PATH": str(db_path),
    }
    for key, value in (env or {}).items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = value
    return result


def output_path(db_path: Path | str) -> Path:
    """Where a spawned bot's output goes."""
    return Path(db_path).with_suffix(".out")


def process_exit(proc: subprocess.Popen[bytes]) -> asyncio.Future[int]:
    """A future resolved with the exit code when ``proc`` ends: a pidfd watched by the event loop, no polling."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[int] = loop.create_future()
    pidfd = os.pidfd_open(proc.pid)

    def on_exit() -> None:
        loop.remove_reader(pidfd)
        os.close(pidfd)
        if not future.done():
            future.set_result(proc.wait())

    loop.add_reader(pidfd, on_exit)
    return future


def _popen_bot(env: dict[str, str], db_path: Path) -> subprocess.Popen[bytes]:
    # Starting a process is quick; only waiting for it would block the loop, and that goes through process_exit.
    with open(output_path(db_path), "wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=db_path.parent, env=env, stdout=out, stderr=subprocess.STDOUT
        )


def start_bot_process(
    fake: LocalDiscord, db_path: Path | str, env: dict[str, str | None] | None = None
) -> subprocess.Popen[bytes]:
    """Start ``python -m bot`` against ``fake`` without waiting for it to connect (the caller waits for what it
    needs, and kills it by PID in ``finally``)."""
    db_path = Path(db_path)
    return _popen_bot(bot_environment(fake, db_path, env), db_path)


async def spawn_bot_process(
    fake: LocalDiscord, db_path: Path | str, env: dict[str, str | None] | None = None, *, timeout: float = 30.0
) -> subprocess.Popen[bytes]:
    """Start ``python -m bot`` against ``fake`` and return once it has IDENTIFYed and got READY + GUILD_CREATE.

    Raises RuntimeError (with the child's output) if it exits first. The caller must kill it by PID in ``finally``.
    """
    db_path = Path(db_path)
    readies = fake.ready_count
    proc = _popen_bot(bot_environment(fake, db_path, env), db_path)
    exited = process_exit(proc)
    connected = asyncio.ensure_future(
        fake.wait_for(lambda: fake.ready_count > readies, timeout, what="the bot process to connect")
    )
    try:
        await asyncio.wait({exited, connected}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:
        proc.kill()
        raise
    if connected.done() and not connected.exception():
        return proc
    connected.cancel()
    if not exited.done():
        proc.kill()
        proc.wait()
    with contextlib.suppress(asyncio.CancelledError):
        await connected
    raise RuntimeError(
        f"bot process did not connect (exit code {proc.returncode}):\n{output_path(db_path).read_text()}"
    )


async def _bot_with_output(
    fake: LocalDiscord, db_path: Path, env: dict[str, str | None] | None, *, file_modes: bool = False
) -> asyncio.subprocess.Process:
    """``python -m bot`` in the database's folder, its output (stdout and stderr) on a pipe. With ``file_modes``,
    file modes hold for it even as root (``setpriv`` drops ``ROOT_OVERRIDES`` before it starts)."""
    as_root = file_modes and os.geteuid() == 0
    return await asyncio.create_subprocess_exec(
        *(("setpriv", "--bounding-set", ROOT_OVERRIDES, "--") if as_root else ()),
        sys.executable,
        "-m",
        "bot",
        cwd=db_path.parent,
        env=bot_environment(fake, db_path, env),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def run_bot_process(
    fake: LocalDiscord,
    db_path: Path | str,
    env: dict[str, str | None] | None = None,
    *,
    timeout: float = 30.0,
    file_modes: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m bot`` against ``fake`` until it exits by itself (for fatal-error tests); kill it on timeout.
    ``file_modes``: file modes stop it even when it runs as root (see ``_bot_with_output``)."""
    proc = await _bot_with_output(fake, Path(db_path), env, file_modes=file_modes)
    try:
        stdout, _ = await asyncio.wait_for(proc.communicate(), timeout)
    finally:
        if proc.returncode is None:
            os.kill(proc.pid, signal.SIGKILL)
            await proc.wait()
    assert proc.returncode is not None
    return subprocess.CompletedProcess([sys.executable, "-m", "bot"], proc.returncode, stdout.decode(), "")


async def bot_output_until(
    fake: LocalDiscord,
    db_path: Path | str,
    marker: str,
    env: dict[str, str | None] | None = None,
    *,
    timeout: float = 30.0,
) -> str:
    """Run ``python -m bot`` against ``fake`` until a line of its output contains ``marker``, then stop it
    (SIGTERM, by PID) and return everything it printed, its last words included."""
    proc = await _bot_with_output(fake, Path(db_path), env)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        async with asyncio.timeout(timeout):
            while not lines or marker not in lines[-1]:
                line = await proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"the bot stopped before saying {marker!r}:\n" + "".join(lines))
                lines.append(line.decode())
            proc.terminate()
            rest, _ = await proc.communicate()
    finally:
        if proc.returncode is None:
            os.kill(proc.pid, signal.SIGKILL)
            await proc.wait()
    return "".join(lines) + rest.decode()
