"""The publisher's Discord calls on a session's messages: edit one in place (skipped when it would look the
same), post a new one (as the answer to the interaction that asked, where it can), retire one to a line."""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.board import Payload
from bot.models import Board, Session
from bot.replies import Reply

log = logging.getLogger(__name__)

DRAWN_KEPT = 4096
"""Messages whose drawing is remembered, to skip an edit that would change nothing."""

LostChannel = Callable[[Session], Awaitable[None]]


def clicked_message(reply: Reply | None, session: Session) -> int | None:
    """The message of ``session`` the reply's click came from, if it came from one of its messages."""
    if reply is None or not reply.is_component or reply.session_id != session.id:
        return None
    return reply.message_id


class BoardMessages:
    """Edits and posts a session's messages. Collaborators: the Discord client, and what to do when a channel
    can no longer be reached."""

    def __init__(self, client: discord.Client, lost_channel: LostChannel) -> None:
        self.client = client
        self.lost_channel = lost_channel
        self._drawn: OrderedDict[int, str] = OrderedDict()
        """What each recently drawn message shows (``Payload.digest``), capped at ``DRAWN_KEPT``."""

    def __len__(self) -> int:
        return len(self._drawn)

    def message(self, board: Board) -> discord.PartialMessage:
        """The message that shows ``board``."""
        return self.client.get_partial_messageable(board.channel_id).get_partial_message(board.message_id)

    async def edit(self, session: Session, board: Board, payload: Payload, reply: Reply | None) -> bool:
        """Edit a board in place (through the click that came from it, if any); False if it was deleted.

        A message that would look the same (a campaign's sheet after a dice pool's click) is left alone:
        an edit costs a request against the channel's rate limit."""
        digest = payload.digest()
        if reply is not None:
            await reply.update(**payload.edit_kwargs())
            self.remember(board.message_id, digest)
            return True
        if self._drawn.get(board.message_id) == digest:
            return True
        try:
            await self.message(board).edit(**payload.edit_kwargs())
            self.remember(board.message_id, digest)
        except discord.NotFound:
            log.info("Session %s: its %s message was deleted; posting a new one", session.id, board.view)
            return False
        except discord.Forbidden:
            await self.lost_channel(session)
            return True
        return True

    async def post(self, session: Session, payload: Payload, reply: Reply | None) -> discord.Message | None:
        """Post a new message: as the answer to the command (or the click elsewhere) that asked for it,
        else in the channel."""
        digest = payload.digest()
        message: discord.Message | None = None
        if reply is not None and reply.pending and clicked_message(reply, session) is None:
            message = await reply.send(ephemeral=False, **payload.kwargs(pinging=True))
        if message is None:
            channel = self.client.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
            try:
                message = await channel.send(**payload.kwargs(pinging=True))
            except (discord.Forbidden, discord.NotFound):
                await self.lost_channel(session)
                return None
        self.remember(message.id, digest)
        return message

    async def retire(
        self, session: Session, line: str, board: Board | None, reply: Reply | None, click: int | None
    ) -> None:
        """Shrink ``board``'s message (and the clicked one, ``click``) to ``line``, without controls."""
        for message_id in (board.message_id if board is not None else None, click):
            if message_id is not None:
                self._drawn.pop(message_id, None)  # it no longer shows its drawing
        data: dict[str, Any] = {"content": line, "embeds": [], "view": None, "attachments": []}
        if board is not None and not (reply is not None and click == board.message_id):
            try:
                await self.message(board).edit(**data, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                # The new board matters more: a board left behind only refuses its clicks, with a link.
                log.info("Session %s: could not retire message %s (%s)", session.id, board.message_id, exc)
        if reply is not None and click is not None:
            # The click's own message: the board itself, or an older copy of it (a /game status repost).
            await reply.update(**data)

    async def moved(self, old: Board, line: str) -> None:
        """A view posted again elsewhere: its old message says so, in one line."""
        self._drawn.pop(old.message_id, None)
        with contextlib.suppress(discord.NotFound, discord.Forbidden):
            await self.message(old).edit(content=line, embeds=[], view=None, attachments=[])

    def remember(self, message_id: int, digest: str) -> None:
        """What a message shows now."""
        self._drawn[message_id] = digest
        self._drawn.move_to_end(message_id)
        if len(self._drawn) > DRAWN_KEPT:
            self._drawn.popitem(last=False)
