"""Troupes and characters end to end: the character form, sheets that update in place, who may edit what."""

from __future__ import annotations

import asyncio

from tests.conftest import MakeBot
from tests.fakediscord.server import FakeDiscord
from tests.vic_e2e_support import campaign_state, fill_form, new_troupe, vic_bot


async def test_players_make_troupes_through_the_form_and_edit_only_their_own(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic campaign new", options={"company": "Knives"})).message()
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
