"""A click never applies twice, at the Vices & Vengeance table: N identical clicks on a removal (a shortcut, the
Suggested one, a preview's Confirm), a penalty or a tie-break pair apply once, and every one is answered. Two
players picking at once don't make each other's boards stale (``tests/test_exactly_once.py`` has the rule)."""

from __future__ import annotations

import pytest

from bot.app import TabletopBot
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.exactly_once import CLICKS, STALE, answered, at_once, chosen, entries_after
from tests.rules.vices_support import QuietDice
from tests.table_play import game_of
from tests.test_e2e_vices import PICK, SCRIPTED, TIE_SCRIPT, board_of, button_starting, open_and_start, vices_bot

GLUTTONY = {"s.Gluttony": [1]}
"""Bob's Gluttony matches on Alice's first roll: he takes a Sin of the reserves, then she removes dice."""


async def after_bobs_penalty(fake: LocalDiscord, bot: TabletopBot, channel: Channel) -> Message:
    """Alice's board once Bob has taken Pride for his Gluttony: her removal, the penalty counted."""
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    bot.service.dice = QuietDice(GLUTTONY)
    await open_and_start(fake, channel, alice, [bob, carol], **SCRIPTED)
    ask = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id])
    await (await fake.click(ask, "Take Pride (reserves)", bob)).message()
    return await board_of(fake, bot, channel)


async def applied_once(bot: TabletopBot, channel: Channel, before: int, member: Member, kind: str) -> None:
    """One entry of ``kind`` by ``member``'s seat was committed after ``before`` (and nothing else they chose)."""
    game = await game_of(bot, channel)
    made = chosen(await entries_after(bot, game, before))
    player = game.seat_of_user(member.id)
    assert player is not None
    assert [(e.actor, e.action["action"]["type"]) for e in made] == [(player.player, kind)]


async def test_n_clicks_on_a_penalty_apply_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vices_bot(make_bot)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    bot.service.dice = QuietDice(GLUTTONY)
    await open_and_start(fake, channel, alice, [bob, carol], **SCRIPTED)
    ask = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id])
    before = (await game_of(bot, channel)).version
    await answered(bot, await at_once(CLICKS, lambda: fake.click(ask, "Take Pride (reserves)", bob)), STALE)
    await applied_once(bot, channel, before, bob, "gluttony")
    state = bot.service.state_of(await game_of(bot, channel))
    assert state.sins["Pride"] == "P2"


@pytest.mark.parametrize("label", ["Remove the lowest", "Remove all zeros", "Keep the rest"])
async def test_n_clicks_on_a_removal_shortcut_apply_once(fake: LocalDiscord, make_bot: MakeBot, label: str) -> None:
    bot = await vices_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    board = await after_bobs_penalty(fake, bot, channel)
    button = button_starting(board, label)
    before = (await game_of(bot, channel)).version
    await answered(bot, await at_once(CLICKS, lambda: fake.click(board, button, alice)), STALE)
    await applied_once(bot, channel, before, alice, "zeros" if label == "Remove all zeros" else "remove")


async def test_n_clicks_on_the_suggested_removal_apply_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vices_bot(make_bot)
    bot.service.dice = QuietDice(TIE_SCRIPT)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    board = await open_and_start(fake, channel, alice, [bob, carol], **SCRIPTED)
    suggested = button_starting(board, "Suggested:")
    before = (await game_of(bot, channel)).version
    await answered(bot, await at_once(CLICKS, lambda: fake.click(board, suggested, alice)), STALE)
    await applied_once(bot, channel, before, alice, "remove")


@pytest.mark.parametrize("preview", ["picked", "suggested"])
async def test_n_clicks_on_a_previews_confirm_apply_once(fake: LocalDiscord, make_bot: MakeBot, preview: str) -> None:
    """The removal menu's preview, and the Suggested dice too many for a button, each confirmed N times at once."""
    bot = await vices_bot(make_bot)
    channel, alice = fake.channels[0], fake.members[0]
    board = await after_bobs_penalty(fake, bot, channel)
    if preview == "picked":
        menu = next(s for s in board.selects if s["custom_id"].startswith(PICK))
        shown = await (await fake.select(board, menu["custom_id"], ["d10", "d8"], alice)).message()
    else:
        shown = await (await fake.click(board, button_starting(board, "Suggested:"), alice)).message()
    assert shown.ephemeral and shown.buttons, shown.content
    before = (await game_of(bot, channel)).version
    confirm = shown.buttons[0]["custom_id"]
    await answered(bot, await at_once(CLICKS, lambda: fake.click(shown, confirm, alice)))
    await applied_once(bot, channel, before, alice, "remove")


async def tie_break(fake: LocalDiscord, bot: TabletopBot, channel: Channel) -> Message:
    """TIE_SCRIPT played to its tie-break: Bob and Carol, both at 0, each to choose a Mythical pair."""
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    bot.service.dice = QuietDice(TIE_SCRIPT)
    board = await open_and_start(fake, channel, alice, [bob, carol], **SCRIPTED)
    menu = next(s for s in board.selects if s["custom_id"].startswith(PICK))
    shown = await (await fake.select(board, menu["custom_id"], [o["value"] for o in menu["options"]], alice)).message()
    await (await fake.click(shown, shown.buttons[0]["custom_id"], alice)).message()
    for member in (bob, carol):
        board = await board_of(fake, bot, channel)
        await (await fake.click(board, button_starting(board, "Remove all zeros"), member)).message()
    return await fake.wait_for_message(channel, lambda m: "tie-break" in str(m.embeds).lower())


async def test_n_clicks_on_a_tie_break_pair_apply_once_and_leave_the_other_players_click_good(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    """Bob clicks his pair N times at once: one pick. Carol's click, drawn before Bob's pick was committed and
    shown (its board update still on its way), is applied: his pick left her decision as it was."""
    bot = await vices_bot(make_bot)
    channel = fake.channels[0]
    bob, carol = fake.members[1], fake.members[2]
    ask = await tie_break(fake, bot, channel)
    before = (await game_of(bot, channel)).version
    update = fake.hold("/callback")  # Bob's pick is committed; the board showing it waits
    bobs = await at_once(CLICKS, lambda: fake.click(ask, "Mirror & Medusa", bob))
    await update.arrived()
    drawn = ask.button("David & Goliath")["custom_id"]
    assert drawn.split(":")[2] == str(before)  # the board as it was before Bob's pick
    carols = await fake.click(ask, drawn, carol)
    await carols.response()
    update.release()
    await answered(bot, [*bobs, carols])
    game = await game_of(bot, channel)
    made = chosen(await entries_after(bot, game, before))
    assert sorted((e.actor, e.action["action"]["type"]) for e in made) == [("P2", "pair"), ("P3", "pair")]
    assert game.winners == ["P2"]
