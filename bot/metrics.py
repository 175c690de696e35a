"""The bot's Prometheus metrics: what an operator needs to see inside it (served on ``METRICS_PORT``).

Each bot has a registry of its own (tests run several bots in one process). Every label is bounded: the kind of
an interaction, an outcome, a Discord route template, an HTTP status, a ``Store`` method's name; never an id, a
token or anything a member typed. Each figure is taken at the one place it happens:

- interactions: ``bot.replies.Reply``, which owns every answer (``first_response``, ``answered``), and
  ``report_error`` for internal errors;
- Discord requests: a trace on discord.py's HTTP session (``bot.discord_routes``), every try of every request;
- the store's time per query: ``timed`` wraps each query method of the store;
- the publisher's queue, computer moves waiting, the event loop's lag, the Gateway, the shards held and memory: read
  when scraped; shards taken on and given up: where ``bot.sharding`` does it;
- live and due sessions: counted in the database when scraped (``Store.census``).

``docs/operating.md`` lists them with the queries and alerts worth having.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any, TypeVar

import aiohttp
import discord
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, disable_created_metrics

from bot.discord_routes import request_trace
from bot.storage.base import Census, Store
from bot.storage.dice import DiceStore

S = TypeVar("S")

LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 30.0)
"""Seconds to a first response or an answer: Discord wants the first within 3 s; the watchdog defers at 2 s."""
QUERY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Outcome(StrEnum):
    """How an interaction's first response went (one per interaction)."""

    ANSWERED = "answered"
    """The answer itself came first."""
    DEFERRED = "deferred"
    """Acknowledged first (late, or an upload), the answer followed."""
    REFUSED = "refused"
    """A private refusal: not allowed, not your turn, a stale board, bad input."""
    ERROR = "error"
    """Something went wrong on the bot's side (an error id was shown)."""
    LATE = "late"
    """Discord refused the first response: its 3 seconds had passed."""


def interaction_kind(interaction: discord.Interaction) -> str:
    """``command``, ``button``, ``select``, ``form`` (a modal's submission) or ``other`` (autocomplete never reaches
    a ``Reply``: discord.py answers it)."""
    kind = interaction.type
    if kind is discord.InteractionType.application_command:
        return "command"
    if kind is discord.InteractionType.modal_submit:
        return "form"
    if kind is discord.InteractionType.component:
        data: dict[str, Any] = dict(interaction.data or {})
        button = data.get("component_type") == discord.ComponentType.button.value
        return "button" if button else "select"
    return "other"


def query_methods() -> list[str]:
    """The query methods of ``Store`` (its own and ``DiceStore``'s), but opening and closing."""
    return sorted(
        name
        for protocol in (Store, DiceStore)
        for name, value in vars(protocol).items()
        if inspect.iscoroutinefunction(value) and not name.startswith("_") and name not in ("open", "close")
    )


class Metrics:
    """One bot's metrics, in a registry of its own (``registry``)."""

    def __init__(self) -> None:
        # The ``_created`` series would double every counter's and histogram's for a time no dashboard here uses.
        disable_created_metrics()
        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)  # process_resident_memory_bytes, CPU seconds, open files
        self.interactions = Counter(
            "tabletop_interactions",
            "Interactions, by how their first response went.",
            ["kind", "outcome"],
            registry=registry,
        )
        self.internal_errors = Counter(
            "tabletop_internal_errors",
            "Interactions that failed on the bot's side (an error id shown), deferred first or not.",
            ["kind"],
            registry=registry,
        )
        self.first_response = Histogram(
            "tabletop_interaction_first_response_seconds",
            "From the bot taking an interaction to its first response (an answer or a deferral) being sent.",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.answer = Histogram(
            "tabletop_interaction_answer_seconds",
            "From the bot taking an interaction to its answer (not a deferral) being sent.",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.discord_requests = Counter(
            "tabletop_discord_requests",
            "Requests to Discord (every try), by route template and HTTP status.",
            ["method", "route", "status"],
            registry=registry,
        )
        self.store_seconds = Histogram(
            "tabletop_store_query_seconds",
            "Time in each Store method.",
            ["query"],
            buckets=QUERY_BUCKETS,
            registry=registry,
        )
        self.loop_lag = Histogram(
            "tabletop_event_loop_lag_seconds",
            "How late the event loop ran a timer (sampled 4 times a second).",
            buckets=LAG_BUCKETS,
            registry=registry,
        )
        self.queued_drawings = Gauge("tabletop_publisher_queued", "Drawings waiting for their turn.", registry=registry)
        self.oldest_drawing = Gauge(
            "tabletop_publisher_oldest_seconds", "How long the oldest waiting drawing has waited.", registry=registry
        )
        self.retrying = Gauge(
            "tabletop_publisher_retrying",
            "Sessions whose drawing failed and waits to be tried again.",
            registry=registry,
        )
        self.sessions_live = Gauge("tabletop_sessions_live", "Live sessions (lobbies and games).", registry=registry)
        self.sessions_due = Gauge(
            "tabletop_sessions_due", "Live sessions with a deadline or reminder that has come.", registry=registry
        )
        self.computer_turns = Gauge(
            "tabletop_computer_turns_pending", "Computer players' moves waiting to be made.", registry=registry
        )
        self.gateway_down = Gauge(
            "tabletop_gateway_down_seconds",
            "How long a Gateway connection has been down (0: all connected).",
            registry=registry,
        )
        self.gateway_latency = Gauge(
            "tabletop_gateway_latency_seconds", "The Gateway's heartbeat round trip.", registry=registry
        )
        self.shards_held = Gauge(
            "tabletop_shards_held",
            "Shards this process runs now (SHARD_IDS, or the leases it holds).",
            registry=registry,
        )
        self.shard_changes = Counter(
            "tabletop_shard_changes",
            "Shards this process took on or gave up, by how: gained, released (to even out), lost (its lease ran "
            "out), stopping.",
            ["change"],
            registry=registry,
        )

    # -- interactions ------------------------------------------------------------------------------------------

    def first(self, interaction: discord.Interaction, outcome: Outcome, seconds: float) -> None:
        """An interaction's first response was sent (or refused by Discord: ``LATE``) after ``seconds``."""
        kind = interaction_kind(interaction)
        self.interactions.labels(kind, outcome.value).inc()
        self.first_response.labels(kind).observe(seconds)

    def answered(self, interaction: discord.Interaction, seconds: float) -> None:
        """An interaction's answer (not a deferral) was sent, ``seconds`` after the bot took it."""
        self.answer.labels(interaction_kind(interaction)).observe(seconds)

    def internal_error(self, interaction: discord.Interaction) -> None:
        """An interaction failed on the bot's side."""
        self.internal_errors.labels(interaction_kind(interaction)).inc()

    # -- Discord, the store, the census ------------------------------------------------------------------------

    def discord_trace(self) -> aiohttp.TraceConfig:
        """The trace that counts the requests of discord.py's session (``Client(http_trace=…)``)."""
        return request_trace(lambda method, route, status: self.discord_requests.labels(method, route, status).inc())

    def timed(self, store: S) -> S:
        """``store``, each of its query methods timed into ``tabletop_store_query_seconds{query=<method>}``.

        The methods are wrapped on the object itself, so it stays the same store (its type, its other attributes)."""
        for name in query_methods():
            setattr(store, name, self._timed(name, getattr(store, name)))
        return store

    def _timed(self, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        observe = self.store_seconds.labels(name).observe

        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                observe(time.perf_counter() - start)

        return timed

    def count(self, census: Census) -> None:
        """The database's counts, as of this scrape."""
        self.sessions_live.set(census.live)
        self.sessions_due.set(census.due)
