"""The local Discord's edges hold Discord's limits (issue 26, part 2): the caller is known before a byte of the body is
read, bodies, files and Gateway frames just over Discord's limits are refused before they are buffered, other web
sites are refused, and malformed input gets a 4xx (or a Gateway close code), never a 500. These are the probes of
``bench/playground_probes.py`` at sizes just over each limit."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from localdiscord import LocalDiscord
from localdiscord.limits import FILE_LIMIT, GATEWAY_FRAME_LIMIT, JSON_LIMIT, MAX_FILES, REQUEST_LIMIT

HELLO_TIMEOUT = 5.0


def auth(fake: LocalDiscord) -> dict[str, str]:
    """The bot's Authorization header."""
    return {"Authorization": f"Bot {fake.token}"}


async def first_line(fake: LocalDiscord, head: str) -> str:
    """Send only the head of a request (its body never comes) and read the status line of the answer."""
    host, port = fake.base_url.removeprefix("http://").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        writer.write(head.replace("\n", "\r\n").encode() + b"\r\n")
        await writer.drain()
        return (await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT)).decode().strip()
    finally:
        writer.close()


async def test_the_token_is_checked_before_the_body_is_read(fake: LocalDiscord) -> None:
    huge = 60 * 1024 * 1024
    post = f"POST /api/v10/channels/{fake.channels[0].id}/messages HTTP/1.1\nHost: 127.0.0.1\n"
    head = post + f"Content-Type: application/json\nContent-Length: {huge}\n"
    assert await first_line(fake, head) == "HTTP/1.1 401 Unauthorized"  # at once: the 60 MiB never came
    callback = "POST /api/v10/interactions/1/made-up-token/callback HTTP/1.1\nHost: 127.0.0.1\n"
    assert await first_line(fake, callback + f"Content-Length: {huge}\n") == "HTTP/1.1 404 Not Found"
    # The bot itself is refused as soon as its body is known to be over the limit.
    fake.tolerate("40005")
    with_token = head + f"Authorization: Bot {fake.token}\n"
    assert await first_line(fake, with_token) == "HTTP/1.1 413 Request Entity Too Large"
    assert fake.requests == []


async def post(fake: LocalDiscord, data: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """POST a message to the first channel as the bot; the status and the JSON answer."""
    async with aiohttp.ClientSession() as http:
        url = f"{fake.base_url}/api/v10/channels/{fake.channels[0].id}/messages"
        async with http.post(url, data=data, headers=auth(fake) | (headers or {})) as response:
            return response.status, await response.json()


def upload(*sizes: int) -> aiohttp.FormData:
    """A message with files of these sizes."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "files"}), content_type="application/json")
    for index, size in enumerate(sizes):
        form.add_field(f"files[{index}]", b"\0" * size, filename=f"{index}.bin")
    return form


async def test_bodies_just_over_discords_limits_are_refused(fake: LocalDiscord) -> None:
    for code in ("40005", "50035", "50109"):
        fake.tolerate(code)
    as_json = {"Content-Type": "application/json"}
    message = b'{"content": "x"}'
    at_limit = message[:-1] + b" " * (JSON_LIMIT - len(message)) + b"}"
    assert len(at_limit) == JSON_LIMIT and (await post(fake, at_limit, as_json))[0] == 200
    over = message[:-1] + b" " * (JSON_LIMIT + 1 - len(message)) + b"}"
    assert await post(fake, over, as_json) == (413, {"code": 40005, "message": "Request entity too large"})
    assert (await post(fake, upload(*[1] * MAX_FILES)))[0] == 200
    status, body = await post(fake, upload(*[1] * (MAX_FILES + 1)))
    assert status == 400 and "files" in body["errors"]
    assert (await post(fake, upload(FILE_LIMIT + 1)))[0] == 413
    assert (await post(fake, upload(*[FILE_LIMIT] * 2, REQUEST_LIMIT - 2 * FILE_LIMIT + 1)))[0] == 413


async def test_malformed_api_bodies_are_a_4xx(fake: LocalDiscord) -> None:
    for code in ("50035", "50109"):
        fake.tolerate(code)
    as_json = {"Content-Type": "application/json"}
    assert await post(fake, b"{not json", as_json) == (
        400,
        {"code": 50109, "message": "The request body contains invalid JSON."},
    )
    assert (await post(fake, b"[" * 100_000, as_json))[0] == 400
    assert (await post(fake, b'["a", "list"]', as_json))[0] == 400
    assert (await post(fake, b'{"content": "x", "embeds": "not a list"}', as_json))[0] == 400


async def test_the_api_refuses_other_sites(fake: LocalDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        evil = auth(fake) | {"Origin": "http://evil.example"}
        async with http.get(f"{fake.base_url}/api/v10/users/@me", headers=evil) as response:
            assert response.status == 403
        rebound = auth(fake) | {"Host": "evil.example"}
        async with http.get(f"{fake.base_url}/api/v10/users/@me", headers=rebound) as response:
            assert response.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(f"{fake.base_url}/gateway", headers={"Origin": "http://evil.example"})


async def gateway_close(fake: LocalDiscord, *frames: str | bytes) -> int | None:
    """Connect to the Gateway, send ``frames`` (no IDENTIFY), and the close code it ends with."""
    url = f"{fake.base_url.replace('http', 'ws', 1)}/gateway?v=10&encoding=json"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        assert (await ws.receive_json(timeout=HELLO_TIMEOUT))["op"] == 10
        for frame in frames:
            await (ws.send_str(frame) if isinstance(frame, str) else ws.send_bytes(frame))
        while (await ws.receive(timeout=HELLO_TIMEOUT)).type == aiohttp.WSMsgType.TEXT:
            continue
        return ws.close_code


def heartbeat(size: int) -> str:
    """A heartbeat of exactly ``size`` bytes."""
    text = '{"op": 1, "d": null}'
    return text + " " * (size - len(text))


async def test_gateway_frames_over_discords_limit_close_the_connection(fake: LocalDiscord) -> None:
    url = f"{fake.base_url.replace('http', 'ws', 1)}/gateway"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as ws:
        await ws.receive_json(timeout=HELLO_TIMEOUT)
        await ws.send_str(heartbeat(GATEWAY_FRAME_LIMIT))
        assert (await ws.receive_json(timeout=HELLO_TIMEOUT))["op"] == 11  # up to the limit: answered
    assert await gateway_close(fake, heartbeat(GATEWAY_FRAME_LIMIT + 1)) == 4002
    assert await gateway_close(fake, b"x" * (GATEWAY_FRAME_LIMIT + 1)) == 4002


async def test_malformed_or_early_gateway_payloads_close_the_connection(fake: LocalDiscord) -> None:
    assert await gateway_close(fake, "{not json") == 4002
    assert await gateway_close(fake, "[" * 3000) == 4002
    assert await gateway_close(fake, '{"op": 2, "d": "a string"}') == 4002
    assert await gateway_close(fake, '{"op": 3, "d": {}}') == 4003  # a presence before IDENTIFY
    assert await gateway_close(fake, *[heartbeat(20)] * 150) == 4008  # 120 payloads a minute
