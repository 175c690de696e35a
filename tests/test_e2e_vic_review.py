"""What a demanding first session found, end to end through the local Discord: names typed without picking
from the list, refusals that say what is wrong, wording that matches what is on screen."""

from __future__ import annotations

from typing import Any

from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.text import echo
from tests.conftest import MakeBot
from tests.vic_e2e_support import campaign_state, fill_form, join_with, new_troupe, vic_bot


async def test_a_character_typed_by_name_is_found_and_a_wrong_name_is_said_so(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await new_troupe(fake, channel, bea, "Knives", "Ana", ["Lurker", "Acrobat", "Historian"])
    await new_troupe(fake, channel, cal, "Crows", "Bo", ["Duelist", "Engineer", "Marksman"])
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    # Typed on a phone without picking from the list: her own character by name is found.
    rested = await (await fake.slash(channel, bea, "vic pc act", options={"pc": "ana", "action": "rest"})).message()
    assert "Ana" in rested.content and "rest" in rested.content, rested.content
    knew = await (
        await fake.slash(channel, bea, "vic knowledge", options={"pc": "Ana", "trait": "Historian"})
    ).message()
    assert "Ana" in knew.content and not knew.ephemeral
    # A name that isn't hers is not "someone else's": it is said plainly, privately.
    for typed in ("Zorro", "Bo"):
        refused = await (
            await fake.slash(channel, bea, "vic pc act", options={"pc": typed, "action": "rest"})
        ).message()
        assert refused.ephemeral and f"No character of yours is called {echo(typed)}" in refused.content, (
            refused.content
        )
    pushed = await (await fake.slash(channel, bea, "vic push", options={"pc": "Zorro", "trait": "Lurker"})).message()
    assert pushed.ephemeral and f"No character of yours is called {echo('Zorro')}" in pushed.content
    # The GM may name anyone's.
    await (await fake.slash(channel, gm, "vic pc condition", options={"pc": "bo", "change": "rattle"})).message()
    state = await campaign_state(bot, channel)
    assert state.find_pc(f"{cal.id}.1").rattled  # type: ignore[union-attr]


class Dice:
    """Scripted dice by die id; any other die shows 3 (a miss, a failure)."""

    def __init__(self, script: dict[str, list[int]]) -> None:
        self.script = script

    def roll(self, die_id: str, sides: int) -> int:
        queue = self.script.get(die_id)
        return queue.pop(0) if queue else min(3, sides)


def select_with(message: Message, placeholder: str) -> dict[str, Any]:
    found = [s for s in message.selects if placeholder in str(s.get("placeholder", ""))]
    assert found, [s.get("placeholder") for s in message.selects]
    return found[0]


async def test_boards_and_answers_say_what_is_on_screen(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    bot.service.dice = Dice({"t2p1.r1.n1.0": [4]})
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await new_troupe(fake, channel, bea, "Knives", "Ana", ["Lurker", "Acrobat", "Historian"])
    await (await fill_form(fake, await fake.slash(channel, bea, "vic pc new"), "Pip", ["Hacker", "Driver"])).message()
    added = await (await fake.slash(channel, gm, "vic-rival add", options={"name": "Vane", "rank": 3})).message()
    assert "(rank 3, 1 minion)" in added.content, added.content
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()

    # A scheme without challenges says it needs no roll (ruling 16).
    empty = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 0})).message()
    assert "succeeds without a roll" in str(empty.embeds)
    await (await fake.click(empty, "Abandon", gm)).message()

    # Joining a scheme offers characters, not sides; only the GM adds NPCs, whatever side is named.
    scheme = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 2})).message()
    offered = select_with(scheme, "Join with")
    assert [o["label"] for o in offered["options"]] == ["Ana", "Pip"]
    await join_with(fake, scheme, "Ana", bea)
    npc = await (await fake.slash(channel, bea, "vic-gm npc", options={"name": "Rat", "side": "zzz"})).message()
    assert npc.ephemeral and "Only the GM can add NPCs" in npc.content, npc.content
    # No success: nothing is thwarted, and the board and the roll say so.
    rolled = await (await fake.click(scheme, "Roll", gm)).message()
    assert "no challenge is thwarted" in rolled.content, rolled.content
    await fake.wait_for(lambda: "none is thwarted" in str(scheme.embeds), what="the failed board")
    await (await fake.click(scheme, "Accept the failure", gm)).message()
    await fake.wait_for(lambda: "This pool is over" in str(scheme.embeds), what="the closed board")
    assert scheme.embeds[0]["title"] == "🎲 This pool is over" and "(0 free pushes kept)" in str(scheme.embeds)

    # One hit to send: "who does the hit wound?" (next turn: Ana's scheme was her action in this one).
    await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Knives vs Guards"})).message()
    for label in ("Ana → Knives", "Pip → Knives"):
        await join_with(fake, fight, label, bea)
        await bot.settled()  # her next pick is made on the board that shows this one (else it is stale)
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Guard", "side": "b"})).message()
    await bot.settled()  # the board the GM rolls on shows his guard
    await (await fake.click(fight, "Roll", gm)).message()
    await fake.wait_for(lambda: "who does the hit wound?" in str(fight.selects), what="the wound select")

    # The GM screen after a turn says the turn is over, not "not started"; a rival's one minion is singular.
    await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    assert "Turn 2 is over; turn 3 not started" in str(screen.embeds) and "1 minion" in str(screen.embeds)
    assert "1 minions" not in str(screen.embeds)


async def test_game_rules_in_a_campaign_channel_explain_the_campaign(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    nothing = await (await fake.slash(channel, bea, "game rules")).message()
    assert nothing.ephemeral and "There is no game in this channel" in nothing.content
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    rules = await (await fake.slash(channel, bea, "game rules")).message()
    text = str(rules.embeds)
    assert rules.ephemeral and "Viciousness" in text, rules.content
    for command in (
        "/vic-gm turn start",
        "/vic-gm violence",
        "/vic-gm knavery",
        "/vic me",
        "/vic log",
        "/vic-gm screen",
    ):
        assert command in text, command


async def test_the_log_names_a_fights_sides_after_it_is_over(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    bot.service.dice = Dice({"t1p1.r1.n1.0": [4]})
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await new_troupe(fake, channel, bea, "Knives", "Ana", ["Lurker", "Acrobat", "Historian"])
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": "Knives vs Guards"})).message()
    await join_with(fake, fight, "Ana → Knives", bea)
    await (await fake.slash(channel, gm, "vic-gm npc", options={"name": "Guard", "side": "b"})).message()
    await bot.settled()  # the board the GM rolls on shows his guard
    await (await fake.click(fight, "Roll", gm)).message()
    await fake.wait_for(lambda: "Work out the hits" in fight.describe_buttons(), what="the hits button")
    landed = await (await fake.click(fight, "Work out the hits", gm)).message()
    assert "Guards → Knives" in landed.content, landed.content
    await fake.wait_for(lambda: "death tests" in str(fight.selects), what="the death test")
    tests = select_with(fight, "death tests")
    await (await fake.select(fight, tests["custom_id"], [tests["options"][0]["value"]], gm)).message()
    await fake.wait_for(lambda: "This pool is over" in str(fight.embeds), what="the fight to end")
    log = str((await (await fake.slash(channel, bea, "vic log", options={"turn": 1})).message()).embeds)
    assert "Guards → Knives" in log and "Ana joins the fight" in log and "Guard joins the fight" in log, log
    assert "pool t1p1" not in log


async def test_the_gm_may_type_a_rival_and_a_design_by_name(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": "The Countess", "rank": 3})).message()
    design = {"rival": "the countess", "text": "Burn the docks"}
    added = await (await fake.slash(channel, gm, "vic-rival design", options=design)).message()
    assert added.ephemeral and "new light design" in added.content, added.content
    dealt = {"rival": "The Countess", "design": "burn the docks"}
    await (await fake.slash(channel, gm, "vic-rival deal", options=dealt)).message()
    state = await campaign_state(bot, channel)
    assert state.rivals["r1"].design("d1").points == 2  # type: ignore[union-attr]
    wrong = await (await fake.slash(channel, gm, "vic-rival drop", options={"rival": "The Count"})).message()
    assert wrong.ephemeral and f"No rival is called {echo('The Count')}" in wrong.content
    # A player is refused before any name is looked up (nothing about rivals is said).
    refused = await (await fake.slash(channel, bea, "vic-rival drop", options={"rival": "The Count"})).message()
    assert refused.ephemeral and "Only the GM" in refused.content and "Count" not in refused.content


async def test_a_gm_asking_for_their_troupe_is_pointed_to_the_gm_screen(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    company = await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    mine = await (await fake.slash(channel, gm, "vic me")).message()
    assert mine.ephemeral and "`/vic-gm screen`" in mine.content, mine.content
    clicked = await (await fake.click(company, "My troupe", gm)).message()
    assert clicked.ephemeral and "`/vic-gm screen`" in clicked.content
    player = await (await fake.slash(channel, bea, "vic me")).message()
    assert "`/vic troupe new`" in player.content and "/vic-gm screen" not in player.content


async def test_a_long_turns_log_is_paged_and_the_summary_keeps_its_newest_lines(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    for n in range(6):
        await (await fake.slash(channel, gm, "vic-gm reveal", options={"text": f"News {n}: " + "x" * 900})).message()
    summary = await (await fake.slash(channel, bea, "vic log")).message()
    turn = next(f["value"] for f in summary.embeds[0]["fields"] if f["name"] == "Turn 1")
    assert turn.startswith("…") and "News 5" in turn and "News 0" not in turn
    assert "/vic log turn:" in summary.embeds[0]["footer"]["text"]
    log = await (await fake.slash(channel, bea, "vic log", options={"turn": 1})).message()
    assert log.ephemeral and "News 0" in log.embeds[0]["description"] and "Page 1 of 2" in str(log.embeds)
    assert all(len(e["description"]) <= 4096 for e in log.embeds)
    turned = await (await fake.click(log, "▶", bea)).message()
    assert "News 5" in turned.embeds[0]["description"] and "Page 2 of 2" in str(turned.embeds)


async def test_the_company_sheets_turn_buttons_tell_the_channel_and_the_gm(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    bot.service.dice = Dice({"rival.r1.t1.d20": [1]})
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    company = await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await new_troupe(fake, channel, bea, "Knives", "Ana", ["Lurker", "Acrobat", "Historian"])
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": "Secret Vane", "rank": 2})).message()
    await (await fake.slash(channel, gm, "vic-rival design", options={"rival": "r1", "text": "Frame Ana"})).message()
    refused = await (await fake.click(company, "Start turn 1", bea)).message()
    assert refused.ephemeral and "Only the GM can start a turn" in refused.content
    started = await (await fake.click(company, "Start turn 1", gm)).message()
    assert not started.ephemeral and "**Turn 1** begins" in started.content, started.content
    await fake.wait_for(lambda: "End turn 1" in company.describe_buttons(), what="the sheet's End turn button")
    click = await fake.click(company, "End turn 1", gm)
    ended = await click.message()
    assert not ended.ephemeral and "Turn 1 is over" in ended.content and "Vane" not in ended.content
    news = (await click.followups(1))[0]
    assert news.ephemeral and "Secret Vane" in news.content and "rival die: 1" in news.content, news.content
    assert "Secret Vane's ambition points: `d1` +2 (now 2)" in news.content, news.content
    await bot.settled()
    assert not any("Secret Vane" in str(m.data) for m in fake.messages(channel))


async def test_a_medic_treats_another_players_character(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await new_troupe(fake, channel, bea, "Knives", "Ana", ["Medic", "Acrobat", "Berzerker"])
    await new_troupe(fake, channel, cal, "Crows", "Bo", ["Duelist", "Historian", "Marksman"])
    bo = f"{cal.id}.1"
    await (await fake.slash(channel, gm, "vic pc condition", options={"pc": bo, "change": "wound"})).message()
    # Bea's Medic is offered Cal's wounded Bo, and may name him.
    offered = await (await fake.autocomplete(channel, bea, "vic push", "target", {"target": ""})).choices()
    assert [c["value"] for c in offered] == [bo], offered
    treated = await (
        await fake.slash(channel, bea, "vic push", options={"pc": "Ana", "trait": "Medic", "target": "Bo"})
    ).message()
    assert not treated.ephemeral and "Bo" in treated.content, treated.content
    state = await campaign_state(bot, channel)
    assert state.find_pc(bo).recovery == 2  # type: ignore[union-attr]
    # A Berzerker outside a fight is told so (there is nothing to name).
    await (await fake.slash(channel, gm, "vic pc condition", options={"pc": "Ana", "change": "calm"})).message()
    wild = await (await fake.slash(channel, bea, "vic push", options={"pc": "Ana", "trait": "Berzerker"})).message()
    assert wild.ephemeral and "Ana is in none" in wild.content, wild.content


async def test_a_price_says_what_each_term_is_for(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea = fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await new_troupe(fake, channel, bea, "Knives", "Ana", ["Lurker", "Acrobat", "Historian"])
    price = await (await fake.slash(channel, bea, "vic price", options={"rank": 3})).message()
    embed = price.embeds[0]
    assert embed["title"] == "An item of rank 3", embed["title"]
    assert "1 + 2 (1 rank above the coins' rank) = 3 → **3 coins**" in embed["description"]
    same = await (await fake.slash(channel, bea, "vic price", options={"rank": 2, "item": "A knife"})).message()
    assert same.embeds[0]["title"] == "A knife (rank 2)" and ": 1 → **1 coin**" in same.embeds[0]["description"]


async def test_joining_a_big_fight_asks_the_character_then_the_side(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    for member, troupe, captain, minion in ((bea, "Knives", "Ana", "Pip"), (cal, "Crows", "Bo", "Quill")):
        await new_troupe(fake, channel, member, troupe, captain, ["Lurker", "Acrobat", "Historian"])
        form = await fake.slash(channel, member, "vic pc new")
        await (await fill_form(fake, form, minion, ["Hacker", "Driver"])).message()
    sides = " vs ".join("ABCDEFGH")
    fight = await (await fake.slash(channel, gm, "vic-gm violence", options={"sides": sides})).message()
    # 4 characters × 8 sides don't fit one select (25 options): every character can still join every side.
    who = await (await fake.click(fight, "Join", gm)).message()
    menu = select_with(who, "Who joins? (the side comes next)")
    assert [o["label"] for o in menu["options"]] == ["Ana", "Pip", "Bo", "Quill"]
    quill = next(o["value"] for o in menu["options"] if o["label"] == "Quill")
    where = await (await fake.select(who, menu["custom_id"], [quill], gm)).message()
    menu = select_with(where, "on which side")
    assert len(menu["options"]) == 8
    last = next(o["value"] for o in menu["options"] if o["label"] == "Quill → H")
    joined = await (await fake.select(where, menu["custom_id"], [last], gm)).message()
    assert "Quill joins" in joined.content
    state = await campaign_state(bot, channel)
    pool = state.pools["t0p1"]
    assert [(c.name, c.side) for c in pool.combatants] == [("Quill", "h")]
