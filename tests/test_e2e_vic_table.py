"""Viciousness at the table, end to end through the local Discord: pools built together, pushes, a three-side
fight with a death test, a failed scheme and its fallout, rests, two turns with rival accrual and a rival move
with a consequence, a restart in the middle, and the GM-private canary over the whole session."""

from __future__ import annotations

import json
from collections.abc import Mapping

from bot.app import TabletopBot
from bot.models import Actor, Scope
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.vic_e2e_support import campaign_state, join_with, vic_bot

CANARY = "CANARY-rival-9d41"


class Dice:
    """Scripted dice by die id; any other die shows 3 (a miss, a failure, a survived death test)."""

    def __init__(self, script: Mapping[str, list[int]]) -> None:
        self.script = {k: list(v) for k, v in script.items()}
        self.rolled: list[str] = []

    def roll(self, die_id: str, sides: int) -> int:
        self.rolled.append(die_id)
        queue = self.script.get(die_id)
        return queue.pop(0) if queue else min(3, sides)


def select_on(message: Message, placeholder: str) -> dict[str, object]:
    """The select whose placeholder contains ``placeholder``."""
    found = [s for s in message.selects if placeholder in str(s.get("placeholder", ""))]
    assert found, f"no select {placeholder!r} in {[s.get('placeholder') for s in message.selects]}"
    return found[0]


def option(menu: Mapping[str, object], label: str) -> str:
    """The value of the option whose label contains ``label``."""
    options = menu["options"]
    assert isinstance(options, list)
    found = [o["value"] for o in options if label in o["label"]]
    assert found, f"no option {label!r} in {[o['label'] for o in options]}"
    return str(found[0])


async def click_when_shown(fake: LocalDiscord, message: Message, label: str, member: Member) -> Message:
    """Click ``label`` once the board shows it (boards are redrawn after each change); the answer."""
    await fake.wait_for(lambda: label in message.describe_buttons(), what=f"the {label!r} button")
    return await (await fake.click(message, label, member)).message()


async def pick(fake: LocalDiscord, message: Message, placeholder: str, labels: list[str], member: Member) -> Message:
    """Pick the options labelled ``labels`` in a select of ``message``; the answer."""
    menu = select_on(message, placeholder)
    values = [option(menu, label) for label in labels]
    return await (await fake.select(message, str(menu["custom_id"]), values, member)).message()


async def setup_troupes(bot: TabletopBot, fake: LocalDiscord, channel: Channel) -> tuple[str, str]:
    """Two players' troupes (made through the service: their commands are the campaign issue's)."""
    session = await bot.store.live_session(channel.id, Scope.CAMPAIGN)
    assert session is not None
    ids = []
    for member, troupe, name, traits in (
        (fake.members[1], "Knives", "Ana", ["Lurker", "Acrobat", "Medic"]),
        (fake.members[2], "Crows", "Bo", ["Duelist", "Historian", "Marksman"]),
    ):
        action = {
            "type": "create_troupe",
            "name": troupe,
            "captain": {"name": name, "traits": traits},
            "asset": "headquarters",
        }
        await bot.service.act(session.id, Actor(member.id, member.display_name), action)
        ids.append(f"{member.id}.1")
    return ids[0], ids[1]


def shown(fake: LocalDiscord, channel: Channel) -> str:
    return json.dumps([m.data for m in fake.messages(channel)], ensure_ascii=False)


async def test_a_session_at_the_table(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "The Gilded Knives"})).message()
    ana, bo = await setup_troupes(bot, fake, channel)

    # The GM's rival and design, with the canary in every text; only the GM ever sees them.
    added = await (
        await fake.slash(
            channel,
            gm,
            "vic-rival add",
            options={"name": f"Countess {CANARY}", "rank": 3, "assets": f"Spies {CANARY}", "notes": f"Hates {CANARY}"},
        )
    ).message()
    assert added.ephemeral and CANARY in added.content
    refused = await (await fake.slash(channel, bea, "vic-rival add", options={"name": "x", "rank": 1})).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    assert await (await fake.autocomplete(channel, bea, "vic-rival foil", "rival", {"rival": ""})).choices() == []
    design = {"rival": "r1", "text": f"Ruin the Knives {CANARY}", "temperament": "shrewd", "asset": f"Spies {CANARY}"}
    await (await fake.slash(channel, gm, "vic-rival design", options=design)).message()
    second = {"rival": "r1", "text": f"Buy the docks {CANARY}", "severity": "medium"}
    await (await fake.slash(channel, gm, "vic-rival design", options=second)).message()

    dice = Dice(
        {
            # turn 1: the scheme fails (one success, a 6), Ana pushes and rerolls.
            f"t1p1.{ana}.0": [3],
            f"t1p1.{ana}.1": [6],
            f"t1p1.{bo}.0": [1],
            f"t1p1.{ana}.re1.0": [4],
            f"t1p1.{ana}.re1.1": [2],
            # turn ends: the rival die initiates the design; turn 2 starts: the d4 succeeds.
            "rival.r1.t1.d20": [2],
            "rival.r1.t2.d4": [1],
            # turn 2's fight: Ana is rattled (two rolls each), the guards hit twice.
            f"t2p2.r1.{ana}.0": [4],
            f"t2p2.r1.{ana}.0.2": [4],
            "t2p2.r1.n1.0": [4],
            "t2p2.r1.n2.0": [4],
            f"t2p2.r1.death.{bo}": [3],
            "rival.r1.t2.d20": [20],
            f"knowledge.{bo}.t2": [5],
            "discovery.t2": [2],
        }
    )
    bot.service.dice = dice
    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    assert screen.ephemeral and CANARY in str(screen.embeds)
    await (await fake.click(screen, "Start turn 1", gm)).message()

    # -- a scheme that fails ------------------------------------------------------------------------------------
    scheme = await (
        await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 3, "known": "The guard; The lock"})
    ).message()
    assert not scheme.ephemeral and "Challenges: 3" in str(scheme.embeds)
    for member, name in ((bea, "Ana"), (cal, "Bo")):
        joined = await join_with(fake, scheme, name, member)
        assert joined.ephemeral and f"{name} joins with d6" in joined.content
        if member is bea:  # the answer offers her trait dice at once
            await pick(fake, joined, "trait dice", ["Lurker"], bea)
    await fake.wait_for(lambda: "d6 Lurker" in str(scheme.embeds), what="Ana's Lurker die on the board")
    assert "odds now" in str(scheme.embeds)
    rolled = await (await fake.click(scheme, "Roll", gm)).message()
    assert "The scheme fails" in rolled.content and "⚅" in rolled.content and not rolled.ephemeral
    await fake.wait_for(lambda: "thwarted challenges" in str(scheme.selects), what="the thwart select")
    pushed = await (await fake.click(scheme, "Push: reroll (Ana, Bo)", bea)).message()
    assert "pushes and rerolls" in pushed.content and "rattled" in pushed.content
    await bot.settled()  # a second push on the board showing the first (one drawn before it is stale)
    again = await (await fake.click(scheme, "Push: reroll (Bo)", bea)).message()  # Bo may; Bea's Ana can't
    assert again.ephemeral and "rattled" in again.content
    state = await campaign_state(bot, channel)
    assert state.find_pc(ana).rattled  # type: ignore[union-attr]
    await fake.wait_for(lambda: "GM: the 1 thwarted" in str(scheme.selects), what="the GM's thwart select")
    thwarted = await pick(fake, scheme, "thwarted", ["The lock"], gm)
    assert "Thwarted: The lock" in thwarted.content and "Group rolls are locked" in thwarted.content
    state = await campaign_state(bot, channel)
    assert state.company.lockout is not None and state.company.lockout.free_pushes == 1
    # The fallout: a free push doesn't rattle (and is no action).
    free = {"pc": bo, "trait": "Duelist", "free": True, "note": "Demands satisfaction"}
    spent = await (await fake.slash(channel, cal, "vic push", options=free)).message()
    assert not spent.ephemeral and "spends a free push" in spent.content
    state = await campaign_state(bot, channel)
    assert not state.find_pc(bo).rattled and state.company.lockout.free_pushes == 0  # type: ignore[union-attr]
    # Both took part in the scheme: that was their action this turn.
    again = await (await fake.slash(channel, bea, "vic pc act", options={"pc": ana, "action": "rest"})).message()
    assert again.ephemeral and "Ana already took part in a scheme this turn" in again.content

    # -- the turn ends with the rival's accrual and d20; the next starts with its move --------------------------
    ended = await fake.slash(channel, gm, "vic-gm turn end")
    assert "Turn 1 is over" in (await ended.message()).content
    news = (await ended.followups(1))[0]
    assert (
        news.ephemeral
        and "ambition points" in news.content
        and "rival die" in news.content
        and "initiated" in news.content
    )
    state = await campaign_state(bot, channel)
    assert state.find_pc(ana).rattled and state.rivals["r1"].move is not None  # type: ignore[union-attr]
    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    started = await (await fake.click(screen, "Start turn 2", gm)).message()
    assert CANARY in str(started.embeds) and "consequence" in str(started.selects)
    picked = await pick(fake, started, "the consequence", ["A PC is rattled"], gm)
    confirmed = await pick(fake, picked, "who is rattled", ["Rattle Bo"], gm)
    assert "GM screen" in str(confirmed.embeds)
    await fake.wait_for_message(channel, lambda m: "Bo** is rattled" in m.content)
    state = await campaign_state(bot, channel)
    assert state.find_pc(bo).rattled and state.rivals["r1"].move is None  # type: ignore[union-attr]

    # -- turn 2: group rolls stay locked (solo ones don't) until the GM clears the fallout ----------------------
    solo = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1})).message()
    await join_with(fake, solo, "Ana", bea)
    locked = await join_with(fake, solo, "Bo", cal)
    assert locked.ephemeral and "Group rolls are locked" in locked.content
    await click_when_shown(fake, solo, "Abandon", gm)
    cleared = await click_when_shown(fake, solo, "GM: clear the fallout", gm)
    assert "group rolls are allowed again" in cleared.content
    state = await campaign_state(bot, channel)
    assert state.find_pc(ana).action_turn is None  # the abandoned scheme took no action

    # -- a restart in the middle ----------------------------------------------------------------------------------
    await bot.close()
    bot = await vic_bot(make_bot)
    bot.service.dice = dice

    # -- a three-side fight with a death test -------------------------------------------------------------------
    fight = await (
        await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Knives vs Crows vs Guards"})
    ).message()
    await join_with(fake, fight, "Ana → Knives", bea)
    await join_with(fake, fight, "Bo → Crows", cal)
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Guard", "count": 2, "side": "c"})).message()
    await fake.wait_for(lambda: "Guard 2" in str(fight.embeds), what="the guards on the board")
    rolled = await (await fake.click(fight, "Roll", gm)).message()
    assert "Round 1" in rolled.content and "😵" in rolled.content and "4️⃣(4️⃣)" in rolled.content
    await fake.wait_for(lambda: "send hits where" in str(fight.selects), what="the guards' assignment")
    landed = await pick(fake, fight, "send hits where", ["1 at Knives, 1 at Crows"], gm)
    assert "Bo wounded" in landed.content
    await fake.wait_for(lambda: "death tests" in str(fight.selects), what="the death test")
    tested = await pick(fake, fight, "death tests", ["Bo: death test"], gm)
    assert "Death test for Bo" in tested.content and "survives" in tested.content
    fled = await click_when_shown(fake, fight, "Flee", bea)
    assert "Ana flees" in fled.content
    over = await click_when_shown(fake, fight, "Next round", gm)
    assert "The fight is over after 1 round" in over.content
    state = await campaign_state(bot, channel)
    assert not state.pools and state.find_pc(bo).wounded  # type: ignore[union-attr]

    # A co-GM sees what the GM sees.
    dan = fake.members[3]
    await (await fake.slash(channel, gm, "vic-gm campaign cogm", options={"member": dan})).message()
    cogm_screen = await (await fake.slash(channel, dan, "vic-gm screen")).message()
    assert cogm_screen.ephemeral and CANARY in str(cogm_screen.embeds)
    players_screen = await (await fake.slash(channel, bea, "vic-gm screen")).message()
    assert players_screen.ephemeral and "Only the GM" in players_screen.content

    # -- knowledge, discovery, odds ------------------------------------------------------------------------------
    knew = await (
        await fake.slash(channel, cal, "vic knowledge", options={"pc": bo, "trait": "Historian", "question": "Who?"})
    ).message()
    assert not knew.ephemeral and "knows the answer" in knew.content
    twice = await (await fake.slash(channel, cal, "vic knowledge", options={"pc": bo, "trait": "Historian"})).message()
    assert twice.ephemeral and "already" in twice.content
    ticks = await (await fake.slash(channel, gm, "vic-gm discovery", options={"traits": 1})).message()
    found = await pick(fake, ticks, "conditions", ["reputation"], gm)
    assert "Discovery" in found.content and "found!" in found.content
    odds = await (await fake.slash(channel, bea, "vic odds", options={"dice": "3d4 1d6 vs 2d4"})).message()
    assert "A wins" in odds.content and "exact" in odds.content

    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    click = await fake.click(screen, "End turn 2", gm)
    await click.message()
    private = (await click.followups(1))[0]
    assert private.ephemeral and "`d2` +3 (now 3)" in private.content and "rival die: 20" in private.content
    state = await campaign_state(bot, channel)
    assert state.rivals["r1"].design("d2").points == 3  # type: ignore[union-attr]

    # -- turn 3: a rest clears the rattle ---------------------------------------------------------------------
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    rest = await (await fake.slash(channel, bea, "vic pc act", options={"pc": ana, "action": "rest"})).message()
    assert "rested" in rest.content
    await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    assert not (await campaign_state(bot, channel)).find_pc(ana).rattled  # type: ignore[union-attr]

    # -- the canary: only the GM was ever told about the rival ------------------------------------------------
    for member in (gm, bea, cal):
        await (await fake.slash(channel, member, "game log")).response()
    await bot.settled()
    assert CANARY not in shown(fake, channel)
    for member in (bea, cal):
        assert not any(CANARY in json.dumps(m.data, ensure_ascii=False) for m in fake.ephemerals(member))
    for member in (gm, dan):
        assert any(CANARY in json.dumps(m.data, ensure_ascii=False) for m in fake.ephemerals(member))
