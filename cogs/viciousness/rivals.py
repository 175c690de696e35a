"""Rivals the players never see (RULES.md P8, P9): ``/vic-gm screen`` (the GM screen), ``rival …``, ``reveal``.

Everything about a rival is answered privately to the GM (or a co-GM): commands are refused to
anyone else before they are read, autocomplete offers rivals only to a GM, and the GM screen's
controls answer privately. What an action does to the company or a PC (IP lost, a PC rattled) is
public and is posted in the channel without naming the rival; the rest reaches the channel only
through ``/vic-gm reveal``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.board import static_view
from bot.errors import InvalidInput, NotPermitted, UserError
from bot.i18n import N_, _
from bot.lobby import actor_of
from bot.models import Session, viewer_of
from bot.names import escape_name
from bot.replies import Reply
from bot.spec import ViewContext
from cogs.viciousness.common import MAX_CONTENT, VicBase, choice_name
from cogs.viciousness.controls import Controls
from cogs.viciousness.narrate import narrate
from cogs.viciousness.pools import chosen_action, commit
from cogs.viciousness.rivals_view import GM_ACT, GM_VIEW, move_rows, render_gm
from cogs.viciousness.text import cut
from rules.engine import Viewer, visible
from rules.text import echo, whole_number
from rules.viciousness.state import CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot

MAX_ROWS = 5


def gm_viewer(session: Session, interaction: discord.Interaction, doing: str = N_("see and change rivals")) -> Viewer:
    """The GM (or co-GM) who sent ``interaction``; NotPermitted for anyone else, saying what was refused (``doing``:
    English marked with ``N_``, said here)."""
    viewer = viewer_of(session, actor_of(interaction))
    if not viewer.is_gm:
        raise NotPermitted(_("Only the GM and co-GMs can {doing}.", doing=_(doing)))
    return viewer


async def screen_payload(bot: TabletopBot, session: Session, viewer: Viewer) -> dict[str, Any]:
    """The GM screen as edit arguments, drawn for ``viewer``."""
    kind = bot.service.kind_of(session)
    state = kind.view(bot.service.state_of(session), viewer)
    ctx = ViewContext(session=session, state=state, prompts=[], events=[], viewer=viewer, view=GM_VIEW)
    return (await bot.publisher.compose(session, ctx, [])).edit_kwargs()


async def tell_gm(
    bot: TabletopBot, reply: Reply, session: Session, viewer: Viewer, events: Iterable[Mapping[str, Any]]
) -> None:
    """What happened, privately to the GM (what the channel may know of it is the change's news)."""
    state = bot.service.state_of(session)
    assert isinstance(state, CampaignState)
    private = narrate(state, [dict(e) for e in events if visible(e, viewer)])
    await reply.send(cut("\n".join(private), MAX_CONTENT) or _("Done."), ephemeral=True)


async def rival_news(
    bot: TabletopBot, interaction: discord.Interaction, session: Session, events: list[dict[str, Any]]
) -> None:
    """After a command that moved the rivals (a turn's start or end): their news, privately, to a GM who sent it,
    with a control for each move that waits on the GM (its pick is taken right there: no GM screen to open)."""
    viewer = viewer_of(session, actor_of(interaction))
    secret = [e for e in events if e.get("only")]
    if not secret or not viewer.is_gm:
        return
    state = bot.service.state_of(session)
    assert isinstance(state, CampaignState)
    lines = narrate(state, [e for e in secret if visible(e, viewer)])
    if not lines:
        return
    ctx = ViewContext(session=session, state=state, prompts=[], events=[], viewer=viewer, view=GM_VIEW)
    rows = move_rows(ctx)[:MAX_ROWS]
    text = cut(_("🎭 Only you see this:") + "\n" + "\n".join(lines), MAX_CONTENT)
    await Reply.of(interaction).send(text, ephemeral=True, view=static_view(rows))


async def _gm_act(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    viewer = gm_viewer(session, reply.interaction)
    applied = await commit(bot, reply, session, chosen_action(arg, values), answer=False)
    await reply.update(ephemeral=True, **await screen_payload(bot, applied.session, viewer))
    await tell_gm(bot, reply, applied.session, viewer, applied.events)


async def _refresh(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    viewer = gm_viewer(session, reply.interaction)
    await reply.update(**await screen_payload(bot, session, viewer))


def register(controls: Controls) -> None:
    """The GM's screen, its actions and *Refresh*."""
    controls.view(GM_VIEW, render_gm)
    controls.control(GM_ACT, _gm_act)
    controls.control("gm", _refresh)


Severity = Literal["light", "medium", "heavy"]
Temperament = Literal["rash", "default", "shrewd"]


def named_rival(state: CampaignState, action: Mapping[str, Any]) -> Mapping[str, Any]:
    """``action`` with a rival (and design) typed by name, not picked from the list, turned into its id."""
    typed = action.get("rival")
    if not isinstance(typed, str) or typed in state.rivals:
        return action
    key = typed.strip().casefold()
    found = [r for r in state.rivals.values() if not r.dropped and r.name.casefold() == key]
    if len(found) != 1:
        raise InvalidInput(_("No rival is called {name}: pick one from the list as you type.", name=echo(typed)))
    out = {**action, "rival": found[0].id}
    design = action.get("design")
    if isinstance(design, str) and found[0].design(design) is None:
        texts = [d.id for d in found[0].designs if d.text.casefold() == design.strip().casefold()]
        out["design"] = texts[0] if len(texts) == 1 else design
    return out


class GMScreenCommands(VicBase):
    """``/vic-gm screen``, ``/vic-gm reveal``."""

    @app_commands.command(name="screen", description="Your private GM screen: rivals, designs, notes")
    async def gm(self, interaction: discord.Interaction) -> None:
        """The GM screen, privately."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        viewer = gm_viewer(session, interaction, N_("see the GM screen (rivals, their designs, the GM's notes)"))
        await self.bot.publisher.send_private(reply, session, viewer, GM_VIEW)

    @app_commands.command(name="reveal", description="Tell the channel, or hand a player something privately (GM)")
    @app_commands.describe(
        text="What they learn (up to 1,000 characters)",
        to="A handout for this player only (and the GMs), by direct message",
        also="A second player who gets the same handout",
    )
    async def reveal(
        self,
        interaction: discord.Interaction,
        text: app_commands.Range[str, 1, 1000],
        to: discord.Member | None = None,
        also: discord.Member | None = None,
    ) -> None:
        """The one way rivals reach the table: what the GM writes, to everyone or to a few."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        gm_viewer(session, interaction, N_("reveal things to the channel or hand players a handout"))
        players = list(dict.fromkeys(m for m in (to, also) if m is not None and not m.bot))
        action = {"type": "reveal", "text": text, "to": [str(m.id) for m in players]}
        await self.act(interaction, action, session)
        if not players:
            await reply.send(_("Revealed to the channel."), ephemeral=True)  # the channel is told by the news
            return
        # The handout goes to them by direct message with the change's news (``member_news``): told once, after a
        # crash too; where their direct messages are closed, the channel tells them to look in /vic log.
        names = ", ".join(escape_name(m.display_name) for m in players)
        answer = _(
            "📨 Handed to {names} by direct message: only they and the GMs see it (it is in their `/vic log`).",
            names=names,
        )
        await reply.send(answer, ephemeral=True)


class RivalCommands(VicBase):
    """``/vic-rival add|design|edit|redesign|split|foil|deal|drop``: rivals, answered to the GM only."""

    async def _gm_act(self, interaction: discord.Interaction, action: Mapping[str, Any]) -> None:
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        viewer = gm_viewer(session, interaction)
        action = named_rival(self.state(session), action)
        applied = await commit(self.bot, reply, session, action, answer=False)
        await tell_gm(self.bot, reply, applied.session, viewer, applied.events)

    @app_commands.command(name="edit", description="Change a rival (only what is given)")
    @app_commands.describe(
        rival="The rival",
        name="A new name",
        rank="A new rank",
        minions="How many minions",
        assets="All of them, split by ;",
        notes="Your notes (replaced)",
    )
    async def rival_edit(
        self,
        interaction: discord.Interaction,
        rival: str,
        name: app_commands.Range[str, 1, 80] | None = None,
        rank: app_commands.Range[int, 1, 7] | None = None,
        minions: app_commands.Range[int, 0, 50] | None = None,
        assets: app_commands.Range[str, 1, 400] | None = None,
        notes: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Name, rank, minions, assets, notes."""
        action: dict[str, Any] = {"type": "edit_rival", "rival": rival}
        given = {"name": name, "rank": rank, "minions": minions, "notes": notes}
        action |= {k: v for k, v in given.items() if v is not None}
        if assets is not None:
            action["assets"] = [a.strip()[:80] for a in assets.split(";") if a.strip()]
        await self._gm_act(interaction, action)

    @app_commands.command(name="redesign", description="Change a design (only what is given)")
    @app_commands.describe(
        rival="The rival",
        design="The design",
        text="What they want",
        severity="How hard it falls",
        temperament="Success: rash 2-in-4, default 3, shrewd 4",
        asset="Helpful asset; - for none",
        unsubtle="The PCs may interfere",
        points="Its ambition points",
    )
    async def rival_redesign(
        self,
        interaction: discord.Interaction,
        rival: str,
        design: str,
        text: app_commands.Range[str, 1, 1000] | None = None,
        severity: Severity | None = None,
        temperament: Temperament | None = None,
        asset: app_commands.Range[str, 1, 80] | None = None,
        unsubtle: bool | None = None,
        points: app_commands.Range[int, 0, 1000] | None = None,
    ) -> None:
        """Text, severity, temperament, helpful asset, unsubtle, points."""
        action: dict[str, Any] = {"type": "edit_design", "rival": rival, "design": design}
        given = {"text": text, "severity": severity, "temperament": temperament, "unsubtle": unsubtle, "points": points}
        action |= {k: v for k, v in given.items() if v is not None}
        if asset is not None:
            action["asset"] = "" if asset.strip() == "-" else asset
        await self._gm_act(interaction, action)

    @app_commands.command(name="add", description="A new rival")
    @app_commands.describe(
        name="The rival's name",
        rank="Their wealth rank",
        minions="Default: rank − 2",
        assets="Up to four, split by ;",
        notes="Your notes on them",
    )
    async def rival_add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        rank: app_commands.Range[int, 1, 7],
        minions: app_commands.Range[int, 0, 50] | None = None,
        assets: app_commands.Range[str, 1, 400] | None = None,
        notes: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Add a rival."""
        held = [a.strip()[:80] for a in (assets or "").split(";") if a.strip()]
        action: dict[str, Any] = {"type": "add_rival", "name": name, "rank": rank, "assets": held, "notes": notes or ""}
        if minions is not None:
            action["minions"] = minions
        await self._gm_act(interaction, action)

    @app_commands.command(name="design", description="A new design")
    @app_commands.describe(
        rival="The rival",
        text="What they want",
        severity="How hard its consequence falls",
        temperament="Success: rash 2-in-4, default 3, shrewd 4",
        asset="Their asset that helps (+1 a turn)",
        unsubtle="The PCs may interfere when it moves",
    )
    async def rival_design(
        self,
        interaction: discord.Interaction,
        rival: str,
        text: app_commands.Range[str, 1, 1000],
        severity: Severity = "light",
        temperament: Temperament = "default",
        asset: app_commands.Range[str, 1, 80] | None = None,
        unsubtle: bool = False,
    ) -> None:
        """Add a design."""
        action: dict[str, Any] = {"type": "add_design", "rival": rival, "text": text, "severity": severity}
        action |= {"temperament": temperament, "unsubtle": unsubtle} | ({"asset": asset} if asset else {})
        await self._gm_act(interaction, action)

    @app_commands.command(name="foil", description="A design was foiled")
    @app_commands.describe(
        rival="The rival",
        design="The design foiled",
    )
    async def rival_foil(self, interaction: discord.Interaction, rival: str, design: str) -> None:
        """Foil a design."""
        await self._gm_act(interaction, {"type": "foil", "rival": rival, "design": design})

    @app_commands.command(name="deal", description="A rival deal")
    @app_commands.describe(
        rival="The rival",
        design="The design that gains",
    )
    async def rival_deal(self, interaction: discord.Interaction, rival: str, design: str) -> None:
        """A rival deal."""
        await self._gm_act(interaction, {"type": "deal", "rival": rival, "design": design})

    @app_commands.command(name="split", description="Share the rank's points among designs")
    @app_commands.describe(
        rival="The rival",
        points="d1 2, d2 1 (none: all to the top one)",
    )
    async def rival_split(
        self, interaction: discord.Interaction, rival: str, points: app_commands.Range[str, 1, 60] | None = None
    ) -> None:
        """The GM's split, kept from turn to turn."""
        shares: dict[str, int] | None = None
        if points:
            shares = {}
            for part in points.replace(";", ",").split(","):
                design, n = part.strip().partition(" ")[::2]
                count = whole_number(n)
                if not design or count is None:
                    raise InvalidInput(_("Write each design and its points: `d1 2, d2 1`."))
                shares[design] = count
        await self._gm_act(interaction, {"type": "split", "rival": rival, "points": shares})

    @app_commands.command(name="drop", description="No longer a rival")
    @app_commands.describe(
        rival="The rival",
    )
    async def rival_drop(self, interaction: discord.Interaction, rival: str) -> None:
        """Drop a rival."""
        await self._gm_act(interaction, {"type": "drop_rival", "rival": rival})

    async def _rivals(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            session = await self.campaign_here(interaction)
            gm_viewer(session, interaction)  # rivals are offered to GMs only
        except UserError:
            return []
        key = current.casefold()
        return [
            app_commands.Choice(name=choice_name(f"{r.id} · {r.name}"), value=r.id)
            for r in self.state(session).rivals.values()
            if not r.dropped and key in f"{r.id} {r.name}".casefold()
        ][:25]

    async def _designs(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            session = await self.campaign_here(interaction)
            gm_viewer(session, interaction)
        except UserError:
            return []
        rival = self.state(session).rivals.get(str(interaction.namespace.rival or ""))
        if rival is None:
            return []
        return [
            app_commands.Choice(
                name=choice_name(_("{id} · {points} pts · {text}", id=d.id, points=d.points, text=d.text)), value=d.id
            )
            for d in rival.designs
            if d.status == "building" and current.casefold() in f"{d.id} {d.text}".casefold()
        ][:25]

    rival_design.autocomplete("rival")(_rivals)
    rival_foil.autocomplete("rival")(_rivals)
    rival_deal.autocomplete("rival")(_rivals)
    rival_drop.autocomplete("rival")(_rivals)
    rival_split.autocomplete("rival")(_rivals)
    rival_edit.autocomplete("rival")(_rivals)
    rival_redesign.autocomplete("rival")(_rivals)
    rival_redesign.autocomplete("design")(_designs)
    rival_foil.autocomplete("design")(_designs)
    rival_deal.autocomplete("design")(_designs)
