"""Vices & Vengeance luck through the local Discord: three members play by clicks, then ``/stats luck`` shows each
one's dice and turns. The test counts each member's dice from the game's log itself (the defender's pool and
penalty rolls, an attacker's own dice, setup rolls), checks that every die rolled is someone's, and reads the turns
and points from the log's ends of turns."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from bot.models import Status
from localdiscord.server import LocalDiscord
from rules.dice import SeededDice
from rules.vices.luck import score_luck
from tests.conftest import MakeBot
from tests.table_play import game_of, start_table, table_bot
from tests.test_e2e_dice_stats import row, say, settled
from tests.test_e2e_vices import play_one_click

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.dice", "cogs.vices")
TURNS = re.compile(
    r"Vices & Vengeance: ([\d,]+) turns?, ([\d.]+) points a turn; fair dice with the same choices: ([\d.]+)\. "
    r"(Your|Their) dice (saved|cost|gave)"
)


def dice_by_player(events: list[dict]) -> Counter[tuple[str, int]]:
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
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    await start_table(fake, "vv new", channel, alice, [bob, carol], order="d20")
    rng = random.Random(4)
    game = await game_of(bot, channel)
    while game.status is Status.ACTIVE and sum(len(s.get("turns", [])) for s in game.state["players"]) < 6:
        game = await play_one_click(fake, bot, channel, rng)
    await settled(bot)
    entries = await bot.store.log_entries(game.id)
    rolled: Counter[tuple[str, int]] = Counter()
    for entry in entries:
        rolled += dice_by_player(entry.events)
    everyone = Counter(int(d["sides"]) for e in entries for d in e.dice if not str(d["die"]).startswith("sin."))
    assert sum(rolled.values()) == sum(everyone.values())  # every die rolled is some member's
    wild = game.engine_options.get("silver_bullet_wild_face", 1)
    turns = [t for e in entries for t in score_luck(wild, e.events)]
    for member in (alice, bob, carol):
        player = next(s.player for s in game.seats if s.user_id == member.id)
        answer = await say(fake, channel, member, "stats luck", game="vices")
        assert answer.ephemeral
        for sides in (6, 8, 20):
            if rolled[player, sides]:
                assert row(answer.content, sides)[0] == rolled[player, sides]  # type: ignore[index]
        mine = [t for t in turns if t.player == player]
        ended = [
            ev["turn_score"]
            for e in entries
            for ev in e.events
            if ev["type"] == "turn_ended" and ev["player"] == player and not ev["abandoned"]
        ]
        found = TURNS.search(answer.content)
        assert found is not None, answer.content
        assert int(found[1]) == len(ended) >= 1 and float(found[2]) == pytest.approx(sum(ended) / len(ended), abs=0.05)
        luck = sum(t.luck for t in mine) / len(ended)
        assert float(found[3]) == pytest.approx(sum(ended) / len(ended) + luck, abs=0.05)
        assert found[4] == "Your"
        other = carol if member is not carol else alice
        theirs = await (await fake.slash(channel, other, "stats luck", options={"member": member})).message()
        assert "Their dice" in theirs.content and found[1] in theirs.content
