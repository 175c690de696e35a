"""The network's weather the tests order: injected 429s and 500s, slow routes, and requests held in flight."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from localdiscord.changes import Changes


class Hold:
    """Requests the fake keeps waiting (``LocalDiscord.hold``) until the test releases or drops them."""

    def __init__(self, changes: Changes, pattern: str, count: int, *, after_effect: bool = False) -> None:
        self.changes = changes
        self.pattern = pattern
        self.count = count
        self.after_effect = after_effect
        """Discord does what the request asks at once and only its answer is held (it is lost if dropped)."""
        self.caught = 0
        self.dropped = False
        self._gate = asyncio.Event()

    def matches(self, method: str, path: str) -> bool:
        """Whether this hold takes the request (it takes ``count`` of them, then lets everything pass)."""
        return self.caught < self.count and self.pattern in f"{method} {path}"

    async def arrived(self, timeout: float = 5.0) -> None:
        """Wait until a request is being held."""
        await self.changes.wait_for(lambda: self.caught > 0, timeout, what=f"a request matching {self.pattern!r}")

    def release(self) -> None:
        """Let the held requests (and any later ones) through, as if the network had been slow."""
        self.count = self.caught
        self._gate.set()

    def drop(self) -> None:
        """Fail the held requests without doing anything, as if the connection had died with the bot."""
        self.dropped = True
        self.release()

    async def wait(self) -> bool:
        """Called by the server for a held request: block until released; False if it was dropped."""
        self.caught += 1
        self.changes.notify()
        await self._gate.wait()
        return not self.dropped


class Weather:
    """What the tests inject between the bot and the server: each request asks it whether to refuse, delay or
    hold it."""

    def __init__(self, changes: Changes) -> None:
        self.changes = changes
        self.holds: list[Hold] = []
        self._slow: list[tuple[re.Pattern[str], float, bool]] = []
        self._limit_every_route: tuple[float, float] | None = None
        """``rate_limit_every_route``'s waits: (other routes, interaction callbacks)."""
        self._limited_once: dict[str, bool] = {}
        self._injected_429: list[list[Any]] = []
        self._callback_500s = 0

    def inject_429(self, route_substring: str, retry_after: float = 0.05, count: int = 1) -> None:
        """Answer the next ``count`` requests whose "METHOD /api/v10/path" contains ``route_substring`` with 429."""
        self._injected_429.append([route_substring, retry_after, count])

    def take_429(self, method: str, path: str) -> float | None:
        """If a 429 is injected for this request, consume it and return its retry_after."""
        if self._limit_every_route is not None:
            key = f"{method} {path}"
            # Every other try of a route is refused: a request's first try, then its retry goes through.
            if self._limited_once.pop(key, None) is None:
                self._limited_once[key] = True
                routes, callbacks = self._limit_every_route
                return callbacks if path.endswith("/callback") else routes
        for entry in self._injected_429:
            if entry[0] in f"{method} {path}" and entry[2] > 0:
                entry[2] -= 1
                return entry[1]
        return None

    def slow_down(self, pattern: str, seconds: float, *, uploads_only: bool = False) -> None:
        """Make every request whose "METHOD /api/v10/path" matches the regex ``pattern`` (and that uploads a
        file, if ``uploads_only``) wait ``seconds`` before Discord takes it (a rate limit's wait, a slow upload),
        until ``clear_weather``."""
        self._slow.append((re.compile(pattern), seconds, uploads_only))

    def rate_limit_every_route(self, retry_after: float, *, callbacks: float | None = None) -> None:
        """Answer every request with a 429 once: its first try waits ``retry_after`` (an interaction's callback
        ``callbacks``, if given: a sub-limit's wait can be a few milliseconds), its retry goes through (until
        ``clear_weather``)."""
        self._limit_every_route = (retry_after, retry_after if callbacks is None else callbacks)

    def clear_weather(self) -> None:
        """End ``slow_down`` and ``rate_limit_every_route``."""
        self._slow.clear()
        self._limit_every_route = None
        self._limited_once.clear()

    def delay_for(self, method: str, path: str, *, uploads: bool) -> float:
        """How long ``slow_down`` makes this request wait."""
        key = f"{method} {path}"
        slow = (seconds for pattern, seconds, only in self._slow if pattern.search(key) and (uploads or not only))
        return max(slow, default=0.0)

    def hold(self, route_substring: str, count: int = 1, *, after_effect: bool = False) -> Hold:
        """Keep the next ``count`` requests whose "METHOD /api/v10/path" contains ``route_substring`` waiting.

        The test then releases them (a slow network) or drops them (the bot died while they were in flight).
        With ``after_effect``, Discord does what they ask at once and holds only its answer (the bot dies after
        Discord took the request, before it heard back).
        """
        hold = Hold(self.changes, route_substring, count, after_effect=after_effect)
        self.holds.append(hold)
        return hold

    def take_hold(self, method: str, path: str) -> Hold | None:
        """The hold that catches this request, if any."""
        return next((h for h in self.holds if h.matches(method, path)), None)

    def inject_500_on_next_callback(self, count: int = 1) -> None:
        """Answer the next ``count`` interaction callbacks with 500 (not acknowledging them)."""
        self._callback_500s += count

    def take_callback_500(self) -> bool:
        """Consume one injected callback 500, if any."""
        if self._callback_500s:
            self._callback_500s -= 1
            return True
        return False
