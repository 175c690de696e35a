"""The publisher: every Discord call that draws a session, made outside any lock, in version order.

After each commit the publisher draws the session as it is *now* (not as it was at that commit),
one session at a time, so an older board never overwrites a newer one and a burst of commits
costs one drawing. It answers the click that caused the change with that drawing where it can.

A channel stays readable: a table has one live board. When someone new must be asked to act, the
board retires (it shrinks to one line saying what happened on it) and a new board mentions
exactly the players newly asked, never the member whose click caused it. Otherwise the board is
edited in place.

Nothing gets stuck: each board remembers the version it shows, so a drawing that failed is
retried, and at startup every board behind its session is drawn again (with the pings its
prompts need). A decision's deadline starts only once the board asking for it is shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.board import Payload, compose, jump_url, one_line
from bot.clock import Clock
from bot.errors import StaleBoard
from bot.models import MAIN_VIEW, Applied, Board, Deadline, Scope, Session, Status
from bot.names import escape_name
from bot.news import NewsDesk
from bot.pictures import PictureWorker
from bot.plan import Step, plan_board
from bot.replies import DEFER_AFTER_S, Reply
from bot.service import TIMED_OUT, Service
from bot.spec import GameSpec, ViewContext
from rules.engine import PUBLIC, Viewer, visible

log = logging.getLogger(__name__)

RETRY_DELAYS_S = (2.0, 5.0, 15.0, 60.0, 300.0)
TIMEOUT_NOTE = "⏰ Time ran out for {name}; the bot took the default for them."
RECENT_KEPT = 64
"""Recent log events kept in memory per session, so drawing a board needs no log read."""
RECENT_SESSIONS = 2048
"""Sessions whose recent events are kept (the most recently changed; the others read the log when drawn)."""
DRAWN_KEPT = 4096
"""Messages whose drawing is remembered, to skip an edit that would change nothing."""
BACKGROUND_DRAWINGS = 4
"""Drawings made at once to catch up after a restart (interactions' drawings never wait for these)."""
ANSWER_FIRST_WAIT_S = DEFER_AFTER_S + 1.0
"""How long a drawing waits for the command answer that goes first (the watchdog defers it after 2 s)."""

LobbyDrawer = Callable[[Session], Payload]
LobbyLine = Callable[[Session], str]
"""What a retired lobby message says (who played)."""


@dataclass
class _Job:
    reply: Reply | None = None
    user_id: int | None = None
    post: str | None = None
    """A view to post anew as the reply (``/game status``, a campaign sheet), instead of drawing."""
    done: asyncio.Future[None] | None = None
    after: Reply | None = None
    """A command's answer that goes first (``Reply.answers_first``): the drawing waits for it."""
    background: bool = False
    """Catching up after a restart: it waits its turn behind at most ``BACKGROUND_DRAWINGS`` others, so
    interactions keep priority."""
    queued_at: float = field(default_factory=time.monotonic)


def _notes(session: Session, events: list[dict[str, Any]]) -> list[str]:
    """The core's own lines under the status line: whose time ran out on this board."""
    timed_out = dict.fromkeys(e["player"] for e in events if e.get("type") == TIMED_OUT)
    return [TIMEOUT_NOTE.format(name=escape_name(Service.display_name(session, p))) for p in timed_out]


def _clicked(reply: Reply | None, session: Session) -> int | None:
    """The message of ``session`` the reply's click came from, if it came from one of its messages."""
    if reply is None or not reply.is_component or reply.session_id != session.id:
        return None
    return reply.message_id


class Publisher:
    """Draws sessions in their channels. Collaborators: the Discord client, the service, the specs."""

    def __init__(
        self,
        client: discord.Client,
        service: Service,
        specs: Mapping[str, GameSpec[Any]],
        clock: Clock,
        *,
        lobby: LobbyDrawer,
        lobby_line: LobbyLine,
        deadlines_started: Callable[[float | None], None],
    ) -> None:
        self.client = client
        self.service = service
        self.specs = specs
        self.clock = clock
        self._lobby = lobby
        self._lobby_line = lobby_line
        self._deadlines_started = deadlines_started
        # Everything kept per session is released when its worker has nothing left to do (jobs, failures) or
        # when the session ends (recent events, also capped at RECENT_SESSIONS): a bot that served a million
        # games keeps none of them.
        self._jobs: dict[int, deque[_Job]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._failures: dict[int, int] = {}
        self._recent: OrderedDict[int, deque[tuple[int, list[dict[str, Any]]]]] = OrderedDict()
        self._background = asyncio.Semaphore(BACKGROUND_DRAWINGS)
        self._backlog = 0
        self._backlog_moved = asyncio.Event()
        self.pictures = PictureWorker()
        self.news = NewsDesk(client, service, specs)
        self._drawn: OrderedDict[int, str] = OrderedDict()
        """What each recently drawn message shows (``Payload.digest``), to skip edits that change nothing."""
        self.closing = False

    # -- requests ------------------------------------------------------------------------------

    def on_commit(self, applied: Applied) -> None:
        """Commit hook: remember what happened, tell its news, and draw the session."""
        self._remember_events(applied.session.id, applied.session.version, applied.events)
        reply = applied.origin if isinstance(applied.origin, Reply) else None
        answered = self.news.on_commit(applied)
        if answered is not None or (reply is not None and reply.answers_first):
            # The interaction's answer (its news, or the command's own) goes first; the drawing follows it.
            self._enqueue(applied.session.id, _Job(user_id=applied.user_id, after=answered or reply))
            return
        self.request(applied.session.id, reply=reply, user_id=applied.user_id)

    def _remember_events(self, session_id: int, version: int, events: list[dict[str, Any]]) -> None:
        recent = self._recent.get(session_id)
        if recent is None:
            recent = self._recent[session_id] = deque(maxlen=RECENT_KEPT)
            if len(self._recent) > RECENT_SESSIONS:
                self._recent.popitem(last=False)
        else:
            self._recent.move_to_end(session_id)
        recent.append((version, events))

    def request(self, session_id: int, *, reply: Reply | None = None, user_id: int | None = None) -> None:
        """Draw a session as it is now (answering ``reply`` with it, if given)."""
        self._enqueue(session_id, _Job(reply, user_id))

    def _enqueue(self, session_id: int, job: _Job) -> None:
        if self.closing:
            if job.done is not None:
                job.done.set_result(None)
            return
        self._jobs.setdefault(session_id, deque()).append(job)
        if job.reply is not None and job.reply.pending and self._has_work(session_id):
            # Its answer would wait behind another drawing (maybe a slow or rate-limited edit): acknowledge the
            # interaction now; the drawing fills it in when its turn comes.
            if job.post is not None:
                job.reply.expect_message(private=False)  # a view posted anew is a public message
            job.reply.defer_now()
        if session_id not in self._workers:
            task = asyncio.get_running_loop().create_task(self._work(session_id), name=f"publish-{session_id}")
            self._workers[session_id] = task

    def catch_up(self, session_id: int) -> None:
        """After a restart: draw a session that is behind (and tell its news), after the interactions' drawings."""
        self._backlog += 1
        self._enqueue(session_id, _Job(background=True))

    async def backlog_below(self, count: int) -> None:
        """Wait until fewer than ``count`` catch-up drawings are waiting (the caller then hands in more)."""
        while self._backlog >= count:
            self._backlog_moved.clear()
            await self._backlog_moved.wait()

    async def drain(self, timeout: float) -> None:
        """Let drawings in progress finish (up to ``timeout`` seconds), then stop taking new ones."""
        self.closing = True
        for handle in self._retries.values():
            handle.cancel()
        workers = list(self._workers.values())
        if workers:
            await asyncio.wait(workers, timeout=timeout)
        await asyncio.to_thread(self.pictures.close)

    async def idle(self) -> None:
        """Wait until nothing is being drawn."""
        while self._workers:
            await asyncio.wait(list(self._workers.values()))

    def footprint(self) -> dict[str, int]:
        """How many sessions (or messages) each of the publisher's structures holds now: those kept per session
        empty out as sessions end; the others are capped (``RECENT_SESSIONS``, ``DRAWN_KEPT``)."""
        return {
            "jobs": len(self._jobs),
            "workers": len(self._workers),
            "retries": len(self._retries),
            "failures": len(self._failures),
            "recent": len(self._recent),
            "drawn": len(self._drawn),
            "news": self.news.footprint(),
        }

    def queue(self) -> tuple[int, float]:
        """Drawings waiting for their turn, and how many seconds the oldest has waited (for the metrics)."""
        heads = [jobs[0].queued_at for jobs in self._jobs.values() if jobs]
        waiting = sum(len(jobs) for jobs in self._jobs.values())
        return waiting, time.monotonic() - min(heads) if heads else 0.0

    @property
    def retrying(self) -> int:
        """Sessions whose drawing failed and waits to be tried again."""
        return len(self._retries)

    @property
    def busy(self) -> bool:
        """Something is being drawn."""
        return bool(self._workers)

    @staticmethod
    def _stale_views(session: Session) -> list[str]:
        """Views whose message is behind the session, and a table's board if it has none (it was
        retired and the bot stopped before posting the next one)."""
        stale = [view for view, board in session.boards.items() if board.shown_version < session.view_version(view)]
        if session.scope is Scope.TABLE and MAIN_VIEW not in session.boards:
            stale.append(MAIN_VIEW)
        return stale

    # -- the worker ------------------------------------------------------------------------------

    async def _work(self, session_id: int) -> None:
        jobs = self._jobs[session_id]
        try:
            while jobs:
                job = jobs.popleft()
                if job.after is not None:
                    await job.after.answered(ANSWER_FIRST_WAIT_S)
                try:
                    if job.post is not None:
                        await self._post_view(session_id, job.post, job)
                    elif job.background and any(not j.background for j in jobs):
                        pass  # an interaction's drawing follows: it draws the session as it is now, at once
                    elif job.background:
                        async with self._background:
                            await self._publish(session_id, job)
                    else:
                        await self._publish(session_id, job)
                    self._failures.pop(session_id, None)
                except (discord.HTTPException, OSError, TimeoutError) as exc:
                    log.warning("Session %s: drawing failed (%s); trying again later", session_id, exc)
                    self._retry_later(session_id)
                    self._fail(job, exc)
                except Exception as exc:
                    log.exception("Session %s: drawing failed", session_id)
                    self._retry_later(session_id)
                    self._fail(job, exc)
                finally:
                    if job.background:
                        self._backlog -= 1
                        self._backlog_moved.set()
                    if job.reply is not None:
                        with contextlib.suppress(discord.HTTPException):
                            await job.reply.ack()
                    if job.done is not None and not job.done.done():
                        job.done.set_result(None)
        finally:
            del self._workers[session_id]
            if jobs:
                self.request(session_id)  # something arrived while the worker was finishing
            else:
                del self._jobs[session_id]

    @staticmethod
    def _fail(job: _Job, exc: Exception) -> None:
        if job.done is not None and not job.done.done():
            job.done.set_exception(exc)

    def _retry_later(self, session_id: int) -> None:
        failures = self._failures.get(session_id, 0)
        self._failures[session_id] = failures + 1
        delay = RETRY_DELAYS_S[min(failures, len(RETRY_DELAYS_S) - 1)]
        old = self._retries.pop(session_id, None)
        if old is not None:
            old.cancel()
        self._retries[session_id] = asyncio.get_running_loop().call_later(delay, self._retry, session_id)

    def _retry(self, session_id: int) -> None:
        self._retries.pop(session_id, None)
        self.request(session_id)

    async def _publish(self, session_id: int, job: _Job) -> None:
        session = await self.service.store.session(session_id)
        if session is None or session.kind not in self.specs:
            return
        await self.news.deliver(session)
        others = [view for view in self._stale_views(session) if view != MAIN_VIEW]
        if session.board is not None or session.scope == "table" or _clicked(job.reply, session) is not None:
            await self._draw_main(session, job, last=not others)
        for view in others:
            await self._draw_view(session, view, job, last=view == others[-1])
        now = await self.service.store.session(session_id)
        if now is not None and now.drawn < session.version:
            # Nothing drawn recorded it (there was nothing to draw): every view shows this version.
            await self.service.store.shown(session_id, None, None, session.version, drawn=session.version)
        if not session.live:
            self._recent.pop(session_id, None)  # drawn for the last time: nothing more will happen on it

    # -- the main board ------------------------------------------------------------------------------

    async def _draw_main(self, session: Session, job: _Job, *, last: bool = True) -> None:
        # The decisions this drawing shows start their deadlines now: draw them with their times.
        stored, session = session, self._started(session)
        board = session.board
        reply = job.reply if job.reply is not None and job.reply.pending else None
        clicked = _clicked(reply, session)
        plan = plan_board(session, self._asked(session), clicker=job.user_id, clicked=clicked)
        if plan.step is Step.NOTHING:
            if plan.through_click and reply is not None and board is not None:
                await reply.update(**(await self._payload(session, board)).edit_kwargs())
            return
        if plan.step is Step.RETIRE:
            await self._retire(session, board, reply, clicked)
            return
        if plan.step is Step.EDIT and board is not None:
            payload = await self._payload(session, board)
            if plan.retire_clicked:
                await self._retire(session, None, reply, clicked)  # a click on an older copy of the board
            if await self._edit(session, board, payload, reply if plan.through_click else None):
                shown = {"shown_version": session.version, "asked": plan.asked, "status": session.status}
                await self._shown(stored, session, board.model_copy(update=shown), last=last)
                return
            board = None  # it was deleted: post a new one
        # The new board replaces the old one's record when it is shown (no write of its own here).
        await self._retire(session, board, reply, clicked, drop=False)
        asked, pings = plan.asked, plan.pings
        first_seq = session.version
        payload = await self._payload(session, None, pings=pings, first_seq=first_seq)
        message = await self._post(session, payload, reply)
        if message is None:
            return
        new = Board(
            view=MAIN_VIEW,
            channel_id=session.channel_id,
            message_id=message.id,
            shown_version=session.version,
            posted_at=self.clock.now(),
            asked=asked,
            first_seq=first_seq,
            status=session.status,
        )
        await self._shown(stored, session, new, last=last)

    def _asked(self, session: Session) -> list[str]:
        """Members asked to act now (a prompt that pings, in a seat a member plays)."""
        if session.status is not Status.ACTIVE:
            return []
        asked = []
        for prompt in self.service.prompts(session):
            seat = session.seat_of_player(prompt.player)
            if prompt.ping and seat.human and prompt.player not in asked:
                asked.append(prompt.player)
        return asked

    async def _retire(
        self, session: Session, board: Board | None, reply: Reply | None, clicked: int | None, *, drop: bool = True
    ) -> None:
        """Shrink the current board to one line saying what happened on it, and drop its controls
        (and its record, if ``drop``: a board that no other replaces)."""
        line = await self._retired_text(session, board)
        for message_id in (board.message_id if board is not None else None, clicked):
            if message_id is not None:
                self._drawn.pop(message_id, None)  # it no longer shows its drawing
        data: dict[str, Any] = {"content": line, "embeds": [], "view": None, "attachments": []}
        if board is not None and not (reply is not None and clicked == board.message_id):
            try:
                await self._message(board).edit(**data, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                # The new board matters more: a board left behind only refuses its clicks, with a link.
                log.info("Session %s: could not retire message %s (%s)", session.id, board.message_id, exc)
        if reply is not None and clicked is not None:
            # The click's own message: the board itself, or an older copy of it (a /game status repost).
            await reply.update(**data)
        if board is not None and drop:
            await self.service.store.drop_board(session.id, board.view, board.message_id)

    async def _retired_text(self, session: Session, board: Board | None) -> str:
        """The one line a retired board keeps: what happened on it, how the lobby went, or why it ended."""
        spec = self.specs[session.kind]
        title = spec.kind.title
        if session.status is Status.ABANDONED:
            last = await self.service.store.log_entries(session.id, last=1)
            why = last[0].action.get("why") if last else None
            return one_line(title, str(why or "this game was ended."))
        if board is None:
            return one_line(title, "this board has moved on.")
        if board.status is Status.LOBBY:
            return one_line(title, self._lobby_line(session))
        ctx = self._context(session, events=await self._events_since(session, board.first_seq))
        return one_line(title, spec.retired(ctx))

    async def _events_since(self, session: Session, first_seq: int) -> list[dict[str, Any]]:
        """Every event (as the channel may see it) logged from ``first_seq`` on."""
        recent = self._recent.get(session.id)
        entries: list[tuple[int, list[dict[str, Any]]]]
        if recent and recent[0][0] <= first_seq:
            entries = [(seq, events) for seq, events in recent if seq >= first_seq]
        else:
            logged = await self.service.store.log_entries(session.id, after=first_seq - 1)
            entries = [(e.seq, e.events) for e in logged]
        return [e for _, events in entries for e in events if visible(e, PUBLIC)]

    def _context(
        self,
        session: Session,
        *,
        events: list[dict[str, Any]],
        viewer: Viewer = PUBLIC,
        view: str = MAIN_VIEW,
        first: bool = False,
    ) -> ViewContext[Any]:
        kind = self.service.kind_of(session)
        state = self.service.state_of(session)
        return ViewContext(
            session=session,
            state=kind.view(state, viewer),
            prompts=self.service.prompts(session, state),
            events=[e for e in events if visible(e, viewer)],
            viewer=viewer,
            view=view,
            first=first,
        )

    async def _payload(
        self, session: Session, board: Board | None, *, pings: list[int] | None = None, first_seq: int | None = None
    ) -> Payload:
        """The full message for the main view of a session, as the channel may see it."""
        if session.status is Status.LOBBY:
            return self._lobby(session)
        since = first_seq if first_seq is not None else (board.first_seq if board is not None else session.version)
        events = await self._events_since(session, since) if self.specs[session.kind].board_events else []
        ctx = self._context(session, events=events, first=since <= 1)
        return await self.compose(session, ctx, pings or [])

    async def compose(self, session: Session, ctx: ViewContext[Any], pings: list[int]) -> Payload:
        """A drawn view as a message: the status line, the spec's view, pictures drawn off the event loop."""
        spec = self.specs[session.kind]
        drawn = spec.render(ctx)
        files = []
        for picture in drawn.pictures:
            data = await self.pictures.draw(picture.draw)
            files.append(discord.File(io.BytesIO(data), filename=picture.filename))
        main = ctx.view == MAIN_VIEW
        notes = _notes(session, ctx.events) if main else []
        return compose(session, spec.kind.title, ctx.prompts, drawn, pings, main=main, notes=notes, files=files)

    # -- Discord calls -----------------------------------------------------------------------------------

    def _message(self, board: Board) -> discord.PartialMessage:
        return self.client.get_partial_messageable(board.channel_id).get_partial_message(board.message_id)

    async def _edit(self, session: Session, board: Board, payload: Payload, reply: Reply | None) -> bool:
        """Edit a board in place (through the click that came from it, if any); False if it was deleted.

        A message that would look the same (a campaign's sheet after a dice pool's click) is left alone:
        an edit costs a request against the channel's rate limit."""
        digest = payload.digest()
        if reply is not None:
            await reply.update(**payload.edit_kwargs())
            self._remember(board.message_id, digest)
            return True
        if self._drawn.get(board.message_id) == digest:
            return True
        try:
            await self._message(board).edit(**payload.edit_kwargs())
            self._remember(board.message_id, digest)
        except discord.NotFound:
            log.info("Session %s: its %s message was deleted; posting a new one", session.id, board.view)
            return False
        except discord.Forbidden:
            await self._lost_channel(session)
            return True
        return True

    def _remember(self, message_id: int, digest: str) -> None:
        self._drawn[message_id] = digest
        self._drawn.move_to_end(message_id)
        if len(self._drawn) > DRAWN_KEPT:
            self._drawn.popitem(last=False)

    async def _post(self, session: Session, payload: Payload, reply: Reply | None) -> discord.Message | None:
        """Post a new message: as the answer to the command (or the click elsewhere) that asked for it,
        else in the channel."""
        digest = payload.digest()
        message: discord.Message | None = None
        if reply is not None and reply.pending and _clicked(reply, session) is None:
            message = await reply.send(ephemeral=False, **payload.kwargs(pinging=True))
        if message is None:
            channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
            try:
                message = await channel.send(**payload.kwargs(pinging=True))
            except (discord.Forbidden, discord.NotFound):
                await self._lost_channel(session)
                return None
        self._remember(message.id, digest)
        return message

    async def _lost_channel(self, session: Session) -> None:
        log.warning("Session %s: channel %s is unreachable; ending it", session.id, session.channel_id)
        with contextlib.suppress(Exception):
            await self.service.end(session.id, why="channel unreachable")

    def _started(self, session: Session) -> Session:
        """The session with every pending deadline started (as of now, if it had not started)."""
        if session.status is not Status.ACTIVE or all(d.at is not None for d in session.deadlines):
            return session
        now = self.clock.now()
        return session.model_copy(update={"deadlines": [d.started(now) for d in session.deadlines]})

    async def _shown(self, stored: Session, session: Session, board: Board, *, last: bool = False) -> None:
        """Record what a message shows; the decisions the main board asks for start their deadlines
        (``session`` is ``stored`` with its deadlines started). ``last``: this is the last view of this version
        to draw (the session is drawn, in the same write)."""
        deadlines = None
        if board.view == MAIN_VIEW and stored.deadlines != session.deadlines:
            deadlines = session.deadlines
        drawn = session.version if last else None
        await self.service.store.shown(session.id, board, deadlines, session.version, drawn)
        if deadlines is not None:
            self._deadlines_started(session.next_deadline)

    # -- other views, reposts, private views ------------------------------------------------------------

    async def _draw_view(self, session: Session, view: str, job: _Job, *, last: bool = False) -> None:
        board = session.boards[view]
        reply = job.reply if job.reply is not None and job.reply.pending else None
        ctx = self._context(session, events=[], view=view)
        payload = await self.compose(session, ctx, [])
        if await self._edit(session, board, payload, reply if reply and reply.message_id == board.message_id else None):
            shown = board.model_copy(update={"shown_version": session.view_version(view)})
            await self._shown(session, session, shown, last=last)
        else:
            await self.service.store.drop_board(session.id, view, board.message_id)

    async def post_view(self, session: Session, view: str, reply: Reply) -> None:
        """Post a view (the board again, a campaign's sheet…) as the answer to a command; it is kept up
        to date from now on. The view's previous message, if any, retires to one line pointing here.

        Done by the session's worker like any drawing, so it never races one.
        """
        done = asyncio.get_running_loop().create_future()
        self._enqueue(session.id, _Job(reply, post=view, done=done))
        await done

    async def _post_view(self, session_id: int, view: str, job: _Job) -> None:
        reply = job.reply
        assert reply is not None
        found = await self.service.store.session(session_id)
        if found is None:
            return
        old = found.boards.get(view)
        if view == MAIN_VIEW and old is not None and old.shown_version < found.version:
            # Catch the board up first, so whoever it newly asks is pinged before it is posted again.
            await self._draw_main(found, _Job())
            found = await self.service.store.session(session_id)
            assert found is not None
        session = self._started(found)
        old = session.boards.get(view)
        if view == MAIN_VIEW:
            payload = await self._payload(session, old)
        else:
            payload = await self.compose(session, self._context(session, events=[], view=view), [])
        digest = payload.digest()
        message = await reply.send(ephemeral=False, **payload.kwargs(pinging=False))
        if message is None:
            return
        self._remember(message.id, digest)
        if old is not None:
            self._drawn.pop(old.message_id, None)
            title = self.specs[session.kind].kind.title
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await self._message(old).edit(
                    content=one_line(title, "this was posted again below."), embeds=[], view=None, attachments=[]
                )
        new = Board(
            view=view,
            channel_id=message.channel.id,
            message_id=message.id,
            shown_version=session.view_version(view),
            posted_at=self.clock.now(),
            asked=old.asked if old is not None else self._asked(session),
            first_seq=old.first_seq if old is not None else session.version,
            status=session.status,
        )
        await self._shown(found, session, new)

    async def send_private(self, reply: Reply, session: Session, viewer: Viewer, view: str = MAIN_VIEW) -> None:
        """A view drawn for one viewer (what their roles let them see), sent to them privately."""
        ctx = self._context(session, events=[], viewer=viewer, view=view)
        payload = await self.compose(session, ctx, [])
        await reply.send(ephemeral=True, **payload.kwargs(pinging=False))

    async def remind(self, session: Session, deadline: Deadline) -> None:
        """Half-time reminder: a new message that mentions only the player who must act."""
        seat = session.seat_of_player(deadline.player)
        if seat.user_id is None or not seat.human or deadline.at is None:
            return
        text = f"<@{seat.user_id}>, a reminder: it's your move <t:{int(deadline.at)}:R>."
        url = jump_url(session)
        if url:
            text += f" [Go to the board]({url})"
        channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(seat.user_id)]
                ),
            )

    def stale(self, session: Session, reply: Reply) -> StaleBoard | None:
        """What to do with a click made on an older version.

        A click on the current board that shows an old version with nothing pending to draw (it got
        stuck: the bot died, or Discord kept failing) draws it again through the click: None. A click
        on the current board while it is being redrawn is told so; one on any other message gets a
        link to the current board.
        """
        board = session.board
        if board is None:
            return StaleBoard("This board is out of date and a new one is being posted; nothing was changed.")
        if reply.message_id != board.message_id:
            return StaleBoard(url=jump_url(session))
        if board.shown_version < session.version and not self._has_work(session.id):
            self.request(session.id, reply=reply)
            return None
        return StaleBoard("This board is out of date and is being updated now; nothing was changed.")

    def _has_work(self, session_id: int) -> bool:
        return session_id in self._workers or session_id in self._retries
