"""The removal the bot makes by itself: one die (or pair) left to remove and no penalty roll on this roll."""

from __future__ import annotations

import random

from rules.dice import SeededDice
from rules.vices.actions import Remove
from rules.vices.engine import ENGINE
from rules.vices.playout import random_options


def test_only_a_single_unit_removal_without_a_penalty_is_forced() -> None:
    rng = random.Random(4)
    forced = free = 0
    for seed in range(40):
        dice = SeededDice(seed)
        state = ENGINE.start(random_options(rng), ["P1", "P2", "P3", "P4"], dice).state
        while ENGINE.winners(state) is None:
            prompt = ENGINE.prompts(state)[0]
            move = ENGINE.forced_action(state, prompt.player)
            units = ENGINE.removable_units(state)
            if prompt.decision == "remove" and len(units) == 1 and not state.turn.penalty_met:  # type: ignore[union-attr]
                assert move == Remove(units=(units[0].id,))
                assert ENGINE.legal_actions(state, prompt.player) == [move]
                forced += 1
            else:
                assert move is None
                free += 1
            others = [p for p in state.present() if p != prompt.player]
            assert all(ENGINE.forced_action(state, p) is None for p in others)
            action = move or rng.choice(ENGINE.legal_actions(state, prompt.player))
            state = ENGINE.apply(state, prompt.player, action, dice).state
    assert forced > 0 and free > forced
