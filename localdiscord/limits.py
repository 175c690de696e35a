"""The local server's edges, held to Discord's own limits: request bodies read only up to their limit (after the
caller is known), multipart uploads counted and sized part by part as they stream in, per-client rate limits, and
the Origin check that keeps other web sites out of the API and the Gateway.

Discord's published limits: a message request is at most 25 MiB, each file at most 10 MiB (the default upload
limit, the ``attachment_size_limit`` every interaction carries), at most 10 files a message; a Gateway payload a
client sends is at most 4,096 bytes (more closes the connection with 4002), and at most 120 of them a minute
(4008). Discord publishes no separate cap for a JSON body; 1 MiB is ten times the largest body the bot sends (its
whole command tree), so nothing legitimate comes near it while a flood of bodies can't grow the server's memory.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import BodyPartReader, web

from localdiscord.responses import DiscordError

MIB = 1024 * 1024
REQUEST_LIMIT = 25 * MIB
FILE_LIMIT = 10 * MIB
MAX_FILES = 10
JSON_LIMIT = 1 * MIB
GATEWAY_FRAME_LIMIT = 4096
GATEWAY_EVENTS_PER_MINUTE = 120
CHUNK = 64 * 1024
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def too_large() -> DiscordError:
    """Discord's answer to a body over its limit."""
    return DiscordError(413, 40005, "Request entity too large")


def invalid_json() -> DiscordError:
    """Discord's answer to a body that is not JSON."""
    return DiscordError(400, 50109, "The request body contains invalid JSON.")


async def read_limited(request: web.Request, limit: int) -> bytes:
    """The whole body, refused (413) as soon as it is known to pass ``limit``: from its Content-Length before a
    byte is read, or while it streams in when it declares none."""
    if request.content_length is not None and request.content_length > limit:
        raise too_large()
    body = bytearray()
    while chunk := await request.content.read(CHUNK):
        body += chunk
        if len(body) > limit:
            raise too_large()
    return bytes(body)


def parse_json(raw: bytes | str) -> Any:
    """JSON text as Python values; 400 (Discord's 50109) for anything else, however deeply it nests."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise invalid_json() from exc


async def read_body(request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
    """The JSON body (for multipart, the ``payload_json`` part) and the uploaded files, within Discord's limits."""
    if request.content_type == "multipart/form-data":
        return await _read_multipart(request)
    raw = await read_limited(request, JSON_LIMIT) if request.can_read_body else b""
    return (parse_json(raw) if raw else None), []


async def _read_multipart(request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
    if request.content_length is not None and request.content_length > REQUEST_LIMIT:
        raise too_large()
    payload: Any = None
    files: list[dict[str, Any]] = []
    total = 0
    try:
        reader = await request.multipart()
    except (ValueError, AssertionError) as exc:  # no boundary, or not multipart after all
        raise DiscordError(400, 50035, "Invalid Form Body") from exc
    async for part in reader:
        if not isinstance(part, BodyPartReader):  # Discord's multipart bodies are flat
            raise DiscordError(400, 50035, "Invalid Form Body")
        is_payload = part.name == "payload_json"
        if not is_payload and len(files) == MAX_FILES:
            errors = {"files": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 10 or fewer."}]}}
            raise DiscordError(400, 50035, "Invalid Form Body", errors)
        content = await _read_part(part, JSON_LIMIT if is_payload else FILE_LIMIT, REQUEST_LIMIT - total)
        total += len(content)
        if is_payload:
            payload = parse_json(content)
            continue
        files.append(
            {
                "field": part.name,
                "filename": part.filename,
                "size": len(content),
                "content_type": part.headers.get("Content-Type"),
                "content": content,
            }
        )
    return payload, files


async def _read_part(part: BodyPartReader, limit: int, room: int) -> bytes:
    content = bytearray()
    while chunk := await part.read_chunk(CHUNK):
        content += chunk
        if len(content) > min(limit, room):
            raise too_large()
    return bytes(content)


class RateLimit:
    """At most ``count`` events per ``per`` seconds for each key (a token bucket that refills steadily)."""

    def __init__(self, count: int, per: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.count = count
        self.per = per
        self.clock = clock
        self._buckets: dict[Any, tuple[float, float]] = {}

    def take(self, key: Any) -> bool:
        """Spend one event of ``key``'s allowance; False (and nothing spent) when it has none left."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (float(self.count), now))
        tokens = min(float(self.count), tokens + (now - then) * self.count / self.per)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > 10_000:
            self._forget_full(now)
        return True

    def _forget_full(self, now: float) -> None:
        # A bucket that has refilled is the same as no bucket: many passing clients must not grow memory.
        for key, (tokens, then) in list(self._buckets.items()):
            if tokens + (now - then) * self.count / self.per >= self.count:
                del self._buckets[key]


def foreign_origin(request: web.Request, *, hosting: bool) -> bool:
    """Whether a browser page of another site sent this (its Origin is not this server), or the request reached
    this machine-only server under a name that is not this machine (DNS rebinding). The bot sends no Origin."""
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        return True
    return not hosting and urlsplit(f"//{request.host}").hostname not in LOOPBACK_NAMES
