"""Files in the playground reach who may see them and nobody else (issue 26, part 1): the GM's campaign export, a
handout sent to the GM alone and the GM's private copy of a scoresheet's picture can't be fetched by another
member's browser nor without one, at a guessed id, at another channel or name, nor with the GM's own URL once it has
expired; while the bot still reads the files people attach to its commands through the URL it is given."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from bot.app import TabletopBot
from localdiscord import LocalDiscord
from localdiscord.cdn import FETCHES_PER_MINUTE, URL_LIFETIME
from localdiscord.guild import Member
from localdiscord.messages import Message
from tests.conftest import MakeBot
from tests.web_tabs import Tab, attach, close_all, joined, served

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.dice", "cogs.viciousness", "cogs.vices")
PNG = b"\x89PNG\r\n\x1a\n the GM's map"


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


def member(fake: LocalDiscord, name: str) -> Member:
    """The member called ``name``."""
    return next(m for m in fake.members if m.name == name)


async def urls_shown(tab: Tab, message: Message) -> list[str]:
    """The file URLs ``tab`` was given for ``message`` (its attachments and its embeds' pictures), once it has some
    (a deferred answer is shown loading first)."""

    def files(shown: dict[str, Any]) -> list[str]:
        pictures = [e.get(k) for e in shown.get("embeds", []) for k in ("image", "thumbnail")]
        return [a["url"] for a in [*shown.get("attachments", []), *pictures] if a and a["url"].startswith("/att")]

    frame = await tab.wait(
        lambda f: f["op"] == "message" and f["message"]["id"] == str(message.id) and bool(files(f["message"]))
    )
    return files(frame["message"])


async def status(http: aiohttp.ClientSession, url: str) -> int:
    """The status of a GET."""
    async with http.get(url) as response:
        return response.status


async def private_files(
    fake: LocalDiscord, bot: TabletopBot, gm: Member, pip: Member
) -> tuple[list[Message], Message, Message]:
    """The GM's export, a handout to the GM and the GM's copy of a sheet's picture; and Pip's rolls around the
    export (public messages whose ids an attacker sees)."""
    channel = fake.channels[0]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    before = await (await fake.slash(channel, pip, "roll", options={"expression": "d20"})).message()
    export = await (await fake.slash(channel, gm, "vic-gm campaign export")).message()
    after = await (await fake.slash(channel, pip, "roll", options={"expression": "d20"})).message()
    dm = fake.dm_channel(gm)
    handout = fake.create_message(
        dm, {"content": "Handout"}, attachments=[fake.store_upload(dm, "map.png", PNG, "image/png")]
    )
    sheet_channel = fake.channels[1]
    players = "Jordan: Wrath, Casey: Greed, Robin: Pride"
    sheet = await (await fake.slash(sheet_channel, pip, "vv sheet", options={"players": players})).message(20)
    assert not sheet.ephemeral, sheet.content
    await bot.settled()
    await fake.slash(sheet_channel, gm, "vv show")  # not on the sheet: a private copy of it, with its picture
    copy = await fake.wait_for(lambda: next((m for m in fake.ephemerals(gm) if m.attachments), None), 20)
    assert export.ephemeral and copy.ephemeral and export.attachments and copy.attachments
    return [export, handout, copy], before, after


async def test_a_private_file_reaches_its_member_alone(fake: LocalDiscord, make_bot: MakeBot, tabs: list[Tab]) -> None:
    gm_tab, pip_tab = await joined(fake, "Gemma"), await joined(fake, "Pip")
    tabs += [gm_tab, pip_tab]
    bot = await make_bot(extensions=EXTENSIONS)
    gm, pip = member(fake, "Gemma"), member(fake, "Pip")
    files, before, after = await private_files(fake, bot, gm, pip)
    base = fake.base_url
    async with aiohttp.ClientSession() as nobody:
        for message in files:
            (url,) = await urls_shown(gm_tab, message)
            query = urlsplit(url).query
            assert {"ex", "is", "hm"} <= {part.split("=")[0] for part in query.split("&") if part}
            async with gm_tab.browser.get(base + url) as response:
                assert response.status == 200
                assert await response.read() == fake.attachment_bytes(message.attachments[0])
            assert await status(pip_tab.browser, base + url) == 404  # another member's browser
            assert await status(nobody, base + url) == 404  # no browser at all
            _, _, channel_id, attachment_id, filename = urlsplit(url).path.split("/")
            for moved in (
                f"/attachments/{fake.channels[2].id}/{attachment_id}/{filename}?{query}",
                f"/attachments/{channel_id}/{attachment_id}/other.json?{query}",
                f"/attachments/{channel_id}/{attachment_id}/{filename}",
            ):
                assert await status(gm_tab.browser, base + moved) == 404  # only where and as it was posted
        # The page is never given the bot's URLs, which need no browser.
        bot_url = files[0].attachments[0]["url"]
        assert not any(urlsplit(bot_url).query in str(f) for tab in (gm_tab, pip_tab) for f in tab.frames)
        # Every id an attacker can bracket between Pip's two rolls (to the export's millisecond), from both.
        export_id = int(files[0].attachments[0]["id"])
        millis = export_id >> 22
        guesses = [
            (m << 22) | (export_id & (0x1F << 17)) | counter
            for m in (millis - 1, millis, millis + 1)
            for counter in range((before.id & 0xFFF) + 1, after.id & 0xFFF)
        ]
        assert export_id in guesses
        for http in (pip_tab.browser, nobody):
            for guess in guesses:
                assert await status(http, f"{base}/attachments/{fake.channels[0].id}/{guess}/campaign.json") in (
                    404,
                    429,
                )
        # A day later, the GM's own URLs have expired; so have the bot's.
        (url,) = await urls_shown(gm_tab, files[0])
        fake.cdn.clock = lambda: time.time() + URL_LIFETIME + 1
        assert await status(gm_tab.browser, base + url) == 404
        assert await status(nobody, bot_url) == 404


async def test_fetching_files_is_rate_limited(fake: LocalDiscord) -> None:
    fake.cdn.fetches.clock = lambda: 0.0  # time stands still: no allowance comes back during the test
    async with aiohttp.ClientSession() as stranger:
        answers = [await status(stranger, f"{fake.base_url}/attachments/1/{n}/x.png") for n in range(130)]
    assert answers[:FETCHES_PER_MINUTE] == [404] * FETCHES_PER_MINUTE
    assert set(answers[FETCHES_PER_MINUTE:]) == {429}


async def test_the_bot_still_reads_what_a_member_attaches(
    fake: LocalDiscord, make_bot: MakeBot, tabs: list[Tab]
) -> None:
    gm_tab = await joined(fake, "Gemma")
    tabs.append(gm_tab)
    await make_bot(extensions=EXTENSIONS)
    gm = member(fake, "Gemma")
    await (await fake.slash(fake.channels[0], gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    export = await (await fake.slash(fake.channels[0], gm, "vic-gm campaign export")).message()
    data = fake.attachment_bytes(export.attachments[0])
    file = {"upload": await attach(fake, gm_tab.browser, "knives.json", data)}
    channel = str(fake.channels[1].id)
    await gm_tab.send("slash", channel=channel, command="vic-gm campaign import", options={"file": file})
    sheet = await gm_tab.wait(lambda f: f["op"] == "message" and f["message"]["channel_id"] == channel)
    assert "Knives" in str(sheet["message"]["embeds"])  # the bot fetched the file through its signed URL
