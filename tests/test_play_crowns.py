"""Dice of Crowns in the browser: two people, each in a browser of their own, play a quick game to its end by
clicking what they see (Bob on a phone), and see their ratings' change; on Bob's first turn, the screenshots the
README shows (with ``PLAY_SCREENSHOTS=docs``)."""

from __future__ import annotations

import os
import random
from pathlib import Path

from playwright.sync_api import expect

from tests.browser import (
    PHONE,
    browser,
    enabled_buttons,
    launched,
    next_board,
    open_page,
    play_to_the_end,
    start_crowns,
)


def test_two_people_play_a_quick_game_to_the_end(tmp_path: Path) -> None:
    rng = random.Random(20)
    with launched(tmp_path / "var") as launcher, browser() as chromium:
        alice = open_page(chromium, launcher.url, "Alice")
        bob = open_page(chromium, launcher.url, "Bob", viewport=PHONE)  # one plays on a phone
        pages = {"Alice": alice, "Bob": bob}

        start_crowns(alice, bob)

        shots = os.environ.get("PLAY_SCREENSHOTS")
        if shots:
            board = next_board(alice, None)
            while board["who"] != "Bob":  # Bob's turn: his buttons on his phone
                enabled_buttons(alice, board["id"]).first.click()
                board = next_board(alice, board)
            for page in pages.values():  # the emoji font is fetched when first needed
                page.evaluate("document.fonts.ready.then(() => true)")
            alice.screenshot(path=str(Path(shots) / "play-desktop.png"))
            bob.screenshot(path=str(Path(shots) / "play-phone.png"))
        play_to_the_end(pages, rng)
        for page in pages.values():
            expect(page.locator("#messages")).to_contain_text("game over")
            expect(page.locator("#messages")).to_contain_text("Ratings · Dice of Crowns")  # each one's change
            expect(page.locator("#messages")).to_contain_text("(provisional: 1 of 5 games)")
            assert not page.errors  # type: ignore[attr-defined]
