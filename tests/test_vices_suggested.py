"""The removal's "Suggested" shortcut: the computer player's choice, naming its dice and what it scores, in one
click; when its dice don't fit a button, the button opens the preview that lists them first."""

from __future__ import annotations

import random
import re

from bot.controls import decode_action
from bot.spec import ViewContext
from cogs.vices import table_view as tv
from cogs.vices.table import decode_mask
from rules.dice import SeededDice
from rules.vices.actions import Remove
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from rules.vices.playout import random_removal
from rules.vices.strategy import choose_removal
from tests.test_vices_boards_fit import table, wire

NAMED = re.compile(r"Suggested: (.+) → (\d+) points?")
COUNTED = re.compile(r"Suggested: (\d+) dice for (\d+) points? \(see them\)")


def test_the_suggested_removal_is_the_computers_and_names_its_dice_and_points() -> None:
    named = counted = 0
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
                button = suggested[0]
                expected = choose_removal(state)
                units = ENGINE.removable_units(state)
                chosen = [u for u in units if u.id in expected.units]
                points = ENGINE.removal_points(state, expected.units)
                if match := NAMED.fullmatch(button["label"]):
                    named += 1
                    assert Remove.model_validate(decode_action(button["custom_id"].split(":", 3)[3])) == expected
                    values = {d.id: d.value for d in state.turn.pool}  # type: ignore[union-attr]
                    shown = [tv.unit_dice(state, u, values, lambda p, g=game: tv.plain(p, g)) for u in chosen]
                    assert match.group(1) == " · ".join(shown) and int(match.group(2)) == points
                else:
                    counted += 1
                    match = COUNTED.fullmatch(button["label"])
                    assert match, button["label"]
                    assert int(match.group(1)) == sum(len(u.dice) for u in chosen) and int(match.group(2)) == points
                    kind, _, _, key, arg = button["custom_id"].split(":", 4)
                    assert (kind, key) == ("u", "hint")
                    assert {units[i].id for i in decode_mask(arg.split(".")[1])} == set(expected.units)
            actions = ENGINE.legal_actions(state, prompt.player)
            action = random_removal(state, rng) if ENGINE.removable_units(state) else actions[0]
            state = ENGINE.apply(state, prompt.player, action, dice).state
    assert named > 50 and counted > 0
