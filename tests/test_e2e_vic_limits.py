"""Sheets within Discord's limits: a company of 4 troupes of 5 characters, every text as long as it may be.

The campaign is built through the engine and imported (the real import path); every sheet, page, private view
and the log are then drawn through the local Discord, which checks each message against Discord's limits.
"""

from __future__ import annotations

import json
from typing import Any

from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from rules.viciousness import ENGINE, CampaignState, VicOptions
from rules.viciousness.transfer import export_campaign
from tests.conftest import MakeBot
from tests.vic_e2e_support import campaign_state, vic_bot

TRAITS = ["Acrobat", "Wizard of Shadows", "Berzerker", "Engineer"]
LONG = "word " * 200  # 1,000 characters


def long(tag: str, n: int = 1000) -> str:
    """A distinct text of exactly ``n`` characters, with Markdown that escaping lengthens."""
    return (f"{tag} *bold* _under_ " + LONG)[:n].strip() or tag


def crowded(owners: list[str]) -> CampaignState:
    """4 troupes × 5 characters with 4 traits, 4 strong and 20 weak contacts each, long concepts, notes, assets."""
    state = ENGINE.start(VicOptions(), [], ScriptedDice([])).state

    def act(data: dict[str, Any]) -> None:
        nonlocal state
        state = ENGINE.apply(state, "gm", ENGINE.parse_action(data), ScriptedDice([])).state

    act({"type": "company", "name": long("Company", 80), "ambition": long("Ambition")})
    for n, owner in enumerate(owners):
        spec = {"name": long(f"Captain{n}", 80), "concept": long(f"Concept{n}"), "traits": TRAITS[:3]}
        act(
            {"type": "create_troupe", "owner": owner, "name": long(f"Troupe{n}", 80), "captain": spec, "asset": "favor"}
        )
        act({"type": "minion_places", "owner": owner, "n": 4})
        act({"type": "edit_troupe", "owner": owner, "henchmen": [long(f"H{i}", 80) for i in range(30)]})
        for i in range(20):
            act({"type": "add_asset", "owner": owner, "text": long(f"Asset{i}")})
        for m in range(4):
            spec = {"name": long(f"Minion{n}.{m}", 80), "concept": long(f"Concept{n}.{m}"), "traits": TRAITS[:2]}
            act({"type": "add_pc", "owner": owner, "pc": spec})
        for pc in state.troupes[owner].pcs:
            while len(pc.traits) < 4:
                act({"type": "add_trait", "pc": pc.id, "trait": TRAITS[len(pc.traits)]})
                pc = state.find_pc(pc.id)  # type: ignore[assignment]
            for c in range(4):
                act({"type": "contact", "pc": pc.id, "name": long(f"Strong{c}", 80), "note": long("Note")})
            for c in range(20):
                act({"type": "weak_contact", "pc": pc.id, "name": long(f"Weak{c}", 80), "note": long("Note")})
    act({"type": "turn_start"})
    for owner in owners:
        act({"type": "condition", "pc": f"{owner}.2", "change": "wound"})
        act({"type": "condition", "pc": f"{owner}.3", "change": "rattle"})
        act({"type": "gm_control", "pc": f"{owner}.4", "on": True})
    return state


def embed_size(embed: dict[str, Any]) -> int:
    """What Discord counts toward an embed's 6,000 characters."""
    fields = embed.get("fields", [])
    footer = embed.get("footer", {}).get("text", "")
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + len(footer)
        + sum(len(f["name"]) + len(f["value"]) for f in fields)
    )


def within_limits(message: Message) -> None:
    total = sum(embed_size(e) for e in message.embeds)
    assert total <= 6000, total
    for embed in message.embeds:
        assert len(embed.get("description", "")) <= 4096 and len(embed.get("fields", [])) <= 25
        assert all(len(f["value"]) <= 1024 and len(f["name"]) <= 256 for f in embed.get("fields", []))


async def test_every_sheet_of_a_crowded_company_fits(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm = fake.channels[0], fake.members[0]
    players = [fake.members[1], fake.members[2], fake.members[3], fake.members[4]]
    state = crowded([str(p.id) for p in players])
    data = export_campaign(state).encode()
    company = await (
        await fake.slash(channel, gm, "vic-gm campaign import", options={"file": ("c.json", data)})
    ).message()
    assert await campaign_state(bot, channel) == state
    within_limits(company)
    assert len(company.embeds[0]["fields"]) == 3 + 4
    for player in players:
        sheet = await (await fake.slash(channel, player, "vic troupe show")).message()
        within_limits(sheet)
        assert len(sheet.embeds[0]["fields"]) == 5 and "🎭 GM" in json.dumps(sheet.embeds, ensure_ascii=False)
        mine = await (await fake.slash(channel, player, "vic me")).message()
        assert mine.ephemeral
        within_limits(mine)
        page = await (await fake.click(sheet, "Details", player)).message()
        for number in range(2, 7):
            within_limits(page)
            page = await (await fake.click(page, "▶", player)).message()
            assert f"Page {number} of 6" in json.dumps(page.embeds)
        within_limits(page)
        assert page.button("▶").get("disabled")
    log = await (await fake.slash(channel, gm, "vic log")).message()
    within_limits(log)
    whole = await (await fake.slash(channel, gm, "vic log", options={"turn": 0})).message()
    within_limits(whole)
