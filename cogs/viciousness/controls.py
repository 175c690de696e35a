"""The campaign's registry of views, controls and forms on the Discord side: each registered once, by name, by the
module that draws it (``register(controls)``), so that a name taken twice fails at startup.

Apart from ``spec.py`` so that a module that registers (forms, pages…) needs nothing the spec itself imports.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.errors import UserError
from bot.forms import FORM, form_data, tag_of
from bot.i18n import _
from bot.models import Session
from bot.replies import Reply
from bot.spec import View, ViewContext
from rules.viciousness.state import CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot

Renderer = Callable[[ViewContext[CampaignState]], View]
UIHandler = Callable[["TabletopBot", Reply, Session, str, list[str]], Awaitable[None]]
FormHandler = Callable[["TabletopBot", Reply, Session, dict[str, Any]], Awaitable[None]]
"""Takes a submitted form: ``handler(bot, reply, session, data)``, ``data`` the action it describes, unchecked."""


RENAMED = {
    "pg": "page",
    "lg": "log-page",
    "pm": "mods",
    "pb": "pay",
    "disc": "discover",
    "npform": "minion-form",
    "amform": "advance-form",
}
"""Keys controls had before they were registered by readable names: a campaign's boards and private pages stay up
for weeks, and their buttons keep working until they are next drawn."""


class DuplicateControl(ValueError):
    """Two modules registered the same name: one of them would silently take the other's clicks."""


class Controls:
    """The campaign's views, controls and forms, each registered once, by name, by the module that draws it."""

    def __init__(self) -> None:
        self.views: dict[str, Renderer] = {}
        """How to draw each view, by the part of its key before ``:`` (``board``, ``troupe``…)."""
        self.handlers: dict[str, UIHandler] = {}
        """The game's own controls, by the key of their custom_id: ``handler(bot, reply, session, arg, values)``."""
        self.forms: dict[str, FormHandler] = {}
        """What takes each form, by the ``type`` of the action it submits."""
        self.control(FORM, self._form)

    def view(self, prefix: str, renderer: Renderer) -> None:
        """Draw the views whose key starts with ``prefix`` with ``renderer``."""
        _add(self.views, "view", prefix, renderer)

    def control(self, name: str, handler: UIHandler) -> None:
        """Send clicks and picks on controls keyed ``name`` (``ui_id(…, name, arg)``) to ``handler``."""
        _add(self.handlers, "control", name, handler)

    def form(self, model: type[BaseModel], handler: FormHandler) -> None:
        """Send forms that submit ``model``'s action (``action_modal(…, game=True)``) to ``handler``."""
        _add(self.forms, "form", tag_of(model), handler)

    async def _form(self, bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
        data = form_data(reply.interaction, arg)
        handler = self.forms.get(str(data["type"]))
        if handler is None:
            raise UserError(_("That form is no longer in use."))
        await handler(bot, reply, session, data)


def _add(table: dict[str, Any], what: str, name: str, value: Any) -> None:
    if name in table:
        raise DuplicateControl(f"two Viciousness {what}s are called {name!r}")
    table[name] = value
