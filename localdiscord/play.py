"""``python -m localdiscord``: play in a browser with no Discord account: the local Discord server, its web client,
and the unchanged bot (``python -m bot``, a child process that reaches the server only through the Discord API).

Both keep their state beside each other (``var/`` by default): the bot its SQLite database, the server its world
(guild, members, channels, messages), so stopping (Ctrl-C) and starting again continues every game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, BinaryIO

from localdiscord.server import LocalDiscord
from localdiscord.web import WebClient
from localdiscord.world import WorldFile

log = logging.getLogger("localdiscord")

PROJECT = Path(__file__).resolve().parents[1]
# The bot's settings the launcher decides; anything else the player set (LOG_LEVEL, COMPUTER_DELAY) passes through.
DECIDED = ("DISCORD_", "DATABASE_", "SHARD_", "DEV_GUILD_ID", "SKIP_SYNC", "EXTENSIONS")
CHANNELS = 4
GUILD_NAME = "Local Table"
BOT_CONNECT_TIMEOUT = 60.0
BOT_STOP_TIMEOUT = 15.0
# Letters and digits nobody misreads when a code is read out across a table.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python -m localdiscord",
        description="Play the bot's games in a browser: a local Discord server, its web client, and the bot.",
    )
    parser.add_argument("--port", type=int, default=8080, help="the web page's port (default 8080; 0: any free one)")
    parser.add_argument(
        "--host",
        nargs="?",
        const="0.0.0.0",
        default=None,
        metavar="ADDRESS",
        help="let other machines on your network join (all addresses, or this one); joining then needs the code "
        "printed at start",
    )
    parser.add_argument("--data", type=Path, default=Path("var"), help="where both keep their files (default var/)")
    return parser.parse_args(argv)


def join_code() -> str:
    """A fresh code for ``--host`` (about 50 bits, written XXXXX-XXXXX)."""
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))
    return f"{letters[:5]}-{letters[5:]}"


def bot_environment(fake: LocalDiscord, data: Path) -> dict[str, str]:
    """The bot's environment: pointed at the local server, its SQLite database in ``data``, no inherited Discord
    or database settings (a real bot's ``.env`` is not read either: the bot runs in ``data``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(DECIDED)}
    path = os.pathsep.join(p for p in (str(PROJECT), env.get("PYTHONPATH")) if p)
    return env | {
        "PYTHONPATH": path,
        "PYTHONUNBUFFERED": "1",
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.base_url,
        "DATABASE_PATH": str((data / "bot.sqlite3").resolve()),
        "DEV_GUILD_ID": str(fake.guild_id),  # commands appear at once, as on a developer's test server
    }


def lan_address() -> str:
    """This machine's address on its network, for the line printed with ``--host`` (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: connect() on UDP only picks a route
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


class Player:
    """Runs the local server with its web client and the bot process until stopped."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.data: Path = args.data
        self.code = join_code() if args.host else None
        self.world = WorldFile(self.data / "localdiscord.sqlite3")
        self.fake = LocalDiscord(
            channels=CHANNELS, token=secrets.token_urlsafe(32), member_names=(), guild_name=GUILD_NAME
        )
        self.fake.long_running = True
        if not self.world.attach(self.fake):
            manager = self.fake.guild.admin_role
            manager.name, manager.permissions = "Server manager", manager.permissions & ~(1 << 3)  # no ADMINISTRATOR
            self.world.world_changed()
        self.web = WebClient(self.fake, self.world, join_code=self.code)
        self.bot: asyncio.subprocess.Process | None = None
        self.stopping = asyncio.Event()

    async def run(self) -> int:
        """Start everything, print where to open the page, and run until Ctrl-C (or the bot stops by itself)."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stopping.set)
        try:
            await self.fake.start(self.args.host or "127.0.0.1", self.args.port, extend=self.web.install)
        except OSError as exc:
            print(f"Can't listen on port {self.args.port}: {exc.strerror}. Try --port with another number.")
            return 2
        try:
            return await self._serve()
        finally:
            await self._stop()

    async def _serve(self) -> int:
        bot_exit = await self._start_bot()
        if self.stopping.is_set():
            return 0
        if bot_exit.done() or self.fake.ready_count == 0:
            print(f"The bot did not start; its log is {self.data / 'bot.log'}:\n{self._log_tail()}")
            return 1
        here = self.fake.base_url
        if self.code is not None:
            port = here.rsplit(":", 1)[1]
            host = self.args.host if self.args.host not in ("0.0.0.0", "::") else lan_address()
            print(f"Open {here} (others on your network: http://{host}:{port}, join code {self.code})")
        else:
            print(f"Open {here}")
        print("Press Ctrl-C to stop; everything is kept for next time.", flush=True)
        stopped: asyncio.Future[Any] = asyncio.ensure_future(self.stopping.wait())
        exited: asyncio.Future[Any] = bot_exit
        await asyncio.wait([exited, stopped], return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        if bot_exit.done() and not self.stopping.is_set():
            print(f"The bot stopped (exit code {bot_exit.result()}); its log is {self.data / 'bot.log'}.")
            return 1
        return 0

    async def _start_bot(self) -> asyncio.Future[int]:
        """Start ``python -m bot``; return once it is connected, or has exited (the future is then done)."""
        self.data.mkdir(parents=True, exist_ok=True)
        readies = self.fake.ready_count
        with self._bot_log() as out:
            # Its own session: Ctrl-C reaches only the launcher, which then stops the bot in order.
            self.bot = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=self.data,
                env=bot_environment(self.fake, self.data),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        exited = asyncio.ensure_future(self.bot.wait())
        connected = asyncio.ensure_future(
            self.fake.wait_for(lambda: self.fake.ready_count > readies, BOT_CONNECT_TIMEOUT, what="the bot")
        )
        stopped = asyncio.ensure_future(self.stopping.wait())
        await asyncio.wait({exited, connected, stopped}, return_when=asyncio.FIRST_COMPLETED)
        for task in (connected, stopped):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await task
        return exited

    async def _stop(self) -> None:
        """Stop the bot first (it closes its database cleanly), then the web client, the server and the file."""
        if self.bot is not None and self.bot.returncode is None:
            self.bot.terminate()
            try:
                await asyncio.wait_for(self.bot.wait(), BOT_STOP_TIMEOUT)
            except TimeoutError:
                self.bot.kill()
                await self.bot.wait()
        await self.web.close()
        await self.fake.stop()
        self.world.close()
        print("Stopped.", flush=True)

    def _bot_log(self) -> BinaryIO:
        # Opening a local file for appending does not wait on anything: fine on the event loop.
        return open(self.data / "bot.log", "ab")

    def _log_tail(self, lines: int = 20) -> str:
        text = (self.data / "bot.log").read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = arguments(argv)
    # What the bot sends that Discord would refuse is shown here, as the local server's errors.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    return asyncio.run(Player(args).run())
