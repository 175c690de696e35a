"""The web client's protocol, without a browser: the real bot in process against a local Discord serving the web
client, and tabs that are plain WebSocket clients. Who sees what (ephemeral replies reach only their member), who
may be whom (a browser plays only the members it made), the deadline a tab is told about, cross-site requests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.app import TabletopBot
from localdiscord import LocalDiscord
from localdiscord.web import NOT_RESPONDING
from tests.conftest import MakeBot
from tests.web_tabs import Tab, close_all, joined, new_browser, open_tab, served

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.dice", "cogs.crowns")


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


async def play_bot(make_bot: MakeBot) -> TabletopBot:
    return await make_bot(extensions=EXTENSIONS)


async def test_a_browser_plays_only_the_members_it_made(fake: LocalDiscord, tabs: list[Tab]) -> None:
    stranger = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with stranger.ws_connect(f"{fake.base_url}/client/ws") as ws:
        assert (await ws.receive_json())["op"] == "need_join"
    await stranger.close()

    alice = await joined(fake, "Alice")
    tabs.append(alice)
    state = alice.frames[-1]
    assert state["me"]["owner"] and state["me"]["manager"]  # the first to join owns the server
    bob = await joined(fake, "Bob", alice.browser)  # a second tab of the same browser
    tabs.append(bob)
    await alice.wait(
        lambda f: f["op"] == "state" and {m["name"] for m in f["members"] if m["mine"]} == {"Alice", "Bob"}
    )
    await alice.send("switch", member=bob.frames[-1]["me"]["id"])
    await alice.wait(lambda f: f["op"] == "state" and (f["me"] or {}).get("name") == "Bob")  # "play as Bob"

    other = await open_tab(fake, await new_browser(fake), member=state["me"]["id"])
    tabs.append(other)
    assert other.frames[-1]["me"] is None  # another browser can't be Alice
    await other.send("join", name="alice")
    refused = await other.wait(lambda f: f["op"] == "refused")
    assert "already called alice" in refused["text"]


async def test_private_replies_reach_only_their_member(fake: LocalDiscord, make_bot: MakeBot, tabs: list[Tab]) -> None:
    alice, bob = await joined(fake, "Alice"), await joined(fake, "Bob")
    tabs += [alice, bob]
    await play_bot(make_bot)
    channel = str(fake.channels[0].id)
    await alice.send("slash", channel=channel, command="ping", options={})
    pong = await alice.wait(lambda f: f["op"] == "message" and "Pong" in f["message"]["html"])
    assert pong["message"]["ephemeral"] and pong["message"]["invoked"] == "/ping"
    await bob.send("slash", channel=channel, command="roll", options={"expression": "d20"})
    rolled = await alice.wait(lambda f: f["op"] == "message" and "Bob" in f["message"]["html"])
    assert not rolled["message"]["ephemeral"]
    await bob.wait(lambda f: f["op"] == "message" and f["message"]["id"] == rolled["message"]["id"])
    assert not any("Pong" in str(f) for f in bob.frames)
    await bob.send("history", channel=channel)
    history = await bob.wait(lambda f: f["op"] == "history")
    assert [m["id"] for m in history["messages"]] == [rolled["message"]["id"]]

    fake.delete_message(fake.channels[0], int(rolled["message"]["id"]))
    gone = await bob.wait(lambda f: f["op"] == "message" and f["message"].get("deleted") is True)
    assert gone["message"]["id"] == rolled["message"]["id"]


async def test_a_tab_hears_when_the_bot_misses_the_deadline(
    fake: LocalDiscord, make_bot: MakeBot, tabs: list[Tab]
) -> None:
    alice = await joined(fake, "Alice")
    tabs.append(alice)
    await play_bot(make_bot)
    fake.tolerate("Unknown interaction")
    fake.tolerate("never answered")
    held = fake.hold("/callback")
    seq = await alice.send("slash", channel=str(fake.channels[0].id), command="ping", options={})
    failed = await alice.wait(lambda f: f.get("seq") == seq and f["op"] in ("failed", "done"))
    assert failed == {"op": "failed", "seq": seq, "text": NOT_RESPONDING}
    held.release()


async def test_only_managers_make_managers(fake: LocalDiscord, make_bot: MakeBot, tabs: list[Tab]) -> None:
    alice, bob = await joined(fake, "Alice"), await joined(fake, "Bob")
    tabs += [alice, bob]
    await play_bot(make_bot)
    bob_id = bob.frames[-1]["me"]["id"]
    assert "settings" not in {c["name"] for c in bob.frames[-1]["commands"]}  # Manage Server only
    await bob.send("manager", member=bob_id, on=True)
    refused = await bob.wait(lambda f: f["op"] == "refused")
    assert refused["text"] == "Only a server manager can make someone a manager."
    await alice.send("manager", member=bob_id, on=True)
    state = await bob.wait(lambda f: f["op"] == "state" and (f["me"] or {}).get("manager"))
    assert "settings" in {c["name"] for c in state["commands"]}


async def test_requests_from_other_sites_are_refused(fake: LocalDiscord) -> None:
    async with aiohttp.ClientSession() as browser:
        evil = {"Origin": "http://evil.example"}
        async with browser.post(f"{fake.base_url}/client/join", json={}, headers=evil) as response:
            assert response.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await browser.ws_connect(f"{fake.base_url}/client/ws", headers=evil)
        # A site whose name was made to point here (DNS rebinding) is not this machine's page either.
        rebound = {"Host": "evil.example", "Origin": "http://evil.example"}
        async with browser.post(f"{fake.base_url}/client/join", json={}, headers=rebound) as response:
            assert response.status == 403


async def test_a_malformed_request_is_refused_and_the_tab_stays(fake: LocalDiscord, tabs: list[Tab]) -> None:
    alice = await joined(fake, "Alice")
    tabs.append(alice)
    await alice.ws.send_str("not json")
    await alice.send("slash", channel=str(fake.channels[0].id), command="ping", options=["not", "a", "dict"])
    await alice.wait(lambda f: f["op"] == "refused" and f["seq"] == alice.seq)
    await alice.send("history", channel=str(fake.channels[0].id))
    await alice.wait(lambda f: f["op"] == "history")


async def test_a_game_in_its_own_thread_shows_up_as_one(fake: LocalDiscord, make_bot: MakeBot, tabs: list[Tab]) -> None:
    alice = await joined(fake, "Alice")
    tabs.append(alice)
    await play_bot(make_bot)
    await alice.send("slash", channel=str(fake.channels[1].id), command="crowns new", options={"thread": True})
    thread = (await alice.wait(lambda f: f["op"] == "channel" and f["channel"]["type"] == 11))["channel"]
    assert thread["parent_id"] == str(fake.channels[1].id)
    lobby = await alice.wait(lambda f: f["op"] == "message" and f["message"]["channel_id"] == thread["id"])
    assert "lobby" in lobby["message"]["html"]
