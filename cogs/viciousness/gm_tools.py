"""The GM's own tools: private notes (``/vic-gm notes``, a form filled in with the notes as they are), and taking
back or doing again the latest changes (``/vic-gm undo``, ``/vic-gm redo``) on the core's undo of the log.

Undo takes back the latest change that rolled no dice (a roll can't be taken back: it stops the undoing), whoever
made it: the GM runs the table. The GM is told privately what was taken back; the channel, what of it was public.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import IllegalMove
from bot.forms import Input, action_modal
from bot.i18n import N_, _
from bot.lobby import actor_of
from bot.models import Session
from bot.replies import Reply
from cogs.viciousness.common import MAX_CONTENT, VicBase, campaign_state, parse
from cogs.viciousness.controls import Controls
from cogs.viciousness.narrate import narrate
from cogs.viciousness.rivals import gm_viewer
from cogs.viciousness.text import cut
from rules.engine import visible
from rules.viciousness.actions import Notes

if TYPE_CHECKING:
    from bot.app import TabletopBot


def notes_form(session: Session, notes: str) -> discord.ui.Modal:
    """The GM's notes in a form, as they are now."""
    label = _("Only the GM and co-GMs see these")
    text = Input("text", label=label, long=True, required=False, default=notes)
    return action_modal(session, Notes, [text], title=_("GM notes"), game=True)


async def _notes(bot: TabletopBot, reply: Reply, session: Session, data: dict[str, Any]) -> None:
    """The notes' form was sent: saved (a GM-only change, answered privately)."""
    await bot.service.act(session.id, actor_of(reply.interaction), parse(data))
    await reply.send(_("📝 Your notes are saved: only the GM and co-GMs see them (`/vic-gm screen`)."), ephemeral=True)


def register(controls: Controls) -> None:
    """The notes' form."""
    controls.form(Notes, _notes)


class GMToolCommands(VicBase):
    """``/vic-gm notes``, ``/vic-gm undo``, ``/vic-gm redo``."""

    @app_commands.command(name="notes", description="Your private notes on the campaign (GM)")
    async def notes(self, interaction: discord.Interaction) -> None:
        """A form with the notes as they are; only GMs ever see them."""
        session = await self.campaign_here(interaction)
        gm_viewer(session, interaction, _("read and write the GM's notes"))
        await Reply.of(interaction).modal(notes_form(session, self.state(session).notes))

    @app_commands.command(name="undo", description="Take back the latest change that rolled no dice (GM)")
    async def undo(self, interaction: discord.Interaction) -> None:
        """A roll can't be taken back: undoing stops there."""
        await self._undo(interaction, redo=False)

    @app_commands.command(name="redo", description="Make again the change just taken back (GM)")
    async def redo(self, interaction: discord.Interaction) -> None:
        """With the very dice it rolled, if it rolled any."""
        await self._undo(interaction, redo=True)

    async def _undo(self, interaction: discord.Interaction, *, redo: bool) -> None:
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        viewer = gm_viewer(session, interaction, _("take changes back or make them again"))
        # Answered privately; what the channel saw of the change is told again by the undo's news.
        try:
            applied = await self.bot.service.undo(session.id, actor_of(interaction), redo=redo)
        except IllegalMove as exc:
            raise IllegalMove(f"{exc.text} {_(STOPS)}" if not redo else exc.text) from None
        seq = int(applied.events[0]["seq"])
        target = next(e for e in await self.bot.store.log_entries(session.id, after=seq - 1) if e.seq == seq)
        state = campaign_state(self.bot, applied.session)
        private = narrate(state, [e for e in target.events if visible(e, viewer)])
        what = " ".join(private) or unnamed_change(target.action.get("action"))
        told = _("↪️ You made again: {what}", what=what) if redo else _("↩️ You took back: {what}", what=what)
        await reply.send(cut(told, MAX_CONTENT), ephemeral=True)


STOPS = N_("Undo stops at a roll (dice can't be taken back) and at saved GM notes (`/vic-gm notes` changes them).")
CHANGES = {
    "assign": N_("a side's choice of where its hits go"),
    "cancel": N_("a side's choice of whose hits it cancels"),
    "aim": N_("a side's choice of whom its hits wound"),
    "split": N_("a rival's split of points"),
}
"""What a change is, for one whose events tell nothing."""


def unnamed_change(action: object) -> str:
    """A change whose events tell nothing, named by what it was (never "a change with nothing to tell")."""
    kind = str(action.get("type")) if isinstance(action, dict) else ""
    if kind in CHANGES:
        return _(CHANGES[kind])
    return _("the change `{kind}`", kind=kind or "unknown")
