"""News: the messages a commit must show in its channel besides its boards (a roll's result, a narration, an
announcement), shown exactly once, after a crash too.

The service writes each log entry's news with the entry, in the same commit (a transactional outbox:
``LogEntry.news``), and the store marks the session (``Session.news_from``). The desk delivers it:

- the interaction that caused the commit is answered with its first message at once, never behind a drawing;
- the rest is posted in the channel in log order by the session's publisher worker, before its boards are drawn,
  each post with a nonce Discord enforces (a retry within minutes returns the message already made);
- once everything up to a version is out, the mark moves past it (``Store.news_delivered``);
- members a message calls by direct message (``News.dms``, they asked for that) get it there, once it is shown.

After a restart, what is still marked is posted, unless the channel's last messages already show it (the bot
died between Discord's answer and the mark). Nothing is kept in memory for a session once its news is out.

The saying itself (a post with a nonce, a look at the channel's last messages, an interaction answered, direct
messages) is the ``Teller``'s, shared with the outbox of commits outside any session (``bot.outbox``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

import discord
from pydantic import BaseModel

from bot.i18n import _, localize
from bot.lifecycle import told_why
from bot.models import Actor, Applied, LogEntry, News, Session, Status, viewer_of
from bot.names import channel_mention, clip, escape_name
from bot.registry import GameKind
from bot.replies import Reply
from bot.service import COMPUTER_SEAT, Service
from bot.spec import GameSpec, ViewContext
from rules.engine import GM_ROLES, PUBLIC, Viewer, visible

log = logging.getLogger(__name__)

HISTORY_CHECKED = 50
"""After a restart, how many of the channel's last messages are read to see whether a news message made it."""


NONCE_MAX = 25


def nonce(session_id: int, seq: int, index: int) -> str:
    """The nonce of one news message (at most 25 characters, as Discord allows): the same post made twice within
    minutes is one message."""
    return f"n{session_id:x}.{seq:x}.{index}"


def mentions(item: News, clicker: int | None = None) -> discord.AllowedMentions:
    """Who a news message pings: the members it names for that, never the one whose click caused it."""
    users = [discord.Object(u) for u in item.pings if u != clicker]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def news_of(
    spec: GameSpec[Any] | None, kind: GameKind | None, session: Session, state: BaseModel | None, entry: LogEntry
) -> list[News]:
    """The news of a log entry, as the channel may read it: the core's own, then the game's. The game is given
    only what the channel may see: the public view of the state, the entry's public events, and none of its dice
    (a secret die is in the log's dice too)."""
    events = [e for e in entry.events if visible(e, PUBLIC)]
    news = _core_news(session, entry, events)
    if spec is not None and kind is not None and state is not None:
        ctx: ViewContext[Any] = ViewContext(
            session=session,
            state=kind.view(state, PUBLIC),
            prompts=kind.prompts(state) if session.status is Status.ACTIVE else [],
            events=events,
        )
        news += spec.news(ctx, entry.model_copy(update={"events": events, "dice": []}))
        news += _gm_news(spec, kind, session, state, entry)
        news += _member_news(spec, kind, session, state, entry)
    return [item.model_copy(update={"text": clip(localize(item.text))}) for item in news if item.text]


def _gm_news(spec: GameSpec[Any], kind: GameKind, session: Session, state: BaseModel, entry: LogEntry) -> list[News]:
    """The entry's news for the GMs alone: what the game says from a GM's view, kept only where it is private, pings
    nobody and goes to members who hold a GM role (a secret reaches no one else, whatever the game wrote)."""
    gms = {int(uid) for uid, roles in session.roles.items() if set(roles) & GM_ROLES}
    if not gms:
        return []
    ctx: ViewContext[Any] = ViewContext(
        session=session, state=kind.view(state, Viewer(roles=GM_ROLES)), prompts=[], events=list(entry.events)
    )
    said = spec.gm_news(ctx, entry.model_copy(update={"dice": []}))
    return [item for item in said if item.private and not item.pings and item.dms and set(item.dms) <= gms]


def _member_news(
    spec: GameSpec[Any], kind: GameKind, session: Session, state: BaseModel, entry: LogEntry
) -> list[News]:
    """The entry's news for single members its events name (``only``): what the game says from each one's view,
    kept only where it is private, pings nobody and goes to that member alone."""
    news: list[News] = []
    for player in sorted({p for e in entry.events for p in e.get("only", [])}):
        user_id = _member_playing(session, player)
        if user_id is None:
            continue  # a role (the GMs are told by gm_news), or a seat nobody plays
        viewer = viewer_of(session, Actor(user_id, ""))
        events = [e for e in entry.events if visible(e, viewer)]
        ctx: ViewContext[Any] = ViewContext(
            session=session, state=kind.view(state, viewer), prompts=[], events=events, viewer=viewer
        )
        said = spec.member_news(ctx, entry.model_copy(update={"events": events, "dice": []}))
        news += [item for item in said if item.private and not item.pings and item.dms == [user_id]]
    return news


def _member_playing(session: Session, player: str) -> int | None:
    """The member who is ``player`` to the game: a seat's member at a table, the user id in an open session."""
    if session.seats:
        seat = next((s for s in session.seats if s.player == player), None)
        return seat.user_id if seat is not None else None
    return int(player) if player.isdigit() else None


def _core_news(session: Session, entry: LogEntry, events: list[dict[str, Any]]) -> list[News]:
    news = []
    why = told_why(entry.action)
    if entry.action.get("kind") in ("leave", "abandon") and why and entry.actor:
        name = escape_name(Service.display_name(session, entry.actor))
        news.append(News(text=_("{name} {why}.", name=name, why=why)))
    for event in events:
        if event.get("type") == COMPUTER_SEAT:
            name = escape_name(Service.display_name(session, event["player"]))
            text = _(
                "{name} missed {missed} decisions in a row; a computer player takes their seat until they act again.",
                name=name,
                missed=event["missed"],
            )
            news.append(News(text=text))
    return news


def saying(text: str) -> Callable[[discord.Message], bool]:
    """Whether a message says ``text`` (for ``Teller.find``)."""
    return lambda message: message.content == text


class Teller:
    """Saying something in a channel exactly once, for both outboxes (a session's news here, any other commit's in
    ``bot.outbox``): a post Discord makes once however often it is sent within minutes (its nonce), a look at the
    channel's last messages for one sent before a restart, an interaction answered with it, direct messages."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def channel(self, channel_id: int, guild_id: int | None) -> discord.PartialMessageable:
        """A channel to post in, by id."""
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    async def answer(self, reply: Reply, text: str, allowed: discord.AllowedMentions) -> bool:
        """Answer ``reply``'s interaction with ``text`` in the channel; False if Discord refused it (too late, say):
        then it is to be posted instead."""
        try:
            await reply.send(text, ephemeral=False, allowed_mentions=allowed)
        except discord.HTTPException as exc:
            log.info(
                "Could not answer interaction %s with its news (%s); posting it instead", reply.interaction.id, exc
            )
            return False
        return True

    async def post(
        self,
        channel: discord.PartialMessageable,
        text: str,
        key: str,
        allowed: discord.AllowedMentions,
        view: discord.ui.View | None = None,
    ) -> discord.Message | None:
        """Post ``text`` with the nonce ``key``: a second post within minutes returns the first message. None when
        the channel is gone or closed to the bot: nothing can show it there, and trying again would only repeat the
        refusal. Any other failure is raised (the caller tries again later)."""
        extra: dict[str, object] = {} if view is None else {"view": view}
        try:
            return await channel.send(text, nonce=key, allowed_mentions=allowed, **extra)  # type: ignore[call-overload]
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("Channel %s: %s could not be posted (%s)", channel.id, key, exc)
            return None

    async def find(
        self, channel: discord.PartialMessageable, shows: Callable[[discord.Message], bool]
    ) -> discord.Message | None:
        """One of the channel's last messages from the bot that ``shows`` what is to be told (it was sent, then the
        bot stopped before marking it), if any."""
        me = self.client.user
        try:
            async for message in channel.history(limit=HISTORY_CHECKED):
                if me is not None and message.author.id == me.id and shows(message):
                    return message
        except discord.HTTPException as exc:
            log.info("Channel %s: could not read it to check what was told (%s)", channel.id, exc)
        return None

    async def direct(self, channel_id: int, item: News, key: str | None) -> None:
        """``item`` by direct message to each member who asked to be called that way, with where it was said."""
        text = clip(item.text + "\n" + _("-# In {channel}", channel=channel_mention(channel_id)))
        for index, user_id in enumerate(item.dms):
            try:
                channel = await self.client.create_dm(discord.Object(user_id))
                quiet = discord.AllowedMentions.none()
                if key is None:
                    await channel.send(text, allowed_mentions=quiet)
                else:  # the same direct message sent again within minutes is one message
                    await channel.send(text, nonce=f"{key}d{index}"[:NONCE_MAX], allowed_mentions=quiet)
            except discord.HTTPException as exc:
                # Their direct messages are closed: the channel message still names them, or the private news's
                # fallback tells them where to look.
                log.info("Channel %s: no direct message to %s (%s)", channel_id, user_id, exc)
                if item.private and item.fallback and key is not None:
                    await self._fall_back(channel_id, item.fallback, user_id, f"{key}f{index}"[:NONCE_MAX])

    async def _fall_back(self, channel_id: int, text: str, user_id: int, nonce: str) -> None:
        """Say in the channel, pinging ``user_id``, what private news can't reach them by direct message."""
        pings = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(user_id)])
        try:
            await self.client.get_partial_messageable(channel_id).send(clip(text), nonce=nonce, allowed_mentions=pings)
        except discord.HTTPException as exc:
            log.info("Channel %s: no fallback for %s either (%s)", channel_id, user_id, exc)


class NewsDesk:
    """Composes each log entry's news (for the service) and delivers it. Collaborators: client, service, specs."""

    def __init__(self, client: discord.Client, service: Service, specs: Mapping[str, GameSpec[Any]]) -> None:
        self.teller = Teller(client)
        """Says it (shared with the outbox desk of commits outside any session, ``bot.outbox``)."""
        self.service = service
        self.specs = specs
        self._entries: dict[int, dict[int, LogEntry]] = {}
        """Per session, the entries with news this process committed and has not delivered yet."""
        self._answers: dict[tuple[int, int], asyncio.Task[bool]] = {}
        """(session, seq) whose first news message is the answer to the interaction that caused it."""

    # -- what to say ---------------------------------------------------------------------------------

    def compose(self, session: Session, state: BaseModel | None, entry: LogEntry) -> list[News]:
        """The news of a log entry, as the channel may read it (``news_of``)."""
        spec = self.specs.get(session.kind)
        kind = self.service.kind_of(session) if spec is not None and state is not None else None
        return news_of(spec, kind, session, state, entry)

    # -- saying it -----------------------------------------------------------------------------------

    def on_commit(self, applied: Applied) -> Reply | None:
        """Keep the commit's news for delivery, and answer the interaction that caused it with its first message
        at once. Returns that interaction's Reply (the drawing goes after it), or None."""
        with_news = [e for e in applied.entries if e.news]
        if not with_news:
            return None
        session_id = applied.session.id
        self._entries.setdefault(session_id, {}).update((e.seq, e) for e in with_news)
        reply = applied.origin if isinstance(applied.origin, Reply) else None
        # The answer is the first message the channel is told (the GMs' private news comes after it, if any).
        first = next((e for e in with_news if not e.news[0].private), None)
        if reply is None or not reply.pending or first is None:
            return None
        reply.took_news = True
        reply.expect_message(private=False)
        item = first.news[0]
        task = asyncio.get_running_loop().create_task(
            self.teller.answer(reply, item.text, mentions(item, applied.user_id)), name=f"news-{session_id}-{first.seq}"
        )
        self._answers[(session_id, first.seq)] = task
        return reply

    async def deliver(self, session: Session) -> None:
        """Post every news message of ``session`` that is not out yet, in log order, then move its mark."""
        if session.news_from is None:
            return
        known = self._entries.get(session.id, {})
        entries = [e for seq, e in sorted(known.items()) if seq >= session.news_from]
        recovering = not known or min(known) > session.news_from
        if recovering:
            # Entries this process did not commit (it restarted since): read them from the log.
            logged = await self.service.store.log_entries(session.id, after=session.news_from - 1)
            entries = [e for e in logged if e.news]
        for entry in entries:
            if entry.seq > session.version:
                break
            await self._deliver_entry(session, entry, recovering and entry.seq not in known)
        await self.service.store.news_delivered(session.id, session.version)
        self._forget(session.id, session.version)

    async def _deliver_entry(self, session: Session, entry: LogEntry, recovering: bool) -> None:
        answer = self._answers.get((session.id, entry.seq))
        for index, item in enumerate(entry.news):
            if item.private:  # the GMs', by direct message only (sent again after a restart: the nonce keeps it one)
                await self.teller.direct(session.channel_id, item, nonce(session.id, entry.seq, index))
                continue
            if index == 0 and answer is not None and await answer:
                pass
            else:
                channel = self.teller.channel(session.channel_id, session.guild_id)
                if recovering and await self.teller.find(channel, saying(item.text)):
                    continue  # shown before the restart, with its direct messages
                # The channel gone or closed to the bot: the board's drawing ends the session.
                await self.teller.post(channel, item.text, nonce(session.id, entry.seq, index), mentions(item))
            await self.teller.direct(session.channel_id, item, nonce(session.id, entry.seq, index))

    async def tell(self, session: Session, item: News) -> None:
        """Say something now that no commit made (a reminder): in the channel when it calls someone there (or
        nobody by direct message), and by direct message to those who asked for that. Not kept: said once."""
        if item.pings or not item.dms:
            channel = self.teller.channel(session.channel_id, session.guild_id)
            try:
                await channel.send(clip(item.text), allowed_mentions=mentions(item))
            except discord.HTTPException as exc:
                log.info("Session %s: could not post a reminder (%s)", session.id, exc)
        await self.teller.direct(session.channel_id, item, None)

    def footprint(self) -> int:
        """Sessions whose news is kept in memory (only while it is being delivered)."""
        return len(self._entries) + len(self._answers)

    def _forget(self, session_id: int, upto: int) -> None:
        """Release what was kept for news now delivered (everything, once nothing after ``upto`` waits)."""
        kept = self._entries.get(session_id)
        if kept is not None:
            for seq in [s for s in kept if s <= upto]:
                del kept[seq]
                self._answers.pop((session_id, seq), None)
            if not kept:
                del self._entries[session_id]
