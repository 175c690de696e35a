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
import logging
from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.board import jump_url, one_line
from bot.board_messages import BoardMessages, clicked_message
from bot.clock import Clock
from bot.draw_queue import DrawQueue, Job
from bot.drawing import Drawer, LobbyDrawer, LobbyLine
from bot.errors import StaleBoard
from bot.i18n import N_, _, speaking
from bot.languages import Languages
from bot.models import MAIN_VIEW, Applied, Board, Deadline, Scope, Session, Status
from bot.names import relative_time, user_mention
from bot.news import NewsDesk
from bot.plan import Step, plan_board
from bot.replies import Reply
from bot.service import Service
from bot.spec import GameSpec
from rules.engine import Viewer

log = logging.getLogger(__name__)


class Publisher:
    """Draws sessions in their channels: decides what each commit's drawing does (edit, retire, post anew) and
    records what each message shows. Collaborators: the queue of drawings (``DrawQueue``), the drawing of views
    (``Drawer``), the Discord calls on messages (``BoardMessages``), the news desk, the service, the specs."""

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
        languages: Languages,
    ) -> None:
        self.client = client
        self.languages = languages
        self.service = service
        self.specs = specs
        self.clock = clock
        self._deadlines_started = deadlines_started
        self.queued = DrawQueue(self._draw)
        self.drawer = Drawer(service, specs, lobby=lobby, lobby_line=lobby_line)
        self.messages = BoardMessages(client, self._lost_channel)
        self.pictures = self.drawer.pictures
        self.news = NewsDesk(client, service, specs)
        # The queue's own controls, as the publisher's.
        self.catch_up = self.queued.catch_up
        self.backlog_below = self.queued.backlog_below
        self.idle = self.queued.idle
        self.queue = self.queued.queue
        self.compose = self.drawer.compose

    # -- requests ------------------------------------------------------------------------------

    def on_commit(self, applied: Applied) -> None:
        """Commit hook: remember what happened, tell its news, and draw the session."""
        self.drawer.remember_events(applied.session.id, applied.session.version, applied.events)
        reply = applied.origin if isinstance(applied.origin, Reply) else None
        answered = self.news.on_commit(applied)
        if answered is not None or (reply is not None and reply.answers_first):
            # The interaction's answer (its news, or the command's own) goes first; the drawing follows it.
            self.queued.enqueue(applied.session.id, Job(user_id=applied.user_id, after=answered or reply))
            return
        self.request(applied.session.id, reply=reply, user_id=applied.user_id)

    def request(self, session_id: int, *, reply: Reply | None = None, user_id: int | None = None) -> None:
        """Draw a session as it is now (answering ``reply`` with it, if given)."""
        self.queued.enqueue(session_id, Job(reply, user_id))

    async def drain(self, timeout: float) -> None:
        """Let drawings in progress finish (up to ``timeout`` seconds), then stop taking new ones."""
        await self.queued.drain(timeout)
        await asyncio.to_thread(self.pictures.close)

    @property
    def closing(self) -> bool:
        """Drawings are no longer taken (the bot is stopping)."""
        return self.queued.closing

    def footprint(self) -> dict[str, int]:
        """How many sessions (or messages) each of the publisher's structures holds now: those kept per session
        empty out as sessions end; the others are capped (``RECENT_SESSIONS``, ``DRAWN_KEPT``)."""
        held = self.queued.footprint()
        return {**held, "recent": len(self.drawer), "drawn": len(self.messages), "news": self.news.footprint()}

    @property
    def retrying(self) -> int:
        """Sessions whose drawing failed and waits to be tried again."""
        return self.queued.retrying

    @property
    def busy(self) -> bool:
        """Something is being drawn."""
        return self.queued.busy

    @staticmethod
    def _stale_views(session: Session) -> list[str]:
        """Views whose message is behind the session, and a table's board if it has none (it was
        retired and the bot stopped before posting the next one)."""
        stale = [view for view, board in session.boards.items() if board.shown_version < session.view_version(view)]
        if session.scope is Scope.TABLE and MAIN_VIEW not in session.boards:
            stale.append(MAIN_VIEW)
        return stale

    async def _draw(self, session_id: int, job: Job) -> None:
        """One job of a session's worker: post a view anew, or draw the session as it is now, in the language of
        the session's channel."""
        found = await self.service.store.session(session_id)
        with speaking(await self.languages.channel(found.guild_id if found is not None else None)):
            if job.post is not None:
                await self._post_view(session_id, job.post, job)
            else:
                await self._publish(session_id, job)

    async def _publish(self, session_id: int, job: Job) -> None:
        session = await self.service.store.session(session_id)
        if session is None or session.kind not in self.specs:
            return
        await self.news.deliver(session)
        others = [view for view in self._stale_views(session) if view != MAIN_VIEW]
        if session.board is not None or session.scope == "table" or clicked_message(job.reply, session) is not None:
            await self._draw_main(session, job, last=not others)
        for view in others:
            await self._draw_view(session, view, job, last=view == others[-1])
        now = await self.service.store.session(session_id)
        if now is not None and now.drawn < session.version:
            # Nothing drawn recorded it (there was nothing to draw): every view shows this version.
            await self.service.store.shown(session_id, None, None, session.version, drawn=session.version)
        if not session.live:
            self.drawer.forget(session_id)  # drawn for the last time: nothing more will happen on it

    # -- the main board ------------------------------------------------------------------------------

    async def _draw_main(self, session: Session, job: Job, *, last: bool = True) -> None:
        # The decisions this drawing shows start their deadlines now: draw them with their times.
        stored, session = session, self._started(session)
        board = session.board
        reply = job.reply if job.reply is not None and job.reply.pending else None
        clicked = clicked_message(reply, session)
        plan = plan_board(session, self._asked(session), clicker=job.user_id, clicked=clicked)
        if plan.step is Step.NOTHING:
            if plan.through_click and reply is not None and board is not None:
                await reply.update(**(await self.drawer.main_payload(session, board)).edit_kwargs())
            return
        if plan.step is Step.RETIRE:
            await self._retire(session, board, reply, clicked)
            return
        if plan.step is Step.EDIT and board is not None:
            payload = await self.drawer.main_payload(session, board)
            if plan.retire_clicked:
                await self._retire(session, None, reply, clicked)  # a click on an older copy of the board
            if await self.messages.edit(session, board, payload, reply if plan.through_click else None):
                shown = {"shown_version": session.version, "asked": plan.asked, "status": session.status}
                await self._shown(stored, session, board.model_copy(update=shown), last=last)
                return
            board = None  # it was deleted: post a new one
        # The new board replaces the old one's record when it is shown (no write of its own here).
        await self._retire(session, board, reply, clicked, drop=False)
        asked, pings = plan.asked, plan.pings
        first_seq = session.version
        payload = await self.drawer.main_payload(session, None, pings=pings, first_seq=first_seq)
        message = await self.messages.post(session, payload, reply)
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
        self, session: Session, board: Board | None, reply: Reply | None, click: int | None, *, drop: bool = True
    ) -> None:
        """Shrink the current board to one line saying what happened on it, and drop its controls
        (and its record, if ``drop``: a board that no other replaces)."""
        line = await self.drawer.retired_text(session, board)
        await self.messages.retire(session, line, board, reply, click)
        if board is not None and drop:
            await self.service.store.drop_board(session.id, board.view, board.message_id)

    async def _lost_channel(self, session: Session) -> None:
        log.warning("Session %s: channel %s is unreachable; ending it", session.id, session.channel_id)
        with contextlib.suppress(Exception):
            await self.service.end(session.id, why=N_("channel unreachable"))

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

    async def _draw_view(self, session: Session, view: str, job: Job, *, last: bool = False) -> None:
        board = session.boards[view]
        reply = job.reply if job.reply is not None and job.reply.pending else None
        payload = await self.drawer.view_payload(session, view)
        if await self.messages.edit(
            session, board, payload, reply if reply and reply.message_id == board.message_id else None
        ):
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
        self.queued.enqueue(session.id, Job(reply, post=view, done=done))
        await done

    async def _post_view(self, session_id: int, view: str, job: Job) -> None:
        reply = job.reply
        assert reply is not None
        found = await self.service.store.session(session_id)
        if found is None:
            return
        old = found.boards.get(view)
        if view == MAIN_VIEW and old is not None and old.shown_version < found.version:
            # Catch the board up first, so whoever it newly asks is pinged before it is posted again.
            await self._draw_main(found, Job())
            found = await self.service.store.session(session_id)
            assert found is not None
        session = self._started(found)
        old = session.boards.get(view)
        if view == MAIN_VIEW:
            payload = await self.drawer.main_payload(session, old)
        else:
            payload = await self.drawer.view_payload(session, view)
        message = await reply.send(ephemeral=False, **payload.kwargs(pinging=False))
        if message is None:
            return
        self.messages.remember(message.id, payload.digest())
        if old is not None:
            await self.messages.moved(
                old, one_line(self.specs[session.kind].kind.title, _("this was posted again below."))
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
        payload = await self.drawer.view_payload(session, view, viewer)
        await reply.send(ephemeral=True, **payload.kwargs(pinging=False))

    async def remind(self, session: Session, deadline: Deadline) -> None:
        """Half-time reminder: a new message that mentions only the player who must act."""
        seat = session.seat_of_player(deadline.player)
        if seat.user_id is None or not seat.human or deadline.at is None:
            return
        with speaking(await self.languages.channel(session.guild_id)):
            await self._remind(session, seat.user_id, deadline.at)

    async def _remind(self, session: Session, user_id: int, at: float) -> None:
        text = _("{member}, a reminder: it's your move {when}.", member=user_mention(user_id), when=relative_time(at))
        url = jump_url(session)
        if url:
            text += " " + _("[Go to the board]({url})", url=url)
        channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(user_id)]),
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
            return StaleBoard(_("This board is out of date and a new one is being posted; nothing was changed."))
        if reply.message_id != board.message_id:
            return StaleBoard(url=jump_url(session))
        if board.shown_version < session.version and not self.queued.has_work(session.id):
            self.request(session.id, reply=reply)
            return None
        return StaleBoard(_("This board is out of date and is being updated now; nothing was changed."))
