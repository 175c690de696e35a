"""The web client in a real browser: Debian's Chromium driven by Playwright (no browser download), and the steps a
person takes in it (join, run a slash command, click what is on screen)."""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# As root in CI: no sandbox; nothing that phones home; a fresh profile per browser (Playwright makes one).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
OPEN_LINE = re.compile(r"Open (http://127\.0\.0\.1:\d+)")
START_TIMEOUT = 60.0
# The bot's computer players wait this long before moving (the default, 1.5 s, is for people to follow).
COMPUTER_DELAY = "0.2"
TIMEOUT_MS = 15_000
# What a page shows may wait on the bot drawing a picture on a busy machine: expectations wait as long as actions.
expect.set_options(timeout=TIMEOUT_MS)


def chromium_path() -> str:
    """Debian's Chromium; the browser tests skip without it, except in CI, where it must be there."""
    path = shutil.which(CHROMIUM) or (CHROMIUM if os.path.exists(CHROMIUM) else None)
    if path is None:
        if os.environ.get("CI"):
            raise RuntimeError(f"CI needs Chromium at {CHROMIUM} (apt-get install chromium)")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return path


@contextmanager
def browser() -> Iterator[Browser]:
    """A headless Chromium, closed afterwards."""
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=FLAGS)
        try:
            yield instance
        finally:
            instance.close()


class Launcher:
    """``python -m localdiscord`` as a person runs it, in ``data``; stopped with Ctrl-C (SIGINT) by its PID."""

    def __init__(self, data: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.data = data
        self.env = env or {}
        """More of the environment (``FORCE_LANGUAGE``, say)."""
        self.args = args if "--port" in args else ("--port", "0", *args)
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []

    def start(self) -> str:
        """Start it; return the page's address once it printed "Open http://127.0.0.1:PORT"."""
        # DISCORD_REQUEST_LOG stays: CI checks what the bot sends here against Discord's API description too.
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "DATABASE_")) or k == "DISCORD_REQUEST_LOG"
        }
        env |= {"PYTHONPATH": str(REPO), "COMPUTER_DELAY": COMPUTER_DELAY, "PYTHONUNBUFFERED": "1", **self.env}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "localdiscord", "--data", str(self.data), *self.args],
            cwd=self.data.parent,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:  # ends when the launcher exits, so this cannot hang past a failed start
            self.output.append(line)
            match = OPEN_LINE.search(line)
            if match:
                self.url = match.group(1)
                return self.url
        raise RuntimeError("the launcher exited before serving the page:\n" + "".join(self.output))

    def stop(self) -> int:
        """Ctrl-C, as a person would: wait for it to stop everything; its exit code."""
        assert self.proc is not None and self.proc.stdout is not None
        self.proc.send_signal(signal.SIGINT)
        self.output.extend(self.proc.stdout)
        return self.proc.wait(timeout=30)

    def kill(self) -> None:
        """Make sure it is gone (after a failed test), by its PID; its bot goes with it on Ctrl-C."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    @property
    def text(self) -> str:
        """Everything it printed so far."""
        return "".join(self.output)


@contextmanager
def launched(data: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Launcher]:
    """A started launcher (with more ``env``), stopped afterwards whatever happens."""
    launcher = Launcher(data, *args, env=env)
    try:
        launcher.start()
        yield launcher
    finally:
        launcher.kill()


def open_page(browser_: Browser, url: str, name: str, *, viewport: dict[str, int] = DESKTOP) -> Page:
    """A new browser (its own cookies: a different person) at ``url``, joined as ``name``."""
    context = browser_.new_context(viewport=viewport)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    join(page, name)
    return page


def join(page: Page, name: str) -> None:
    """Join as someone new called ``name``."""
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator("#me-name")).to_contain_text(name)


def channel(page: Page, name: str) -> None:
    """Open a channel from the sidebar."""
    page.locator("#channels").get_by_role("link", name=f"# {name}", exact=True).click()
    expect(page.locator("#channel-name")).to_have_text(f"# {name}")


def slash(page: Page, command: str, **options: Any) -> None:
    """Type ``/command``, pick it from the list, fill in the options by their labels, and send it."""
    box = page.get_by_role("combobox", name="Command")
    box.fill(f"/{command}")
    page.locator("#command-list").get_by_role("option").filter(has_text=f"/{command} ").first.click()
    for name, value in options.items():
        field = page.locator(f"#opt-{name}")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=str(value))
        else:
            field.fill(str(value))
    page.get_by_role("button", name="Send").click()


def last_message(page: Page, text: str | None = None) -> Locator:
    """The newest message on screen (containing ``text``)."""
    messages = page.locator("#messages article.message")
    if text is not None:
        messages = messages.filter(has_text=text)
    return messages.last


# The newest board someone must act on: a message saying who it is waiting for, with controls still enabled.
CURRENT_BOARD = """(previous) => {
    const messages = [...document.querySelectorAll('#messages article.message')];
    if (messages.some((m) => m.textContent.includes('game over'))) return {over: true};
    const boards = messages.filter((m) => !m.classList.contains('ephemeral') && m.textContent.includes('waiting for')
        && m.querySelector('button.button:not([disabled])'));
    const board = boards[boards.length - 1];
    if (!board) return null;
    const who = board.querySelector('.content .mention.user');
    const seen = {id: board.dataset.id, text: board.innerText, who: who ? who.textContent.slice(1) : null};
    return previous && previous.id === seen.id && previous.text === seen.text ? null : seen;
}"""


def next_board(page: Page, previous: dict[str, Any] | None) -> dict[str, Any]:
    """Wait until the board someone must act on is new or has changed since ``previous`` (or the game is over)."""
    found: dict[str, Any] = page.wait_for_function(CURRENT_BOARD, arg=previous).json_value()
    return found


def enabled_buttons(page: Page, message_id: str) -> Locator:
    """The buttons one can click on a message."""
    return page.locator(f'article.message[data-id="{message_id}"] button.button:not([disabled])')


def start_crowns(host: Page, guest: Page) -> None:
    """``/crowns new`` (a quick game) by ``host``, ``guest`` joins, ``host`` starts."""
    slash(host, "crowns new")
    last_message(guest, "lobby").get_by_role("button", name="Join").click()
    expect(last_message(host, "lobby")).to_contain_text("Players 2/6")
    last_message(host, "lobby").get_by_role("button", name="Start").click()


def play_to_the_end(pages: dict[str, Page], rng: random.Random, *, clicks: int = 300) -> None:
    """Whoever the current board waits for clicks one of its buttons, until the game is over."""
    watcher = next(iter(pages.values()))
    board = None
    for _ in range(clicks):
        board = next_board(watcher, board)
        if board.get("over"):
            return
        page = pages[board["who"]]
        buttons = enabled_buttons(page, board["id"])
        expect(buttons.first).to_be_visible()
        buttons.nth(rng.randrange(buttons.count())).click()
    raise AssertionError(f"the game should have ended within {clicks} clicks")


def free_port() -> int:
    """A port nothing listens on now (for a launcher that must come back on the same one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
