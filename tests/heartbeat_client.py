"""A discord.py client (the library the bot runs on, in a process of its own as the bot runs) that connects to a
local Discord and prints, as JSON, the latency discord.py worked out at each of its first HEARTBEAT_ACKs:
``python -m tests.heartbeat_client BASE_URL TOKEN COUNT``. discord.py warns "Can't keep up" when one passes 10 s."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys

import discord

from bot.endpoint import use_api_base

TIMEOUT = 60.0
HEARTBEAT_ACK = 11


async def latencies(base: str, token: str, count: int) -> list[float]:
    """Connect, hear ``count`` heartbeat ACKs, and disconnect; discord.py's latency after each."""
    use_api_base(base)
    client = discord.Client(intents=discord.Intents.none(), enable_debug_events=True)
    heard: list[float] = []
    enough = asyncio.Event()

    @client.event
    async def on_socket_raw_receive(message: str) -> None:
        # Dispatched once discord.py has handled the payload: for an ACK, its latency is worked out by now.
        if json.loads(message).get("op") == HEARTBEAT_ACK:
            heard.append(client.latency)
            if len(heard) == count:
                enough.set()

    async with client:
        await client.login(token)
        running = asyncio.create_task(client.connect(reconnect=False))
        try:
            await asyncio.wait_for(enough.wait(), TIMEOUT)
        finally:
            await client.close()
            with contextlib.suppress(Exception):
                await running
    return heard


if __name__ == "__main__":
    base_url, bot_token, wanted = sys.argv[1:4]
    print(json.dumps(asyncio.run(latencies(base_url, bot_token, int(wanted)))))
