"""A click never applies twice, on the V&V scoresheet: N identical form submits, menu picks, Undo or Redo clicks at
once write one entry, and every one is answered (``tests/test_exactly_once.py`` has the rule)."""

from __future__ import annotations

from bot.app import TabletopBot
from localdiscord.guild import Channel
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.exactly_once import CLICKS, STALE, answered, at_once, chosen, entries_after
from tests.test_e2e_vv_sheet_support import (
    enter_all,
    new_sheet,
    open_score,
    pick,
    select_of,
    sheet_bot,
    state_of,
    the_sheet,
    version_of,
)


async def sheet_id(bot: TabletopBot, channel: Channel) -> int:
    await bot.settled()
    session = await bot.service.live_table(channel.id)
    assert session is not None
    return session.id


async def test_n_submits_of_one_score_form_write_one_score(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await sheet_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    await new_sheet(fake, channel, alice)
    before = await version_of(bot, channel)
    opened = await at_once(CLICKS, lambda: open_score(fake, channel, alice))  # a form each, nothing written
    await answered(bot, opened)
    assert {res.response_type for res in opened} == {9} and await version_of(bot, channel) == before
    form = opened[0]
    submits = await at_once(CLICKS, lambda: fake.submit_modal(form, {"value": "14"}))
    # The repeats are refused as a form already sent (or, past that, as no longer Jordan's turn).
    await answered(bot, submits, STALE, "already sent", "turn, not")
    state = await state_of(bot, channel)
    assert [r.scores for r in state.rows[:2]] == [(14,), ()]
    assert len(chosen(await entries_after(bot, await sheet_id(bot, channel), before))) == 1


async def test_n_submits_of_one_correction_write_one_entry(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await sheet_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    await new_sheet(fake, channel, alice)
    await enter_all(bot, fake, channel, alice, 14, 9)
    before = await version_of(bot, channel)
    form = await pick(fake, the_sheet(fake, channel), "Correct a score", "Correct Jordan's score", alice)
    submits = await at_once(CLICKS, lambda: fake.submit_modal(form, {"round": "1", "value": "17"}))
    await answered(bot, submits, STALE, "already")
    assert (await state_of(bot, channel)).rows[0].scores == (17,)
    assert len(chosen(await entries_after(bot, await sheet_id(bot, channel), before))) == 1


async def test_n_picks_of_a_sin_move_write_one_entry(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await sheet_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    await new_sheet(fake, channel, alice)
    ask = await (await pick(fake, the_sheet(fake, channel), "A Sin moved?", "Greed", alice)).message()
    where = select_of(ask, "Where is Greed now?")
    before = await version_of(bot, channel)
    picks = await at_once(CLICKS, lambda: fake.select(ask, where["custom_id"], ["Pride"], alice))
    await answered(bot, picks, STALE, "already")
    assert (await state_of(bot, channel)).sins["Greed"] == "Pride"
    assert len(chosen(await entries_after(bot, await sheet_id(bot, channel), before))) == 1


async def test_n_picks_of_the_sloth_die_write_one_entry(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await sheet_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    sheet = await new_sheet(fake, channel, alice)
    before = await version_of(bot, channel)
    menu = select_of(sheet, "A Sin moved?")
    sloth = next(o["value"] for o in menu["options"] if o["label"].startswith("Sloth Nemesis die"))
    picks = await at_once(CLICKS, lambda: fake.select(sheet, menu["custom_id"], [sloth], alice))
    await answered(bot, picks, STALE, "already")
    assert (await state_of(bot, channel)).sloth_removed
    assert len(chosen(await entries_after(bot, await sheet_id(bot, channel), before))) == 1


async def test_n_undo_then_n_redo_clicks_take_back_and_put_back_one_entry(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await sheet_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    await new_sheet(fake, channel, alice)
    await enter_all(bot, fake, channel, alice, 14, 9, 22)
    sheet = the_sheet(fake, channel)
    undos = await at_once(CLICKS, lambda: fake.click(sheet, "Undo", alice))
    await answered(bot, undos, STALE)
    assert [r.scores for r in (await state_of(bot, channel)).rows[:3]] == [(14,), (9,), ()]
    sheet = the_sheet(fake, channel)
    redos = await at_once(CLICKS, lambda: fake.click(sheet, "Redo", alice))
    await answered(bot, redos, STALE)
    assert [r.scores for r in (await state_of(bot, channel)).rows[:3]] == [(14,), (9,), (22,)]


async def test_n_picks_of_a_seat_move_move_one_seat(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await sheet_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    sheet = await new_sheet(fake, channel, alice)
    menu = select_of(sheet, "Change the seat order")
    up = next(o["value"] for o in menu["options"] if o["label"] == "Move Carol up")
    picks = await at_once(CLICKS, lambda: fake.select(sheet, menu["custom_id"], [up], alice))
    await answered(bot, picks, STALE)
    assert [r.name for r in (await state_of(bot, channel)).rows] == ["Jordan", "Bob", "Carol", "Casey"]


async def test_n_submits_of_a_rename_write_one_entry(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await sheet_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    await new_sheet(fake, channel, alice)
    before = await version_of(bot, channel)
    form = await pick(fake, the_sheet(fake, channel), "Correct a score", "Rename Casey", alice)
    submits = await at_once(CLICKS, lambda: fake.submit_modal(form, {"name": "Kasey"}))
    await answered(bot, submits, STALE, "already")
    assert [r.name for r in (await state_of(bot, channel)).rows][2] == "Kasey"
    assert len(chosen(await entries_after(bot, await sheet_id(bot, channel), before))) == 1
