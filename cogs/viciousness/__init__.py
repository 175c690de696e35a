"""Viciousness campaigns in Discord: the ``/vic`` command group, run by a GM in a channel (or thread).

The group is one cog made of mixins, one module per area of the game:

- ``campaign.py``: ``/vic campaign …`` (start, roles, archive, export and import)
- ``company.py``: ``/vic company …`` (name, ambition, wealth rank and IP)
- ``troupes.py``: ``/vic troupe …`` (a player's troupe, assets, henchmen)
- ``characters.py``: ``/vic pc …`` (characters, traits, contacts, conditions, advancement, replacement)
- ``wealth.py``: ``/vic price``, ``/vic reward``, ``/vic invest``, ``/vic divest``
- ``turns.py``: ``/vic turn start|end``, ``/vic log``
- ``sheets.py``: the company sheet and the troupes' sheets; ``pages.py``: their details, ``/vic me``
- ``forms.py``: the character form (name, concept, traits)

The spec (``spec.py``) draws each view and routes the game's own controls; ``narrate.py`` turns
events into sentences.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.app import TabletopBot
from cogs.viciousness.campaign import CampaignCommands
from cogs.viciousness.characters import CharacterCommands
from cogs.viciousness.checks import CheckCommands
from cogs.viciousness.company import CompanyCommands
from cogs.viciousness.odds import OddsCommands
from cogs.viciousness.pages import SheetCommands
from cogs.viciousness.pools import PoolCommands
from cogs.viciousness.rivals import RivalCommands
from cogs.viciousness.spec import VicSpec
from cogs.viciousness.troupes import TroupeCommands
from cogs.viciousness.turns import TurnCommands
from cogs.viciousness.wealth import WealthCommands


@app_commands.guild_only()
class Viciousness(
    # The campaign's own (issue 11):
    CampaignCommands,
    CompanyCommands,
    TroupeCommands,
    CharacterCommands,
    WealthCommands,
    TurnCommands,
    SheetCommands,
    # The table's (issue 12) go here, one a line:
    PoolCommands,
    CheckCommands,
    RivalCommands,
    OddsCommands,
    commands.GroupCog,
    group_name="vic",
    group_description="Viciousness campaigns.",
):
    """``/vic …``: every Viciousness command."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.campaign_of = {}
        super().__init__()


async def setup(bot: TabletopBot) -> None:
    """discord.py extension entry point: the campaign's spec, then the commands."""
    bot.register(VicSpec(bot))
    await bot.add_cog(Viciousness(bot))
