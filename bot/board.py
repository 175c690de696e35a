"""Turning a view of a session into a Discord message: the status line, mentions and controls."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.i18n import _, localize
from bot.models import Session, Status
from bot.names import clip, listed
from bot.spec import View
from rules.engine import Prompt

MAX_DESCRIPTION = 1024
"""An attachment's description (its alt text)."""
MAX_ROWS = 5


def static_view(rows: list[list[discord.ui.Item[Any]]]) -> discord.ui.View | None:
    """A view holding the given rows, stopped so discord.py does not keep it in memory.

    Clicks are routed by the core's DynamicItems from the custom_id alone, which is what makes
    boards work after a restart; a stored view would only leak.
    """
    if not rows:
        return None
    if len(rows) > MAX_ROWS:
        raise ValueError(f"a message holds at most {MAX_ROWS} rows of components")
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows):
        for item in row:
            item.row = index
            view.add_item(item)
    view.stop()
    return view


def mention(session: Session, player: str) -> str:
    """A user mention for a human seat, the escaped name for a computer seat."""
    return session.seat_of_player(player).mention


def who_must_act(session: Session, prompts: Iterable[Prompt]) -> str:
    """``@A to roll the dice (<t:…:R>); @B to choose who gets the dagger``; players asked the same thing by
    the same deadline share one part: ``@A and @B to pick a pair (<t:…:R>)``."""
    deadlines = {(d.player, d.decision): d.at for d in session.deadlines}
    asked: dict[tuple[str, float | None], list[str]] = {}
    for prompt in prompts:
        at = deadlines.get((prompt.player, prompt.decision))
        asked.setdefault((localize(prompt.label), at), []).append(mention(session, prompt.player))
    parts = []
    for (label, at), who in asked.items():
        part = _("{names} to {label}", names=listed(who), label=label)
        parts.append(part + (f" (<t:{int(at)}:R>)" if at is not None else ""))
    return "; ".join(parts)


def status_line(session: Session, title: str, prompts: list[Prompt]) -> str:
    """The first line of a table's board: the game, and who must act by when (or the result)."""
    if session.status is Status.FINISHED and session.winners is not None:
        names = ", ".join(mention(session, p) for p in session.winners)
        return _("**{title}** · game over · 🏆 {names}", title=title, names=names)
    if session.status is Status.ABANDONED:
        return _("**{title}** · this game was ended.", title=title)
    if not prompts or not session.seats:
        return f"**{title}**"
    return _("**{title}** · waiting for {who}", title=title, who=who_must_act(session, prompts))


@dataclass
class Payload:
    """Keyword arguments for send/edit, plus who the message may ping."""

    content: str
    embeds: list[discord.Embed]
    view: discord.ui.View | None
    ping: list[int] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)

    def kwargs(self, *, pinging: bool) -> dict[str, Any]:
        """For ``send`` (``pinging``: a new message that should notify) or ``edit``."""
        users = [discord.Object(u) for u in self.ping] if pinging else []
        data: dict[str, Any] = {
            "content": self.content,
            "embeds": self.embeds,
            "view": self.view,
            "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False),
        }
        if self.files:
            data["files"] = self.files
        return data

    def digest(self) -> str:
        """A fingerprint of what the message shows: equal digests draw the same message."""
        shown = {
            "content": self.content,
            "embeds": [e.to_dict() for e in self.embeds],
            "components": self.view.to_components() if self.view is not None else [],
        }
        fingerprint = hashlib.blake2b(json.dumps(shown, sort_keys=True, default=str).encode(), digest_size=16)
        for file in self.files:
            buffer = file.fp
            position = buffer.tell()
            fingerprint.update(buffer.read())
            buffer.seek(position)
        return fingerprint.hexdigest()

    def edit_kwargs(self) -> dict[str, Any]:
        """For an edit: pictures replace the message's attachments."""
        data = self.kwargs(pinging=False)
        files = data.pop("files", None)
        if files is not None:
            data["attachments"] = files
        return data


def compose(
    session: Session,
    title: str,
    prompts: list[Prompt],
    drawn: View,
    pings: list[int],
    *,
    main: bool = True,
    notes: list[str] | None = None,
    files: list[discord.File] | None = None,
) -> Payload:
    """A drawn view as a message: the status line (for the main view), the core's notes, the view's
    text, embeds and controls."""
    lines = [status_line(session, title, prompts)] if main else []
    lines += notes or []
    if drawn.content:
        lines.append(localize(drawn.content))
    if files:  # the drawn pictures, in the order of ``drawn.pictures``
        for file, picture in zip(files, drawn.pictures, strict=True):
            file.description = clip(localize(picture.description), MAX_DESCRIPTION)  # alt text
    return Payload(
        content=clip("\n".join(lines)), embeds=drawn.embeds, view=static_view(drawn.rows), ping=pings, files=files or []
    )


def jump_url(session: Session, view: str = "board") -> str | None:
    """Link to the message showing a session's view."""
    board = session.boards.get(view)
    if board is None:
        return None
    guild = session.guild_id if session.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{board.channel_id}/{board.message_id}"


def one_line(title: str, text: str) -> str:
    """The content of a retired board: the game and what happened on it, on one line."""
    flat = " ".join(text.split())
    return clip(f"**{title}** · {flat}" if flat else f"**{title}**")
