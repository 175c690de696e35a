"""``python -m localdiscord`` as a person runs it: the page is served with no token and no network, Ctrl-C stops
the server and the bot cleanly, and starting it again continues the game in the open tabs, which reconnect by
themselves; with ``--host``, joining needs the code it printed."""

from __future__ import annotations

import random
import re
import urllib.request
from pathlib import Path

from playwright.sync_api import expect

from tests.browser import (
    Launcher,
    browser,
    enabled_buttons,
    free_port,
    launched,
    next_board,
    open_page,
    play_to_the_end,
    start_crowns,
)


def test_a_restart_in_the_middle_of_a_game_then_playing_on(tmp_path: Path) -> None:
    data = tmp_path / "var"
    port = str(free_port())
    launcher = Launcher(data, "--port", port)
    with browser() as chromium:
        try:
            url = launcher.start()
            assert url == f"http://127.0.0.1:{port}"
            with urllib.request.urlopen(url) as response:  # the page, as served
                assert b"<title>" in response.read()
            alice = open_page(chromium, url, "Alice")
            bob = open_page(chromium, url, "Bob")
            pages = {"Alice": alice, "Bob": bob}
            start_crowns(alice, bob)
            board = next_board(alice, None)
            before = alice.locator("#messages").inner_text()

            assert launcher.stop() == 0  # Ctrl-C
            assert "Stopped." in launcher.text
            assert "Stopped cleanly." in (data / "bot.log").read_text()
            expect(alice.locator("#connection")).to_contain_text("Reconnecting")

            launcher.start()
            expect(alice.locator("#connection")).to_be_hidden()
            expect(bob.locator("#connection")).to_be_hidden()
            # Every message is still there, and the board still waits for the same click.
            expect(alice.locator("#messages")).to_contain_text(before.splitlines()[0])
            assert next_board(alice, None) == board
            expect(enabled_buttons(pages[board["who"]], board["id"]).first).to_be_enabled()
            play_to_the_end(pages, random.Random(3))
        finally:
            launcher.kill()


def test_others_on_the_network_join_with_the_printed_code(tmp_path: Path) -> None:
    with launched(tmp_path / "var", "--host", "127.0.0.1") as launcher, browser() as chromium:
        match = re.search(r"join code ([A-Z0-9]{5}-[A-Z0-9]{5})", launcher.text)
        assert match, launcher.text
        page = chromium.new_page()
        page.goto(launcher.url)
        code = page.get_by_label("Join code")
        expect(code).to_be_visible()
        code.fill("AAAAA-AAAAA")
        page.get_by_label("Your name").fill("Mallory")
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#join-error")).to_have_text("That join code is not right.")
        code.fill(match.group(1).lower())
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#me-name")).to_contain_text("Mallory")
