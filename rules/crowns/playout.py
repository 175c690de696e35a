"""Complete games played by seeded random (or computer) players: for benchmarks, property tests and bot trials."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from rules.crowns.engine import ENGINE
from rules.crowns.options import CrownsOptions
from rules.crowns.state import CrownsState

Chooser = Callable[[CrownsState, str, list[BaseModel]], BaseModel]
"""Picks an action for a player from the legal ones."""

MAX_ACTIONS = 20_000
"""A game longer than this is treated as a bug (RULES.md 2.5: every turn ends with probability 1)."""


def random_chooser(seed: int) -> Chooser:
    """A player who picks uniformly among the legal actions."""
    rng = random.Random(seed)
    return lambda state, player, legal: rng.choice(legal)


def random_options(rng: random.Random) -> CrownsOptions:
    """Any table the host could set up: modules and house rules at random."""
    return CrownsOptions(
        claim_target=rng.choice([3, 5]),
        fate=rng.random() < 0.5,
        legendary=rng.random() < 0.5,
        overkill=rng.random() < 0.5,
        last_stand=rng.random() < 0.25,
        auto_end_unreachable=rng.random() < 0.2,
        allow_voluntary_end=rng.random() < 0.2,
        dagger_timeout_default=rng.choice(["self", "active", "random"]),
        first_player=rng.choice(["random", "host"]),
        limit_fate_supply=rng.random() < 0.3,
        six_skulls=rng.choice(["choose", "claim", "fate"]),
        fate_windows=rng.choice(["post_resolution", "also_pre_scroll"]),
        legendary_mode=rng.choice(["possession", "single_roll"]),
        twists_fallback=rng.choice(["supply_claim", "nothing"]),
        meddle_held_die=rng.choice(["scroll_like", "stays"]),
        legendary_on_fate_reroll=rng.random() < 0.3,
    )


@dataclass
class PlayedGame:
    """The end of a played game and, if asked for, every step on the way."""

    state: CrownsState
    actions: int
    steps: list[tuple[CrownsState, str, BaseModel, list[dict[str, Any]]]] = field(default_factory=list)


def play(
    options: CrownsOptions,
    players: Sequence[str],
    dice: Any,
    choosers: dict[str, Chooser],
    keep_steps: bool = False,
) -> PlayedGame:
    """Play a game to its end; whoever is prompted first acts (any prompted player may, in a fate window)."""
    state = ENGINE.start(options, players, dice).state
    played = PlayedGame(state=state, actions=0)
    while ENGINE.winners(state) is None:
        player = ENGINE.prompts(state)[0].player
        action = choosers[player](state, player, ENGINE.legal_actions(state, player))
        outcome = ENGINE.apply(state, player, action, dice)
        if keep_steps:
            played.steps.append((state, player, action, outcome.events))
        state = outcome.state
        played.actions += 1
        if played.actions > MAX_ACTIONS:
            raise RuntimeError("game did not end")
    played.state = state
    return played
