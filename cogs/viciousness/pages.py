"""Everything on a troupe's sheet, privately and a page at a time (``Details``), and ``/vic me``.

Page 0 is the troupe (assets and henchmen in full), then one page per character: the concept, each
trait with what it does, every contact with its note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.board import static_view
from bot.controls import ui_id
from bot.errors import InvalidInput
from bot.i18n import _, _n
from bot.models import Session
from bot.names import escape_name
from bot.replies import Reply
from cogs.viciousness.common import KIND, VicBase, campaign_state, viewer_of
from cogs.viciousness.controls import Controls
from cogs.viciousness.forms import trait_text
from cogs.viciousness.sheets import asset_text, contacts_text, pc_status, troupe_view
from cogs.viciousness.text import cut
from rules.viciousness.catalogue import find_trait
from rules.viciousness.state import PC, CampaignState, Troupe

if TYPE_CHECKING:
    from bot.app import TabletopBot

PAGE_TEXT = 4000
NOTE_CHARS = 300


def troupe_page(troupe: Troupe) -> str:
    """Page 0: the troupe in full."""
    player = f"<@{troupe.owner}>"
    lines = [_("Player: {player}", player=player)]
    assets = "\n".join(f"• {asset_text(a)}" for a in troupe.assets) or _("none")
    lines.append(_("**Assets**\n{assets}", assets=assets))
    lines.append(
        _("**Henchmen**\n{henchmen}", henchmen=", ".join(escape_name(h) for h in troupe.henchmen) or _("none"))
    )
    lines.append(
        _(
            "Minion places: {places} · advancements taken: {taken}",
            places=troupe.minion_places,
            taken=troupe.advancements,
        )
    )
    if troupe.pending_advancements:
        lines.append(_n("⭐ {n} advancement to take", "⭐ {n} advancements to take", troupe.pending_advancements))
    return "\n\n".join(lines)


def pc_page(pc: PC, state: CampaignState) -> str:
    """A character's page: everything about them."""
    lines = [f"*{escape_name(pc.concept)}*" if pc.concept else _("*No concept written.*")]
    for t in pc.traits:
        found = find_trait(state, t.name)
        text = t.spell or (trait_text(found) if found else "")
        lines.append(f"**{escape_name(t.name)}**: {escape_name(text)}")
    contacts = contacts_text(pc, notes=NOTE_CHARS)
    lines.append(contacts or _("No contacts yet."))
    status = pc_status(pc, state)
    if status:
        lines.append(status)
    return "\n\n".join(lines)


def page_embed(troupe: Troupe, state: CampaignState, page: int) -> discord.Embed:
    """Page ``page`` of a troupe's details (0: the troupe; 1…: its characters in order)."""
    if page == 0:
        title, text = escape_name(troupe.name), troupe_page(troupe)
    else:
        pc = troupe.pcs[page - 1]
        names = {"name": escape_name(pc.name), "troupe": escape_name(troupe.name)}
        if pc.role == "captain":
            title = _("{name} · captain of {troupe}", **names)
        else:
            title = _("{name} · minion of {troupe}", **names)
        text = pc_page(pc, state)
    embed = discord.Embed(title=cut(title, 256), description=cut(text, PAGE_TEXT))
    embed.set_footer(text=_("Page {page} of {pages}", page=page + 1, pages=len(troupe.pcs) + 1))
    return embed


def page_buttons(session: Session, troupe: Troupe, page: int) -> list[list[discord.ui.Item[Any]]]:
    """◀ ▶ between pages."""
    last = len(troupe.pcs)
    buttons: list[discord.ui.Item[Any]] = [
        discord.ui.Button(
            label=label,
            disabled=not 0 <= target <= last,
            custom_id=ui_id(KIND, session.id, "page", f"{troupe.owner}:{target}:{'p' if label == '◀' else 'n'}"),
        )
        for label, target in (("◀", page - 1), ("▶", page + 1))
    ]
    return [buttons]


async def _page(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """``Details`` on a sheet (a new private message), or ◀ ▶ on one (that message turns the page)."""
    owner, _sep, rest = arg.partition(":")
    number, _sep, turning = rest.partition(":")
    state = campaign_state(bot, session)
    troupe = state.troupes.get(owner)
    if troupe is None:
        raise InvalidInput(_("This troupe is gone."))
    page = max(0, min(int(number or 0), len(troupe.pcs)))
    message: dict[str, Any] = {
        "embed": page_embed(troupe, state, page),
        "view": static_view(page_buttons(session, troupe, page)),
    }
    if turning:
        await reply.update(**message)
    else:
        await reply.send(ephemeral=True, **message)


def no_troupe(gm: bool) -> str:
    """The answer to a member without a troupe asking for theirs (a GM's is the GM screen)."""
    if gm:
        return _("You run this campaign, without a troupe: `/vic-gm screen` is your private screen.")
    return _("You have no troupe yet: `/vic troupe new` makes one.")


class SheetCommands(VicBase):
    """``/vic me``: your own troupe's sheet, privately."""

    @app_commands.command(name="me", description="Your troupe, privately")
    async def me(self, interaction: discord.Interaction) -> None:
        """With what you may do next on it."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        viewer = viewer_of(session, interaction)
        if str(interaction.user.id) not in self.state(session).troupes:
            raise InvalidInput(no_troupe(viewer.is_gm))
        await self.bot.publisher.send_private(reply, session, viewer, troupe_view(str(interaction.user.id)))


async def _me(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """``My troupe`` on the company sheet: the clicker's troupe, privately."""
    state = campaign_state(bot, session)
    me = str(reply.interaction.user.id)
    viewer = viewer_of(session, reply.interaction)
    if me not in state.troupes:
        raise InvalidInput(no_troupe(viewer.is_gm))
    await bot.publisher.send_private(reply, session, viewer, troupe_view(me))


def register(controls: Controls) -> None:
    """A troupe's pages of details, and *My troupe*."""
    controls.control("page", _page)
    controls.control("me", _me)
