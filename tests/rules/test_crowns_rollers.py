"""Dice of Crowns: every die of every action is named with the player who rolled it (the active player their
roll, a rival their scroll die, whoever paid for a Fate reroll); the first player and a dagger's random recipient
are picks, nobody's roll."""

from __future__ import annotations

import random

import pytest

from rules.crowns.engine import ENGINE
from rules.crowns.playout import random_chooser, random_options
from rules.dice import RecordingDice, SeededDice

PICKS = {"first_player", "dagger_recipient"}


@pytest.mark.parametrize("seed", range(80))
def test_every_die_of_every_action_has_its_roller(seed: int) -> None:
    rng = random.Random(seed)
    options = random_options(rng)
    players = [f"P{i}" for i in range(1, rng.randint(2, 6) + 1)]
    dice = RecordingDice(SeededDice(seed))
    outcome = ENGINE.start(options, players, dice)
    state, choose = outcome.state, random_chooser(seed)
    steps = [(outcome.events, [r.die for r in dice.rolls])]
    while ENGINE.winners(state) is None:
        dice.rolls.clear()
        player = ENGINE.prompts(state)[0].player
        outcome = ENGINE.apply(state, player, choose(state, player, ENGINE.legal_actions(state, player)), dice)
        steps.append((outcome.events, [r.die for r in dice.rolls]))
        state = outcome.state
    for events, rolled in steps:
        named = ENGINE.rollers(events)
        assert sorted(die for _, die in named) == sorted(d for d in rolled if d not in PICKS)
        assert {player for player, _ in named} <= set(players)
