"""Dice of Crowns: every die of every action is named with the player who rolled it (the active player their
roll, a rival their scroll die, whoever paid for a Fate reroll); the first player and a dagger's random recipient
are picks, nobody's roll, and so is a scroll die rolled by itself for a rival who has left."""

from __future__ import annotations

import random

import pytest

from rules.crowns.engine import ENGINE
from rules.crowns.playout import random_chooser, random_options
from rules.dice import RecordingDice, SeededDice

PICKS = {"first_player", "dagger_recipient"}
SEEDS = range(80)
LEAVES = 0.05
"""The chance a player leaves before an action (the core removes them with ``remove_player``)."""


def played(seed: int) -> list[tuple[list[dict], list[str]]]:
    """Every action of a seeded random game with players leaving now and then: its events and its dice ids."""
    rng = random.Random(seed)
    options = random_options(rng)
    players = [f"P{i}" for i in range(1, rng.randint(3, 6) + 1)]
    dice = RecordingDice(SeededDice(seed))
    outcome = ENGINE.start(options, players, dice)
    state, choose = outcome.state, random_chooser(seed)
    steps = [(outcome.events, [r.die for r in dice.rolls])]
    while ENGINE.winners(state) is None:
        dice.rolls.clear()
        present = [p.id for p in state.players if not p.left]
        if len(present) > 2 and rng.random() < LEAVES:
            outcome = ENGINE.remove_player(state, rng.choice(present), dice)
        else:
            player = ENGINE.prompts(state)[0].player
            outcome = ENGINE.apply(state, player, choose(state, player, ENGINE.legal_actions(state, player)), dice)
        steps.append((outcome.events, [r.die for r in dice.rolls]))
        state = outcome.state
    return steps


def test_every_die_of_every_action_has_its_roller() -> None:
    absent_seen = 0
    for seed in SEEDS:
        for events, rolled in played(seed):
            named = ENGINE.rollers(events)
            absent = [e["die"] for e in events if e["type"] == "scroll_rolled" and e.get("absent")]
            absent_seen += len(absent)
            assert sorted([*(die for _, die in named), *absent]) == sorted(d for d in rolled if d not in PICKS)
    assert absent_seen > 0  # the games do roll scroll dice for players who left


@pytest.mark.parametrize("seed", SEEDS[:5])
def test_a_scroll_die_rolled_for_a_leaver_is_nobodys(seed: int) -> None:
    for events, _ in played(seed):
        for event in events:
            if event["type"] == "scroll_rolled" and event.get("absent"):
                assert (event["player"], event["die"]) not in ENGINE.rollers(events)
