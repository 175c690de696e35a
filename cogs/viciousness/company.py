"""``/vic-gm company …``: the company's name, ambition and turn length, its wealth rank and investment points, liquid
coins and custom traits (the GM), and its sheet posted again."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.errors import InvalidInput
from bot.i18n import _
from bot.models import MAIN_VIEW
from bot.replies import PUBLIC_ANSWER, Reply
from cogs.viciousness.common import VicBase, parse
from rules.viciousness.actions import AdjustLiquid, AmbitionDone, SetCompany, SetIP, SetRank

TRAIT_KINDS = [
    app_commands.Choice(name="Pushed", value="normal"),
    app_commands.Choice(name="Knowledge 💡", value="knowledge"),
    app_commands.Choice(name="Magic ✨", value="magic"),
]
TEXT_FIELD = {"normal": "push", "knowledge": "knowledge", "magic": "spell"}


class CompanyCommands(VicBase):
    """``/vic-gm company show|set|rank|ip|liquid|ambition|trait``."""

    company = app_commands.Group(name="company", description="The company (GM)")

    @company.command(name="show", description="Post its sheet", extras=PUBLIC_ANSWER)
    async def company_show(self, interaction: discord.Interaction) -> None:
        """The sheet stays up to date; the previous one points here."""
        session = await self.campaign_here(interaction)
        await self.bot.publisher.post_view(session, MAIN_VIEW, Reply.of(interaction))

    @company.command(name="set", description="Name, ambition, turn length")
    @app_commands.describe(
        name="The company's name",
        ambition="What it strives for",
        turn_length="How long a turn is (1 day…)",
    )
    async def company_set(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80] | None = None,
        ambition: app_commands.Range[str, 0, 1000] | None = None,
        turn_length: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        """Only what is given changes."""
        await self.act_and_tell(interaction, SetCompany(name=name, ambition=ambition, turn_length=turn_length))

    @company.command(name="rank", description="Set the wealth rank", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        rank="1 to 7; IP go to its minimum",
    )
    async def company_rank(self, interaction: discord.Interaction, rank: app_commands.Range[int, 1, 7]) -> None:
        """A campaign starts at rank 2; the GM may start it elsewhere."""
        await self.act_and_tell(interaction, SetRank(rank=rank))

    @company.command(name="ip", description="Change investment points", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        change="IP to add or take (-5)",
        total="Or the new total",
    )
    async def company_ip(
        self,
        interaction: discord.Interaction,
        change: app_commands.Range[int, -1000, 1000] | None = None,
        total: app_commands.Range[int, 0, 10000] | None = None,
    ) -> None:
        """IP never go below 0; the rank follows them, and a change of rank is announced."""
        if (change is None) == (total is None):
            raise InvalidInput(_("Give either the change or the new total."))
        session = await self.campaign_here(interaction)
        ip = total if total is not None else max(0, self.state(session).company.ip + (change or 0))
        await self.act_and_tell(interaction, SetIP(ip=ip), session=session)

    @company.command(name="liquid", description="Correct liquid coins", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        rank="The coins' rank",
        change="How many to add or take",
    )
    async def company_liquid(
        self,
        interaction: discord.Interaction,
        rank: app_commands.Range[int, 1, 7],
        change: app_commands.Range[int, -100, 100],
    ) -> None:
        """Rewards and investments do this by themselves; this is for everything else."""
        await self.act_and_tell(interaction, AdjustLiquid(rank=rank, delta=change))

    @company.command(name="ambition", description="Ambition completed", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        next="The next ambition",
    )
    async def company_ambition(
        self, interaction: discord.Interaction, next: app_commands.Range[str, 0, 1000] = ""
    ) -> None:
        """Each troupe gets an advancement to take (``/vic pc advance``)."""
        await self.act_and_tell(interaction, AmbitionDone(next=next))

    @company.command(name="trait", description="Approve a custom trait")
    @app_commands.choices(kind=TRAIT_KINDS)
    @app_commands.describe(
        name="The trait's name",
        kind="Pushed, knowledge or magic",
        text="What a push, knowledge or spell does",
    )
    async def company_trait(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 40],
        kind: str,
        text: app_commands.Range[str, 1, 1000],
    ) -> None:
        """Characters may then take it like one of the 27."""
        trait = {"name": name, "kind": kind, TEXT_FIELD[kind]: text}
        await self.act_and_tell(interaction, parse({"type": "define_trait", "trait": trait}))
