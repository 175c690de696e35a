"""``python -m localdiscord --host ::`` (every address, IPv6 and IPv4): the bot, on this machine, reaches the server,
and so does a browser over either family (issue 26)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from localdiscord import LocalDiscord
from tests.conftest import MakeBot

REPO = Path(__file__).resolve().parents[1]


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


def test_the_launcher_on_every_address_starts_its_bot(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    command = [sys.executable, "-m", "localdiscord", "--port", "0", "--host", "::", "--data", str(tmp_path / "var")]
    proc = subprocess.Popen(
        command, cwd=tmp_path, env=env | {"PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        opened = next((line for line in proc.stdout if line.startswith(("Open", "The bot"))), "")
        assert opened.startswith("Open http://[::1]:") and "join code" in opened  # printed once the bot is in
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
