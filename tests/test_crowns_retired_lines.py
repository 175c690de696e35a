"""Dice of Crowns' one-line history tells the truth: over random games played by clicks, every retired board's
line names, for each turn it tells, the player whose turn the log says it was, and only what that player
rolled in that turn while the board was up; and it tells the turn the board was titled with."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.app import TabletopBot
from bot.models import Status
from bot.names import escape_name
from cogs.crowns import FACE_EMOJI as FACE_OF
from localdiscord.guild import Channel
from localdiscord.server import LocalDiscord
from rules.crowns.engine import ENGINE
from rules.dice import SeededDice
from tests.conftest import MakeBot
from tests.table_play import game_of, play_with_computers
from tests.test_e2e_crowns import crowns_bot, open_and_start, play_one_click

TITLE_TURN = re.compile(r"turn (\d+), round")
CLAUSE = re.compile(r"Turn (\d+) · (.*?)(?= · Turn \d+ · |$)")
BOLD = re.compile(r"\*\*(.+?)\*\*")
ROLLED = re.compile(r"(?:rolled|rerolled) ((?:👑|🗡️|💀|📜)+)")


@dataclass
class Watched:
    """What the players saw of each board while it was live: its span in the log and its last title's turn."""

    first_seq: dict[int, int] = field(default_factory=dict)
    title_turn: dict[int, int] = field(default_factory=dict)

    async def look(self, fake: LocalDiscord, bot: TabletopBot, channel: Channel) -> None:
        game = await game_of(bot, channel)
        if game.board is None:
            return
        self.first_seq[game.board.message_id] = game.board.first_seq
        board = fake.message(game.board.message_id)
        title = board.embeds[0].get("title", "") if board is not None and board.embeds else ""
        if match := TITLE_TURN.search(title):
            self.title_turn[game.board.message_id] = int(match.group(1))


def turns_of(entries: list[Any]) -> dict[int, str]:
    """Each turn's player, as the log says."""
    return {e["turn"]: e["player"] for entry in entries for e in entry.events if e["type"] == "turn_started"}


def chain_start(entries: list[Any], seq: int) -> int:
    """Where the change that ends at ``seq`` began: a click's entry, before the moves the bot made for it."""
    start = seq
    for entry in entries:
        if entry.seq > seq:
            break
        if entry.action.get("how") != "auto":
            start = entry.seq
    return start


def rolls_in(entries: list[Any], low: int, high: int) -> dict[int, list[tuple[str, str]]]:
    """The rolls logged between two sequence numbers (inclusive), by turn: (player, faces as emoji)."""
    turn = 0
    for entry in entries:  # the turn in progress at ``low``
        if entry.seq >= low:
            break
        turn = next((e["turn"] for e in reversed(entry.events) if e["type"] == "turn_started"), turn)
    found: dict[int, list[tuple[str, str]]] = {}
    for entry in entries:
        for e in entry.events:
            if e["type"] == "turn_started":
                turn = e["turn"]
            elif e["type"] == "rolled" and low <= entry.seq <= high:
                found.setdefault(turn, []).append((e["player"], "".join(FACE_OF[d["face"]] for d in e["dice"])))
    return found


async def check_lines(fake: LocalDiscord, bot: TabletopBot, channel: Channel, watched: Watched) -> int:
    """Check every retired board's line against the log; returns how many lines were checked."""
    game = await game_of(bot, channel)
    entries = await bot.store.log_entries(game.id)
    players = turns_of(entries)
    names = {s.player: escape_name(s.name) for s in game.seats}
    boards = sorted(watched.first_seq)
    checked = 0
    for index, message_id in enumerate(boards[:-1]):
        message = fake.message(message_id)
        assert message is not None and not message.embeds, "a board replaced by another is retired"
        low, high = chain_start(entries, watched.first_seq[message_id]), watched.first_seq[boards[index + 1]]
        rolls = rolls_in(entries, low, high)
        clauses = CLAUSE.findall(message.content)
        told = {int(turn) for turn, _ in clauses}
        if message_id in watched.title_turn:
            assert watched.title_turn[message_id] in told, (message.content, watched.title_turn[message_id])
        for turn_text, clause in clauses:
            turn = int(turn_text)
            assert turn in players, message.content
            named = BOLD.findall(clause)
            assert named, f"a line names who did it: {message.content}"
            if rolled := ROLLED.search(clause):
                # "Bob rolled 👑👑💀": Bob rolled exactly that in that turn, while this board was up.
                assert named[0] == names[players[turn]], (message.content, players[turn])
                assert (players[turn], rolled.group(1)) in rolls.get(turn, []), (message.content, rolls)
        checked += 1
    return checked


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
async def test_every_retired_line_names_the_turn_and_the_player_the_log_says(
    fake: LocalDiscord, make_bot: MakeBot, seed: int
) -> None:
    bot = await crowns_bot(make_bot)
    bot.service.dice = SeededDice(seed)
    channel = fake.channels[0]
    players = fake.members[: 2 + seed % 3]
    options: dict[str, Any] = {"fate": True, "overkill": True} if seed % 2 else {}
    await open_and_start(fake, channel, players[0], players[1:], **options)
    rng = random.Random(seed)
    watched = Watched()
    await watched.look(fake, bot, channel)
    game = await game_of(bot, channel)
    clicks = 0
    while game.status is Status.ACTIVE:
        game = await play_one_click(fake, bot, channel, rng)
        await watched.look(fake, bot, channel)
        clicks += 1
        assert clicks < 1500
    assert await check_lines(fake, bot, channel, watched) >= 3


async def test_lines_stay_true_with_computer_turns_between(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await crowns_bot(make_bot)
    bot.service.dice = SeededDice(5)
    channel = fake.channels[1]
    alice, bob = fake.members[0], fake.members[1]
    lobby = await (await fake.slash(channel, alice, "crowns new", options={"bots": 1})).message()
    await (await fake.click(lobby, "Join", bob)).message()
    await (await fake.click(lobby, "Start", alice)).message()
    watched = Watched()
    rng = random.Random(6)

    async def click_and_look(fake: LocalDiscord, bot: TabletopBot, channel: Channel, rng: random.Random) -> Any:
        await watched.look(fake, bot, channel)
        game = await play_one_click(fake, bot, channel, rng)
        await watched.look(fake, bot, channel)
        return game

    game = await play_with_computers(fake, bot, channel, rng, click_and_look)
    assert game.status is Status.FINISHED
    assert ENGINE.kind == game.kind
    watched.title_turn.clear()  # a board edited while a computer played: its last title is not seen here
    assert await check_lines(fake, bot, channel, watched) >= 3
