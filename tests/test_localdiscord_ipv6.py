"""``python -m localdiscord --host ::`` (every address, IPv6 and IPv4): the bot, on this machine, reaches the server,
and so does a browser over either family (issue 26)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from localdiscord import LocalDiscord
from tests.conftest import MakeBot


@pytest.fixture
async def fake() -> AsyncIterator[LocalDiscord]:
    """A local Discord listening on every address, as ``--host ::`` has it."""
    server = LocalDiscord()
    await server.start("::")
    try:
        yield server
    finally:
        await server.stop()
    assert not server.failures, "fake Discord recorded problems:\n" + "\n".join(server.failures)


async def test_a_server_on_every_address_serves_the_bot_and_both_families(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    assert fake.base_url.startswith("http://[::1]:")
    await make_bot(extensions=["cogs.meta"])
    assert (await (await fake.slash(fake.channels[0], fake.members[1], "ping")).message()).content == "Pong!"
    port = fake.base_url.rsplit(":", 1)[1]
    async with aiohttp.ClientSession() as http:
        for host in ("[::1]", "127.0.0.1"):
            headers = {"Authorization": f"Bot {fake.token}"}
            async with http.get(f"http://{host}:{port}/api/v10/gateway", headers=headers) as response:
                assert response.status == 200
