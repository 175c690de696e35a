"""The outbox desk: what commits outside any session must show (a secret roll revealed, a dice board changed),
shown exactly once, after a crash too.

Such a commit writes an ``Outgoing`` row in its own transaction (``bot.storage.outbox``): news to post, and
messages to draw from what is stored (``Told.draw``: a kind of message a cog registers a ``Drawer`` for). The desk
delivers each row, one channel at a time in commit order (a worker per channel, never a lock across a Discord
call), with the same ``Teller`` as a session's news:

- the interaction that made the commit is answered with the row's first message: a drawing of the message it was
  clicked on edits that message, anything else is its answer or a follow-up; if Discord refuses (too late), the
  rest goes through the channel;
- a drawing is posted the first time (its message then recorded, ``Drawer.shown``) and edited after;
- news is posted with a nonce Discord enforces (a retry within minutes returns the message already made);
- once everything is out the row is deleted (``Store.outbox_told``); a failure tries the row again later.

After a restart the rows still stored are found by their key, a batch at a time (``bot.attention``), and
delivered in the background: a drawing is looked for among the channel's last messages before it is posted again,
news too (the bot died between Discord's answer and the row's deletion). Nothing stays in memory once told.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.i18n import current, speaking
from bot.lanes import Lanes
from bot.languages import Languages
from bot.models import News, Outgoing, Told
from bot.news import Teller, mentions, saying
from bot.replies import Reply
from bot.storage import Store

log = logging.getLogger(__name__)

RETRY_DELAYS_S = (2.0, 5.0, 15.0, 60.0, 300.0)
BACKGROUND_ROWS = 4
"""Rows delivered at once to catch up after a restart (an interaction's row never waits for these)."""
QUIET = discord.AllowedMentions.none()


def nonce(outgoing_id: int, index: int) -> str:
    """The nonce of one message of an outbox row (distinct from a session's: ``bot.news.nonce``)."""
    return f"o{outgoing_id:x}.{index}"


@dataclass(frozen=True)
class Drawing:
    """What a drawn message shows now, and which message shows it (None: none yet, it is posted)."""

    content: str
    view: discord.ui.View | None
    message_id: int | None


class Drawer(Protocol):
    """Draws one kind of message from what is stored (registered by a cog: ``Outbox.drawer``)."""

    async def drawing(self, ref: int) -> Drawing | None:
        """What the message of ``ref`` shows now (None: it is forgotten, nothing to show)."""
        ...

    async def shown(self, ref: int, message_id: int) -> None:
        """The message ``message_id`` shows ``ref`` now (it was posted)."""
        ...

    async def gone(self, ref: int) -> None:
        """The message that showed ``ref`` was deleted."""
        ...


@dataclass
class _Job:
    outgoing: Outgoing
    reply: Reply | None = None
    recovering: bool = False
    """Delivered before, maybe in part (after a restart, or a failure): look before posting again."""
    done: asyncio.Future[None] | None = None
    attempts: int = 0
    language: str | None = None
    """The language of the member whose interaction made the row (None: a row found later speaks its channel's)."""


@dataclass
class _Delivery:
    """One row's delivery: the interaction still to answer (None once it is answered or refused)."""

    job: _Job
    channel: discord.PartialMessageable
    answering: Reply | None = None


class Outbox:
    """Delivers the outbox's rows. Collaborators: the Discord client (through a ``Teller``) and the store."""

    def __init__(self, teller: Teller, store: Store, languages: Languages) -> None:
        self.teller = teller
        self.store = store
        self.languages = languages
        self._drawers: dict[str, Drawer] = {}
        self.lanes: Lanes[int, _Job] = Lanes("outbox", self._run, background_at_once=BACKGROUND_ROWS)
        """Per channel, the rows waiting for its worker."""
        self._taken: set[int] = set()
        """Rows queued or being delivered (a row found at startup and committed live is delivered once)."""
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self.backlog_below = self.lanes.backlog_below
        self.idle = self.lanes.idle

    def drawer(self, kind: str, drawer: Drawer) -> None:
        """Draw the messages named ``kind`` (``Told.draw``) with ``drawer``."""
        self._drawers[kind] = drawer

    @property
    def closing(self) -> bool:
        """No more rows are taken (the bot is stopping)."""
        return self.lanes.closing

    # -- requests ------------------------------------------------------------------------------------

    async def tell(self, outgoing: Outgoing, reply: Reply | None = None) -> None:
        """Deliver a row just committed, answering ``reply``'s interaction with its first message; returns once it
        is delivered (or will be retried: it stays stored)."""
        done = asyncio.get_running_loop().create_future()
        if not self._enqueue(_Job(outgoing, reply, done=done, language=current())):
            return
        with contextlib.suppress(Exception):  # logged by the worker; the row stays stored and is tried again
            await done

    def catch_up(self, outgoing: Outgoing) -> None:
        """After a restart: deliver a row found stored, behind the interactions' rows."""
        self._enqueue(_Job(outgoing, recovering=True), background=True)

    def _enqueue(self, job: _Job, *, background: bool = False) -> bool:
        if self.closing or job.outgoing.id in self._taken:
            return False
        self._taken.add(job.outgoing.id)
        return self.lanes.add(job.outgoing.channel_id, job, background=background)

    async def drain(self, timeout: float) -> None:
        """Let deliveries in progress finish (up to ``timeout`` seconds), then stop taking new ones."""
        for handle in self._retries.values():
            handle.cancel()
        await self.lanes.drain(timeout)

    @property
    def busy(self) -> bool:
        """Something is being delivered."""
        return self.lanes.busy

    def footprint(self) -> dict[str, int]:
        """How many channels (or rows) each of the desk's structures holds now: all empty once everything is told."""
        return {**self.lanes.footprint(), "rows": len(self._taken), "retries": len(self._retries)}

    # -- the worker ----------------------------------------------------------------------------------

    async def _run(self, channel_id: int, job: _Job, waiting: deque[tuple[_Job, bool]]) -> None:
        try:
            await self._deliver(job)
        except Exception as exc:
            level = logging.WARNING if isinstance(exc, discord.HTTPException | OSError) else logging.ERROR
            log.log(level, "Outbox row %s: delivery failed; trying again later", job.outgoing.id, exc_info=exc)
            self._retry_later(job)
            if job.done is not None and not job.done.done():
                job.done.set_exception(exc)
        else:
            self._taken.discard(job.outgoing.id)
            if job.done is not None and not job.done.done():
                job.done.set_result(None)

    def _retry_later(self, job: _Job) -> None:
        delay = RETRY_DELAYS_S[min(job.attempts, len(RETRY_DELAYS_S) - 1)]
        again = _Job(job.outgoing, recovering=True, attempts=job.attempts + 1)

        def retry() -> None:
            self._retries.pop(job.outgoing.id, None)
            self._taken.discard(job.outgoing.id)
            self._enqueue(again)

        self._retries[job.outgoing.id] = asyncio.get_running_loop().call_later(delay, retry)

    async def _deliver(self, job: _Job) -> None:
        outgoing = job.outgoing
        unknown = {told.draw for told in outgoing.told if told.draw is not None and told.draw not in self._drawers}
        if unknown:
            # Its cog isn't loaded in this process: the row stays for one that draws it.
            log.warning("Outbox row %s: nothing here draws %s; left for later", outgoing.id, sorted(unknown))
            return
        delivery = _Delivery(job, self.teller.channel(outgoing.channel_id, outgoing.guild_id), job.reply)
        with speaking(job.language or await self.languages.channel(outgoing.guild_id)):
            await self._deliver_each(outgoing, delivery)
        await self.store.outbox_told(outgoing.id)

    async def _deliver_each(self, outgoing: Outgoing, delivery: _Delivery) -> None:
        for index, told in enumerate(outgoing.told):
            if told.draw is not None:
                await self._draw(delivery, told, nonce(outgoing.id, index))
            elif told.news is not None:
                await self._say(delivery, told.news, nonce(outgoing.id, index))

    async def _draw(self, delivery: _Delivery, told: Told, key: str) -> None:
        drawer = self._drawers[told.draw or ""]
        drawing = await drawer.drawing(told.ref)
        if drawing is None:
            return  # forgotten since: nothing to show
        if drawing.message_id is not None:
            if not await self._edit(delivery, drawing, drawing.message_id):
                await drawer.gone(told.ref)
            return
        message = await self._answer(delivery, drawing.content, QUIET, drawing.view)
        if message is None and delivery.job.recovering:
            message = await self.teller.find(delivery.channel, _showing(drawing))
        if message is None:
            message = await self.teller.post(delivery.channel, drawing.content, key, QUIET, drawing.view)
        if message is not None:
            await drawer.shown(told.ref, message.id)

    async def _edit(self, delivery: _Delivery, drawing: Drawing, message_id: int) -> bool:
        """Show ``drawing`` on its message, ``message_id``; False if that message is gone."""
        reply = delivery.answering
        if reply is not None and reply.pending and reply.message_id == message_id:
            try:
                await reply.update(content=drawing.content, view=drawing.view, allowed_mentions=QUIET)
                return True
            except discord.HTTPException as exc:
                self._refused(delivery, exc)
        message = delivery.channel.get_partial_message(message_id)
        try:
            await message.edit(content=drawing.content, view=drawing.view, allowed_mentions=QUIET)
        except discord.NotFound:
            return False
        except discord.Forbidden as exc:
            log.warning("Channel %s: message %s could not be edited (%s)", delivery.channel.id, message.id, exc)
        return True

    async def _say(self, delivery: _Delivery, item: News, key: str) -> None:
        allowed = mentions(item)
        answered = await self._answer(delivery, item.text, allowed) is not None
        shown = answered or (delivery.job.recovering and await self.teller.find(delivery.channel, saying(item.text)))
        if not shown:
            await self.teller.post(delivery.channel, item.text, key, allowed)
        await self.teller.direct(delivery.channel.id, item, key)

    async def _answer(
        self, delivery: _Delivery, text: str, allowed: discord.AllowedMentions, view: discord.ui.View | None = None
    ) -> discord.Message | None:
        """``text`` as the interaction's answer (or a follow-up), while it takes one; None if it didn't."""
        reply = delivery.answering
        if reply is None:
            return None
        try:
            return await reply.send(text, ephemeral=False, view=view, allowed_mentions=allowed)
        except discord.HTTPException as exc:
            self._refused(delivery, exc)
            return None

    @staticmethod
    def _refused(delivery: _Delivery, exc: discord.HTTPException) -> None:
        # Too late, most likely (Discord wants the first answer within 3 s): the rest goes through the channel, and
        # what Discord may have shown anyway is looked for before it is posted again.
        log.info("Outbox row %s: the interaction refused its answer (%s)", delivery.job.outgoing.id, exc)
        delivery.answering = None
        delivery.job.recovering = True


def _showing(drawing: Drawing) -> Callable[[discord.Message], bool]:
    """Whether a message shows ``drawing`` (its text, and its controls, which name what it draws)."""
    wanted = [getattr(item, "custom_id", None) for item in drawing.view.children] if drawing.view else []

    def shows(message: discord.Message) -> bool:
        ids = [c.custom_id for row in message.components for c in getattr(row, "children", [])]
        return message.content == drawing.content and ids == wanted

    return shows
