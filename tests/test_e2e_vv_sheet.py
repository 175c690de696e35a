"""The V&V scoresheet end to end: the real bot against the local Discord, RULES.md VV-14 from the first seat to
the next game, with typed names and members, a correction, undo and redo, Sin moves, a restart, the tie-break."""

from __future__ import annotations

from bot.replay import replay
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.test_e2e_vv_sheet_support import (
    enter,
    enter_all,
    just_now,
    new_sheet,
    open_score,
    pick,
    picture,
    score_label,
    select_of,
    sheet_bot,
    state_of,
    the_sheet,
    version_of,
)

TIEBREAK_DICE = {
    "tb1.Wrath.Mirror": [3],
    "tb1.Wrath.Medusa": [3],
    "tb2.Wrath.David": [6],
    "tb2.Wrath.Goliath": [1],
    "tb2.Sloth.Mirror": [5],
    "tb2.Sloth.Medusa": [6],
}
"""Round 1: Jordan's Mirror & Medusa match (0). Round 2: Jordan 6,1 → 5; Bob 5,6 → 1, and Bob wins."""


async def test_a_whole_sheet_from_the_first_score_to_the_next_game(fake: LocalDiscord, make_bot: MakeBot) -> None:
    alice, bob, carol, dave = fake.members[0], fake.members[1], fake.members[2], fake.members[4]
    channel = fake.channels[0]
    bot = await sheet_bot(make_bot)
    sheet = await new_sheet(fake, channel, alice, member1=bob, member2=carol, self_scoring=True)
    state = await state_of(bot, channel)
    assert [(r.name, r.sin, r.member) for r in state.rows] == [
        ("Jordan", "Wrath", None),
        ("Bob", "Sloth", str(bob.id)),
        ("Casey", "Greed", None),
        ("Carol", "Pride", str(carol.id)),
    ]
    assert state.keeper == str(alice.id) and state.sins["Lust"] == "reserves"
    _, image = picture(fake, sheet)
    assert image.width >= 800 and image.height >= 600
    # As Discord's: the picture's type and size, so a client keeps its room before it loads (issue 28).
    assert {k: sheet.attachments[0][k] for k in ("content_type", "width", "height")} == {
        "content_type": "image/png",
        "width": image.width,
        "height": image.height,
    }
    assert "Jordan (Wrath): no scores yet" in sheet.embeds[0]["description"]
    assert sheet.embeds[0]["image"]["url"] == "attachment://vv-sheet.png"
    # The picture has alt text: what it shows, for a screen reader or when it does not load.
    assert sheet.attachments[0]["description"] == (
        "Picture of the Vices & Vengeance scoresheet, game 1, round 1: a column per player with each round's "
        "score. Totals: Jordan (Wrath) 0, Bob (Sloth) 0, Casey (Greed) 0, Carol (Pride) 0. Jordan to play, round 1."
    )

    # The order can change until the first score: Casey up, then back down.
    moved = await (await pick(fake, sheet, "Change the seat order", "Move Casey up", alice)).message()
    assert moved.id == sheet.id
    assert [r.name for r in (await state_of(bot, channel)).rows] == ["Jordan", "Casey", "Bob", "Carol"]
    refused = await (await pick(fake, sheet, "Change the seat order", "Move Casey down", bob)).message()
    assert refused.ephemeral and "the keeper, Alice, writes the rest" in refused.content
    await (await pick(fake, sheet, "Change the seat order", "Move Casey down", alice)).message()
    assert [r.name for r in (await state_of(bot, channel)).rows] == ["Jordan", "Bob", "Casey", "Carol"]

    # Round 1: the keeper, a member writing their own turn with /vv score, the keeper, a member with the button.
    await enter_all(bot, fake, channel, alice, 14)
    not_yours = await (await fake.slash(channel, carol, "vv score", options={"points": 9})).message()
    assert not_yours.ephemeral and "your own scores" in not_yours.content
    stranger = await (await open_score(fake, channel, dave)).message()
    assert stranger.ephemeral and "Only the keeper, Alice, can write on this sheet." in stranger.content
    done = await (await fake.slash(channel, bob, "vv score", options={"points": 9})).message()
    assert done.ephemeral and "**Bob** scores 9 in round 1 (total 9)" in done.content
    await enter_all(bot, fake, channel, alice, 22)
    await enter(bot, fake, channel, carol, 11)
    assert "order" not in str(the_sheet(fake, channel).selects)  # the seat order is fixed now
    # Round 2, with a slip corrected afterwards and a typo taken back with undo.
    await enter_all(bot, fake, channel, alice, 18)
    await enter(bot, fake, channel, bob, 80)
    undone = await (await fake.click(the_sheet(fake, channel), "Undo", bob)).message()
    assert undone.id == the_sheet(fake, channel).id
    assert (await state_of(bot, channel)).rows[1].scores == (9,)
    # Who took back what, by name: never a raw mention shown inert.
    news = just_now(the_sheet(fake, channel))
    assert news[-1] == "↩️ **Bob** took back **Bob**'s 80 in round 2.", news
    await (await fake.click(the_sheet(fake, channel), "Redo", alice)).message()
    assert (await state_of(bot, channel)).rows[1].scores == (9, 80)
    assert just_now(the_sheet(fake, channel))[-1] == "↪️ **Alice** put back **Bob**'s 80 in round 2."
    await (await fake.click(the_sheet(fake, channel), "Undo", alice)).message()
    await enter(bot, fake, channel, bob, 8)
    fix = await pick(fake, the_sheet(fake, channel), "Correct a score", "Correct Jordan's score", alice)
    await (await fake.submit_modal(fix, {"round": "2", "value": "17"})).response()
    assert (await state_of(bot, channel)).rows[0].scores == (14, 17)
    # Casey's turn: Greed goes to Carol (a menu, then where to), and the Sloth Nemesis die leaves play.
    ask = await (await pick(fake, the_sheet(fake, channel), "A Sin moved?", "Greed", alice)).message()
    assert ask.ephemeral and "Where is **Greed** now?" in ask.content
    where = select_of(ask, "Where is Greed now?")
    moved = await (await fake.select(ask, where["custom_id"], ["Pride"], alice)).message()
    assert "Greed is now with **Carol** (was with **Casey**)" in moved.content and not moved.selects
    await (
        await pick(fake, the_sheet(fake, channel), "A Sin moved?", "Sloth Nemesis die: remove from play", alice)
    ).message()
    await enter_all(bot, fake, channel, alice, 19)
    await enter(bot, fake, channel, carol, 15)
    state = await state_of(bot, channel)
    assert state.sins["Greed"] == "Pride" and state.sloth_removed
    assert [sum(r.scores) for r in state.rows] == [31, 17, 41, 26]
    assert "Greed with Carol" in the_sheet(fake, channel).embeds[0]["description"]

    # A restart in the middle: the same sheet message keeps working with a new bot on the same database.
    await bot.close()
    bot = await sheet_bot(make_bot)
    await enter_all(bot, fake, channel, alice, 20, 21, 15, 30)
    assert [sum(r.scores) for r in (await state_of(bot, channel)).rows] == [51, 38, 56, 56]
    # Round 4: Jordan reaches exactly 70 first; the round is finished, then the three on 70 break the tie.
    await enter_all(bot, fake, channel, alice, 19)
    sheet = the_sheet(fake, channel)
    assert "finish the round" in sheet.content
    assert "Jordan reached 70: finish the round. Still to play: Bob, Casey, Carol." in sheet.embeds[0]["description"]
    await enter_all(bot, fake, channel, alice, 32, 14, 9)
    sheet = the_sheet(fake, channel)
    assert "Tie-break 1" in sheet.content and "**Jordan** picks a Mythical pair" in sheet.content
    assert "Game over: **Jordan**, **Bob** and **Casey** are on exactly 70" in str(sheet.embeds)

    bot.service.dice = ScriptedDice(TIEBREAK_DICE)
    not_a_contender = await (await fake.click(sheet, "Mirror & Medusa", carol)).message()
    assert not_a_contender.ephemeral and "your own scores" in not_a_contender.content
    await (await fake.click(sheet, "Mirror & Medusa", alice)).message()  # the bot rolls for Jordan: 3 and 3
    nothing = await (await fake.click(the_sheet(fake, channel), "Undo", alice)).message()
    assert nothing.ephemeral and "nothing to undo" in nothing.content  # a roll the bot made stays
    entered = await (
        await fake.slash(channel, bob, "vv tiebreak", options={"pair": "david_goliath", "dice": "2,2"})
    ).message()
    assert entered.ephemeral and "**Bob** rolled (entered) David & Goliath: 2 and 2 → 0" in entered.content
    await bot.settled()
    casey = await pick(
        fake, the_sheet(fake, channel), "Casey rolled physical dice?", "Silver Bullet & Werewolf: enter the dice", alice
    )
    await (await fake.submit_modal(casey, {"dice.0": "4", "dice.1": "5"})).response()
    await bot.settled()
    sheet = the_sheet(fake, channel)
    assert "Tie-break 2" in sheet.content and "Tie-break 2 between Jordan, Bob" in sheet.embeds[0]["description"]
    await (await fake.click(sheet, "David & Goliath", alice)).message()
    await (await fake.click(the_sheet(fake, channel), "Mirror & Medusa", bob)).message()  # Bob rolls his own
    state = await state_of(bot, channel)
    assert [[(t.row, t.dice) for t in rnd] for rnd in state.tiebreak] == [
        [("Wrath", (3, 3)), ("Sloth", (2, 2)), ("Greed", (4, 5))],
        [("Wrath", (6, 1)), ("Sloth", (5, 6))],
    ]
    sheet = the_sheet(fake, channel)
    assert "🏆 **Bob** wins" in sheet.content and "Bob wins with exactly 70!" in sheet.embeds[0]["description"]

    # The next game keeps the players and seats the winner last.
    await (await fake.click(sheet, "New game (Bob sits last)", alice)).message()
    state = await state_of(bot, channel)
    assert [r.name for r in state.rows] == ["Casey", "Carol", "Jordan", "Bob"]
    assert all(not r.scores for r in state.rows) and state.history[0].winner == "Sloth"
    assert not state.sloth_removed and state.sins["Greed"] == "Greed"
    assert score_label(the_sheet(fake, channel)) == "Score for Casey"
    # Nothing but the log made this: replaying it gives the same sheet.
    session = await bot.service.live_table(channel.id)
    assert session is not None
    entries = await bot.store.log_entries(session.id)
    rebuilt = replay(bot.registry.get("vv_sheet"), session.engine_options, entries)
    assert rebuilt is not None and rebuilt.model_dump(mode="json") == session.state
    # One sheet message the whole time, its picture replaced at every change (never piled up).
    assert [m.id for m in fake.messages(channel) if m.custom_ids] == [the_sheet(fake, channel).id]
    assert len(the_sheet(fake, channel).attachments) == 1
    assert the_sheet(fake, channel).attachments[0]["description"].startswith("Picture of the Vices & Vengeance")
    assert await version_of(bot, channel) == entries[-1].seq


async def test_only_writers_write_and_a_bad_score_is_refused_in_the_form(fake: LocalDiscord, make_bot: MakeBot) -> None:
    alice, bob, dave = fake.members[0], fake.members[1], fake.members[4]
    channel = fake.channels[1]
    bot = await sheet_bot(make_bot)
    await new_sheet(fake, channel, alice, member1=bob)  # members listed, but only the keeper writes
    before = await version_of(bot, channel)
    for member in (dave, bob):
        click = await open_score(fake, channel, member)
        refusal = await click.message()
        assert refusal.ephemeral and "Only the keeper, Alice, can write on this sheet." in refusal.content
    for command, options in (("vv score", {"points": 3}), ("vv rename", {"player": "Wrath", "name": "Jo"})):
        refusal = await (await fake.slash(channel, dave, command, options=options)).message()
        assert refusal.ephemeral and "Only the keeper" in refusal.content
    undo = await (await fake.click(the_sheet(fake, channel), "Undo", dave)).message()
    assert undo.ephemeral
    for bad, why in (("-3", "Scores are whole numbers of 0 or more."), ("abc", "whole numbers"), ("301", "300")):
        submit = await fake.submit_modal(await open_score(fake, channel, alice), {"value": bad})
        answer = await submit.message()
        assert answer.ephemeral and why in answer.content, answer.content
    assert await version_of(bot, channel) == before  # nothing was stored
    look = await (await fake.slash(channel, dave, "vv show")).message()
    assert look.ephemeral and look.attachments  # anyone may look: a private copy with the picture
    assert look.attachments[0]["description"].startswith("Picture of the Vices & Vengeance")
    ok = await enter(bot, fake, channel, alice, " 7 ")
    assert ok.response_type == 6
    assert (await state_of(bot, channel)).rows[0].scores == (7,)


async def test_the_last_seat_reaching_70_is_not_told_to_finish_the_round(fake: LocalDiscord, make_bot: MakeBot) -> None:
    alice = fake.members[0]
    channel = fake.channels[0]
    bot = await sheet_bot(make_bot)
    await new_sheet(fake, channel, alice, players="Jordan: Wrath, Bob: Sloth, Casey: Greed")
    await enter_all(bot, fake, channel, alice, 12, 30, 40, 25, 30, 40)
    news = the_sheet(fake, channel).embeds[0]["fields"][0]["value"]
    assert "🏁 **Casey** reached 80, and the round is complete." in news and "finish the round" not in news
    assert "🏆 **Jordan** wins with 37!" in news
