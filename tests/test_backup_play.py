"""Backups taken while a bot process plays several games through the local Discord, restored, and played on.

On each backend: races are clicked in several channels at once while backups are taken (``python -m bot.backup``
on SQLite, the ``pg_dump`` command it prints on PostgreSQL), and the clicking goes on after them. The bot is
stopped; the first backup is restored (``python -m bot.restore``; on PostgreSQL the ``pg_restore`` command it
prints, into a new database, then ``python -m bot.restore`` there); a bot is started on it. Then, by clicking
only what is on screen:

- every game's board is redrawn as the backup had it (its version, its scores);
- the newer board the lost moves left in the channel is refused as out of date, with a link to the game's board,
  and still is once the game has reached that board's version again by other moves;
- every game goes on from there, and every log replays to its stored state (``--check-only``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.controls import parse_action_id
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.bot_process import bot_environment, process_exit, spawn_bot_process
from tests.core.race import start_race
from tests.databases import postgres_database
from tests.test_backup import names

ENV = {"EXTENSIONS": "cogs.meta,cogs.game,tests.testgame.cog", "COMPUTER_DELAY": "0", "LOG_LEVEL": "WARNING"}
GAMES = 3
FIRST_CLICKS = 2
"""Clicks in each game before the first backup is taken."""
DURING = 6
"""Clicks in each game while one backup runs, at most (a race to 100 lasts some 50 clicks)."""
AFTER = 3
"""Clicks in each game after the last backup: the boards on screen are ahead of every backup."""
STALE = "out of date"


@dataclass
class Game:
    """One race: its channel and its two players."""

    channel: Channel
    members: list[Member]


@dataclass(frozen=True)
class Stored:
    """A game as a database holds it."""

    version: int
    state: dict[str, Any]


# -- what is on screen ----------------------------------------------------------------------------------


def version_of(board: Message) -> int:
    """The version a board's action buttons were drawn on."""
    return next(parse_action_id(c[2:]).version for c in board.custom_ids if c.startswith("a:"))


def drawn_at(message: Message) -> datetime:
    """When a message was last drawn (posted or edited), by Discord's clock."""
    return datetime.fromisoformat(message.data.get("edited_timestamp") or message.data["timestamp"])


def latest_board(fake: LocalDiscord, channel: Channel) -> Message | None:
    """The board drawn last in the channel: what a member looks at."""
    return max(boards(fake, channel), key=drawn_at, default=None)


def asked(board: Message, members: list[Member]) -> Member:
    """The member the board waits for (mentioned on its first line)."""
    return next(m for m in members if f"<@{m.id}>" in board.content.split("\n")[0])


def scores(board: Message) -> list[int]:
    """The scores a race board shows, in seat order."""
    return [int(line.rsplit(": ", 1)[1]) for line in board.embeds[0]["description"].splitlines()]


def boards(fake: LocalDiscord, channel: Channel) -> list[Message]:
    """The channel's messages with a game's action buttons."""
    return [m for m in fake.messages(channel) if any(c.startswith("a:") for c in m.custom_ids)]


async def click(fake: LocalDiscord, game: Game) -> int:
    """Click the first button of the latest board, as the member it waits for; the version of the board the click
    brought (the clicked one redrawn, or a new one)."""
    board = latest_board(fake, game.channel)
    assert board is not None
    before = version_of(board)
    seen = {(m.id, m.edits) for m in boards(fake, game.channel)}
    res = await fake.click(board, board.buttons[0]["custom_id"], asked(board, game.members))
    reply = await res.message()
    assert not reply.ephemeral, reply.content

    def drawn() -> Message | None:
        return next((m for m in boards(fake, game.channel) if (m.id, m.edits) not in seen), None)

    await fake.wait_for(lambda: (m := drawn()) is not None and version_of(m) > before, what="the next board")
    new = drawn()
    assert new is not None
    return version_of(new)


async def refused(fake: LocalDiscord, board: Message, member: Member) -> str:
    """Click a board's first button and return the private refusal."""
    reply = await (await fake.click(board, board.buttons[0]["custom_id"], member)).message()
    assert reply.ephemeral, reply.content
    return reply.content


# -- the scenario, for either backend --------------------------------------------------------------------


async def start_games(fake: LocalDiscord) -> list[Game]:
    pairs = [(0, 1), (2, 4), (1, 2)][:GAMES]  # a member may play in several channels at once
    games = [Game(fake.channels[i], [fake.members[a], fake.members[b]]) for i, (a, b) in enumerate(pairs)]
    for game in games:
        await start_race(fake, game.channel, game.members[0], game.members[1:], target=100, timeout=600)
    return games


async def burst(fake: LocalDiscord, games: list[Game], backups: list[Callable[[], Awaitable[None]]]) -> None:
    """Every game clicks as fast as the bot answers, ``FIRST_CLICKS`` times; then while each backup runs (up to
    ``DURING`` times, at least once); then ``AFTER`` more times."""

    async def play(game: Game, clicks: int, until: asyncio.Future[None] | None = None) -> None:
        for _ in range(clicks):
            await click(fake, game)
            if until is not None and until.done():
                return

    await asyncio.gather(*(play(g, FIRST_CLICKS) for g in games))
    for backup in backups:
        running = asyncio.ensure_future(backup())
        await asyncio.gather(*(play(g, DURING, running) for g in games))
        await running
    await asyncio.gather(*(play(g, AFTER) for g in games))


async def play_on_after_restore(
    fake: LocalDiscord, games: list[Game], backed_up: dict[int, Stored], lost: dict[int, Message]
) -> None:
    """Each game: its board redrawn as the backup had it; the lost newer board refused, before and after the game
    comes back to its version; then on."""
    again = 0
    for game in games:
        then, orphan = backed_up[game.channel.id], lost[game.channel.id]
        # Redrawn: the board it had (or a new one, when the backup caught a move before its board was drawn).
        await fake.wait_for(
            lambda g=game, v=then.version: version_of(latest_board(fake, g.channel)) == v,  # type: ignore[arg-type]
            timeout=15,
            what="the board redrawn as the backup had it",
        )
        board = latest_board(fake, game.channel)
        assert board is not None
        assert scores(board) == [then.state["scores"][p] for p in then.state["players"]]
        assert version_of(orphan) > then.version
        orphan_version = version_of(orphan)
        if orphan.id != board.id:  # a board posted after the backup: still on screen, with its buttons
            text = await refused(fake, orphan, asked(orphan, game.members))
            assert STALE in text and "[current board](https://discord.com/channels/" in text, text
        version = then.version
        while version < orphan_version:
            version = await click(fake, game)
        if orphan.id != board.id and version == orphan_version:
            # The same version again, reached by other moves: the old board's buttons are still not the game's.
            text = await refused(fake, orphan, asked(orphan, game.members))
            assert STALE in text, text
            assert version_of(latest_board(fake, game.channel)) == version  # type: ignore[arg-type]
            again += 1
        for _ in range(2):
            version = await click(fake, game)
    assert again, "no game came back to the version of a board the lost moves left"


async def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the bot process (by PID) and wait for it to end."""
    exited = process_exit(proc)
    os.kill(proc.pid, signal.SIGTERM)
    assert await asyncio.wait_for(exited, 30) == 0


async def tool(fake: LocalDiscord, db_path: Path, env: dict[str, str | None], *args: str) -> tuple[int, str, str]:
    """``python -m args`` with the bot's environment; its exit status, stdout and stderr."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", *args, cwd=db_path.parent, env=bot_environment(fake, db_path, env),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def run_command(line: str) -> None:
    """Run a command the tools printed, as an operator would paste it."""
    proc = await asyncio.create_subprocess_exec(*shlex.split(line), stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, err.decode()


def printed_command(stderr: str, program: str) -> str:
    """The command at the end of a tool's line (``…: pg_dump --format=custom …``)."""
    command = stderr.strip().rsplit(": ", 1)[-1]
    assert command.startswith(f"{program} "), stderr
    return command


def sqlite_games(path: Path) -> dict[int, Stored]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT channel_id, version, state FROM sessions WHERE status = 'active'")
        return {r[0]: Stored(r[1], json.loads(r[2])) for r in rows}


async def postgres_games(url: str) -> dict[int, Stored]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT channel_id, version, state::text FROM sessions WHERE status = 'active'")
    finally:
        await conn.close()
    return {r[0]: Stored(r[1], json.loads(r[2])) for r in rows}


def lost_boards(fake: LocalDiscord, games: list[Game]) -> dict[int, Message]:
    """Each game's latest board when the bot stopped (drawn after the backup)."""
    boards = {g.channel.id: latest_board(fake, g.channel) for g in games}
    assert all(boards.values())
    return boards  # type: ignore[return-value]


# -- the tests --------------------------------------------------------------------------------------------


async def test_sqlite_backups_during_a_burst_restore_and_every_game_goes_on(fake: LocalDiscord, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    backups = [tmp_path / f"backup-{n}.sqlite3" for n in range(3)]
    proc = await spawn_bot_process(fake, db, ENV)
    try:
        games = await start_games(fake)

        async def back_up(path: Path) -> None:
            status, out, err = await tool(fake, db, ENV, "bot.backup", str(path))
            assert status == 0 and "integrity ok" in out, err

        await burst(fake, games, [functools.partial(back_up, path) for path in backups])
        lost = lost_boards(fake, games)
        await stop(proc)
        for path in backups:  # each one self-contained file
            assert names(tmp_path, f"{path.name}*") == [path.name]
        status, out, err = await tool(fake, db, ENV, "bot.restore", "--check-only", str(backups[-1]))
        assert status == 0 and f"{GAMES} live sessions checked" in out, err
        backed_up = sqlite_games(backups[0])
        status, out, err = await tool(fake, db, ENV, "bot.restore", str(backups[0]))
        assert status == 0 and "Restored" in out, err
        assert sqlite_games(db) == backed_up
        proc = await spawn_bot_process(fake, db, ENV)
        await play_on_after_restore(fake, games, backed_up, lost)
        status, out, err = await tool(fake, db, ENV, "bot.restore", "--check-only", str(db))  # while it runs
        assert status == 0 and "no problems" in out, err
        await stop(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_postgresql_dump_during_a_burst_restores_into_a_new_database_and_every_game_goes_on(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "unused.sqlite3"
    dump = tmp_path / "bot.dump"
    async with postgres_database() as url, postgres_database() as fresh:
        env: dict[str, str | None] = ENV | {"DATABASE_URL": url}
        proc = await spawn_bot_process(fake, db, env)
        try:
            games = await start_games(fake)
            status, _, err = await tool(fake, db, env, "bot.backup", str(dump))
            assert status == 2
            dump_command = printed_command(err, "pg_dump")

            await burst(fake, games, [functools.partial(run_command, dump_command)])
            lost = lost_boards(fake, games)
            await stop(proc)
            restoring: dict[str, str | None] = ENV | {"DATABASE_URL": fresh}
            status, _, err = await tool(fake, db, restoring, "bot.restore", str(dump))
            assert status == 2
            await run_command(printed_command(err, "pg_restore"))
            backed_up = await postgres_games(fresh)
            status, out, err = await tool(fake, db, restoring, "bot.restore")
            assert status == 0 and f"Marked {GAMES} live sessions restored" in out, err
            status, out, err = await tool(fake, db, restoring, "bot.restore", "--check-only")
            assert status == 0 and f"{GAMES} live sessions checked" in out and "no problems" in out, err
            proc = await spawn_bot_process(fake, db, restoring)
            await play_on_after_restore(fake, games, backed_up, lost)
            status, out, err = await tool(fake, db, restoring, "bot.restore", "--check-only")  # while it runs
            assert status == 0 and "no problems" in out, err
            await stop(proc)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        with contextlib.suppress(FileNotFoundError):
            dump.unlink()
