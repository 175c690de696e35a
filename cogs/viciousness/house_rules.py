"""House rules: every ``vic.*`` flag of RULES.md PART 5, set when the campaign starts or any time after (GM).

``/vic-gm rules`` (and the private answer to ``/vic-gm campaign new``) shows each rule in force and a select of
every change that can be made, one option each; a change is an engine action (logged, undoable) and the channel
is told. The rules that differ from the recommended ones are shown where they change play: the company sheet
lists them all, a pool's board those of fights or schemes, ``/game rules`` every rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.board import static_view
from bot.errors import NotPermitted
from bot.i18n import _
from bot.models import Session
from bot.replies import Reply
from bot.spec import ViewContext
from cogs.viciousness.common import VicBase, campaign_state, viewer_of
from cogs.viciousness.controls import Controls
from cogs.viciousness.narrate import NARRATORS, Event
from cogs.viciousness.pools import chosen_action, commit
from cogs.viciousness.pools_view import act_select
from cogs.viciousness.rules_text import RULES, describe, rule_line
from rules.viciousness.state import CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot

RULES_KEY = "rules"
"""The ``on_ui`` key of the house rules' panel (its select's picks are options changes)."""


def panel(session: Session, state: CampaignState) -> dict[str, Any]:
    """The private panel: the rules in force, and a select of every change (one option per change)."""
    options = state.options
    embed = discord.Embed(
        title=_("House rules"),
        description=_(
            "The rules in force (**bold**: not the recommended one). Pick a change below: the channel is "
            "told, and `/vic-gm undo` takes it back."
        )
        + "\n\n"
        + describe(options),
    )
    ctx = ViewContext(session=session, state=state, prompts=[], events=[])
    changes: list[tuple[str, Mapping[str, Any]]] = [
        (rule_line(flag, value), {"type": "options", "changes": {flag: value}})
        for flag, (_about, values) in RULES.items()
        for value in values
        if value != getattr(options, flag)
    ]
    menu = act_select(ctx, changes, _("Change a house rule…"), "rules", key=RULES_KEY)
    return {"embed": embed, "view": static_view([[menu]])}


async def _change(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """A change picked in the panel: applied, the panel redrawn (the channel is told by the change's news)."""
    applied = await commit(bot, reply, session, chosen_action(arg, values), answer=False)
    await reply.update(ephemeral=True, **panel(applied.session, campaign_state(bot, applied.session)))


def _changed(state: CampaignState, e: Event) -> str:
    return _("📏 House rule: {rules}.", rules="; ".join(rule_line(f, v) for f, v in e["changes"].items()))


NARRATORS["options_changed"] = _changed


def register(controls: Controls) -> None:
    """The house rules' panel."""
    controls.control(RULES_KEY, _change)


async def send_panel(bot: TabletopBot, reply: Reply, session: Session) -> None:
    """The house rules' panel, privately, to a GM."""
    if not viewer_of(session, reply.interaction).is_gm:
        raise NotPermitted(_("Only the GM and co-GMs can change the house rules."))
    await reply.send(ephemeral=True, **panel(session, campaign_state(bot, session)))


class HouseRuleCommands(VicBase):
    """``/vic-gm rules``."""

    @app_commands.command(name="rules", description="The house rules in force; change them (GM)")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Every flag of the rules reference, with a select of the changes."""
        session = await self.campaign_here(interaction)
        await send_panel(self.bot, Reply.of(interaction), session)
