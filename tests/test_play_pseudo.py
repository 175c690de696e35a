"""Boards in the pseudo-language (every message ~40 % longer, accented and bracketed) still read on a phone: played in
Chromium through the playground at a phone's width, nothing is wider than the screen or cut sideways."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from bot.i18n import PSEUDO, pseudo
from tests.browser import PHONE, Launcher, browser, last_message, launched, open_page
from tests.test_play_client import channel, command, fits, resize

BOARD_WITH_CONTROLS = "article.message:not(.ephemeral):has(button.button:not([disabled]))"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launcher]:
    """One ``python -m localdiscord`` whose bot speaks the pseudo-language to everyone."""
    with launched(tmp_path_factory.mktemp("pseudo") / "var", env={"FORCE_LANGUAGE": PSEUDO}) as launcher:
        yield launcher


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with browser() as instance:
        yield instance


def click_on(page: Page, clicks: int, rng: random.Random) -> None:
    """Click one of the enabled buttons of the newest board, ``clicks`` times (computers play in between)."""
    for _ in range(clicks):
        board = page.locator(f"#messages {BOARD_WITH_CONTROLS}").last
        buttons = board.locator("button.button:not([disabled])")
        if not buttons.count():
            return
        buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_timeout(300)


@pytest.mark.parametrize(("game", "where"), [("crowns", "games"), ("vv", "dice-table")])
def test_a_pseudo_language_board_reads_on_a_phone(
    server: Launcher, chromium: Browser, tmp_path: Path, game: str, where: str
) -> None:
    page = open_page(chromium, server.url, f"Zoë {game}")
    channel(page, where)
    resize(page, PHONE)
    command(page, f"/{game} new bots:2")
    last_message(page, pseudo("Start")).get_by_role("button", name=pseudo("Start")).click()
    click_on(page, 6, random.Random(3))
    text = page.locator("#messages").inner_text()
    assert "⟦" in text
    fits(page, tmp_path, f"pseudo-{game}")
    assert not page.errors  # type: ignore[attr-defined]
