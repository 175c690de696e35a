"""The V&V scoresheet's other ways in: the setup form, refusals at setup, the commands with autocomplete, the
keeper hand-over, the calculator, the Sin reference and the help; and the picture as Discord stores it."""

from __future__ import annotations

from localdiscord.guild import Perm
from localdiscord.server import LocalDiscord
from rules.text import echo
from tests.conftest import MakeBot
from tests.test_e2e_vv_sheet_support import (
    enter,
    enter_all,
    new_sheet,
    open_score,
    picture,
    sheet_bot,
    state_of,
    the_sheet,
)


async def test_the_setup_form_is_filled_in_with_the_members_picked(fake: LocalDiscord, make_bot: MakeBot) -> None:
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    bot = await sheet_bot(make_bot)
    opened = await fake.slash(channel, alice, "vv sheet", options={"member1": carol, "member2": bob})
    assert (await opened.response())["type"] == 9
    assert opened.modal is not None
    assert opened.modal["components"][0]["components"][0]["value"] == "Carol: \nBob: "
    # A Sin left out: the answer says what to fix and gives back what was typed.
    wrong = await (await fake.submit_modal(opened, {"players": "Carol: Wrath\nBob\nDana: Envy"})).message()
    assert wrong.ephemeral and f"{echo('Bob', code=True)}: give a name and their Sin" in wrong.content
    assert "Dana: Envy" in wrong.content
    assert await bot.service.live_table(channel.id) is None
    again = await fake.slash(channel, alice, "vv sheet", options={"member1": carol, "member2": bob})
    typed = "carol - w\nDana (Envy)\nBob: glut\n  \nEli Sloth"
    sheet = await (await fake.submit_modal(again, {"players": typed})).message()
    assert not sheet.ephemeral and sheet.attachments
    state = await state_of(bot, channel)
    assert [(r.name, r.sin, r.member) for r in state.rows] == [
        ("carol", "Wrath", str(carol.id)),
        ("Dana", "Envy", None),
        ("Bob", "Gluttony", str(bob.id)),
        ("Eli", "Sloth", None),
    ]
    busy = await (
        await fake.slash(channel, bob, "vv sheet", options={"players": "A: Wrath, B: Sloth, C: Envy"})
    ).message()
    assert busy.ephemeral and "already has a game or a sheet" in busy.content


async def test_a_sheet_that_can_not_start_says_why(fake: LocalDiscord, make_bot: MakeBot) -> None:
    alice, bob = fake.members[0], fake.members[1]
    channel = fake.channels[1]
    await sheet_bot(make_bot)
    cases = {
        "Jordan: Wrath, Taylor: Sloth": "A sheet needs 3 to 6 players.",
        "Jordan: Wrath, jordan: Sloth, Casey: Envy": "Each player needs a name of their own.",
        "Jordan: Wrath, Taylor: Wrath, Casey: Envy": "Wrath is given twice: each Sin heads one column only.",
        "Jordan: G, Taylor: Sloth, Casey: Envy": f"{echo('G', code=True)} could be Greed or Gluttony",
        "Jordan: Rage, Taylor: Sloth, Casey: Envy": f"{echo('Rage', code=True)} is not a Sin",
        f"{'J' * 33}: Wrath, Taylor: Sloth, Casey: Envy": "Player 1: Names are at most 32 characters.",
    }
    for players, why in cases.items():
        answer = await (await fake.slash(channel, alice, "vv sheet", options={"players": players})).message()
        assert answer.ephemeral and why in answer.content, (players, answer.content)
    lost = await (
        await fake.slash(channel, alice, "vv sheet", options={"players": "A: Wrath, B: Sloth, C: Envy", "member1": bob})
    ).message()
    assert lost.ephemeral and "Bob: picked as a member but no player carries that name" in lost.content
    two = await (
        await fake.slash(channel, alice, "vv sheet", options={"players": "A: Wrath, B: Sloth", "house": True})
    ).message()
    assert not two.ephemeral  # the house rule allows 2 to 7


async def test_without_attach_files_no_sheet_is_started(fake: LocalDiscord, make_bot: MakeBot) -> None:
    channel = fake.channels[2]
    bot = await sheet_bot(make_bot)
    fake.set_channel_permissions(channel, bot_deny=Perm.ATTACH_FILES)
    answer = await (
        await fake.slash(channel, fake.members[0], "vv sheet", options={"players": "A: W, B: S, C: E"})
    ).message()
    assert answer.ephemeral and "Attach Files" in answer.content
    assert await bot.service.live_table(channel.id) is None


async def test_commands_with_players_offered_as_you_type(fake: LocalDiscord, make_bot: MakeBot) -> None:
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    bot = await sheet_bot(make_bot)
    await new_sheet(fake, channel, alice, member1=bob, member2=carol)
    offered = await (await fake.autocomplete(channel, alice, "vv score", "player", {"points": 5})).choices()
    assert offered == [
        {"name": "Jordan (Wrath) · up now", "value": "Wrath"},
        {"name": "Bob (Sloth)", "value": "Sloth"},
        {"name": "Casey (Greed)", "value": "Greed"},
        {"name": "Carol (Pride)", "value": "Pride"},
    ]
    assert await (await fake.autocomplete(channel, alice, "vv correct", "player", {"player": "ca"})).choices() == [
        {"name": "Casey (Greed)", "value": "Greed"},
        {"name": "Carol (Pride)", "value": "Pride"},
    ]
    places = await (await fake.autocomplete(channel, alice, "vv sin", "to", {"sin": "Greed", "to": "reser"})).choices()
    assert places == [{"name": "In the reserves", "value": "reserves"}]
    elsewhere = await (await fake.autocomplete(fake.channels[3], alice, "vv score", "player", {"player": ""})).choices()
    assert elsewhere == []

    wrong = await (await fake.slash(channel, alice, "vv score", options={"points": 5, "player": "Greed"})).message()
    assert wrong.ephemeral and "It is Jordan's turn, not Casey's." in wrong.content
    await (await fake.slash(channel, alice, "vv score", options={"points": 12, "player": "Wrath"})).message()
    await (await fake.slash(channel, alice, "vv score", options={"points": 3})).message()
    fixed = await (
        await fake.slash(channel, alice, "vv correct", options={"player": "jordan", "round": 1, "points": 10})
    ).message()
    assert "**Jordan**'s round 1 corrected: 12 → 10 (total 10)" in fixed.content and "[To the sheet](" in fixed.content
    named = await (
        await fake.slash(channel, alice, "vv rename", options={"player": "Greed", "name": "Casey J"})
    ).message()
    assert "Casey is now called **Casey J**" in named.content
    moved = await (await fake.slash(channel, alice, "vv sin", options={"sin": "Lust", "to": "out of play"})).message()
    assert "Lust is now out of play (was in the reserves)" in moved.content
    sloth = await (await fake.slash(channel, alice, "vv sloth", options={"removed": True})).message()
    assert "Sloth Nemesis die is removed" in sloth.content
    not_now = await (await fake.slash(channel, alice, "vv tiebreak", options={"pair": "mirror_medusa"})).message()
    assert not_now.ephemeral and "no tie-break" in not_now.content
    state = await state_of(bot, channel)
    assert state.rows[0].scores == (10,) and state.rows[1].scores == (3,) and state.rows[2].name == "Casey J"
    assert state.sins["Lust"] == "out" and state.sloth_removed
    assert "Casey J" in the_sheet(fake, channel).embeds[0]["description"]


async def test_the_keeper_hands_the_sheet_over(fake: LocalDiscord, make_bot: MakeBot) -> None:
    alice, bob, dave = fake.members[0], fake.members[1], fake.members[4]
    channel = fake.channels[1]
    bot = await sheet_bot(make_bot)
    await new_sheet(fake, channel, bob)
    handed = await (await fake.slash(channel, bob, "vv keeper", options={"member": dave})).message()
    assert "**Dave** keeps the sheet now" in handed.content
    old = await (await open_score(fake, channel, bob)).message()
    assert old.ephemeral and "Only the keeper, Dave, can write" in old.content
    await enter_all(bot, fake, channel, dave, 4)
    # Someone with Manage Server (Alice) may rescue a sheet whose keeper has gone, and nothing more.
    await (await fake.slash(channel, alice, "vv keeper", options={"member": alice})).message()
    assert (await state_of(bot, channel)).keeper == str(alice.id)
    assert (await state_of(bot, channel)).rows[0].scores == (4,)


async def test_the_picture_is_replaced_and_changes_with_a_score(fake: LocalDiscord, make_bot: MakeBot) -> None:
    alice = fake.members[0]
    channel = fake.channels[2]
    bot = await sheet_bot(make_bot)
    sheet = await new_sheet(fake, channel, alice)
    first, image = picture(fake, sheet)
    size = image.size
    assert size[0] >= 800
    await enter(bot, fake, channel, alice, 14)
    second, image = picture(fake, sheet)
    assert second != first and image.size[0] == size[0]
    assert sheet.attachments[0]["filename"] == "vv-sheet.png"
    # The same sheet gives the same picture: undo brings back the first one exactly.
    await (await fake.click(the_sheet(fake, channel), "Undo", alice)).message()
    await bot.settled()
    assert picture(fake, sheet)[0] == first


async def test_calc_sins_and_help(fake: LocalDiscord, make_bot: MakeBot) -> None:
    channel, member = fake.channels[3], fake.members[2]
    await sheet_bot(make_bot)
    calc = await (
        await fake.slash(channel, member, "vv calc", options={"dice": "d12:8 d8:3 pair:3,5 penalty:2,2,5 d20:17"})
    ).message()
    assert calc.ephemeral and calc.content.startswith("🧮 **17**")
    assert "pair 3,5 → 3+1 = 4" in calc.content and "Total: 4 + 5 + 4 + 1 + 3 = 17" in calc.content
    bad = await (await fake.slash(channel, member, "vv calc", options={"dice": "d7:3"})).message()
    assert bad.ephemeral and "unknown kind of die" in bad.content
    sins = await (await fake.slash(channel, member, "vv sins")).message()
    fields = sins.embeds[0]["fields"]
    assert [f["name"].split(" ")[1] for f in fields] == ["Wrath", "Sloth", "Pride", "Lust", "Greed", "Gluttony", "Envy"]
    assert "Wrath → Sloth → Pride → Lust → Greed → Gluttony → Envy" in sins.embeds[0]["description"]
    help_ = await (await fake.slash(channel, member, "vv help")).message()
    text = str(help_.embeds)
    for command in ("/vv sheet", "/vv score", "/vv calc", "/vv sins", "`bullet`", "`penalty`", "`nemesis`", "`wild`"):
        assert command in text
    overall = await (await fake.slash(channel, member, "help")).message()
    assert "`/vv sheet` — Vices & Vengeance scoresheet" in overall.content
