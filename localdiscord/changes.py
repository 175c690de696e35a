"""What the local Discord tells about itself: every change wakes those waiting (``wait_for``) and reaches the
observers (the play file, the web client), and every problem a real Discord would refuse is recorded."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

from localdiscord.guild import Channel, Member
from localdiscord.messages import Message

log = logging.getLogger(__name__)
T = TypeVar("T")


class Observer(Protocol):
    """Something kept up to date with the world (the play file, the web client): told after each change."""

    def message_changed(self, message: Message) -> None:
        """A message was created, edited or deleted (``message.deleted``)."""

    def channel_changed(self, channel: Channel) -> None:
        """A channel, thread or DM was created or changed."""

    def world_changed(self) -> None:
        """The synced commands, the members or their roles changed."""

    def member_added(self, member: Member) -> None:
        """Someone joined the guild."""


class Changes:
    """Wakes the waiters and tells the observers after each change; records what Discord would have refused."""

    def __init__(self) -> None:
        self.observers: list[Observer] = []
        """Told of every change to messages, channels, members and commands (``Observer``)."""
        self.failures: list[str] = []
        self.tolerated: list[str] = []
        self.rejections: list[str] = []
        """Refusals that are no bug of the bot: a stranger at the door (403, 401, 404), or one a bot must expect."""
        self._tolerate: list[str] = []
        self._changed = asyncio.Event()
        self.last_change = time.perf_counter()
        """When anything last changed (``time.perf_counter``): how long the server has been idle."""

    def notify(self) -> None:
        """Wake everything waiting in ``wait_for``: call after every state change."""
        self.last_change = time.perf_counter()
        self._changed.set()
        self._changed = asyncio.Event()

    def message_changed(self, message: Message) -> None:
        """Tell the observers about a created, edited or deleted message, and wake the waiters."""
        for observer in self.observers:
            observer.message_changed(message)
        self.notify()

    def channel_changed(self, channel: Channel) -> None:
        """Tell the observers about a created or changed channel, and wake the waiters."""
        for observer in self.observers:
            observer.channel_changed(channel)
        self.notify()

    def world_changed(self) -> None:
        """Tell the observers that commands, members or roles changed, and wake the waiters."""
        for observer in self.observers:
            observer.world_changed()
        self.notify()

    def member_added(self, member: Member) -> None:
        """Tell the observers that ``member`` joined, and wake the waiters."""
        for observer in self.observers:
            observer.member_added(member)
        self.notify()

    def fail(self, problem: str) -> bool:
        """Record something Discord would have refused or that no real bot may do; the fixture fails on it.

        Returns False if the test declared the problem expected (``tolerate``).
        """
        expected = any(pattern in problem for pattern in self._tolerate)
        if expected:
            log.info("fake Discord (expected by the test): %s", problem)
            self.tolerated.append(problem)
        else:
            log.error("fake Discord: %s", problem)
            self.failures.append(problem)
        self.notify()
        return not expected

    def tolerate(self, pattern: str) -> None:
        """Record problems containing ``pattern`` in ``tolerated`` instead of ``failures`` (for tests of them).

        Requests that caused a tolerated problem stay out of the DISCORD_REQUEST_LOG: they are wrong on purpose.
        """
        self._tolerate.append(pattern)

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, *, what: str = "the condition"
    ) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every state change) and return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            changed = self._changed
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}; failures so far: {self.failures}")
            try:
                await asyncio.wait_for(changed.wait(), remaining)
            except TimeoutError:
                continue  # one last look at the predicate, then the deadline check raises
