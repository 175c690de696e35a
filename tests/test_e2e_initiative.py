"""``/init`` through the local Discord: joining by a roll and by a value, a hidden NPC the channel never sees until
it is revealed, Next through a round with a condition running out, a restart in the middle and clicking on, a
player refused a GM-only control privately, Undo, and the end; on both backends."""

from __future__ import annotations

import pytest

from localdiscord.guild import Channel
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.databases import Database, on_database

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.dice", "cogs.initiative")
DICE = {"e1.1": [14], "e1.tie": [5], "e2.tie": [3], "h1.1": [20], "h1.tie": [2]}


@pytest.fixture
def make_bot(database: Database, make_bot: MakeBot) -> MakeBot:
    """Every bot of this module on both backends (SQLite, PostgreSQL); ``database`` is torn down after the bots."""
    return on_database(make_bot, database)


def board_text(board: Message) -> str:
    return str(board.embeds)


def said(fake: LocalDiscord, channel: Channel, text: str) -> list[Message]:
    return [m for m in fake.messages(channel) if text in m.content]


async def test_a_fight_from_start_to_end(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=EXTENSIONS, dice=ScriptedDice({k: list(v) for k, v in DICE.items()}))
    channel, gm, alice, bob = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    board = await (await fake.slash(channel, gm, "init start")).message()
    assert "Rolling initiative" in board_text(board) and not board.ephemeral

    joined = await (await fake.slash(channel, alice, "init join", options={"roll": "1d20+3", "name": "Alia"})).message()
    assert not joined.ephemeral and "**Alia** joins: `1d20+3` → [14] = **17**" in joined.content
    joined = await (await fake.slash(channel, bob, "init join", options={"value": 12})).message()
    assert f"**{bob.name}** joins at **12**" in joined.content

    # A hidden NPC: the GM is told privately, the channel and the players never see it.
    hidden = await (
        await fake.slash(channel, gm, "init npc", options={"name": "Ogre", "roll": "1d20", "hidden": True})
    ).message()
    assert hidden.ephemeral and "🎲 **Ogre** joins: `1d20` → [20] = **20**." in hidden.content
    assert "Only you see them" in hidden.content
    await bot.settled()
    assert not any("Ogre" in m.content or "Ogre" in str(m.embeds) for m in fake.messages(channel))
    mine = await (await fake.slash(channel, gm, "init gm")).message()
    assert mine.ephemeral and "Ogre" in str(mine.embeds)
    theirs = await (await fake.slash(channel, bob, "init gm")).message()
    assert theirs.ephemeral and "Ogre" not in str(theirs.embeds)
    assert await (await fake.autocomplete(channel, bob, "init remove", "who", {"who": "o"})).choices() == [
        {"name": bob.name, "value": bob.name}
    ]

    stunned = {"who": bob.name, "condition": "Stunned", "turns": 1}
    told = await (await fake.slash(channel, bob, "init condition", options=stunned)).message()
    assert "*Stunned*, for 1 turn" in told.content
    await fake.wait_for(lambda: "Stunned (1)" in board_text(board), what="the condition on the board")

    # A player is refused a GM-only control, privately; the board is unchanged.
    refused = await (await fake.click(board, "Start", bob)).message()
    assert refused.ephemeral and "Only the GM" in refused.content

    # Round 1: the Ogre (20) first — the channel sees only that it is the GM's turn — then Alia, pinged.
    await fake.click(board, "Start", gm)
    gm_turn = await fake.wait_for_message(channel, lambda m: "The GM's turn" in m.content)
    assert "**Round 1**" in gm_turn.content and gm_turn.mentions == []
    await fake.wait_for(lambda: "the GM's turn" in board_text(board), what="the board at the GM's turn")
    assert "Ogre" not in board_text(board)
    await fake.click(board, "Next", gm)
    await fake.wait_for(lambda: "**Alia**" in board_text(board), what="Alia's turn on the board")
    call = await fake.wait_for_message(channel, lambda m: "your turn" in m.content)
    assert call.mentions == [alice.id] and f"<@{alice.id}>, your turn: **Alia**" in call.content

    # The bot restarts in the middle of the round; the same board goes on.
    await bot.settled()
    await bot.close()
    bot = await make_bot(extensions=EXTENSIONS, dice=ScriptedDice({}))
    await fake.click(board, "Next", alice)  # Alia ends her own turn
    call = await fake.wait_for_message(channel, lambda m: f"<@{bob.id}>, your turn" in m.content)
    assert call.mentions == [bob.id]
    await fake.wait_for(lambda: f"**{bob.name}**" in board_text(board), what="Bob's turn on the board")

    # Bob's turn ends: Stunned runs out, told in the channel; round 2 starts with the (hidden) Ogre.
    ended = await (await fake.click(board, "Next", bob)).message()
    assert not ended.ephemeral, ended.content
    expired = await fake.wait_for_message(channel, lambda m: "ran out" in m.content)
    assert f"⌛ **{bob.name}**: *Stunned* ran out." in expired.content and "**Round 2**" in expired.content
    await fake.wait_for(lambda: "Round 2" in board_text(board) and "Stunned" not in board_text(board), what="round 2")

    # Revealed: now everyone sees the Ogre, at its turn.
    shown = await (await fake.slash(channel, gm, "init reveal", options={"who": "Ogre"})).message()
    assert "👁️ **Ogre** steps out (at 20)." in shown.content and not shown.ephemeral
    await fake.wait_for(lambda: "**Ogre**" in board_text(board), what="the Ogre on the board")

    # Undo takes the reveal back: hidden again.
    undone = await (await fake.click(board, "Undo", gm)).message()
    assert "↩️ Undone: 👁️ **Ogre** steps out" in undone.content
    await fake.wait_for(lambda: "Ogre" not in board_text(board), what="the reveal undone")

    refused = await (await fake.slash(channel, bob, "init end")).message()
    assert refused.ephemeral and "Only the tracker's GM" in refused.content
    over = await (await fake.slash(channel, gm, "init end")).message()
    assert "Initiative over after 2 rounds" in over.content
    await fake.wait_for(lambda: not board.components, what="the board retired")
    assert not said(fake, channel, "Ogre**'s turn")


async def test_join_refusals_and_npc_groups(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=EXTENSIONS, dice=ScriptedDice({"e1.tie": [4], "e4.tie": [9]}))
    channel, gm, bob = fake.channels[0], fake.members[0], fake.members[2]
    none = await (await fake.slash(channel, bob, "init join")).message()
    assert none.ephemeral and "/init start" in none.content
    board = await (await fake.slash(channel, gm, "init start")).message()
    busy = await (await fake.slash(channel, bob, "init start")).message()
    assert busy.ephemeral
    refused = await (await fake.slash(channel, bob, "init npc", options={"name": "Wolf", "value": 9})).message()
    assert refused.ephemeral and "Only the GM adds NPCs" in refused.content
    bad = await (await fake.slash(channel, bob, "init join", options={"roll": "1d20+"})).message()
    assert bad.ephemeral and "That roll doesn't work" in bad.content
    group = await (
        await fake.slash(channel, gm, "init npc", options={"name": "Goblin", "value": 11, "count": 3})
    ).message()
    assert "**Goblin 1**, **Goblin 2**, **Goblin 3** join at **11**" in group.content
    await (await fake.slash(channel, bob, "init join", options={"value": 11, "modifier": 2})).message()
    await bot.settled()
    text = board_text(board)
    assert text.index(bob.name) < text.index("Goblin 1") < text.index("Goblin 3")  # 11 (+2) before 11 (+0)
    await (await fake.slash(channel, bob, "init leave")).message()
    await fake.wait_for(lambda: bob.name not in board_text(board), what="Bob gone")
