"""Answering an interaction exactly once, in time, whatever path the answer takes.

Discord wants a first response within 3 s. A :class:`Reply` owns an interaction's answer: every
send, update, modal or refusal goes through it, and a watchdog defers the interaction by itself
when nothing was sent after ``DEFER_AFTER_S`` (the session was locked, the database slow, Discord
rate-limiting a board). The defer is the right kind: a deferred update for a click (nothing
visible changes until the answer), a "thinking…" reply for a command, private when its answer
would be. What comes after a defer is sent as its follow-up, so the caller never has to know.

Being the one place every answer passes, it is also where they are counted (``bot.metrics``): each interaction's
first response once, by how it went (answered, deferred, refused, an internal error, or too late for Discord), and
the time to it and to the answer itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from pydantic import ValidationError

from bot.errors import InvalidInput, UserError, new_error_id
from bot.i18n import _
from bot.metrics import Metrics, Outcome
from bot.names import clip

log = logging.getLogger(__name__)

PUBLIC_ANSWER = {"private": False}
"""A command's ``extras`` when its answer is for the channel (by default a command is answered privately)."""
DEFER_AFTER_S = 2.0
REPLY_KEY = "reply"
NO_PINGS = discord.AllowedMentions.none()
UNKNOWN_INTERACTION = 10062
"""Discord's code for a response to an interaction whose time has run out."""
ALREADY_ACKNOWLEDGED = 40060
"""Discord's code for a first response to an interaction that has one: another process running the same shard for a
moment (a hand-over, ``bot.leases``) answered it first."""
T = TypeVar("T")


class Reply:
    """The answer to one interaction. Use it as an async context manager to arm the watchdog."""

    def __init__(self, interaction: discord.Interaction, *, private: bool = False) -> None:
        self.interaction = interaction
        self.private = private
        """Whether the normal answer to a command is private (decides how a late command is deferred)."""
        self._lock = asyncio.Lock()
        self._watchdog: asyncio.TimerHandle | None = None
        self._deferring: asyncio.Task[None] | None = None
        self.deferred = False
        self._filled = False
        self.session_id: int | None = None
        """The session whose control was clicked, once a handler knows it."""
        self.drawn: int | None = None
        """The version a game's own control was drawn on (``ui_id``'s ``drawn``), if it said: the game expects it
        of the record it names when it acts, so a double-click applies once."""
        self.answers_first = False
        """The handler answers this interaction itself right after its change is committed: the drawing that
        change causes waits for that answer, so the answer isn't slowed down by it (``answered``)."""
        self.posts = False
        """The answer to come is a new message, even for a click (``expect_message``)."""
        self.took_news = False
        """The interaction is answered with the news of the change it made (``bot.news``): its handler says
        nothing more."""
        self._answered = asyncio.Event()
        self._took = time.monotonic()
        self._counted_first = False
        self._counted_answer = False
        interaction.extras[REPLY_KEY] = self

    @classmethod
    def of(cls, interaction: discord.Interaction, *, private: bool = False) -> Reply:
        """The interaction's Reply, made (with its watchdog armed) if it has none yet."""
        existing = interaction.extras.get(REPLY_KEY)
        if isinstance(existing, Reply):
            return existing
        reply = cls(interaction, private=private)
        reply.arm()
        return reply

    async def __aenter__(self) -> Reply:
        self.arm()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.disarm()

    def arm(self, after: float = DEFER_AFTER_S) -> None:
        """Defer by itself if nothing has been sent ``after`` seconds from now."""
        if self._watchdog is None and not self.done:
            loop = asyncio.get_running_loop()
            self._watchdog = loop.call_later(after, self._fire)

    def disarm(self) -> None:
        """Stop the watchdog (the answer is complete, or someone else owns it now)."""
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None

    def expect_message(self, *, private: bool) -> None:
        """The answer to come is a new message (public or ``private``), even for a click: a deferral is then
        "thinking…", which that message fills, not an update of the clicked message."""
        self.private = private
        self.posts = True

    def defer_now(self) -> None:
        """Defer at once, without waiting for the watchdog: the answer is known to be late (it waits behind
        other drawings)."""
        self.disarm()
        self._fire()

    def _fire(self) -> None:
        self._watchdog = None
        if not self.done:
            self._deferring = asyncio.get_running_loop().create_task(self.defer())

    async def answered(self, timeout: float) -> None:
        """Return once the interaction has been answered or deferred, or after ``timeout`` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._answered.wait(), timeout)

    @property
    def done(self) -> bool:
        """The interaction has been answered (or deferred)."""
        return self.interaction.response.is_done()

    @property
    def pending(self) -> bool:
        """Nothing has been said in answer yet (it may have been deferred): the next send or update is the answer."""
        return not self._filled

    @property
    def is_component(self) -> bool:
        """A click or a select on a message (its answer can update that message)."""
        return self.interaction.type is discord.InteractionType.component

    @property
    def message_id(self) -> int | None:
        """The message the click came from (also for a modal opened by a click)."""
        message = self.interaction.message
        return message.id if message is not None else None

    async def defer(self, *, private: bool | None = None) -> None:
        """Acknowledge now, answer later: an invisible deferred update for clicks, "thinking" for commands
        (private if ``private``, else as the command's answer would be)."""
        async with self._lock:
            if self.done:
                return
            if private is not None:
                self.private = private
            with contextlib.suppress(discord.HTTPException):
                await self._acknowledge(thinking=self.interaction.message is None or self.posts, private=self.private)

    async def _acknowledge(self, *, thinking: bool, private: bool) -> None:
        """The deferral itself (the caller holds the lock): "thinking…" for an answer to come as a message."""
        if thinking:
            await self._first(Outcome.DEFERRED, self.interaction.response.defer(ephemeral=private, thinking=True))
        else:
            await self._first(Outcome.DEFERRED, self.interaction.response.defer())
        self.deferred = True
        self._answered.set()
        log.debug("Deferred interaction %s", self.interaction.id)

    async def _first(self, outcome: Outcome, response: Awaitable[T]) -> T:
        """The interaction's first response, counted once: how it went, and when (Discord refusing it as too late
        counts as ``LATE``)."""
        try:
            result = await response
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_INTERACTION:
                self._count_first(Outcome.LATE)
            raise
        self._count_first(outcome)
        if outcome is not Outcome.DEFERRED:
            self._count_answer()
        return result

    def _count_first(self, outcome: Outcome) -> None:
        metrics = self.metrics
        if metrics is not None and not self._counted_first:
            self._counted_first = True
            metrics.first(self.interaction, outcome, time.monotonic() - self._took)

    def _count_answer(self) -> None:
        """The answer itself (not a deferral) was sent: the first time, its latency is counted."""
        metrics = self.metrics
        if metrics is not None and not self._counted_answer:
            self._counted_answer = True
            metrics.answered(self.interaction, time.monotonic() - self._took)

    @property
    def metrics(self) -> Metrics | None:
        """The metrics of the bot that took the interaction (each bot has its own)."""
        metrics = getattr(self.interaction.client, "metrics", None)
        return metrics if isinstance(metrics, Metrics) else None

    async def send(
        self, content: str | None = None, *, ephemeral: bool | None = None, **kwargs: Any
    ) -> discord.Message | None:
        """A message in answer (a new one, or the deferred "thinking" reply filled in); returns it if known."""
        try:
            return await self._send(content, ephemeral=ephemeral, outcome=Outcome.ANSWERED, **kwargs)
        finally:
            self._answered.set()

    async def _send(
        self, content: str | None = None, *, ephemeral: bool | None, outcome: Outcome, **kwargs: Any
    ) -> discord.Message | None:
        private = self.private if ephemeral is None else ephemeral
        kwargs.setdefault("allowed_mentions", NO_PINGS)
        if kwargs.get("view", discord.utils.MISSING) is None:
            del kwargs["view"]  # a new message without controls: discord.py wants no view at all
        async with self._lock:
            self.disarm()
            first = not self._filled  # the first thing said: it may fill a deferred "thinking…" message
            self._filled = True
            response = self.interaction.response
            if not response.is_done() and _uploads(kwargs):
                await self._acknowledge(thinking=True, private=private)
            if not response.is_done():
                result = await self._first(outcome, response.send_message(content, ephemeral=private, **kwargs))
                resource = result.resource if result is not None else None
                if isinstance(resource, discord.InteractionMessage | discord.Message):
                    return resource
                return await self.interaction.original_response()
            thinking = first and response.type is discord.InteractionResponseType.deferred_channel_message
            if thinking and private == self.private:
                message = await self.interaction.edit_original_response(content=content, **_edit_kwargs(kwargs))
                self._count_answer()
                return message
            if thinking:
                # A public "thinking…" can't turn private: remove it and answer privately instead.
                with contextlib.suppress(discord.HTTPException):
                    await self.interaction.delete_original_response()
            sent = await self.interaction.followup.send(content or "", ephemeral=private, wait=True, **kwargs)
            self._count_answer()
            return sent

    async def update(self, *, ephemeral: bool | None = None, **kwargs: Any) -> None:
        """Edit the message the click came from (through the click, or after a deferred update). ``ephemeral``
        says whether that message is private, where a caller relies on it (after a commit, only a private message
        may be edited here: what the channel sees of a change is its news): a mismatch is a bug, raised."""
        message = self.interaction.message
        if ephemeral is not None and message is not None and message.flags.ephemeral != ephemeral:
            raise ValueError(f"message {message.id} is {'not ' if ephemeral else ''}private, unlike its update")
        kwargs.setdefault("allowed_mentions", NO_PINGS)
        try:
            await self._update(**kwargs)
        finally:
            self._answered.set()

    async def _update(self, **kwargs: Any) -> None:
        async with self._lock:
            self.disarm()
            self._filled = True
            response = self.interaction.response
            if not response.is_done() and _uploads(kwargs):
                await self._acknowledge(thinking=False, private=self.private)
            if not response.is_done():
                await self._first(Outcome.ANSWERED, response.edit_message(**kwargs))
            else:
                await self.interaction.edit_original_response(**_edit_kwargs(kwargs))
                self._count_answer()

    async def modal(self, modal: discord.ui.Modal) -> None:
        """Open a modal; only possible as the first answer, and never to a form's submission (Discord refuses it:
        a form opened before a deploy that changed its route arrives where a button that opens it now is)."""
        if self.interaction.type is discord.InteractionType.modal_submit:
            raise UserError(_("That form is no longer in use: please open it again."))
        async with self._lock:
            self.disarm()
            if self.done:
                raise UserError(_("That took too long to open; please click again."))
            self._filled = True
            await self._first(Outcome.ANSWERED, self.interaction.response.send_modal(modal))
            self._answered.set()

    async def ack(self) -> None:
        """Make sure the interaction is answered, changing nothing visible."""
        if not self.done:
            await self.defer()

    async def refuse(self, text: str, *, error: bool = False) -> None:
        """A short private answer (a refusal, or an internal ``error``): only the user who acted sees it. Cut to
        Discord's limit here, for every refusal, since many repeat what was typed."""
        try:
            await self._send(clip(text), ephemeral=True, outcome=Outcome.ERROR if error else Outcome.REFUSED)
        except discord.HTTPException:
            log.warning("Could not tell user %s why their interaction was refused", self.interaction.user.id)
        finally:
            self._answered.set()


def _uploads(kwargs: dict[str, Any]) -> bool:
    """Whether an answer uploads files: it is never the first answer, since an upload may outlast Discord's
    3 seconds (the interaction is deferred first, and the upload fills it in)."""
    attached = [*(kwargs.get("attachments") or ()), *(kwargs.get("files") or ()), kwargs.get("file")]
    return any(isinstance(item, discord.File) for item in attached)


def _edit_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Send-style keyword arguments as ``edit_original_response`` takes them."""
    edit = {k: v for k, v in kwargs.items() if k not in ("ephemeral", "files", "file")}
    files = kwargs.get("files") or ([kwargs["file"]] if "file" in kwargs else None)
    if files:
        edit["attachments"] = files
    return edit


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer a failed command or click: the reason for a user error, an error id otherwise."""
    original = getattr(error, "original", None) or getattr(error, "__cause__", None)
    if isinstance(original, UserError | ValidationError) and not isinstance(error, UserError):
        error = original
    if isinstance(error, ValidationError):
        # Typed input a command built a model from without checking it first: say which field, not an error id.
        error = InvalidInput.naming(error)
    if isinstance(original, discord.HTTPException) and original.code == ALREADY_ACKNOWLEDGED:
        # Delivered to two processes (both on its shard for a moment): the other answered, the change is made once.
        log.warning("Interaction %s was answered by another process (two on its shard)", interaction.id)
        return
    reply = Reply.of(interaction, private=True)
    if isinstance(error, UserError):
        text = error.text
    elif isinstance(error, discord.app_commands.CheckFailure):
        text = str(error) or _("You can't use that here.")
    else:
        error_id = new_error_id()
        command = interaction.command.qualified_name if interaction.command else None
        custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
        log.error(
            "Error %s in %s (user %s, channel %s, guild %s)",
            error_id,
            command or custom_id or "interaction",
            interaction.user.id,
            interaction.channel_id,
            interaction.guild_id,
            exc_info=error,
        )
        text = _("Something went wrong on my side (error `{error_id}`). Please try again.", error_id=error_id)
        metrics = reply.metrics
        if metrics is not None:
            metrics.internal_error(interaction)
        await reply.refuse(text, error=True)
        return
    await reply.refuse(text)


async def offer_nothing(interaction: discord.Interaction) -> None:
    """Answer an autocomplete request with no choices: Discord takes nothing else from one (a message is refused)."""
    if not interaction.response.is_done():
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.autocomplete([])
