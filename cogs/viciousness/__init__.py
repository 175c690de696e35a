"""Viciousness campaigns in Discord: ``/vic`` for everyone at the table, ``/vic-gm`` for whoever runs it, and
``/vic-rival`` for the rivals only the GM sees.

Discord caps one command's tree at 4,000 characters of names and descriptions, and every option here has a
description of its own: so the campaign has three commands, each one cog made of mixins, one module per area:

- ``campaign.py``: ``/vic-gm campaign …`` (start, roles, takeover, archive and restore, export and import)
- ``company.py``: ``/vic-gm company …`` (name, ambition, wealth rank and IP)
- ``troupes.py``: ``/vic troupe …`` (a player's troupe, assets, henchmen)
- ``characters.py``: ``/vic pc …`` (characters, traits, contacts, conditions, advancement, replacement)
- ``wealth.py``: ``/vic price``; ``/vic-gm reward``, ``invest``, ``divest``
- ``turns.py``: ``/vic-gm turn start|end``; ``/vic log``
- ``sheets.py``: the company sheet and the troupes' sheets; ``pages.py``: their details, ``/vic me``
- ``forms.py``: the character form (name, concept, traits)
- ``pools.py``, ``checks.py``, ``rivals.py`` (``/vic-rival …``), ``odds.py``: the table (issue 12)
- ``house_rules.py``, ``gm_tools.py``: ``/vic-gm rules``, ``notes``, ``undo``, ``redo``

The spec (``spec.py``) draws each view and routes the game's own controls, which each module registers by name
(its ``register``, called by :func:`controls` at setup: a name taken twice stops the bot there); ``narrate.py``
turns events into sentences.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.app import TabletopBot
from cogs.viciousness import (
    characters,
    checks,
    forms,
    gm_tools,
    house_rules,
    pages,
    pools,
    rivals,
    sheets,
    troupes,
    turns,
    wealth,
)
from cogs.viciousness.calls import CallCommands
from cogs.viciousness.campaign import CampaignCommands
from cogs.viciousness.characters import CharacterCommands
from cogs.viciousness.checks import CheckCommands, DiscoveryCommands
from cogs.viciousness.common import CampaignOf
from cogs.viciousness.company import CompanyCommands
from cogs.viciousness.controls import Controls
from cogs.viciousness.gm_tools import GMToolCommands
from cogs.viciousness.house_rules import HouseRuleCommands
from cogs.viciousness.journal import JournalCommands
from cogs.viciousness.odds import OddsCommands
from cogs.viciousness.pages import SheetCommands
from cogs.viciousness.pools import PoolCommands
from cogs.viciousness.recap import RecapCommands
from cogs.viciousness.rivals import GMScreenCommands, RivalCommands
from cogs.viciousness.sessions import SessionCommands
from cogs.viciousness.spec import VicSpec
from cogs.viciousness.troupes import TroupeCommands
from cogs.viciousness.turns import LogCommands, TurnCommands
from cogs.viciousness.wealth import PriceCommands, RewardCommands


@app_commands.guild_only()
class Viciousness(
    SheetCommands,
    CallCommands,
    RecapCommands,
    JournalCommands,
    TroupeCommands,
    CharacterCommands,
    CheckCommands,
    PriceCommands,
    LogCommands,
    OddsCommands,
    commands.GroupCog,
    group_name="vic",
    group_description="Viciousness: your troupe, its characters and what they do.",
):
    """``/vic …``: what players (and the GM) do at the table."""

    def __init__(self, bot: TabletopBot, campaign_of: CampaignOf) -> None:
        self.bot = bot
        self.campaign_of = campaign_of
        super().__init__()


@app_commands.guild_only()
class ViciousnessGM(
    CampaignCommands,
    CompanyCommands,
    TurnCommands,
    PoolCommands,
    DiscoveryCommands,
    RewardCommands,
    GMScreenCommands,
    HouseRuleCommands,
    GMToolCommands,
    SessionCommands,
    commands.GroupCog,
    group_name="vic-gm",
    group_description="Viciousness, for the GM: the campaign, turns, pools, rewards and rivals.",
):
    """``/vic-gm …``: what runs the campaign (most of it the GM's only)."""

    def __init__(self, bot: TabletopBot, campaign_of: CampaignOf) -> None:
        self.bot = bot
        self.campaign_of = campaign_of
        super().__init__()


@app_commands.guild_only()
class ViciousnessRivals(
    RivalCommands,
    commands.GroupCog,
    group_name="vic-rival",
    group_description="Viciousness rivals, for the GM only: their designs and their moves.",
):
    """``/vic-rival …``: the rivals only the GM sees."""

    def __init__(self, bot: TabletopBot, campaign_of: CampaignOf) -> None:
        self.bot = bot
        self.campaign_of = campaign_of
        super().__init__()


REGISTERS = (
    sheets.register,
    pages.register,
    turns.register,
    wealth.register,
    checks.register,
    pools.register,
    rivals.register,
    house_rules.register,
    gm_tools.register,
    forms.register,
    troupes.register,
    characters.register,
)
"""Every module with views, controls or forms of its own."""


def controls() -> Controls:
    """Every view, control and form of a campaign, registered by its module; DuplicateControl if a name is taken
    twice."""
    registry = Controls()
    for register in REGISTERS:
        register(registry)
    return registry


async def setup(bot: TabletopBot) -> None:
    """discord.py extension entry point: the campaign's spec with its controls, then the commands (sharing which
    channel has which campaign)."""
    bot.register(VicSpec(bot, controls()))
    campaign_of = CampaignOf()
    await bot.add_cog(Viciousness(bot, campaign_of))
    await bot.add_cog(ViciousnessGM(bot, campaign_of))
    await bot.add_cog(ViciousnessRivals(bot, campaign_of))
