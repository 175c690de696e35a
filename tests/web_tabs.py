"""Tabs of the web client without a browser: a local Discord as ``python -m localdiscord`` runs it (its world in a
file, the web client installed), browsers that are cookie jars, and tabs that are plain WebSocket clients."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from localdiscord import LocalDiscord
from localdiscord.web import WebClient
from localdiscord.world import WorldFile


@asynccontextmanager
async def served(folder: Path) -> AsyncIterator[LocalDiscord]:
    """A local Discord as ``python -m localdiscord`` runs it: its world in a file, the web client installed; fails
    the test if the fake recorded a problem."""
    world = WorldFile(folder / "localdiscord.sqlite3")
    server = LocalDiscord(member_names=())
    world.attach(server)
    web = WebClient(server, world)
    await server.start(extend=web.install)
    server.web = web  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        await web.close()
        await server.stop()
        world.close()
    assert not server.failures, "fake Discord recorded problems:\n" + "\n".join(server.failures)


class Tab:
    """One browser tab: a WebSocket on a session holding that browser's cookie; every frame it received."""

    def __init__(self, fake: LocalDiscord, browser: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse):
        self.fake, self.browser, self.ws = fake, browser, ws
        self.frames: list[dict[str, Any]] = []
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self.seq = 0

    async def _read(self) -> None:
        async for msg in self.ws:
            self.frames.append(msg.json())
            self._arrived.set()

    async def wait(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """The first frame (received so far or later) matching ``predicate``."""
        async with asyncio.timeout(timeout):
            while True:
                found = next((f for f in self.frames if predicate(f)), None)
                if found is not None:
                    return found
                self._arrived.clear()
                await self._arrived.wait()

    async def send(self, op: str, **fields: Any) -> int:
        """Send a request; its sequence number."""
        self.seq += 1
        await self.ws.send_json({"op": op, "seq": self.seq, **fields})
        return self.seq

    async def close(self) -> None:
        """Close the tab."""
        await self.ws.close()
        self._reader.cancel()


async def open_tab(fake: LocalDiscord, browser: aiohttp.ClientSession, member: str | None = None) -> Tab:
    """A tab of ``browser``, saying hello as ``member`` (an id), after the first state it gets."""
    tab = Tab(fake, browser, await browser.ws_connect(f"{fake.base_url}/client/ws"))
    await tab.send("hello", member=member)
    await tab.wait(lambda f: f["op"] == "state")
    return tab


async def new_browser(fake: LocalDiscord) -> aiohttp.ClientSession:
    """A browser admitted by the server (it holds its cookie)."""
    browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with browser.post(f"{fake.base_url}/client/join", json={}) as response:
        assert (await response.json())["ok"]
    return browser


async def joined(fake: LocalDiscord, name: str, browser: aiohttp.ClientSession | None = None) -> Tab:
    """A tab of a new (or this) browser that joined as someone new called ``name``."""
    tab = await open_tab(fake, browser or await new_browser(fake))
    await tab.send("join", name=name)
    await tab.wait(lambda f: f["op"] == "state" and (f["me"] or {}).get("name") == name)
    return tab


async def attach(fake: LocalDiscord, browser: aiohttp.ClientSession, filename: str, content: bytes) -> str:
    """Upload a file as the page does before it sends a command with it; the id the command names it by."""
    url = f"{fake.base_url}/client/upload"
    async with browser.post(url, params={"filename": filename}, data=content) as response:
        answer = await response.json()
        assert answer["ok"], answer
        return str(answer["id"])


async def close_all(opened: list[Tab]) -> None:
    """Close these tabs and their browsers."""
    for tab in opened:
        await tab.close()
        await tab.browser.close()
