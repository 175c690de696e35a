"""In Chromium: when an interaction fails, the page says so as Discord's does, and never shows (nor receives) the
interaction's token, which the local server's own account of the failure holds (issue 26). The server and the bot
run in this process, so that Discord can be made to refuse the bot's answer; the browser is driven with
Playwright's async API on the same event loop."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import async_playwright, expect

from localdiscord import LocalDiscord
from localdiscord.web import FAILED
from tests.browser import DESKTOP, FLAGS, TIMEOUT_MS, chromium_path
from tests.conftest import MakeBot
from tests.web_tabs import served


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[LocalDiscord]:
    """A local Discord as ``python -m localdiscord`` runs it: its world in a file, the web client installed."""
    async with served(tmp_path) as server:
        yield server


async def test_a_failed_interaction_never_shows_its_token(
    fake: LocalDiscord, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    executable = chromium_path()
    await make_bot(extensions=["cogs.meta"])
    # Discord refuses the bot's answer ("Pong!" is longer than this): the server's account of it names the token.
    monkeypatch.setattr("localdiscord.validation.MAX_CONTENT", 2)
    fake.tolerate("Must be 2 or fewer")
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        try:
            context = await chromium.new_context(viewport=DESKTOP)
            context.set_default_timeout(TIMEOUT_MS)
            page = await context.new_page()
            frames: list[str] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: frames.append(str(frame))))
            await page.goto(fake.base_url)
            await page.get_by_label("Your name").fill("Alice")
            await page.get_by_role("button", name="Join", exact=True).click()
            await expect(page.locator("#me-name")).to_contain_text("Alice")
            await page.get_by_role("combobox", name="Command").fill("/ping")
            await page.locator("#command-list").get_by_role("option").filter(has_text="/ping ").first.click()
            await page.get_by_role("button", name="Send").click()
            await expect(page.get_by_role("alert")).to_contain_text(FAILED)
            (res,) = fake.interactions.values()
            assert res.errors and res.token in res.errors[0]  # what the page was not told
            assert res.token not in await page.content()
            assert not any(res.token in frame for frame in frames)
        finally:
            await chromium.close()
