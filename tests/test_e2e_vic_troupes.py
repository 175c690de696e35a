"""Troupes and characters end to end: the character form, sheets that update in place, who may edit what."""

from __future__ import annotations

import asyncio

from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.vic_e2e_support import campaign_state, fill_form, new_troupe, vic_bot


async def test_players_make_troupes_through_the_form_and_edit_only_their_own(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    opened = await fake.slash(channel, bob, "vic troupe new", options={"asset": "liquid_coin"})
    await opened.response()
    assert opened.modal is not None
    selects = [r["component"] for r in opened.modal["components"] if r["component"]["type"] == 3]
    assert sum(len(s["options"]) for s in selects) == 27 and all(len(s["options"]) <= 25 for s in selects)
    acrobat = next(o for s in selects for o in s["options"] if o["value"] == "Acrobat")
    assert "Land safely" in acrobat["description"]
    refused = await (await fill_form(fake, opened, "Vex", ["Acrobat", "Lurker"], troupe="Rats")).message()
    assert refused.ephemeral and "exactly 3 traits" in refused.content
    sheet = await new_troupe(fake, channel, bob, "Rats", "Vex", ["Acrobat", "Lurker", "Wizard of Mind"], "liquid_coin")
    assert not sheet.ephemeral and "Vex" in str(sheet.embeds) and "Rats" in str(sheet.embeds)
    carols = await new_troupe(fake, channel, carol, "Owls", "Mira", ["Historian", "Duelist", "Medic"])
    state = await campaign_state(bot, channel)
    assert state.company.liquid_at(2) == 1  # Bob's starting asset
    assert [t.name for t in state.troupes[str(bob.id)].pcs[0].traits] == ["Acrobat", "Lurker", "Wizard of Mind"]
    # Bob can't change Carol's troupe, by command or on her sheet; the GM can.
    refused = await (
        await fake.slash(channel, bob, "vic troupe gain", options={"asset": "x", "member": carol})
    ).message()
    assert refused.ephemeral and "isn't yours" in refused.content
    refused = await (await fake.click(carols, "Add a minion", bob)).message()
    assert refused.ephemeral and "isn't yours" in refused.content
    await (await fake.slash(channel, gm, "vic troupe gain", options={"asset": "A boat", "member": carol})).message()
    await fake.wait_for(lambda: "A boat" in str(carols.embeds), what="Carol's sheet to show the boat")
    # Two players add a minion through their own sheets at once: both succeed.
    forms = [await fake.click(sheet, "Add a minion", bob), await fake.click(carols, "Add a minion", carol)]
    sent = await asyncio.gather(
        fill_form(fake, forms[0], "Pip", ["Acrobat", "Hacker"]),
        fill_form(fake, forms[1], "Quill", ["Driver", "Mystic"]),
    )
    replies = await asyncio.gather(*(s.message() for s in sent))
    assert all("Done" in r.content for r in replies), [r.content for r in replies]
    state = await campaign_state(bot, channel)
    assert [p.name for p in state.troupes[str(bob.id)].pcs] == ["Vex", "Pip"]
    assert [p.name for p in state.troupes[str(carol.id)].pcs] == ["Mira", "Quill"]
    await fake.wait_for(lambda: "Pip" in str(sheet.embeds) and "Quill" in str(carols.embeds), what="both sheets")
    # What can't be done is said before a form is filled in.
    again = await (await fake.slash(channel, bob, "vic troupe new", options={"asset": "favor"})).message()
    assert again.ephemeral and "a troupe already: Rats" in again.content
    full = await (await fake.slash(channel, bob, "vic pc new")).message()
    assert full.ephemeral and "Every minion place of Rats is taken" in full.content
    assert "Add a minion" not in str(sheet.components)


async def test_a_characters_life_contacts_advancement_death_and_replacement(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    company = await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    await new_troupe(fake, channel, bob, "Rats", "Vex", ["Acrobat", "Lurker", "Machinist"], concept="A thief")
    vex, pip = f"{bob.id}.1", f"{bob.id}.2"
    # Autocomplete: Bob's characters only for Bob, every character for the GM; traits with their text.
    choices = await (await fake.autocomplete(channel, bob, "vic pc edit", "pc", {"pc": "ve"})).choices()
    assert [c["value"] for c in choices] == [vex] and choices[0]["name"] == "Vex (Rats)"
    assert await (await fake.autocomplete(channel, carol, "vic pc edit", "pc", {"pc": ""})).choices() == []
    traits = await (await fake.autocomplete(channel, bob, "vic pc advance", "trait", {"trait": "hist"})).choices()
    assert traits[0]["value"] == "Historian" and "historical" in traits[0]["name"]
    ranks = await (await fake.autocomplete(channel, bob, "vic price", "rank", {"rank": "4"})).choices()
    assert ranks == [
        {"name": "4: A horse, a suit of armor/bulletproof vest, A task done by an expert hacker or warrior", "value": 4}
    ]
    # Contacts: one strong per trait; a weak one promoted at the limit drops a strong one.
    for n in range(3):
        await (await fake.slash(channel, bob, "vic pc contact", options={"pc": vex, "name": f"Fence {n}"})).message()
    full = await (await fake.slash(channel, bob, "vic pc contact", options={"pc": vex, "name": "Too many"})).message()
    assert full.ephemeral and "one per trait" in full.content
    weak = {"pc": vex, "name": "Barkeep", "weak": True, "note": "owes me"}
    await (await fake.slash(channel, bob, "vic pc contact", options=weak)).message()
    listed = await (await fake.autocomplete(channel, bob, "vic pc promote", "weak", {"pc": vex, "weak": ""})).choices()
    assert listed == [{"name": "Barkeep (weak)", "value": 0}]
    refused = await (await fake.slash(channel, bob, "vic pc promote", options={"pc": vex, "weak": 0})).message()
    assert refused.ephemeral and "drop" in refused.content
    await (await fake.slash(channel, bob, "vic pc promote", options={"pc": vex, "weak": 0, "drop": 1})).message()
    await (await fake.slash(channel, bob, "vic pc forget", options={"pc": vex, "contact": "s0"})).message()
    state = await campaign_state(bot, channel)
    assert [c.name for c in state.find_pc(vex).strong] == ["Fence 2", "Barkeep"]  # type: ignore[union-attr]
    # The ambition is completed: Bob's troupe advances Vex with a trait, and (GM grant) gets a new minion.
    refused = await (await fake.slash(channel, bob, "vic-gm company ambition")).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.slash(channel, gm, "vic-gm company ambition", options={"next": "Rule the docks"})).message()
    await (await fake.slash(channel, bob, "vic pc advance", options={"pc": vex, "trait": "Historian"})).message()
    await (await fake.slash(channel, gm, "vic troupe grant", options={"member": bob})).message()
    opened = await fake.slash(channel, bob, "vic pc advance")
    await (await fill_form(fake, opened, "Pip", ["Driver", "Hacker"])).message()
    await fake.wait_for(lambda: "1 ambition completed" in str(company.embeds), what="the company's advancement")
    # A custom trait the GM approves is offered like the seed's.
    gambler = {"name": "Gambler", "kind": "normal", "text": "Win one game of chance outright."}
    refused = await (await fake.slash(channel, bob, "vic-gm company trait", options=gambler)).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.slash(channel, gm, "vic-gm company trait", options=gambler)).message()
    offered = await (await fake.autocomplete(channel, bob, "vic pc trait", "trait", {"trait": "gamb"})).choices()
    assert offered == [{"name": "Gambler: Win one game of chance outright.", "value": "Gambler"}]
    # Pip dies (GM); his replacement carries over no extra trait: 2 IP.
    refused = await (
        await fake.slash(channel, bob, "vic pc condition", options={"pc": pip, "change": "kill"})
    ).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.slash(channel, gm, "vic pc condition", options={"pc": pip, "change": "kill"})).message()
    opened = await fake.slash(channel, bob, "vic pc replace", options={"pc": pip})
    await (await fill_form(fake, opened, "Quill", ["Medic", "Gambler"])).message()
    state = await campaign_state(bot, channel)
    troupe = state.troupes[str(bob.id)]
    assert [(p.name, p.fate) for p in troupe.pcs] == [("Vex", "active"), ("Pip", "dead"), ("Quill", "active")]
    assert len(troupe.pcs[0].traits) == 4 and state.company.ip == 13 and troupe.pending_advancements == 0
    # Vex goes over to the GM: Bob can't change him any more; the company sheet's buttons.
    await (await fake.slash(channel, bob, "vic pc gm", options={"pc": vex})).message()
    refused = await (await fake.slash(channel, bob, "vic pc edit", options={"pc": vex, "name": "V"})).message()
    assert refused.ephemeral and "portrayed by the GM" in refused.content
    mine = await (await fake.click(company, "My troupe", bob)).message()
    assert mine.ephemeral and "Quill" in str(mine.embeds) and "🎭 GM" in str(mine.embeds)
    none = await (await fake.click(company, "My troupe", carol)).message()
    assert none.ephemeral and "no troupe yet" in none.content
    log = await (await fake.click(company, "Log", carol)).message()
    assert log.ephemeral and "Pip" in str(log.embeds) and "died" in str(log.embeds)
    # Retiring the captain dissolves the troupe.
    await (await fake.slash(channel, gm, "vic pc retire", options={"pc": vex})).message()
    assert (await campaign_state(bot, channel)).troupes[str(bob.id)].dissolved


async def test_the_gm_and_players_edit_through_commands(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bob = fake.members[0], fake.members[1]
    company = await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    sheet = await new_troupe(fake, channel, bob, "Rats", "Vex", ["Acrobat", "Lurker", "Wizard of Mind"])
    vex = f"{bob.id}.1"
    settings = {"name": "The Knives", "ambition": "Own the river", "turn_length": "1 week"}
    await (await fake.slash(channel, gm, "vic-gm company set", options=settings)).message()
    ranked = await (await fake.slash(channel, gm, "vic-gm company rank", options={"rank": 4})).message()
    assert "rose to **wealth rank 4** (IP 45)" in ranked.content
    await (await fake.slash(channel, gm, "vic-gm company liquid", options={"rank": 3, "change": 2})).message()
    await fake.wait_for(lambda: "Liquid: 2 of rank 3" in str(company.embeds), what="the coins on the sheet")
    assert "The Knives" in str(company.embeds) and "Own the river" in str(company.embeds)
    edit = {"name": "The Rats", "henchmen": "Gus, Old Meg"}
    await (await fake.slash(channel, bob, "vic troupe edit", options=edit)).message()
    await (await fake.slash(channel, bob, "vic troupe gain", options={"asset": "A rowboat"})).message()
    assets = await (await fake.autocomplete(channel, bob, "vic troupe lose", "asset", {"asset": "row"})).choices()
    assert assets == [{"name": "A rowboat", "value": 1}]
    await (await fake.slash(channel, bob, "vic troupe lose", options={"asset": 1})).message()
    refused = await (
        await fake.slash(channel, bob, "vic troupe minions", options={"member": bob, "places": 3})
    ).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.slash(channel, gm, "vic troupe minions", options={"member": bob, "places": 3})).message()
    await (await fake.slash(channel, bob, "vic pc edit", options={"pc": vex, "concept": "A retired acrobat"})).message()
    early = await (await fake.slash(channel, bob, "vic pc act", options={"pc": vex, "action": "rest"})).message()
    assert early.ephemeral and "No turn is under way" in early.content
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    acted = await (await fake.slash(channel, bob, "vic pc act", options={"pc": vex, "action": "knavery"})).message()
    assert "Vex** took part in a scheme" in acted.content
    await fake.wait_for(lambda: "✔ acted" in str(sheet.embeds), what="Vex's action marked on the sheet")
    state = await campaign_state(bot, channel)
    troupe = state.troupes[str(bob.id)]
    assert (troupe.name, troupe.henchmen, troupe.minion_places) == ("The Rats", ("Gus", "Old Meg"), 3)
    assert troupe.pcs[0].concept == "A retired acrobat" and state.turn.length == "1 week"
    assert "Add a minion" in str(sheet.components) and "Gus" in str(sheet.embeds)
    spell = {"pc": vex, "trait": "Wizard of Mind", "text": "Make someone forget your face."}
    refused = await (await fake.slash(channel, bob, "vic pc spell", options=spell)).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.slash(channel, gm, "vic pc spell", options=spell)).message()
    page = await (await fake.click(await (await fake.click(sheet, "Details", bob)).message(), "▶", bob)).message()
    assert "Make someone forget your face." in str(page.embeds) and "Touch someone" not in str(page.embeds)


async def test_a_form_opened_before_a_restart_is_taken_after_it(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vic_bot(make_bot)
    channel, gm, bob = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new")).message()
    opened = await fake.slash(channel, bob, "vic troupe new", options={"asset": "favor"})
    await opened.response()
    await bot.close()
    bot = await vic_bot(make_bot)
    sheet = await (await fill_form(fake, opened, "Vex", ["Acrobat", "Lurker", "Driver"], troupe="Rats")).message()
    assert "Rats" in str(sheet.embeds)
    assert (await campaign_state(bot, channel)).troupes[str(bob.id)].assets == (
        "A favor owed by an NPC of 1 rank above theirs",
    )
