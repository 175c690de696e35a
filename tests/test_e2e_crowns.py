"""Dice of Crowns end to end: the real bot, the local fake Discord, played only by clicks."""

from __future__ import annotations

import functools
import random
from typing import Any

from bot.app import TabletopBot
from bot.models import Session, Status
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.crowns.engine import ENGINE
from rules.dice import ScriptedDice, SeededDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.table_play import (
    check_a_finished_table,
    game_of,
    member_of,
    play_to_the_end_with_a_restart,
    play_with_computers,
    start_table,
    table_bot,
    three_at_a_table,
    use_a_control,
)

FACE = {"C": 1, "D": 2, "K": 3, "S": 5}
EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.crowns")


def rolls(codes: str) -> list[int]:
    """d6 values for face codes (C crown, D dagger, K skull, S scroll)."""
    return [FACE[c] for c in codes]


def per_die(**dice: str) -> dict[str, list[int]]:
    """A per-die script: ``per_die(d1="SC", first_player=...)`` → {"1": [5, 1], …}."""
    return {key.removeprefix("d"): rolls(codes) for key, codes in dice.items()}


async def crowns_bot(make_bot: MakeBot, clock: FakeClock | None = None, **options: Any) -> TabletopBot:
    return await table_bot(make_bot, EXTENSIONS, clock, **options)


async def open_and_start(
    fake: LocalDiscord, channel: Channel, host: Member, others: list[Member], **options: Any
) -> Message:
    """``/crowns new``, the others join, the host starts; the first board that waits for someone."""
    return await start_table(fake, "crowns new", channel, host, others, **options)


def action_type(value: str) -> str:
    """The engine action type a control's encoded action (its custom_id tail or option value) takes."""
    return value.split(";")[0]


async def play_one_click(fake: LocalDiscord, bot: TabletopBot, channel: Channel, rng: random.Random) -> Session:
    """Whoever must act clicks one of the controls meant for them on the current board."""
    game = await game_of(bot, channel)
    prompt = bot.service.prompts(game)[0]
    member = member_of(fake, game, prompt.player)
    board = fake.message(game.board.message_id)
    assert board is not None and not board.deleted
    legal = {a.model_dump()["type"] for a in ENGINE.legal_actions(bot.service.state_of(game), prompt.player)}
    selects = [s for s in board.selects if action_type(s["options"][0]["value"]) in legal]
    pick = None
    if selects and rng.random() < 0.3:
        menu = rng.choice(selects)
        pick = (menu["custom_id"], rng.choice(menu["options"])["value"])
    return await use_a_control(fake, bot, board, member, rng, legal, pick)


async def test_full_three_player_game_by_clicks_with_a_restart(fake: LocalDiscord, make_bot: MakeBot, tmp_path) -> None:
    bot, reopen, channel, (alice, bob, carol) = await three_at_a_table(
        fake, tmp_path, functools.partial(crowns_bot, make_bot)
    )
    first = await open_and_start(fake, channel, alice, [bob, carol], fate=True, legendary=True, overkill=True)
    assert len(first.mentions) <= 1 and alice.id not in first.mentions  # Alice clicked Start: no ping for her
    bot, game = await play_to_the_end_with_a_restart(
        fake, bot, channel, play_one_click, restart_after=25, reopen=reopen
    )
    await check_a_finished_table(fake, bot, channel, game)
    history = await (await fake.slash(channel, bob, "game history")).message()
    assert "Dice of Crowns" in history.content and "won by" in history.content
    for message in fake.messages(channel):
        assert len(message.content) <= 2000 and not message.mention_everyone


async def test_one_human_against_computer_players(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    bot.service.dice = SeededDice(11)
    channel = fake.channels[1]
    alice = fake.members[0]
    lobby = await (await fake.slash(channel, alice, "crowns new", options={"bots": 1})).message()
    await (await fake.click(lobby, "Add computer", alice)).message()
    await (await fake.click(lobby, "Start", alice)).message()
    game = await play_with_computers(fake, bot, channel, random.Random(5), play_one_click)
    assert game.status is Status.FINISHED
    hows = {e.action.get("how") for e in await bot.store.log_entries(game.id)}
    assert "computer" in hows


async def test_rival_chooses_who_gets_a_dagger_rolled_for_a_scroll(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    # Alice goes first and rolls S C K K C D K; Bob rolls her scroll (die 1) and gets a dagger.
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(d1="SD", d2="C", d3="K", d4="K", d5="C", d6="D", d7="K")}
    )
    board = await open_and_start(fake, channel, alice, [bob, carol])  # the bot rolls for her: no choice there
    await (await fake.click(board, f"Scroll 1 → {bob.display_name}", alice)).message()
    ask = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id])
    assert "choose who gets the dagger" in ask.content
    refused = await (await fake.click(ask, f"Dagger → {carol.display_name}", alice)).message()
    assert refused.ephemeral and "Not your move" in refused.content
    await (await fake.click(ask, f"Dagger → {carol.display_name}", bob)).message()
    game = await game_of(bot, channel)
    state = bot.service.state_of(game)
    assert state.die("1").holder == "P3" and state.die("1").face == "DAGGER"
    log = await (await fake.slash(channel, carol, "game log")).message()
    assert f"**{bob.display_name}** rolled **{alice.display_name}**'s scroll die 1: 🗡️ Betrayal." in log.content
    assert f"**{bob.display_name}** gives the dagger to **{carol.display_name}**." in log.content


async def open_fate_window(
    fake: LocalDiscord, bot: TabletopBot, channel: Channel, alice: Member, bob: Member, meddled: str = ""
) -> Message:
    """Alice rolls six skulls and a crown and takes 2 Fate; Bob then rolls C C C K K K D, and Alice
    (2 Fate) may meddle with one of his dice before they are scored. ``meddled``: what die 1 rolls next.
    Returns the board showing the fate window."""
    script = per_die(d1="KC" + meddled, d2="KC", d3="KC", d4="KK", d5="KK", d6="KK", d7="CD")
    bot.service.dice = ScriptedDice({"first_player": [1], **script})
    board = await open_and_start(fake, channel, alice, [bob], fate=True)
    await (await fake.click(board, "Take 2 Fate", alice)).message()
    # Bob's turn starts with the bot's roll; Alice may spend her Fate on it.
    await fake.wait_for(lambda: "Fate window" in str(fake.messages(channel)[-1].embeds), what="the fate window")
    window = fake.message((await game_of(bot, channel)).board.message_id)
    assert window is not None and "Fate window" in str(window.embeds) and window.mentions == []
    return window


async def test_fate_window_meddle_by_another_player(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    window = await open_fate_window(fake, bot, channel, alice, bob, meddled="D")
    meddle = next(s for s in window.selects if action_type(s["options"][0]["value"]) == "meddle")
    die_1 = next(o["value"] for o in meddle["options"] if o["value"].endswith('die="1"'))
    await (await fake.select(window, meddle["custom_id"], [die_1], alice)).message()
    game = await game_of(bot, channel)
    state = bot.service.state_of(game)
    assert state.seat("P1").fate == 0
    assert state.die("1").face == "DAGGER"
    log = await (await fake.slash(channel, bob, "game log")).message()
    assert "spends 2 Fate to reroll" in log.content


async def test_the_roll_that_starts_a_turn_is_the_bots(fake: LocalDiscord, make_bot: MakeBot) -> None:
    """A roll every turn starts with has one answer: the bot rolls it (logged as such), nobody clicks."""
    clock = FakeClock()
    bot = await crowns_bot(make_bot, clock)
    bot.service.dice = ScriptedDice(
        {"first_player": [1], **per_die(d1="S", d2="C", d3="K", d4="K", d5="C", d6="D", d7="K")}
    )
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    board = await open_and_start(fake, channel, alice, [bob, carol], timeout=60)
    assert board.button(f"Scroll 1 → {bob.display_name}")
    # The first board says plainly who rolled what and why, and numbers dice so they don't read as values.
    embed = board.embeds[0]
    assert embed["description"].splitlines() == [
        f"**{alice.display_name}** goes first (drawn at random), with all 7 dice.",
        f"🎲 The bot rolled **{alice.display_name}**'s 7 dice to start the turn: 📜 👑 💀 💀 👑 🗡️ 💀",
    ]
    dice = next(f["value"] for f in embed["fields"] if f["name"] == f"{alice.display_name}'s dice")
    assert dice.splitlines()[:3] == [
        "Set aside: 👑👑 (dice 2, 5) · 🗡️ (die 6)",
        "Skulls: 💀💀💀 (dice 3, 4, 7)",
        "New scrolls: 📜 (die 1)",
    ]
    game = await game_of(bot, channel)
    entries = await bot.store.log_entries(game.id)
    assert entries[1].action == {"kind": "act", "how": "auto", "action": {"type": "roll"}}
    assert entries[1].actor == "P1" and not any(b.get("label", "").startswith("Roll") for b in board.buttons)


async def test_a_game_adds_a_setting_of_its_own(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await crowns_bot(make_bot)
    channel, admin = fake.channels[0], fake.members[0]
    shown = await (await fake.slash(channel, admin, "settings")).message()
    assert "played to **3 Claims**" in shown.content and "Lobbies close after" in shown.content
    saved = await (await fake.slash(channel, admin, "settings", options={"crowns_target": 5})).message()
    assert "Saved." in saved.content and "played to **5 Claims**" in saved.content
    lobby = await (await fake.slash(channel, admin, "crowns new")).message()
    assert "Claims to win: 5" in lobby.content + str(lobby.embeds)
