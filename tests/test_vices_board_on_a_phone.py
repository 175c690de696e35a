"""A Vices & Vengeance board reads on a phone: what the defender must decide comes first, the history is short,
and a board for 6 players takes at most two phone screens."""

from __future__ import annotations

import random

from bot.models import Seat, Session, Status
from bot.names import escape_name
from bot.spec import ViewContext
from rules.dice import SeededDice
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from rules.vices.playout import random_removal
from tests.test_vices_boards_fit import wire

PHONE_COLUMNS = 38
"""Characters a line of an embed holds on a phone (a 390-point-wide screen) before it wraps."""
PHONE_SCREEN_LINES = 24
"""Lines of a message that fit one phone screen."""
NAMES = ("Alexandra", "Benedikt", "Charlotte", "Dmitri_88", "Evangeline", "Francesca")


def screens(body: dict) -> float:
    """Phone screens a board takes: every line a reader reads, wrapped at PHONE_COLUMNS."""
    lines = body["content"].splitlines()
    for embed in body["embeds"]:
        lines += [embed.get("title", ""), *str(embed.get("description") or "").splitlines()]
        for item in embed.get("fields", []):
            lines += [item["name"], *str(item["value"]).splitlines()]
        lines += str(embed.get("footer", {}).get("text") or "").splitlines()
    return sum(max(1, -(-len(line) // PHONE_COLUMNS)) for line in lines) / PHONE_SCREEN_LINES


def test_six_players_boards_fit_two_phone_screens_with_the_decision_first() -> None:
    seats = [Seat(player=f"P{i}", user_id=10**18 + i, name=n) for i, n in enumerate(NAMES, 1)]
    game = Session(
        id=9, guild_id=1, channel_id=2, kind="vices", status=Status.ACTIVE, host_id=seats[0].user_id, seats=seats
    )
    worst = 0.0
    for seed in range(6):
        dice, rng = SeededDice(seed), random.Random(seed)
        outcome = ENGINE.start(VicesOptions(), [s.player for s in seats], dice)
        state, events = outcome.state, list(outcome.events)
        for _ in range(300):
            prompts = ENGINE.prompts(state)
            if not prompts:
                break
            body = wire(game, ViewContext(session=game, state=state, prompts=prompts, events=events))
            worst = max(worst, screens(body))
            if ENGINE.removable_units(state):
                # The dice to decide on open the board, right under its title.
                assert body["embeds"][0]["description"].startswith(
                    f"**{escape_name(game.name_of(state.turn.defender))}'s dice**"
                )
            player = prompts[0].player
            action = (
                random_removal(state, rng) if ENGINE.removable_units(state) else ENGINE.legal_actions(state, player)[0]
            )
            step = ENGINE.apply(state, player, action, dice)
            # The events since the board was posted: a new board for each new decision-maker, as the core does.
            events = list(step.events) if ENGINE.prompts(step.state)[:1] != prompts[:1] else events + list(step.events)
            state = step.state
    assert worst <= 2.0, f"a 6-player board took {worst:.2f} phone screens"
