"""What one browser may hold open in the playground (issue 26's leftovers): at most so many tabs, each sending frames
no bigger than the page ever needs, while a file a member attaches goes up on its own, refused as soon as it passes
Discord's file limit, and is taken once, by a command from the browser that sent it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from localdiscord import LocalDiscord
from localdiscord.door import COOKIE
from localdiscord.limits import FILE_LIMIT
from localdiscord.web import TAB_FRAME_LIMIT, TABS_PER_BROWSER, TOO_MANY_TABS
from tests.conftest import MakeBot
from tests.test_localdiscord_edges import first_line
from tests.web_tabs import Tab, attach, close_all, joined, new_browser, open_tab, served


@pytest.fixture
async def fake(tmp_path: Path) -> AsyncIterator[LocalDiscord]:
    """A local Discord as ``python -m localdiscord`` runs it: its world in a file, the web client installed."""
    async with served(tmp_path) as server:
        yield server


@pytest.fixture
async def tabs() -> AsyncIterator[list[Tab]]:
    """Tabs to close (with their browsers) at the end."""
    opened: list[Tab] = []
    yield opened
    await close_all(opened)


async def refused_tab(fake: LocalDiscord, browser: aiohttp.ClientSession) -> str:
    """Open one more tab of ``browser``, which is refused: what it is told before it is closed."""
    async with browser.ws_connect(f"{fake.base_url}/client/ws") as ws:
        frame = await ws.receive_json(timeout=5)
        assert (await ws.receive(timeout=5)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert frame["op"] == "too_many_tabs"
    return str(frame["text"])


async def test_one_browser_opens_so_many_tabs(fake: LocalDiscord, tabs: list[Tab]) -> None:
    browser = await new_browser(fake)
    for _ in range(TABS_PER_BROWSER):
        tabs.append(await open_tab(fake, browser))
    assert await refused_tab(fake, browser) == TOO_MANY_TABS
    tabs.append(await joined(fake, "Bob"))  # another browser is not held back
    await tabs[0].close()  # one closed: one more may open
    await fake.wait_for(lambda: len(fake.web.tabs) == TABS_PER_BROWSER, 5.0, what="the tab to go")  # type: ignore[attr-defined]
    tabs[0] = await open_tab(fake, browser)


async def test_a_tab_frame_is_no_bigger_than_the_page_needs(fake: LocalDiscord, tabs: list[Tab]) -> None:
    alice = await joined(fake, "Alice")
    tabs.append(alice)
    channel = str(fake.channels[0].id)
    frame = json.dumps({"op": "history", "seq": 1, "channel": channel, "padding": ""})
    await alice.ws.send_str(frame[:-2] + " " * (TAB_FRAME_LIMIT - len(frame)) + '"}')  # exactly the limit: read
    await alice.wait(lambda f: f["op"] == "history")
    await alice.ws.send_str(" " * (TAB_FRAME_LIMIT + 1))  # refused before it is buffered (its length comes first)
    await asyncio.wait_for(alice._reader, 5)
    assert alice.ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


async def test_a_file_goes_up_on_its_own_and_is_taken_once(
    fake: LocalDiscord, make_bot: MakeBot, tabs: list[Tab]
) -> None:
    await make_bot(extensions=["cogs.dice"])
    alice, bob = await joined(fake, "Alice"), await joined(fake, "Bob")
    tabs += [alice, bob]
    channel = str(fake.channels[0].id)
    upload = await attach(fake, alice.browser, "rolls.txt", b"attack = d20+5\n")

    async def send(tab: Tab, file: object) -> dict[str, object]:
        seq = await tab.send("slash", channel=channel, command="dice import", options={"file": file})
        return await tab.wait(lambda f: f.get("seq") == seq and f["op"] in ("done", "refused"))

    assert "attach the file again" in str((await send(bob, {"upload": upload}))["text"])  # not Bob's file
    assert (await send(alice, {"upload": upload}))["op"] == "done"
    await alice.wait(lambda f: f["op"] == "message" and "Imported 1 saved roll" in f["message"]["html"])
    assert "attach the file again" in str((await send(alice, {"upload": upload}))["text"])  # taken already
    assert (await send(alice, {"filename": "x.txt", "content": "YXR0YWNr"}))["op"] == "refused"  # no inline files


async def test_a_file_over_discords_limit_is_refused_before_it_is_read(fake: LocalDiscord, tabs: list[Tab]) -> None:
    alice = await joined(fake, "Alice")
    tabs.append(alice)
    cookie = alice.browser.cookie_jar.filter_cookies(fake.base_url)[COOKIE].value
    head = "POST /client/upload?filename=big.bin HTTP/1.1\nHost: 127.0.0.1\n"
    big = f"Content-Length: {FILE_LIMIT + 1}\n"
    assert (
        await first_line(fake, head + big + f"Cookie: {COOKIE}={cookie}\n") == "HTTP/1.1 413 Request Entity Too Large"
    )
    assert await first_line(fake, head + big) == "HTTP/1.1 403 Forbidden"  # not admitted: not even looked at

    async def stream() -> AsyncIterator[bytes]:  # no length said: counted as it comes
        for _ in range(FILE_LIMIT // (1 << 20) + 1):
            yield b"x" * (1 << 20)

    async with alice.browser.post(f"{fake.base_url}/client/upload?filename=big.bin", data=stream()) as response:
        assert response.status == 413
    assert fake.web.uploads.pending == {}  # type: ignore[attr-defined]
    await attach(fake, alice.browser, "fits.bin", b"x" * FILE_LIMIT)
