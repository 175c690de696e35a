"""A click never applies twice: N simultaneous clicks on a repeatable decision apply exactly once, and every one is
answered. A click made on an older version may pass commits by *other* players that left its decision as it was,
never the clicker's own (a double-click, or a client's retry).

Here Dice of Crowns and the lobby; the Vices & Vengeance table and scoresheet and Viciousness's pools have files
of their own (``test_exactly_once_*.py``)."""

from __future__ import annotations

import pytest

from bot.models import Status
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.exactly_once import CLICKS, STALE, answered, at_once, chosen, entries_after
from tests.table_play import game_of
from tests.test_e2e_crowns import crowns_bot, open_and_start, open_fate_window, per_die

# The first roll of Alice's turn, die by die, and what it asks her: each die keeps showing its face when rerolled,
# so a reroll asks the same decision again (the case where a double-click could pass for a second decision).
SKULLS = "KKCCDDK"  # three skulls: reroll them, or settle with Fate
SIX_SKULLS = "KKKKKKC"  # six skulls: a Claim or 2 Fate
SCROLLS = "SKCCDDK"  # a scroll and two skulls: reroll either group, or both


@pytest.mark.parametrize(
    ("roll", "label"),
    [
        (SKULLS, "Reroll skulls (3)"),
        (SKULLS, "Settle for 1 Fate"),
        (SIX_SKULLS, "Take 1 Claim"),
        (SIX_SKULLS, "Take 2 Fate"),
        (SCROLLS, "Reroll scrolls (1)"),
        (SCROLLS, "Reroll both (3)"),
    ],
)
async def test_n_clicks_on_a_crowns_decision_apply_once(
    fake: LocalDiscord, make_bot: MakeBot, roll: str, label: str
) -> None:
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(**{f"d{n}": face * 30 for n, face in enumerate(roll, 1)})}
    )
    board = await open_and_start(fake, channel, alice, [bob], fate=True)
    before = (await game_of(bot, channel)).version
    clicks = await at_once(CLICKS, lambda: fake.click(board, label, alice))
    assert len(await answered(bot, clicks, STALE)) == CLICKS - 1
    game = await game_of(bot, channel)
    made = chosen(await entries_after(bot, game, before))
    assert len(made) == 1 and made[0].actor == "P1", [e.action for e in made]


async def test_n_picks_in_the_fate_window_apply_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    window = await open_fate_window(fake, bot, channel, alice, bob, meddled="D")
    meddle = next(s for s in window.selects if s["options"][0]["value"].startswith("meddle"))
    die_1 = next(o["value"] for o in meddle["options"] if o["value"].endswith('die="1"'))
    before = (await game_of(bot, channel)).version
    clicks = await at_once(CLICKS, lambda: fake.select(window, meddle["custom_id"], [die_1], alice))
    assert len(await answered(bot, clicks, STALE)) == CLICKS - 1
    game = await game_of(bot, channel)
    made = chosen(await entries_after(bot, game, before))
    assert [e.action["action"]["type"] for e in made] == ["meddle"]
    assert bot.service.state_of(game).seat("P1").fate == 0  # 2 Fate spent once


async def test_a_click_drawn_before_the_players_own_reroll_is_refused(fake: LocalDiscord, make_bot: MakeBot) -> None:
    """Alice rerolls her skulls and they come up skulls again: the board asks the same thing. While the board
    still shows her first roll (its update on its way), a second click is hers already taken, not a reroll."""
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(**{f"d{n}": f * 30 for n, f in enumerate(SKULLS, 1)})}
    )
    board = await open_and_start(fake, channel, alice, [bob], fate=True)
    before = (await game_of(bot, channel)).version
    update = fake.hold("/callback")  # the reroll is committed; the board showing it waits
    first = await fake.click(board, "Reroll skulls (3)", alice)
    await update.arrived()
    late = await fake.click(board, "Reroll skulls (3)", alice)
    refused = await late.message()
    update.release()
    await answered(bot, [first, late])
    assert refused.ephemeral and "out of date" in refused.content, refused.content
    made = chosen(await entries_after(bot, await game_of(bot, channel), before))
    assert len(made) == 1


# -- the lobby -------------------------------------------------------------------------------------------------


async def test_n_clicks_on_each_lobby_button_apply_once(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    lobby = await (await fake.slash(channel, alice, "crowns new")).message()

    async def seats() -> list[str]:
        game = await game_of(bot, channel)
        return [s.name for s in game.seats]

    await answered(bot, await at_once(CLICKS, lambda: fake.click(lobby, "Join", bob)), "already in this lobby")
    assert await seats() == [alice.display_name, bob.display_name]
    await answered(bot, await at_once(CLICKS, lambda: fake.click(lobby, "Join", carol)), "already in this lobby")
    await answered(bot, await at_once(CLICKS, lambda: fake.click(lobby, "Leave", carol)), "not in this lobby")
    assert await seats() == [alice.display_name, bob.display_name]
    await answered(bot, await at_once(CLICKS, lambda: fake.click(lobby, "Add computer", alice)), "nothing was added")
    assert await seats() == [alice.display_name, bob.display_name, "Computer 1"]
    await answered(bot, await at_once(CLICKS, lambda: fake.click(lobby, "Start", alice)), "lobby is closed")
    game = await game_of(bot, channel)
    assert game.status is Status.ACTIVE
    starts = [e for e in await bot.store.log_entries(game.id) if e.action.get("kind") == "start"]
    assert len(starts) == 1
