"""The bot's own HTTP server on ``METRICS_PORT``: ``/metrics`` for Prometheus, ``/healthz`` for the container.

It runs on the bot's event loop on purpose. A loop that is stuck can't answer ``/healthz`` at all, so the probe's
own timeout (``python -m bot.healthz``, Docker's HEALTHCHECK) catches a frozen bot; a loop that turns late but
turns answers, and its lag (``bot.liveness.LoopMonitor``) says how late. A watchdog thread would answer for a
loop that can't.

``/healthz`` runs every check at once, each within ``CHECK_TIMEOUT_S``, and answers 200 when all are ok, else
503, with a JSON body: ``{"healthy": …, "checks": {name: {"ok": …, …}}}``. A check is a coroutine its owner adds
(``add_check``): the event loop, the Gateway, the database; anything else that must hold for the process to be
useful (a shard's lease) is added the same way.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from aiohttp import web
from prometheus_client import CollectorRegistry
from prometheus_client.aiohttp import make_aiohttp_handler

log = logging.getLogger(__name__)

CHECK_TIMEOUT_S = 5.0
"""A check that takes longer fails (below the probe's own timeout, so the answer says which check hung)."""
SCRAPE_TIMEOUT_S = 2.0
"""The counts read from the database at each scrape give up after this; the last ones are served."""
ERROR_CHARS = 200

Detail = Mapping[str, float | int | str | bool | None]


class PortUnavailable(Exception):
    """The server can't listen on its port; ``str(error)`` is one line saying what to do."""


@dataclass(frozen=True)
class Check:
    """The result of one check: whether it holds, and the figures behind it (shown as they are in ``/healthz``)."""

    ok: bool
    detail: Detail = field(default_factory=dict)


CheckFn = Callable[[], Awaitable[Check]]


class StatusServer:
    """``/metrics`` from ``registry`` (after ``before_scrape``) and ``/healthz`` from the checks added."""

    def __init__(
        self, registry: CollectorRegistry, *, before_scrape: Callable[[], Awaitable[None]] | None = None
    ) -> None:
        self._exposition = make_aiohttp_handler(registry)
        self._before_scrape = before_scrape
        self._checks: dict[str, CheckFn] = {}
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on, once started (the one chosen, for port 0)."""

    def add_check(self, name: str, check: CheckFn) -> None:
        """Make ``check`` part of ``/healthz`` under ``name``."""
        self._checks[name] = check

    async def health(self) -> tuple[bool, dict[str, dict[str, object]]]:
        """Run every check at once: whether all hold, and each one's result."""
        names = list(self._checks)
        results = await asyncio.gather(*(self._run(self._checks[name]) for name in names))
        checks: dict[str, dict[str, object]] = {
            name: {"ok": result.ok, **result.detail} for name, result in zip(names, results, strict=True)
        }
        return all(result.ok for result in results), checks

    @staticmethod
    async def _run(check: CheckFn) -> Check:
        try:
            return await asyncio.wait_for(check(), CHECK_TIMEOUT_S)
        except TimeoutError:
            return Check(False, {"error": f"no answer within {CHECK_TIMEOUT_S:g} s"})
        except Exception as exc:
            text = " ".join(f"{type(exc).__name__}: {exc}".split())
            return Check(False, {"error": text[:ERROR_CHARS]})

    async def start(self, port: int, host: str = "0.0.0.0") -> int:
        """Listen on ``host``:``port`` (0: a free port); returns the port."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        # No access log: a probe every few seconds would drown the bot's own lines.
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, host, port).start()
        except OSError as exc:
            await self.stop()
            why = os.strerror(exc.errno) if exc.errno else str(exc)  # asyncio's own text repeats the address
            raise PortUnavailable(
                f"METRICS_PORT {port}: can't listen there ({why}); choose another port, or unset it."
            ) from exc
        self.port = int(self._runner.addresses[0][1])
        log.info("Metrics on http://%s:%d/metrics, health on /healthz", host, self.port)
        return self.port

    async def stop(self) -> None:
        """Stop listening (a request being answered is finished first)."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _healthz(self, _: web.Request) -> web.Response:
        healthy, checks = await self.health()
        return web.json_response({"healthy": healthy, "checks": checks}, status=200 if healthy else 503)

    async def _metrics(self, request: web.Request) -> web.StreamResponse:
        if self._before_scrape is not None:
            try:
                await asyncio.wait_for(self._before_scrape(), SCRAPE_TIMEOUT_S)
            except Exception as exc:  # the other figures are still worth serving
                log.warning("Metrics: the database's counts could not be read (%s)", type(exc).__name__)
        return await self._exposition(request)
