"""Vices & Vengeance luck through the local Discord: three members play by clicks, then ``/stats luck`` shows each
one's dice and turns. The test counts each member's dice from the game's log itself (the defender's pool and
penalty rolls, an attacker's own dice, setup rolls), checks that every die rolled is someone's, and reads the turns
and points from the log's ends of turns."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from bot.models import Status
from cogs.dice.stats import MIN_TURNS_FOR_RANK
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
from rules.engine import TurnLuck
from rules.luck import points_luck
from rules.vices.luck import score_luck
from tests.conftest import MakeBot
from tests.table_play import game_of, start_table, table_bot
from tests.test_e2e_dice_stats import row, say, settled
from tests.test_e2e_vices import play_one_click

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.dice", "cogs.vices")
TURNS = re.compile(
    r"Vices & Vengeance: ([\d,]+) turns?, ([\d.]+) points a turn; fair dice with the same choices: ([\d.]+)\. "
    r"(Your|Their) dice: (saved|cost|as fair dice)"
)


def dice_by_player(events: list[dict[str, Any]]) -> Counter[tuple[str, int]]:
    """(player, sides) of every die the events show a player rolling."""
    sides = {"d8": 8, "d10": 10, "d12": 12}
    found: Counter[tuple[str, int]] = Counter()
    for event in events:
        if event["type"] == "rolled":
            for group in event["groups"]:
                for die in group["dice"]:
                    size = 20 if die["die"].startswith("N.") else sides.get(die["die"], 6)
                    found[group["player"], size] += 1
        elif event["type"] == "penalty":
            found[event["defender"], 6] += len(event["dice"])
        elif event["type"] == "seat_rolls":
            found.update((r["player"], 20) for r in event["rolls"])
        elif event["type"] == "mirror_roll":
            found[event["player"], 6] += 1 + len(event["dice"])
        elif event["type"] == "tiebreak_rolled":
            found.update((r["player"], 6) for r in event["rolls"] for _ in r["dice"])
    return found


async def test_each_member_sees_their_own_dice_and_turns_against_fair_dice(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await table_bot(make_bot, EXTENSIONS)
    bot.service.dice = SeededDice(21)
    channel = fake.channels[0]
    alice, bob, carol = members = fake.members[0], fake.members[1], fake.members[2]
    await start_table(fake, "vv new", channel, alice, [bob, carol], order="d20")
    rng = random.Random(4)
    rolled: Counter[tuple[int, int]] = Counter()  # (member, sides)
    ended: dict[int, list[int]] = {m.id: [] for m in members}
    turns: dict[int, list[TurnLuck]] = {m.id: [] for m in members}
    while True:  # a game gives each player two to four turns: rematches until everyone can be ranked
        game = await game_of(bot, channel)
        while game.status is Status.ACTIVE:
            game = await play_one_click(fake, bot, channel, rng)
        await settled(bot)
        user = {s.player: s.user_id or 0 for s in game.seats}
        entries = await bot.store.log_entries(game.id)
        for entry in entries:
            rolled.update((user[p], sides) for (p, sides), n in dice_by_player(entry.events).items() for _ in range(n))
            for event in entry.events:
                if event["type"] == "turn_ended" and not event["abandoned"]:
                    ended[user[event["player"]]].append(event["turn_score"])
            wild = game.engine_options.get("silver_bullet_wild_face", 1)
            for turn in score_luck(wild, entry.events):
                turns[user[turn.player]].append(turn)
        everyone = [d for e in entries for d in e.dice if not str(d["die"]).startswith("sin.")]
        assert sum(n for (p, _), n in dice_by_player([ev for e in entries for ev in e.events]).items()) == len(
            everyone
        )  # every die rolled is some member's
        if min(len(scores) for scores in ended.values()) >= MIN_TURNS_FOR_RANK:
            break
        assert game.board is not None
        final = fake.message(game.board.message_id)
        assert final is not None
        lobby = await (await fake.click(final, "Rematch", alice)).message()
        await (await fake.click(lobby, "Start", alice)).message()
    for member in members:
        answer = await say(fake, channel, member, "stats luck", game="vices")
        assert answer.ephemeral
        for sides in (6, 8, 20):
            if rolled[member.id, sides]:
                assert row(answer.content, sides)[0] == rolled[member.id, sides]  # type: ignore[index]
        points, luck = sum(ended[member.id]), sum(t.luck for t in turns[member.id])
        count = len(ended[member.id])
        found = TURNS.search(answer.content)
        assert found is not None, answer.content
        assert int(found[1]) == count and float(found[2]) == pytest.approx(points / count, abs=0.051)
        assert float(found[3]) == pytest.approx((points + luck) / count, abs=0.051)
        assert found[4] == "Your"
        other = carol if member is not carol else alice
        theirs = await (await fake.slash(channel, other, "stats luck", options={"member": member})).message()
        assert "Their dice: " in theirs.content and found[0].replace("Your", "Their") in theirs.content
    # The server's leaderboard ranks members with 3 turns or more by how far their dice beat fair ones.
    share = {m.id: points_luck(sum(t.luck for t in turns[m.id]), sum(t.variance for t in turns[m.id])) for m in members}
    top = await say(fake, channel, alice, "stats top")
    assert not top.ephemeral and top.mentions == []
    board = top.content.split(f"Luckiest Vices & Vengeance dice** (at least {MIN_TURNS_FOR_RANK} turns)\n")[1]
    ranked = [int(m) for m in re.findall(r"^\d+\. <@(\d+)> · (?:saved|cost|as fair)", board, re.MULTILINE)]
    assert ranked == sorted(share, key=lambda m: -share[m])
    await say(fake, channel, bob, "stats top", me="leave")
    assert f"<@{bob.id}>" not in (await say(fake, channel, alice, "stats top")).content
