"""The local Gateway keeps time as Discord's does: a bot never reads its heartbeat ACKs as late ("Can't keep up, …
41.3 s behind" in ``var/bot.log`` at every heartbeat, issue 28), and a connection that never identifies is closed."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import aiohttp

from localdiscord import LocalDiscord
from tests.bot_process import REPO

HEARTBEATS = 6


async def test_a_bot_process_hears_each_heartbeat_ack_in_time(fake: LocalDiscord) -> None:
    # discord.py, in a process of its own as the bot is, over several short heartbeat intervals.
    fake.heartbeat_interval = 0.5
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")} | {"PYTHONPATH": str(REPO)}
    client = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.heartbeat_client",
        fake.base_url,
        fake.token,
        str(HEARTBEATS),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(client.communicate(), 60)
    finally:
        if client.returncode is None:
            client.kill()
            await client.wait()
    assert client.returncode == 0, output.decode()
    latencies = json.loads(output.decode().splitlines()[-1])
    assert len(latencies) == HEARTBEATS
    # An ACK read as a whole interval late is the warning's cause; one network round trip is what Discord's takes.
    assert max(latencies) < fake.heartbeat_interval * 0.8, latencies


async def test_a_gateway_connection_that_never_identifies_is_closed(fake: LocalDiscord) -> None:
    fake.identify_deadline = 0.3
    url = f"{fake.base_url.replace('http', 'ws', 1)}/gateway?v=10&encoding=json"
    async with aiohttp.ClientSession() as http, http.ws_connect(url, autoping=True) as ws:
        assert (await ws.receive_json(timeout=5))["op"] == 10
        await ws.send_str('{"op": 1, "d": null}')  # heartbeats alone do not keep it open
        while (await ws.receive(timeout=5)).type == aiohttp.WSMsgType.TEXT:
            continue
        assert ws.close_code == 4009
    await fake.wait_for(lambda: not fake.connections, 5.0, what="the connection to go")
