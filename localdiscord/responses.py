"""JSON responses shaped like Discord's, with the exact Content-Type discord.py insists on."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json``.

    aiohttp's ``json_response`` appends ``; charset=utf-8``, and discord.py then treats the body as text
    (login fails), so the header is set by hand.
    """
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def error_response(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    """Discord's error body: ``{"code", "message"}`` plus ``errors`` for invalid form bodies."""
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return json_response(body, status=status)


class DiscordError(Exception):
    """Raised inside a route handler to answer with Discord's error shape."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    @property
    def is_bot_bug(self) -> bool:
        """True for errors only a faulty bot gets (bad bodies, late or double responses), not for e.g. a 403."""
        return self.status == 400 or self.code in (10062, 10015)

    def response(self) -> web.Response:
        """The HTTP response Discord would give."""
        return error_response(self.status, self.code, self.message, self.errors)
