"""The edge of the HTTP API: who is asking is known before a byte of the body is read, the body is read within
Discord's limits, then the faults a test injected (holds, delays, 429s), and Discord's errors in Discord's shape."""

from __future__ import annotations

import asyncio
import hmac
import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from localdiscord.interactions import InteractionResult
from localdiscord.limits import foreign_origin, read_body
from localdiscord.requestlog import log_request
from localdiscord.responses import DiscordError, error_response, json_response

if TYPE_CHECKING:
    from localdiscord.changes import Changes
    from localdiscord.client import Client
    from localdiscord.state import World
    from localdiscord.weather import Weather

API = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
# Interaction webhooks are authorised by their token in the path, not by the bot token.
TOKEN_AUTHORISED = (f"{API}/interactions/", f"{API}/webhooks/")
# Per-request storage: the parsed body, the uploads, and the interaction a webhook request belongs to.
BODY: web.RequestKey[Any] = web.RequestKey("body", object)
FILES: web.RequestKey[list[dict[str, Any]]] = web.RequestKey("files", list)
INTERACTION = web.RequestKey("interaction", InteractionResult)
EXPECTED_BUG = web.RequestKey("expected_bug", str)


class ApiEdge:
    """The API's middleware for one local Discord: it asks the ``weather`` what to do with each request, logs it
    in ``requests`` and records what Discord would refuse in ``changes``."""

    def __init__(
        self,
        world: World,
        client: Client,
        weather: Weather,
        changes: Changes,
        requests: list[dict[str, Any]],
        *,
        takes_a_list: tuple[Handler, ...],
    ) -> None:
        self.world = world
        self.client = client
        self.weather = weather
        self.changes = changes
        self.requests = requests
        self.takes_a_list = takes_a_list
        """The routes whose body is a JSON array (every other one takes an object)."""

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Know who is asking before reading a byte of the body, then read it within Discord's limits; record and
        log the request (requests wrong on purpose, see ``tolerate``, stay out of the log)."""
        if not request.path.startswith(API):
            return await handler(request)
        refusal = self._refusal(request)
        if refusal is not None:
            return refusal
        try:
            body, files = await read_body(request)
            if body is not None and not isinstance(body, dict) and request.match_info.handler not in self.takes_a_list:
                raise DiscordError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "DICT_TYPE_CONVERT"}]})
        except DiscordError as exc:
            self.changes.fail(f"{request.method} {request.path}: {exc.status} {exc.code} {exc.message}")
            return exc.response()
        entry = {"method": request.method, "path": request.path_qs, "json": body}
        if not self.world.long_running:
            self.requests.append(entry)
        request[BODY], request[FILES] = body, files
        response = await self._answer(request, handler)
        if request.get(EXPECTED_BUG) is None:
            log_request(entry)
        self.changes.notify()
        return response

    def _refusal(self, request: web.Request) -> web.Response | None:
        """The answer to a request from a web page, without the bot's token (or the interaction's), or to a route
        the fake does not know; None for the bot's requests."""
        if foreign_origin(request, hosting=self.world.hosting):
            self.changes.rejections.append(f"403 {request.method} {request.path}")
            return error_response(403, 0, "403: Forbidden")
        if request.path.startswith(TOKEN_AUTHORISED):
            if request.match_info.get("token", "") not in self.client.interactions_by_token:
                self.changes.rejections.append(f"404 {request.method} {request.path}")
                unknown = request.path.startswith(TOKEN_AUTHORISED[0])
                return error_response(404, *((10062, "Unknown interaction") if unknown else (10015, "Unknown Webhook")))
        elif not hmac.compare_digest(
            request.headers.get("Authorization", "").encode(), f"Bot {self.world.token}".encode()
        ):
            self.changes.rejections.append(f"401 {request.method} {request.path}")
            return error_response(401, 0, "401: Unauthorized")
        if request.match_info.http_exception is not None:
            self.changes.fail(f"the fake does not implement {request.method} {request.path_qs}")
            return error_response(404, 0, "404: Not Found")
        return None

    async def _answer(self, request: web.Request, handler: Handler, *, held: bool = False) -> web.StreamResponse:
        # Injected faults first, then unknown routes (loudly), auth, and Discord's errors in Discord's shape.
        hold = None if held else self.weather.take_hold(request.method, request.path)
        if hold is not None and hold.after_effect:
            response = await self._answer(request, handler, held=True)
            # A dropped answer: Discord did it, and the bot heard an error (or nothing, if it died meanwhile).
            return response if await hold.wait() else error_response(503, 0, "503: the test dropped this answer")
        if hold is not None and not await hold.wait():
            return error_response(503, 0, "503: the test dropped this request")
        delay = self.weather.delay_for(request.method, request.path, uploads=bool(request[FILES]))
        if delay:
            await asyncio.sleep(delay)
        retry_after = self.weather.take_429(request.method, request.path)
        if retry_after is not None:
            return json_response(
                {"message": "You are being rate limited.", "retry_after": retry_after, "global": False},
                status=429,
                headers={"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": "user"},
            )
        try:
            response = await handler(request)
        except (TypeError, AttributeError, KeyError, ValueError) as exc:
            # A body of the right shape with a value of the wrong type: Discord refuses it, it never fails itself.
            problem = f"{request.method} {request.path}: 400 50035 Invalid Form Body ({type(exc).__name__}: {exc})"
            if not self.changes.fail(problem):
                request[EXPECTED_BUG] = problem
            response = error_response(400, 50035, "Invalid Form Body")
        except DiscordError as exc:
            problem = f"{request.method} {request.path}: {exc.status} {exc.code} {exc.message}"
            res: InteractionResult | None = request.get(INTERACTION)
            if res is not None:
                res.errors.append(problem)
            if exc.is_bot_bug:
                if not self.changes.fail(problem):
                    request[EXPECTED_BUG] = problem
            else:
                self.changes.rejections.append(problem)
            response = exc.response()
        return response


def snowflake(request: web.Request, key: str) -> int:
    """The id ``key`` of the request's path (-1 if it is no number: no such thing)."""
    value = request.match_info[key]
    return int(value) if value.isdigit() else -1
