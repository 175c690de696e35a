"""A session drawn as messages: the context a spec draws a view from, the events a board tells (kept in memory
for the sessions that changed recently), the status line and the pictures, and the line a retired board keeps.
No Discord calls: pictures are drawn off the event loop, the rest is pure."""

from __future__ import annotations

import io
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from typing import Any

import discord

from bot.board import Payload, compose, one_line
from bot.i18n import N_, _, localize
from bot.lifecycle import told_why
from bot.models import MAIN_VIEW, Board, Session, Status
from bot.names import escape_name
from bot.pictures import PictureWorker
from bot.service import TIMED_OUT, Service
from bot.spec import GameSpec, ViewContext
from rules.engine import PUBLIC, Viewer, visible

TIMEOUT_NOTE = N_("⏰ Time ran out for {name}; the bot took the default for them.")
RECENT_KEPT = 64
"""Recent log events kept in memory per session, so drawing a board needs no log read."""
RECENT_SESSIONS = 2048
"""Sessions whose recent events are kept (the most recently changed; the others read the log when drawn)."""

LobbyDrawer = Callable[[Session], Payload]
LobbyLine = Callable[[Session], str]
"""What a retired lobby message says (who played)."""


def notes(session: Session, events: list[dict[str, Any]]) -> list[str]:
    """The core's own lines under the status line: whose time ran out on this board."""
    timed_out = dict.fromkeys(e["player"] for e in events if e.get("type") == TIMED_OUT)
    return [_(TIMEOUT_NOTE, name=escape_name(Service.display_name(session, p))) for p in timed_out]


class Drawer:
    """Draws sessions' views. Collaborators: the service (states, prompts, the log), the specs, the lobby's
    drawing, and the picture worker."""

    def __init__(
        self, service: Service, specs: Mapping[str, GameSpec[Any]], *, lobby: LobbyDrawer, lobby_line: LobbyLine
    ) -> None:
        self.service = service
        self.specs = specs
        self.lobby = lobby
        self.lobby_line = lobby_line
        self.pictures = PictureWorker()
        self._recent: OrderedDict[int, deque[tuple[int, list[dict[str, Any]]]]] = OrderedDict()
        """Each recently changed session's latest events by version (capped at ``RECENT_SESSIONS``, and released
        when a session is drawn for the last time)."""

    def __len__(self) -> int:
        return len(self._recent)

    def remember_events(self, session_id: int, version: int, events: list[dict[str, Any]]) -> None:
        """What a commit made happen, for the next drawing of the session's board."""
        recent = self._recent.get(session_id)
        if recent is None:
            recent = self._recent[session_id] = deque(maxlen=RECENT_KEPT)
            if len(self._recent) > RECENT_SESSIONS:
                self._recent.popitem(last=False)
        else:
            self._recent.move_to_end(session_id)
        recent.append((version, events))

    def forget(self, session_id: int) -> None:
        """The session was drawn for the last time: nothing more will happen on it."""
        self._recent.pop(session_id, None)

    async def events_since(self, session: Session, first_seq: int) -> list[dict[str, Any]]:
        """Every event (as the channel may see it) logged from ``first_seq`` on."""
        recent = self._recent.get(session.id)
        entries: list[tuple[int, list[dict[str, Any]]]]
        if recent and recent[0][0] <= first_seq:
            entries = [(seq, events) for seq, events in recent if seq >= first_seq]
        else:
            logged = await self.service.store.log_entries(session.id, after=first_seq - 1)
            entries = [(e.seq, e.events) for e in logged]
        return [e for _, events in entries for e in events if visible(e, PUBLIC)]

    def context(
        self,
        session: Session,
        *,
        events: list[dict[str, Any]],
        viewer: Viewer = PUBLIC,
        view: str = MAIN_VIEW,
        first: bool = False,
    ) -> ViewContext[Any]:
        """What a spec draws ``view`` from, as ``viewer`` may see it."""
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

    async def main_payload(
        self, session: Session, board: Board | None, *, pings: list[int] | None = None, first_seq: int | None = None
    ) -> Payload:
        """The full message for the main view of a session, as the channel may see it."""
        if session.status is Status.LOBBY:
            return self.lobby(session)
        since = first_seq if first_seq is not None else (board.first_seq if board is not None else session.version)
        events = await self.events_since(session, since) if self.specs[session.kind].board_events else []
        ctx = self.context(session, events=events, first=since <= 1)
        return await self.compose(session, ctx, pings or [])

    async def view_payload(self, session: Session, view: str, viewer: Viewer = PUBLIC) -> Payload:
        """Another view of a session (a sheet, a pool), or any view drawn for one viewer."""
        return await self.compose(session, self.context(session, events=[], viewer=viewer, view=view), [])

    async def compose(self, session: Session, ctx: ViewContext[Any], pings: list[int]) -> Payload:
        """A drawn view as a message: the status line, the spec's view, pictures drawn off the event loop."""
        spec = self.specs[session.kind]
        drawn = spec.render(ctx)
        files = []
        for picture in drawn.pictures:
            data = await self.pictures.draw(picture.draw)
            files.append(discord.File(io.BytesIO(data), filename=picture.filename))
        main = ctx.view == MAIN_VIEW
        lines = notes(session, ctx.events) if main else []
        return compose(session, spec.kind.title, ctx.prompts, drawn, pings, main=main, notes=lines, files=files)

    async def retired_text(self, session: Session, board: Board | None) -> str:
        """The one line a retired board keeps: what happened on it, how the lobby went, or why it ended."""
        spec = self.specs[session.kind]
        title = spec.kind.title
        if session.status is Status.ABANDONED:
            last = await self.service.store.log_entries(session.id, last=1)
            why = told_why(last[0].action) if last else None
            return one_line(title, why or _("this game was ended."))
        if board is None:
            return one_line(title, _("this board has moved on."))
        if board.status is Status.LOBBY:
            return one_line(title, self.lobby_line(session))
        ctx = self.context(session, events=await self.events_since(session, board.first_seq))
        return one_line(title, localize(spec.retired(ctx)))
