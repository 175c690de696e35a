"""The campaign as the core sees it on the Discord side: views by record, narration, the game's own controls.

Views are registered by the prefix of their key (``board`` is the company sheet, ``troupe:<owner>`` a
troupe's sheet); controls handled by the game itself (``ctx.ui_button``) by their name, the key of their
custom_id; forms by the action they submit. Each module that draws views or controls exports
``register(controls)``, and the cog's setup calls every one (``cogs/viciousness/__init__.py``): a name
taken twice fails there, at startup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.errors import UserError
from bot.i18n import N_, _
from bot.models import MAIN_VIEW, Deadline, LogEntry, News, Scope, Session
from bot.names import escape_name
from bot.registry import GameKind
from bot.replies import Reply
from bot.spec import FaceLuck, GameSpec, View, ViewContext
from cogs.viciousness.calls import reminder
from cogs.viciousness.controls import RENAMED, Controls
from cogs.viciousness.narrate import narrate
from cogs.viciousness.news import entry_news, gm_news, member_news
from cogs.viciousness.rules_text import describe
from cogs.viciousness.sessions import session_reminder
from rules.viciousness.engine import ENGINE
from rules.viciousness.options import VicOptions
from rules.viciousness.sessions import EVERYONE
from rules.viciousness.state import CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot


class VicSpec(GameSpec[CampaignState]):
    """Viciousness campaigns: one per channel (or named per server), beside any table game."""

    kind = GameKind(ENGINE, scope=Scope.CAMPAIGN)
    luck_faces = (FaceLuck(N_("⚔️ hits"), 4),)  # a die showing exactly 4 hits, whatever its size (said by /stats)
    command = "vic-gm campaign new"
    board_events = False  # the company sheet shows the company as it is; /vic log tells what happened

    def __init__(self, bot: TabletopBot, controls: Controls) -> None:
        self.bot = bot
        self.controls = controls

    def render(self, ctx: ViewContext[CampaignState]) -> View:
        """The view ``ctx.view`` names, drawn by its module."""
        prefix = MAIN_VIEW if ctx.view == MAIN_VIEW else ctx.view.partition(":")[0]
        renderer = self.controls.views.get(prefix)
        if renderer is None:
            return View(content=_("This sheet is no longer shown."))
        return renderer(ctx)

    def news(self, ctx: ViewContext[CampaignState], entry: LogEntry) -> list[News]:
        """What the channel is told of a log entry, written with it (``cogs/viciousness/news.py``)."""
        return entry_news(ctx.session, ctx.state, entry, ctx.events)

    def gm_news(self, ctx: ViewContext[CampaignState], entry: LogEntry) -> list[News]:
        """What the GMs alone are told of a log entry, by direct message (``cogs/viciousness/news.py``)."""
        return gm_news(ctx.session, ctx.state, entry, ctx.events)

    def member_news(self, ctx: ViewContext[CampaignState], entry: LogEntry) -> list[News]:
        """What one member alone is told of a log entry, by direct message: a handout (``cogs/viciousness/news``)."""
        return member_news(ctx.session, ctx.state, ctx.viewer, ctx.events)

    def reminder(self, session: Session, deadline: Deadline) -> News | None:
        """A player the table still waits on, who asked to be reminded (``/vic calls``); the players before a
        planned session."""
        state = self.bot.service.state_of(session)
        assert isinstance(state, CampaignState)
        if deadline.player == EVERYONE:
            return session_reminder(state, deadline, self.bot.service.clock.now())
        return reminder(session, state, deadline)

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        """Sentences for ``/game log`` and the sheets."""
        state = self.bot.service.state_of(session)
        assert isinstance(state, CampaignState)
        return narrate(state, events)

    def options_of(self, session: Session) -> VicOptions:
        """The house rules in force: the campaign's state holds them (the GM changes them as it goes)."""
        state = self.bot.service.state_of(session)
        assert isinstance(state, CampaignState)
        return state.options

    def describe_options(self, options: BaseModel) -> str:
        """Every rule in force, the house rules in bold."""
        assert isinstance(options, VicOptions)
        return describe(options)

    def summary(self, session: Session) -> str:
        """``**The Gilded Knives** · turn 3 under way`` (``· 📦 archived``)."""
        state = self.bot.service.state_of(session)
        assert isinstance(state, CampaignState)
        name = f"**{escape_name(state.company.name)}**" if state.company.name else _("A company without a name yet")
        turn = state.turn
        if not turn.number:
            when = _("before turn 1")
        elif turn.running:
            when = _("turn {number} under way", number=turn.number)
        else:
            when = _("turn {number} over", number=turn.number)
        archived = _("📦 archived")
        return f"{name} · {when} · {archived}" if state.archived else f"{name} · {when}"

    def rules_summary(self) -> str:
        """How a campaign runs, in a few lines."""
        return "\n".join(
            (
                _(
                    "A GM runs the campaign with `/vic-gm`; each player leads a troupe of the company with `/vic` "
                    "(`/vic troupe new`)."
                ),
                _(
                    "• **Turns**: the GM starts and ends them (`/vic-gm turn start|end|next`); each turn the company "
                    "gets one coin per troupe, and every character takes one action: a scheme, a fight, a rest "
                    "(`/vic pc act`), a purchase…"
                ),
                _(
                    "• **Wealth**: `/vic price` (pay from turn or liquid coins), `/vic-gm reward` (`invest:` at "
                    "once), `/vic-gm invest`, `/vic-gm divest`; the rank follows the investment points."
                ),
                _(
                    "• **At the table**: the GM opens a fight (`/vic-gm violence`, NPCs in brackets) or a scheme "
                    "(`/vic-gm knavery`); characters join from the board with their usual trait dice. `/vic push` "
                    "(rattles), `/vic knowledge` (💡), `/vic odds` for the exact chances."
                ),
                _(
                    "• **Yours**: `/vic me` (your troupe, privately), `/vic log` (what happened, by turn, your "
                    "handouts)."
                ),
                _(
                    "• **GM only**: `/vic-gm screen` (rivals, designs, notes), `/vic-rival …`, `/vic-gm rules` "
                    "(house rules), `/vic-gm notes`, `/vic-gm undo|redo`, `/vic-gm reveal` (to the channel or `to:` "
                    "a player)."
                ),
            )
        )

    async def on_ui(self, reply: Reply, session: Session, key: str, arg: str, values: list[str]) -> None:
        """A click on one of the campaign's own controls (a page of a sheet, a form to open)."""
        handler = self.controls.handlers.get(RENAMED.get(key, key))
        if handler is None:
            raise UserError(_("That button is no longer in use."))
        await handler(self.bot, reply, session, arg, values)
