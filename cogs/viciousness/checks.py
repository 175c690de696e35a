"""A character's moves outside the pools (RULES.md P5–P7): ``/vic push``, ``/vic knowledge``, ``/vic-gm discovery``.

Characters and traits autocomplete from what the member may use: their own troupe's characters (every
one for the GM), and that character's traits (💡 ones for knowledge, the others for a push). Discovery
is the GM's: the command opens a private select of the conditions met, and the d6 is rolled on it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.board import static_view
from bot.controls import ui_id
from bot.errors import UserError
from bot.i18n import N_, _, _n
from bot.lobby import actor_of
from bot.models import Session, roles_of
from bot.replies import PUBLIC_ANSWER, Reply
from cogs.viciousness.common import KIND, VicBase, named_pc
from cogs.viciousness.controls import Controls
from cogs.viciousness.pools import take
from rules.engine import GM_ROLES
from rules.viciousness.catalogue import find_trait
from rules.viciousness.state import CampaignState

CONDITIONS = {
    "reputation": N_("Their reputation is known"),
    "contact": N_("A contact can point the way"),
    "questions": N_("The PCs asked the right questions"),
    "place": N_("They are where the NPC goes"),
    "asset": N_("An asset helps"),
}
"""The discovery conditions the GM ticks (said with ``_()`` in the select)."""


def pc_choices(state: CampaignState, user_id: int, gm: bool, current: str) -> list[app_commands.Choice[str]]:
    """The characters a member may act for, matching what they typed."""
    key = current.casefold()
    return [
        app_commands.Choice(name=f"{pc.name} ({troupe.name})"[:100], value=pc.id)
        for owner, troupe in state.troupes.items()
        for pc in troupe.pcs
        if pc.active and (gm or (owner == str(user_id) and not pc.gm_controlled)) and key in pc.name.casefold()
    ][:25]


def patient_choices(state: CampaignState, current: str) -> list[app_commands.Choice[str]]:
    """Whom a Medic may treat: every wounded character of the company, whoever plays them."""
    key = current.casefold()
    return [
        app_commands.Choice(name=_("{name} ({troupe}), wounded", name=pc.name, troupe=troupe.name)[:100], value=pc.id)
        for troupe in state.troupes.values()
        for pc in troupe.pcs
        if pc.active and pc.wounded and key in pc.name.casefold()
    ][:25]


def trait_choices(state: CampaignState, pc_id: str, knowledge: bool, current: str) -> list[app_commands.Choice[str]]:
    """The traits of ``pc_id``: 💡 ones for a knowledge roll, the others for a push."""
    pc = state.find_pc(pc_id)
    if pc is None:
        return []
    out = []
    for t in pc.traits:
        trait = find_trait(state, t.name)
        if trait is None or (trait.kind == "knowledge") != knowledge or current.casefold() not in t.name.casefold():
            continue
        # A spell the member wrote is said as written; the catalogue's own texts are in the catalogs.
        catalogued = (trait.knowledge if knowledge else trait.push or trait.spell) or ""
        text = t.spell or (_(catalogued) if catalogued else "")
        out.append(app_commands.Choice(name=f"{'💡 ' if knowledge else ''}{t.name}: {text}"[:100], value=t.name))
    return out[:25]


async def _discover(bot: Any, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    pc, traits = arg.partition("|")[::2]
    action = {"type": "discovery", "traits": int(traits or 0), "conditions": values, **({"pc": pc} if pc else {})}
    await take(bot, reply, session, action)


def register(controls: Controls) -> None:
    """A discovery's roll."""
    controls.control("discover", _discover)


class CheckBase(VicBase):
    """What the checks' commands share: the characters and traits offered as they are typed."""

    async def _check_pcs(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            session = await self.campaign_here(interaction)
        except UserError:
            return []
        gm = bool(roles_of(session, actor_of(interaction)) & GM_ROLES)
        return pc_choices(self.state(session), interaction.user.id, gm, current)

    async def _check_traits(
        self, interaction: discord.Interaction, current: str, *, knowledge: bool
    ) -> list[app_commands.Choice[str]]:
        try:
            session = await self.campaign_here(interaction)
        except UserError:
            return []
        return trait_choices(self.state(session), str(interaction.namespace.pc or ""), knowledge, current)


class CheckCommands(CheckBase):
    """``/vic push``, ``/vic knowledge``."""

    @app_commands.command(name="push", description="Push a trait (rattles; a free push doesn't)", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        pc="Your character who pushes",
        trait="The trait pushed (💡 ones can't be)",
        free="Spend a free push (no rattle)",
        target="Medic: who is treated",
        note="What the push does here",
    )
    async def push(
        self,
        interaction: discord.Interaction,
        pc: str,
        trait: str,
        free: bool = False,
        target: str | None = None,
        note: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        """A push for a trait's effect, told to the channel."""
        session = await self.campaign_here(interaction)
        state = self.state(session)
        pc = self.pc_typed(session, interaction, pc)
        if target:  # a patient may be anyone's character
            target = named_pc(state, target, str(interaction.user.id), gm=True)
        # Berzerker's push adds its die to the fight the character is in.
        pool = next((p.id for p in state.pools.values() if any(c.id == pc for c in p.combatants)), None)
        action = {"type": "push", "pc": pc, "trait": trait, "free": free, "note": note or ""}
        action |= {"target": target} if target else {}
        action |= {"pool": pool} if pool else {}
        await take(self.bot, Reply.of(interaction), session, action)

    @app_commands.command(name="knowledge", description="A 💡 knowledge d6 (once a turn)", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        pc="Your character who knows",
        trait="One of their 💡 traits",
        question="What they want to know",
    )
    async def knowledge(
        self,
        interaction: discord.Interaction,
        pc: str,
        trait: str,
        question: app_commands.Range[str, 1, 300] | None = None,
    ) -> None:
        """5–6: the answer; 4: where to find it."""
        session = await self.campaign_here(interaction)
        pc = self.pc_typed(session, interaction, pc)
        action = {"type": "knowledge", "pc": pc, "trait": trait, "question": question or ""}
        await take(self.bot, Reply.of(interaction), session, action)

    push.autocomplete("pc")(CheckBase._check_pcs)
    knowledge.autocomplete("pc")(CheckBase._check_pcs)

    @push.autocomplete("target")
    async def _patients(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            session = await self.campaign_here(interaction)
        except UserError:
            return []
        return patient_choices(self.state(session), current)

    @push.autocomplete("trait")
    async def _push_traits(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._check_traits(interaction, current, knowledge=False)

    @knowledge.autocomplete("trait")
    async def _knowledge_traits(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._check_traits(interaction, current, knowledge=True)


class DiscoveryCommands(CheckBase):
    """``/vic-gm discovery``."""

    @app_commands.command(name="discovery", description="A discovery roll (GM)", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        pc="The character searching",
        traits="How many of their traits help",
    )
    async def discovery(
        self, interaction: discord.Interaction, pc: str | None = None, traits: app_commands.Range[int, 0, 4] = 0
    ) -> None:
        """A private select of the five conditions; the d6 is rolled when the GM picks."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        if not roles_of(session, actor_of(interaction)) & GM_ROLES:
            await reply.send(_("Only the GM can make discovery rolls."), ephemeral=True)
            return
        if pc:  # the id goes into the select's custom_id: a name typed instead is looked up now
            pc = self.pc_typed(session, interaction, pc)
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=ui_id(KIND, session.id, "discover", f"{pc or ''}|{traits}"),
            options=[discord.SelectOption(label=_(text), value=key) for key, text in CONDITIONS.items()],
            placeholder=_("The conditions met (none: pick nothing and close)"),
            min_values=0,
            max_values=len(CONDITIONS),
        )
        text = _n(
            "Discovery: {n} helpful trait. Tick the conditions met; the d6 follows.",
            "Discovery: {n} helpful traits. Tick the conditions met; the d6 follows.",
            traits,
        )
        await reply.send(text, ephemeral=True, view=static_view([[menu]]))

    discovery.autocomplete("pc")(CheckBase._check_pcs)
