"""Viciousness in the contract suite: a campaign (an open session) with the GM's secrets, several views, a
narrator that reads the state, and an export for the GM."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from bot.models import MAIN_VIEW, Session
from cogs.viciousness import controls
from cogs.viciousness.narrate import narrate as vic_narrate
from cogs.viciousness.spec import VicSpec
from rules.engine import GM, Viewer
from rules.viciousness import CampaignState, VicOptions
from rules.viciousness.transfer import export_campaign
from tests.contract.kit import Game, Move, Table, open_session
from tests.rules.test_vic_properties import random_action as vic_action
from tests.rules.vic_support import GM as GM_ID
from tests.rules.vic_support import P1 as VIC_P1
from tests.rules.vic_support import P2 as VIC_P2


def vic_table(rng: random.Random) -> Table:
    options = VicOptions(speed_chess=rng.random() < 0.5, wealth_track=rng.choice(["ip", "rank"]))
    return open_session("viciousness", options, int(GM_ID), {GM_ID: [GM]}, [int(VIC_P1), int(VIC_P2)])


def vic_move(rng: random.Random, state: BaseModel) -> Move:
    assert isinstance(state, CampaignState)
    return vic_action(rng, state)


def vic_shows(viewed: BaseModel, owner: str) -> bool:
    """The GM's secrets: rivals, notes and rival dice waiting to be revealed."""
    assert isinstance(viewed, CampaignState) and owner == GM
    return bool(viewed.rivals or viewed.notes or viewed.committed)


def vic_views(state: BaseModel) -> list[str]:
    assert isinstance(state, CampaignState)
    return [MAIN_VIEW, "gm", *(f"troupe:{o}" for o in state.troupes), *(f"pool:{p}" for p in state.pools)]


def vic_told(session: Session, state: BaseModel, events: list[dict[str, Any]]) -> list[str]:
    """What ``VicSpec.narrate`` says, given the state it reads from the bot."""
    assert isinstance(state, CampaignState)
    return vic_narrate(state, events)


def vic_exports(state: BaseModel, viewer: Viewer) -> str | None:
    """``/vic-gm campaign export``: the whole campaign, for the GM and co-GMs only."""
    assert isinstance(state, CampaignState)
    return export_campaign(state) if viewer.is_gm else None


GAME = Game(
    "viciousness",
    VicSpec(None, controls()),  # type: ignore[arg-type]
    vic_table,
    move=vic_move,
    steps=300,
    owners=lambda state: [GM] if vic_shows(state, GM) else [],
    shows=vic_shows,
    views=vic_views,
    narrator=vic_told,
    exports=vic_exports,
)
