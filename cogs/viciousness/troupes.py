"""``/vic troupe …``: a player's troupe (their captain first, through the character form), its assets and
henchmen; the GM sets minion places and grants advancements."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.errors import InvalidInput
from bot.i18n import _
from bot.lobby import actor_of
from bot.models import Session
from bot.names import escape_name
from bot.replies import PUBLIC_ANSWER, Reply
from cogs.viciousness.common import Autocomplete, action_data, choice_name, owner_for, parse
from cogs.viciousness.controls import Controls
from cogs.viciousness.forms import character_form, pc_form
from cogs.viciousness.sheets import troupe_view
from rules.viciousness.actions import AddAsset, CreateTroupe, DropAsset, EditTroupe, GrantAdvancements, MinionPlaces
from rules.viciousness.data import CHARACTERS

if TYPE_CHECKING:
    from bot.app import TabletopBot

ASSET_CHOICES = [app_commands.Choice(name=choice_name(a.label), value=a.key) for a in CHARACTERS.starting_assets]


async def _create_troupe(bot: TabletopBot, reply: Reply, session: Session, data: dict[str, Any]) -> None:
    """The captain's form was sent: the troupe is made and its sheet posted here."""
    action = parse(data)
    assert isinstance(action, CreateTroupe)
    await bot.service.act(session.id, actor_of(reply.interaction), action)
    fresh = await bot.service.session(session.id)
    await bot.publisher.post_view(fresh, troupe_view(action.owner or str(reply.interaction.user.id)), reply)


def register(controls: Controls) -> None:
    """The captain's form."""
    controls.form(CreateTroupe, character_form(_create_troupe))


class TroupeCommands(Autocomplete):
    """``/vic troupe new|show|edit|gain|lose|minions|grant``."""

    troupe = app_commands.Group(name="troupe", description="Troupes")

    @troupe.command(name="new", description="Join with a troupe")
    @app_commands.choices(asset=ASSET_CHOICES)
    @app_commands.describe(
        asset="The troupe's starting asset",
        member="GM: a troupe for this player",
    )
    async def troupe_new(
        self, interaction: discord.Interaction, asset: str, member: discord.Member | None = None
    ) -> None:
        """Opens the captain's form: the troupe's name, the captain's name, concept and three traits."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        old = self.state(session).troupes.get(owner_for(interaction, member))
        if old is not None and not old.dissolved:  # said before the form is filled in, not after
            name = escape_name(old.name)
            if member is None:
                raise InvalidInput(_("You have a troupe already: {name}.", name=name))
            raise InvalidInput(_("They have a troupe already: {name}.", name=name))
        fixed = {"asset": asset, **({"owner": str(member.id)} if member else {})}
        await reply.modal(pc_form(session, self.state(session), CreateTroupe, fixed))

    @troupe.command(name="show", description="Post a troupe's sheet", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        member="Whose troupe (default: yours)",
    )
    async def troupe_show(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        """The sheet stays up to date as the troupe changes."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        owner = owner_for(interaction, member)
        if owner not in self.state(session).troupes:
            if member is None:
                raise InvalidInput(_("You have no troupe yet: `/vic troupe new` makes one."))
            raise InvalidInput(
                _("{member} has no troupe yet: `/vic troupe new` makes one.", member=member.display_name)
            )
        await self.bot.publisher.post_view(session, troupe_view(owner), reply)

    @troupe.command(name="edit", description="Name, henchmen")
    @app_commands.describe(
        name="A new name",
        henchmen="All of them, split by commas (- clears)",
        member="GM: whose troupe",
    )
    async def troupe_edit(
        self,
        interaction: discord.Interaction,
        name: str | None = None,
        henchmen: str | None = None,
        member: discord.Member | None = None,
    ) -> None:
        """Only what is given changes; ``henchmen: -`` clears them."""
        crew = None if henchmen is None else tuple(h.strip() for h in henchmen.split(",") if h.strip() not in ("", "-"))
        action = action_data(EditTroupe, owner=owner_for(interaction, member), name=name, henchmen=crew)
        await self.act_and_tell(interaction, action)

    @troupe.command(name="gain", description="Gain an asset")
    @app_commands.describe(
        asset="What it is",
        member="GM: whose troupe",
    )
    async def troupe_gain(
        self,
        interaction: discord.Interaction,
        asset: app_commands.Range[str, 1, 1000],
        member: discord.Member | None = None,
    ) -> None:
        """An asset is free text: a safehouse, a favor owed, a stolen painting."""
        await self.act_and_tell(interaction, action_data(AddAsset, owner=owner_for(interaction, member), text=asset))

    @troupe.command(name="lose", description="Lose an asset")
    @app_commands.describe(
        asset="The asset, picked as you type",
        member="GM: whose troupe",
    )
    async def troupe_lose(
        self, interaction: discord.Interaction, asset: int, member: discord.Member | None = None
    ) -> None:
        """The asset is picked from the list offered as you type."""
        await self.act_and_tell(interaction, action_data(DropAsset, owner=owner_for(interaction, member), index=asset))

    @troupe_lose.autocomplete("asset")
    async def _assets(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        found = await self._state_or_none(interaction)
        member = interaction.namespace.member
        troupe = found[1].troupes.get(owner_for(interaction, member)) if found else None
        if troupe is None:
            return []
        key = current.casefold()
        hits = [(i, a) for i, a in enumerate(troupe.assets) if key in a.casefold()]
        return [app_commands.Choice(name=choice_name(a), value=i) for i, a in hits[:25]]

    @troupe.command(name="minions", description="Minion places (GM)")
    @app_commands.describe(
        member="The troupe's player",
        places="How many minions it may have",
    )
    async def troupe_minions(
        self, interaction: discord.Interaction, member: discord.Member, places: app_commands.Range[int, 0, 12]
    ) -> None:
        """One by default; a new minion then comes from an advancement or a replacement."""
        await self.act_and_tell(interaction, MinionPlaces(owner=str(member.id), n=places))

    @troupe.command(name="grant", description="Grant advancements (GM)")
    @app_commands.describe(
        member="The troupe's player",
        advancements="How many to take",
    )
    async def troupe_grant(
        self, interaction: discord.Interaction, member: discord.Member, advancements: app_commands.Range[int, 1, 20] = 1
    ) -> None:
        """Beside those a completed ambition gives every troupe (``/vic-gm company ambition``)."""
        await self.act_and_tell(interaction, GrantAdvancements(owner=str(member.id), n=advancements))
