"""Vices & Vengeance table game end to end: the real bot, the local fake Discord, played only by clicks.

Scripted games use ``QuietDice`` (tests/rules/vices_support.py): every die not scripted shows a value that
matches nothing, so a test scripts only the dice its story needs. With ``sins=random`` and ``order=join
order`` the Sins fall as Alice (P1) Envy, Bob (P2) Gluttony, Carol (P3) Greed, and Alice defends first.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any

from bot.app import TabletopBot
from bot.models import Session, Status
from bot.service import SENT_ALREADY
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
from rules.vices.engine import ENGINE
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.exactly_once import answered, at_once
from tests.rules.vices_support import QuietDice
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

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.vices")
SCRIPTED = {"sins": "random", "order": "join_order"}
PICK = "u:vices:"


async def vices_bot(make_bot: MakeBot, clock: FakeClock | None = None, **options: Any) -> TabletopBot:
    return await table_bot(make_bot, EXTENSIONS, clock, **options)


async def open_and_start(
    fake: LocalDiscord, channel: Channel, host: Member, others: list[Member], **options: Any
) -> Message:
    """``/vv new``, the others join, the host starts; the first board that waits for someone."""
    return await start_table(fake, "vv new", channel, host, others, **options)


async def board_of(fake: LocalDiscord, bot: TabletopBot, channel: Channel) -> Message:
    game = await game_of(bot, channel)
    board = fake.message(game.board.message_id)
    assert board is not None and not board.deleted
    return board


def button_starting(message: Message, prefix: str) -> str:
    """The custom_id of the button whose label starts with ``prefix``."""
    return next(b["custom_id"] for b in message.buttons if str(b.get("label", "")).startswith(prefix))


async def pick_and_confirm(fake: LocalDiscord, board: Message, member: Member, values: list[str]) -> str:
    """Pick units in the removal menu, read the private preview, click its Confirm; returns the preview's text."""
    menu = next(s for s in board.selects if s["custom_id"].startswith(PICK))
    preview = await (await fake.select(board, menu["custom_id"], values, member)).message()
    assert preview.ephemeral
    text = preview.content
    if preview.buttons:
        await (await fake.click(preview, preview.buttons[0]["custom_id"], member)).message()
        assert preview.content.startswith(("✅ Removed", "⟦✅")) and not preview.buttons  # pseudo: test_e2e_pseudo
    return text


async def play_one_click(fake: LocalDiscord, bot: TabletopBot, channel: Channel, rng: random.Random) -> Session:
    """Whoever must act uses one of the controls on the current board (the removal menu now and then)."""
    game = await game_of(bot, channel)
    prompt = bot.service.prompts(game)[0]
    member = member_of(fake, game, prompt.player)
    board = await board_of(fake, bot, channel)
    menus = [s for s in board.selects if s["custom_id"].startswith(PICK)]
    if menus and rng.random() < 0.25:
        options = [o["value"] for o in menus[0]["options"]]
        await pick_and_confirm(fake, board, member, rng.sample(options, min(len(options), rng.randint(1, 3))))
        return await game_of(bot, channel)
    legal = {a.model_dump()["type"] for a in ENGINE.legal_actions(bot.service.state_of(game), prompt.player)}
    buttons = [b for b in board.buttons if b["custom_id"].split(":", 3)[3].split(";")[0] in legal]
    choices = [o["value"] for s in board.selects if not s["custom_id"].startswith(PICK) for o in s["options"]]
    pick = None
    if choices and not buttons:
        menu = next(s for s in board.selects if not s["custom_id"].startswith(PICK))
        pick = (menu["custom_id"], rng.choice(choices))
    return await use_a_control(fake, bot, board, member, rng, legal, pick)


async def test_full_three_player_game_by_clicks_with_a_restart(fake: LocalDiscord, make_bot: MakeBot, tmp_path) -> None:
    bot, reopen, channel, (alice, bob, carol) = await three_at_a_table(
        fake, tmp_path, functools.partial(vices_bot, make_bot)
    )
    await open_and_start(fake, channel, alice, [bob, carol])
    bot, game = await play_to_the_end_with_a_restart(
        fake, bot, channel, play_one_click, restart_after=20, reopen=reopen
    )
    entries = await check_a_finished_table(fake, bot, channel, game)
    assert {"player", "auto"} <= {e.action.get("how") for e in entries}
    boards = [m for m in fake.messages(channel) if m.embeds and m.embeds[0].get("fields")]
    assert len(boards) == 1  # every other board retired to one line


async def test_one_human_against_computer_players(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vices_bot(make_bot)
    bot.service.dice = SeededDice(11)
    channel = fake.channels[1]
    alice = fake.members[0]
    lobby = await (await fake.slash(channel, alice, "vv new", options={"bots": 2})).message()
    await (await fake.click(lobby, "Start", alice)).message()
    game = await play_with_computers(fake, bot, channel, random.Random(5), play_one_click)
    assert game.status is Status.FINISHED
    entries = await bot.store.log_entries(game.id)
    assert "computer" in {e.action.get("how") for e in entries}
    # A computer pauses once per turn, not per roll: its whole turn shows at once after one pause.
    chosen = [e for e in entries if e.action.get("how") != "auto"]  # the bot's forced moves follow a choice
    moves = [(i, e) for i, e in enumerate(chosen) if e.action.get("how") == "computer"]
    turns = [
        e for i, e in moves if i == 0 or chosen[i - 1].action.get("how") != "computer" or chosen[i - 1].actor != e.actor
    ]
    assert bot.computers.pauses == len(turns) < len(moves) / 2, (bot.computers.pauses, len(turns), len(moves))


async def test_the_attacker_whose_sin_matched_chooses_the_effect(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vices_bot(make_bot)
    # Alice's small Gluttony die shows 1, Bob's large Gluttony die 1: Bob's Gluttony takes a Sin of the reserves.
    bot.service.dice = QuietDice({"s.Gluttony": [1]})
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    await open_and_start(fake, channel, alice, [bob, carol], **SCRIPTED)
    ask = await fake.wait_for_message(channel, lambda m: m.mentions == [bob.id])
    assert "Gluttony" in ask.content
    labels = sorted(b["label"] for b in ask.buttons)
    assert labels == [f"Take {sin} (reserves)" for sin in ("Lust", "Pride", "Sloth", "Wrath")]
    refused = await (await fake.click(ask, "Take Pride (reserves)", alice)).message()
    assert refused.ephemeral
    await (await fake.click(ask, "Take Pride (reserves)", bob)).message()
    game = await game_of(bot, channel)
    state = bot.service.state_of(game)
    assert state.sins["Pride"] == "P2" and state.turn.penalty_met
    # The penalty: small and large Gluttony dice, the taken Pride's large die and the metallic die.
    log = await (await fake.slash(channel, carol, "game log")).message()
    assert (
        f"**{bob.display_name}**'s Gluttony matched: penalty 6 + 1 + 1 (Pride's die) + 1 (metallic) → 0 points "
        "(equal dice score 0)." in log.content
    )
    assert f"**{bob.display_name}** takes Pride from the reserves (Gluttony)." in log.content
    board = await board_of(fake, bot, channel)
    assert board.button("Keep the rest (the penalty counted)")  # the penalty already counted as this removal


# Alice's first roll scores 100 if she removes everything: small dice 1 (Greed, Gluttony 2, so Bob's and Carol's
# large dice, which show 1, match nothing), spoilers 1, pairs 2 and 3, her d20 1. Bob and Carol then roll only
# zeros (their own d20s 20) and tie on 0; in the tie-break Bob's Mirror & Medusa (6, 6) beats Carol's David &
# Goliath (6, 5).
TIE_SCRIPT = {
    **{f"s.{sin}": [1] for sin in ("Wrath", "Sloth", "Pride", "Lust", "Envy")},
    "s.Greed": [2],
    "s.Gluttony": [2],
    "d12": [1],
    "d10": [1],
    "d8": [1],
    **{die: [2] for die in ("Mirror", "David", "SilverBullet")},
    "Medusa": [3],
    "Werewolf": [3],
    "Goliath": [3, 6, 6, 5],
    "N.Envy": [1],
    "N.Gluttony": [17, 20],
    "N.Greed": [16, 16, 20],
}


async def test_removal_preview_then_a_tie_break_with_pairs(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vices_bot(make_bot)
    bot.service.dice = QuietDice(TIE_SCRIPT)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    board = await open_and_start(fake, channel, alice, [bob, carol], **SCRIPTED)
    menu = next(s for s in board.selects if s["custom_id"].startswith(PICK))
    everything = [o["value"] for o in menu["options"]]
    assert len(everything) == 14 and "mirror_medusa" in everything  # pairs are one option each
    refused = await (await fake.select(board, menu["custom_id"], ["d12"], bob)).message()
    assert refused.ephemeral and not refused.buttons and "Only" in refused.content
    preview = await pick_and_confirm(fake, board, alice, everything)
    assert "**100 points**" in preview and "ends your turn" in preview
    game = await game_of(bot, channel)
    assert bot.service.state_of(game).seat("P1").total == 100
    for member in (bob, carol):
        board = await board_of(fake, bot, channel)
        await (await fake.click(board, button_starting(board, "Remove all zeros"), member)).message()
    # Both are asked; Carol's own click brought the tie-break up, so only Bob is pinged.
    ask = await fake.wait_for_message(channel, lambda m: "tie-break" in str(m.embeds).lower())
    assert "the lowest score wins (a matching pair scores 0; Silver Bullet's 1 matches any Werewolf)" in str(ask.embeds)
    assert ask.mentions == [bob.id] and f"<@{bob.id}> and <@{carol.id}> to choose a Mythical pair" in ask.content
    await (await fake.click(ask, "Mirror & Medusa", bob)).message()
    board = await board_of(fake, bot, channel)
    again = await (await fake.click(board, "David & Goliath", bob)).message()
    assert again.ephemeral  # Bob has picked already
    await (await fake.click(board, "David & Goliath", carol)).message()
    game = await game_of(bot, channel)
    assert game.status is Status.FINISHED and game.winners == ["P2"]
    final = fake.message(game.board.message_id)
    assert final is not None and "final standings" in final.embeds[0]["title"]
    news = final.embeds[0]["description"]
    assert "d20" not in str(final.embeds[0]["fields"])  # no dice are rolled any more: no word on the d20s
    assert (
        f"Tie-break round 1 (lowest wins): **{bob.display_name}**'s Mirror & Medusa ⚅6 ⚅6 → 0; "
        f"**{carol.display_name}**'s David & Goliath ⚅6 ⚄5 → 1."
    ) in news
    assert f"🏆 **{bob.display_name}** wins with 0!" in news
    log = await (await fake.slash(channel, alice, "game log")).message()  # the game just ended: still readable
    assert log.ephemeral and f"🏆 **{bob.display_name}** wins with 0!" in log.content


async def test_a_removal_timeout_removes_the_lowest_die(fake: LocalDiscord, make_bot: MakeBot) -> None:
    clock = FakeClock()
    bot = await vices_bot(make_bot, clock)
    bot.service.dice = QuietDice()
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    board = await open_and_start(fake, channel, alice, [bob, carol], timeout=60, **SCRIPTED)
    # Everything scores 0 but Alice's d20 (18 → 2): the lowest die, ties to the most sides, is the d12.
    assert board.button("Remove the lowest: d12 12 → 0")
    clock.advance(61)
    await fake.wait_for(lambda: any("Time ran out" in m.content for m in fake.messages(channel)), what="a default")
    game = await game_of(bot, channel)
    timeouts = [e for e in await bot.store.log_entries(game.id) if e.action.get("how") == "timeout"]
    assert [e.action["action"] for e in timeouts] == [{"type": "remove", "units": ["d12"]}]
    assert game.seat_of_player("P1").timeouts == 1


async def test_lobby_options_and_game_rules(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vices_bot(make_bot)
    bot.service.dice = QuietDice()
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    lobby = await (await fake.slash(channel, alice, "vv new", options=SCRIPTED)).message()
    assert "How Sins are dealt: At random" in str(lobby.embeds)
    # The seat order is the game's own option; the lobby does not promise another one.
    assert lobby.embeds[0]["footer"]["text"] == "Needs 3+ players." and "Seat order: Join order" in str(lobby.embeds)
    menu = await (await fake.click(lobby, "Options…", alice)).message()
    wild = next(s for s in menu.selects if s["placeholder"] == "Silver Bullet's wild face")
    await (await fake.select(menu, wild["custom_id"], ["null"], alice)).message()
    await fake.wait_for(lambda: "wild face: No wild face" in str(lobby.embeds), what="the lobby to show the option")
    for member in (bob, carol):
        await (await fake.click(lobby, "Join", member)).message()
    await (await fake.click(lobby, "Start", alice)).message()
    game = await game_of(bot, channel)
    assert bot.service.state_of(game).options.silver_bullet_wild_face is None
    rules = await (await fake.slash(channel, bob, "game rules")).message()
    embed = rules.embeds[0]
    sins = [line.split(" — ")[0] for line in embed["description"].splitlines() if line[:1].isdigit()]
    assert sins == ["1. 🟥Wrath", "2. 🟦Sloth", "3. 🟪Pride", "4. 🔵Lust", "5. 🟨Greed", "6. 🟧Gluttony", "7. 🟩Envy"]
    in_force = next(f["value"] for f in embed["fields"] if f["name"] == "Options in force")
    assert "Silver Bullet's wild face: No wild face" in in_force and "Players: 3–6" in in_force


async def test_a_preview_left_open_goes_out_of_date(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await vices_bot(make_bot)
    bot.service.dice = QuietDice()
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    board = await open_and_start(fake, channel, alice, [bob, carol], **SCRIPTED)
    menu = next(s for s in board.selects if s["custom_id"].startswith(PICK))
    preview = await (await fake.select(board, menu["custom_id"], ["d10", "d8"], alice)).message()
    assert "**0 points**" in preview.content and "15 dice roll again" in preview.content
    await (await fake.click(board, "Remove the lowest: d12 12 → 0", alice)).message()
    await (await fake.click(preview, preview.buttons[0]["custom_id"], alice)).message()
    assert "out of date" in preview.content and not preview.buttons
    game = await game_of(bot, channel)
    turn = bot.service.state_of(game).turn
    assert turn.scored == ("d12",) and turn.roll == 2


async def test_refused_repeats_of_a_confirm_never_hide_the_answer_that_succeeded(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    """20 Confirms of one removal at once: it is made once, each refused repeat is told on its own, and the preview
    keeps saying what was removed (a refusal never overwrites it with "out of date")."""
    bot = await vices_bot(make_bot)
    bot.service.dice = QuietDice()
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    board = await open_and_start(fake, channel, alice, [bob, carol], **SCRIPTED)
    menu = next(s for s in board.selects if s["custom_id"].startswith(PICK))
    preview = await (await fake.select(board, menu["custom_id"], ["d12"], alice)).message()
    confirm = preview.buttons[0]["custom_id"]
    clicks = await at_once(20, lambda: fake.click(preview, confirm, alice))
    texts = await answered(bot, clicks, SENT_ALREADY, "out of date")
    assert not any("out of date" in t for t in texts), texts
    assert preview.content.startswith("✅ Removed:") and not preview.buttons, preview.content
    turn = bot.service.state_of(await game_of(bot, channel)).turn
    assert turn is not None and turn.scored == ("d12",)


async def test_an_attacker_leaving_mid_turn(fake: LocalDiscord, make_bot: MakeBot) -> None:
    """1.8 #36 at the table: Bob leaves during Alice's turn; his Sin goes to the reserves, his d20 out of play,
    and the game goes on with two players (the table allows 2 at least here)."""
    bot = await vices_bot(make_bot)
    bot.service.dice = QuietDice()
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    lobby = await (await fake.slash(channel, alice, "vv new", options=SCRIPTED)).message()
    menu = await (await fake.click(lobby, "Options…", alice)).message()
    while not any(s["placeholder"] == "Fewest players" for s in menu.selects):
        await (await fake.click(menu, "More ▶", alice)).message()  # the menu pages in place
    fewest = next(s for s in menu.selects if s["placeholder"] == "Fewest players")
    await (await fake.select(menu, fewest["custom_id"], ["2"], alice)).message()
    for member in (bob, carol):
        await (await fake.click(lobby, "Join", member)).message()
    await (await fake.click(lobby, "Start", alice)).message()
    confirm = await (await fake.slash(channel, bob, "game leave")).message()
    await (await fake.click(confirm, "Yes, leave", bob)).message()
    game = await game_of(bot, channel)
    state = bot.service.state_of(game)
    assert state.sins["Gluttony"] == "reserves" and "Gluttony" in state.nemesis_out
    board = await board_of(fake, bot, channel)
    text = str(board.embeds)
    assert f"~~**{bob.display_name}**~~ left" in text and "waiting for" in board.content


async def test_the_suggested_removal_names_its_dice_on_the_button_and_in_the_news(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    """Members see which dice "Suggested" removes before they click, and the board says which went."""
    bot = await vices_bot(make_bot)
    bot.service.dice = SeededDice(21)
    channel = fake.channels[0]
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    await open_and_start(fake, channel, alice, [bob, carol])
    rng = random.Random(2)
    named = previewed = 0
    game = await game_of(bot, channel)
    while game.status is Status.ACTIVE and named < 3:
        board = await board_of(fake, bot, channel)
        suggested = next((b for b in board.buttons if str(b.get("label", "")).startswith("Suggested")), None)
        if suggested is None:
            game = await play_one_click(fake, bot, channel, rng)
            continue
        member = member_of(fake, game, bot.service.prompts(game)[0].player)
        label = suggested["label"]
        before = len(await bot.store.log_entries(game.id))
        answer = await (await fake.click(board, suggested["custom_id"], member)).message()
        if label.endswith("(see them)"):  # too many dice for a button: the preview lists them, then Confirm
            assert answer.ephemeral and answer.content.startswith("Remove ") and answer.buttons
            await (await fake.click(answer, answer.buttons[0]["custom_id"], member)).message()
            previewed += 1
        else:
            assert not answer.ephemeral, answer.content
            parts = label.removeprefix("Suggested: ").rsplit(" → ", 1)[0].split(" · ")
            game = await game_of(bot, channel)
            # What the board and /game log say of it: the removal's line.
            entries = await bot.store.log_entries(game.id)
            events = entries[before].events  # the click's own entry (the bot's forced moves may follow it)
            removal = next(line for line in bot.specs["vices"].narrate(game, events) if " removes " in line)
            assert re.search(r"removes \d+ dice", removal) is None
            assert len(removal.split(" removes ")[1].split(" → ")[0].split(", ")) == len(parts), (label, removal)
            named += 1
        game = await game_of(bot, channel)
    assert named >= 1, "no Suggested removal was offered"
