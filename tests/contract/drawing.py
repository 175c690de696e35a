"""A board as the publisher draws it for one viewer, as the JSON discord.py sends: what the contract's checks read."""

from __future__ import annotations

from typing import Any

import discord
from pydantic import BaseModel

from bot.board import compose
from bot.models import MAIN_VIEW, Session, Status
from bot.spec import ViewContext
from rules.engine import Viewer, visible
from tests.contract.play import Played


def session_at(p: Played, state: BaseModel) -> Session:
    """The session as the core stores it with ``state``: finished once the game has winners."""
    seats = p.game.kind.seats
    over = seats is not None and seats.winners(state) is not None
    return p.table.session.model_copy(update={"status": Status.FINISHED if over else Status.ACTIVE})


def wire(p: Played, state: BaseModel, events: list[dict[str, Any]], viewer: Viewer, view: str) -> dict[str, Any]:
    """The message discord.py sends for one board drawn for ``viewer``, as the publisher draws it."""
    game, session = p.game, session_at(p, state)
    prompts = game.kind.prompts(state)
    ctx = ViewContext(
        session=session,
        state=game.kind.view(state, viewer),
        prompts=prompts,
        events=[e for e in events if visible(e, viewer)],
        viewer=viewer,
        view=view,
    )
    payload = compose(session, game.kind.title, prompts, game.spec.render(ctx), [], main=view == MAIN_VIEW)
    return {
        "content": payload.content,
        "embeds": [e.to_dict() for e in payload.embeds],
        "components": payload.view.to_components() if payload.view else [],
        "allowed_mentions": discord.AllowedMentions.none().to_dict(),
    }
