"""The local Discord's shards and session starts, as Discord's documentation describes them: GET /gateway/bot says
the recommended shard count and ``max_concurrency``; shards IDENTIFY in buckets ``shard_id % max_concurrency``,
each bucket once per 5 seconds, whoever sends them (sooner: INVALID_SESSION); a session with more guilds than a shard
may hold closes with 4011, a shard outside its count with 4010, a second IDENTIFY on one connection with 4005."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from localdiscord.server import LocalDiscord

TIMEOUT = 5.0


def identify(fake: LocalDiscord, shard: list[int] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"token": fake.token, "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    return {"op": 2, "d": data}


async def first_answer(fake: LocalDiscord, *frames: dict[str, Any]) -> tuple[int | None, int | None]:
    """Connect, send ``frames``; the opcode of the first frame after HELLO (None if none came), and the close code
    (None while the connection stays open)."""
    url = f"{fake.base_url.replace('http', 'ws', 1)}/gateway?v=10&encoding=json"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        assert (await ws.receive_json(timeout=TIMEOUT))["op"] == 10
        for frame in frames:
            await ws.send_json(frame)
        message = await ws.receive(timeout=TIMEOUT)
        if message.type is aiohttp.WSMsgType.TEXT:
            return int(message.json()["op"]), None
        return None, ws.close_code


@pytest.mark.fake(guilds=4, shards=4, max_concurrency=2)
async def test_shards_identify_by_bucket_once_per_five_seconds(fake: LocalDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http, http.get(f"{fake.base_url}/api/v10/gateway/bot") as got:
        body = await got.json()
    assert body["shards"] == 4 and body["session_start_limit"]["max_concurrency"] == 2
    remaining = body["session_start_limit"]["remaining"]
    # Shards 0 and 1 are in buckets 0 and 1: both start at once.
    assert await first_answer(fake, identify(fake, [0, 4])) == (0, None)
    assert await first_answer(fake, identify(fake, [1, 4])) == (0, None)
    # Shard 2 shares bucket 0 with shard 0: too soon, INVALID_SESSION (op 9), as Discord answers.
    fake.tolerate("IDENTIFY of shard 2")
    assert await first_answer(fake, identify(fake, [2, 4])) == (9, None)
    assert "bucket 0" in fake.tolerated[-1] and "max_concurrency 2" in fake.tolerated[-1]
    assert [shard for _, shard in fake.session_starts.identifies] == [0, 1]
    assert fake.session_starts.remaining == remaining - 2


@pytest.mark.fake(guilds=2, shards=2)
async def test_wrong_shard_information_closes_as_discord_closes_it(fake: LocalDiscord) -> None:
    fake.session_starts.guilds_per_shard = 1
    assert await first_answer(fake, identify(fake)) == (None, 4011)  # two guilds on one session: shard
    assert await first_answer(fake, identify(fake, [0, 2])) == (0, None)  # one guild a shard: READY
    fake.tolerate("on a connection that already has a session")
    url = f"{fake.base_url.replace('http', 'ws', 1)}/gateway?v=10&encoding=json"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        await ws.receive_json(timeout=TIMEOUT)
        await ws.send_json(identify(fake, [1, 2]))
        assert (await ws.receive_json(timeout=TIMEOUT))["t"] == "READY"
        await ws.send_json(identify(fake, [1, 2]))
        while (await ws.receive(timeout=TIMEOUT)).type is aiohttp.WSMsgType.TEXT:
            continue
        assert ws.close_code == 4005
    fake.tolerate("invalid shard")
    assert await first_answer(fake, identify(fake, [2, 2])) == (None, 4010)
