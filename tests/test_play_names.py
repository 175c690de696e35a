"""Who may join the playground, and as what name (issue 26, part 2): nobody passes for a member already there (a
look-alike after Unicode's confusable folding, an invisible character, a bidirectional override), one browser can't
flood the server with members, a join doesn't cost every tab its whole state, and malformed requests to the web
client are refused with a 4xx or a refusal, never a 500."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from localdiscord import LocalDiscord
from localdiscord.door import JOINS_PER_MINUTE_PER_BROWSER, MEMBERS_PER_BROWSER
from localdiscord.limits import RateLimit
from tests.web_tabs import Tab, close_all, joined, new_browser, open_tab, served


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


async def refused(tab: Tab, name: str) -> str:
    """Try to join as ``name``; the refusal's text."""
    seq = await tab.send("join", name=name)
    frame = await tab.wait(lambda f: f.get("seq") == seq)
    assert frame["op"] == "refused", frame
    return str(frame["text"])


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u0410lice", "looks just like Alice"),  # a Cyrillic А
        ("ALICE", "already called ALICE"),
        ("Al\u0456ce", "looks just like Alice"),  # a Ukrainian і
        ("\uff21lice", "looks just like Alice"),  # a fullwidth Ａ
        ("Al\u200bice", "invisible"),  # a zero-width space
        ("\u200b", "invisible"),
        ("\u3164", "invisible"),  # the Hangul filler, drawn as nothing
        ("\u202eecilA", "invisible"),  # a right-to-left override: shows as "Alice"
        ("Alice\u034f", "invisible"),  # a combining grapheme joiner
        ("\u0301", "shows"),  # a lone accent
    ],
)
async def test_a_name_that_would_pass_for_another_is_refused(
    fake: LocalDiscord, tabs: list[Tab], name: str, why: str
) -> None:
    tabs.append(await joined(fake, "Alice"))
    other = await open_tab(fake, await new_browser(fake))
    tabs.append(other)
    assert why in await refused(other, name)
    assert [m.name for m in fake.members] == ["Alice"]


async def test_names_in_any_script_and_emoji_are_welcome(fake: LocalDiscord, tabs: list[Tab]) -> None:
    for name in ("Zoë", "Димитрий", "محمد", "田中", "👨\u200d👩\u200d👧", "❤\ufe0f"):
        tabs.append(await joined(fake, name))


async def test_one_browser_cannot_flood_the_server(fake: LocalDiscord, tabs: list[Tab]) -> None:
    tab = await open_tab(fake, await new_browser(fake))
    tabs.append(tab)
    for index in range(JOINS_PER_MINUTE_PER_BROWSER):
        await tab.send("join", name=f"Player {index}")
        await tab.wait(lambda f, index=index: f["op"] == "state" and (f["me"] or {}).get("name") == f"Player {index}")
    assert "Too many new members" in await refused(tab, "One more")
    fake.web.door.joins = RateLimit(100, 60.0)  # type: ignore[attr-defined]  # as if the minutes had passed
    for index in range(JOINS_PER_MINUTE_PER_BROWSER, MEMBERS_PER_BROWSER):
        await tab.send("join", name=f"Player {index}")
        await tab.wait(lambda f, index=index: f["op"] == "state" and (f["me"] or {}).get("name") == f"Player {index}")
    assert f"can make {MEMBERS_PER_BROWSER} members" in await refused(tab, "One more")
    assert len(fake.members) == MEMBERS_PER_BROWSER


async def test_a_join_tells_other_browsers_only_of_the_new_member(fake: LocalDiscord, tabs: list[Tab]) -> None:
    alice = await joined(fake, "Alice")
    tabs.append(alice)
    alice.frames.clear()
    tabs.append(await joined(fake, "Bob"))
    frame = await alice.wait(lambda f: f["op"] == "member")
    assert frame["member"]["name"] == "Bob" and not frame["member"]["mine"]
    assert not [f for f in alice.frames if f["op"] == "state"]


async def test_malformed_requests_to_the_web_client_are_a_4xx(fake: LocalDiscord, tabs: list[Tab]) -> None:
    async with aiohttp.ClientSession() as http:
        for body, status in ((b"[1, 2]", 400), (b'"text"', 400), (b"{not json", 400), (b"{" + b" " * 5000 + b"}", 413)):
            headers = {"Content-Type": "application/json"}
            async with http.post(f"{fake.base_url}/client/join", data=body, headers=headers) as response:
                assert response.status == status
        for path in ("/attachments/1/not-a-number/x.png", "/attachments/x/1/x.png"):
            async with http.get(fake.base_url + path) as response:
                assert response.status == 404
    alice = await joined(fake, "Alice")
    tabs.append(alice)
    await alice.ws.send_str("[" * 100_000)
    await alice.wait(lambda f: f["op"] == "refused")
    await alice.send("modal", interaction="not a number", values=[])
    await alice.wait(lambda f: f["op"] == "refused" and f["seq"] == alice.seq)
    await alice.send("history", channel=str(fake.channels[0].id))
    await alice.wait(lambda f: f["op"] == "history")  # the tab is still there
