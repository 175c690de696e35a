"""The removal's "Suggested" shortcut: the computer player's choice in one click, labelled with what it scores."""

from __future__ import annotations

import random
import re

from bot.controls import decode_action
from bot.spec import ViewContext
from rules.dice import SeededDice
from rules.vices.actions import Remove
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from rules.vices.playout import random_removal
from rules.vices.strategy import choose_removal
from tests.test_vices_boards_fit import table, wire

LABEL = re.compile(r"Suggested: (\d+) dic?e for (\d+) points?")


def test_the_suggested_removal_is_the_computers_and_scores_what_it_says() -> None:
    seen = 0
    for seed in range(30):
        dice = SeededDice(seed)
        rng = random.Random(seed)
        game = table(3, VicesOptions().model_dump(mode="json"))
        state = ENGINE.start(VicesOptions(), ["P1", "P2", "P3"], dice).state
        for _ in range(400):
            if ENGINE.winners(state):
                break
            prompt = ENGINE.prompts(state)[0]
            ctx = ViewContext(session=game, state=state, prompts=ENGINE.prompts(state), events=[])
            buttons = [c for row in wire(game, ctx)["components"] for c in row["components"] if c["type"] == 2]
            suggested = [b for b in buttons if str(b.get("label", "")).startswith("Suggested")]
            if suggested:
                seen += 1
                action = decode_action(suggested[0]["custom_id"].split(":", 3)[3])
                expected = choose_removal(state)
                assert Remove.model_validate(action) == expected
                count, points = map(int, LABEL.fullmatch(suggested[0]["label"]).groups())  # type: ignore[union-attr]
                units = {u.id: u for u in ENGINE.removable_units(state)}
                assert count == sum(len(units[u].dice) for u in expected.units)
                assert points == ENGINE.removal_points(state, expected.units)
            actions = ENGINE.legal_actions(state, prompt.player)
            action = random_removal(state, rng) if ENGINE.removable_units(state) else actions[0]
            state = ENGINE.apply(state, prompt.player, action, dice).state
    assert seen > 50
