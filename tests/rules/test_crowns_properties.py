"""Property tests: random legal play with random options and player counts (RULES.md 2.5 invariants)."""

from __future__ import annotations

import json
import random

import pytest
from pydantic import BaseModel

from rules.crowns import ENGINE, CrownsState
from rules.crowns.actions import (
    END_TURN,
    PASS_FATE,
    ROLL,
    SETTLE,
    AssignScroll,
    FateReroll,
    GiveDagger,
    LastStandChoice,
    Meddle,
    Overkill,
    Reroll,
    SixSkulls,
    Steal,
)
from rules.crowns.data import DIE_IDS, FATE_SUPPLY
from rules.crowns.playout import MAX_ACTIONS, random_options
from rules.crowns.state import DieState, Phase
from rules.dice import SeededDice
from rules.engine import IllegalAction

PLAYERS = ("P1", "P2", "P3", "P4", "P5", "P6")
GAMES = 5_000
CHUNK = 1_000
"""Games per test: the five thousand run as five tests, which parallel workers share out (``pytest -n 2``)."""


def check_invariants(state: CrownsState) -> None:
    """RULES.md 2.5 and the state model's own promises."""
    assert [d.id for d in state.dice] == list(DIE_IDS)  # exactly 7 dice, ever
    ids = {p.id for p in state.players}
    present = set(state.present())
    queued = {r.die for r in state.scroll_queue} | ({state.rolling.die} if state.rolling else set())
    for d in state.dice:
        assert (d.holder is None) == (d.state is DieState.IN_TRANSIT), d
        assert d.holder is None or d.holder in ids
        # A leaver holds nothing, except scroll dice still to be rolled for them (2.6 #34).
        assert d.holder is None or d.holder in present or d.id in queued or state.phase is Phase.GAME_OVER, d
        assert (d.state is DieState.AT_RIVAL) == (d.id in queued), d
    for p in state.players:
        assert p.claims >= 0 and p.fate >= 0
    if state.options.limit_fate_supply:
        assert sum(p.fate for p in state.players) <= FATE_SUPPLY
    assert (state.phase is Phase.GAME_OVER) == (state.winner is not None)
    assert state.crown_holder is None or state.crown_holder in present
    if state.phase is not Phase.GAME_OVER:
        assert state.active in present
        assert ENGINE.prompts(state)
    for d in state.dice:
        if d.state in (DieState.FREE_SKULL, DieState.RETURNED_SCROLL, DieState.PENDING_SCROLL):
            assert d.holder == state.active or state.phase is Phase.GAME_OVER


def action_universe(players: tuple[str, ...]) -> list[BaseModel]:
    """Every action a player could send, legal or not, for sampling rejections."""
    dice = [*DIE_IDS, "8"]
    return [
        ROLL,
        SETTLE,
        END_TURN,
        PASS_FATE,
        *[AssignScroll(die=d, rival=p) for d in dice for p in players],
        *[GiveDagger(to=p) for p in (*players, None)],
        *[Reroll(group=g) for g in ("skulls", "scrolls", "both")],
        *[SixSkulls(choice=c) for c in ("claim", "fate")],
        *[FateReroll(die=d) for d in dice],
        *[Meddle(die=d) for d in dice],
        *[Overkill(die=d, rival=p) for d in dice for p in players],
        *[Steal(rival=p) for p in players],
        LastStandChoice(steal=True),
        LastStandChoice(steal=False),
    ]


def deep_checks(state: CrownsState, rng: random.Random, universe: list[BaseModel], dice: SeededDice) -> None:
    """The costly checks, on sampled steps."""
    assert CrownsState.model_validate_json(state.model_dump_json()) == state
    for prompt in ENGINE.prompts(state):
        legal = ENGINE.legal_actions(state, prompt.player)
        assert legal, prompt
        assert ENGINE.default_action(state, prompt.player) in legal
        assert ENGINE.computer_action(state, prompt.player, dice) in legal
        for action in legal:
            assert ENGINE.parse_action(json.loads(action.model_dump_json())) == action
    for player in state.present():
        legal = ENGINE.legal_actions(state, player)
        for action in rng.sample(universe, 4):
            if action in legal:
                continue
            try:
                ENGINE.apply(state, player, action, dice)
            except IllegalAction as exc:
                assert exc.reason and len(exc.reason) < 120
            else:
                raise AssertionError(f"{player} {action!r} was accepted but not offered")


def play_checked(seed: int) -> int:
    """One random game with random options, checking invariants every few steps; returns its length."""
    rng = random.Random(seed)
    options = random_options(rng)
    players = PLAYERS[: rng.randint(2, 6)]
    universe = action_universe(players)
    dice = SeededDice(seed)
    state = ENGINE.start(options, players, dice).state
    leave_at = rng.randint(1, 60) if rng.random() < 0.1 else -1
    deep_every = 60
    steps = 0
    while ENGINE.winners(state) is None:
        if steps % 4 == 0:
            check_invariants(state)
        if steps == leave_at:
            check_invariants(state)
            state = ENGINE.remove_player(state, rng.choice(state.present()), dice).state
            check_invariants(state)
            steps += 1
            continue
        prompt = rng.choice(ENGINE.prompts(state))
        legal = ENGINE.legal_actions(state, prompt.player)
        # Random play, except that fate windows are mostly passed so 5,000 games stay quick.
        action = PASS_FATE if prompt.decision == "fate_window" and rng.random() < 0.85 else rng.choice(legal)
        if steps % deep_every == seed % deep_every:
            deep_checks(state, rng, universe, dice)
            before = state.model_dump_json()
            after = ENGINE.apply(state, prompt.player, action, dice).state
            assert state.model_dump_json() == before  # apply left its input alone
            state = after
        else:
            state = ENGINE.apply(state, prompt.player, action, dice).state
        steps += 1
        assert steps < MAX_ACTIONS, "game did not end"
    check_invariants(state)
    assert len(ENGINE.winners(state) or []) == 1
    assert ENGINE.prompts(state) == []
    return steps


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK), ids=lambda first: f"{first}-{first + CHUNK - 1}")
def test_five_thousand_random_games_keep_the_invariants(first: int) -> None:
    seeds = range(first, first + CHUNK)
    assert sum(play_checked(seed) for seed in seeds) > len(seeds)


def test_timeouts_alone_finish_a_game() -> None:
    """Every decision left to its timeout default still ends the game (the bot core's worst case)."""
    for seed in range(200):
        rng = random.Random(seed)
        dice = SeededDice(seed)
        state = ENGINE.start(random_options(rng), PLAYERS[: rng.randint(2, 6)], dice).state
        steps = 0
        while ENGINE.winners(state) is None:
            player = ENGINE.prompts(state)[0].player
            state = ENGINE.apply(state, player, ENGINE.default_action(state, player), dice).state
            steps += 1
            assert steps < MAX_ACTIONS
