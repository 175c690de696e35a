"""The initiative tracker in the contract suite: an open session whose GM keeps hidden NPCs, played by random joins
(members by a roll or a value, the GM's NPCs and groups, hidden or not), turns, removals, reveals and conditions."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from cogs.initiative.spec import InitiativeSpec
from rules.engine import GM
from rules.initiative.state import InitOptions, InitState
from tests.contract.kit import FIRST_USER, LONG_NAME, Game, Move, Table, open_session

INIT_GM = FIRST_USER + 200
INIT_PLAYERS = [FIRST_USER + 201, FIRST_USER + 202]


def init_table(rng: random.Random) -> Table:
    return open_session("init", InitOptions(), INIT_GM, {str(INIT_GM): [GM]}, INIT_PLAYERS)


def init_move(rng: random.Random, state: BaseModel) -> Move:
    """An action someone might try now, legal or not."""
    assert isinstance(state, InitState)
    actor = str(rng.choice([INIT_GM, INIT_GM, *INIT_PLAYERS]))
    who = rng.choice([*(e.name for e in state.entries.values()), *state.entries, "nobody"])
    join: dict[str, Any] = {"type": "join", "name": rng.choice(["Ana", "Bo", LONG_NAME[:20]]) + str(rng.randrange(99))}
    join["roll"] = "1d20+2"
    if rng.random() < 0.5:
        join = {**join, "roll": None, "value": rng.randint(-5, 30), "mod": rng.randint(-2, 5)}
    npc = {**join, "npc": True, "hidden": rng.random() < 0.5, "count": rng.randint(1, 3)}
    condition = {
        "type": "cond",
        "who": who,
        "name": rng.choice(["Prone", "Blessed"]),
        "turns": rng.choice([None, 0, 3]),
    }
    return actor, rng.choice(
        [
            join,
            npc,
            npc,
            {"type": "next"},
            {"type": "next", "of": state.current},
            {"type": "next", "of": state.current},
            {"type": "prev"},
            {"type": "delay", "of": state.current},
            {"type": "rm", "who": who},
            {"type": "reveal", "who": who},
            condition,
            {**condition, "turns": 1},
        ]
    )


def init_shows(viewed: BaseModel, owner: str) -> bool:
    """The GM's secret: hidden NPCs (and whose turn it is when it is theirs)."""
    assert isinstance(viewed, InitState) and owner == GM
    return any(e.hidden for e in viewed.entries.values())


GAME = Game(
    "init",
    InitiativeSpec(),
    init_table,
    move=init_move,
    steps=200,
    games=5,
    owners=lambda state: [GM] if init_shows(state, GM) else [],
    shows=init_shows,
)
