"""The Vices & Vengeance scoresheet in the contract suite: an open session, played by random moves of its keeper
and players."""

from __future__ import annotations

import random

from pydantic import BaseModel

from cogs.vices.sheet import SheetSpec
from rules.vices.sheet_data import SIN_NAMES
from rules.vices.sheet_state import SheetOptions, SheetSettings, SheetState, progress
from tests.contract.kit import FIRST_USER, LONG_NAME, Game, Move, Table, open_session

KEEPER = FIRST_USER + 100


def sheet_table(rng: random.Random) -> Table:
    players = rng.randint(3, 6)
    sins = rng.sample(list(SIN_NAMES), players)
    rows = [
        {"sin": sin, "name": f"{LONG_NAME[:20]}{i}", "member": str(FIRST_USER + i) if i % 2 else None}
        for i, sin in enumerate(sins, start=1)
    ]
    settings = SheetSettings(self_scoring=rng.random() < 0.5, end_mode=rng.choice(["finish_round", "one_more_each"]))
    options = SheetOptions(keeper=str(KEEPER), keeper_name="Keeper", rows=rows, settings=settings)
    members = [FIRST_USER + i for i in range(1, players + 1) if i % 2]
    return open_session("vv_sheet", options, KEEPER, {}, members)


def sheet_move(rng: random.Random, state: BaseModel) -> Move:
    """Mostly the next score (by the keeper or the player up), sometimes a tie-break, a correction, an edit."""
    assert isinstance(state, SheetState)
    now = progress(state)
    writer = rng.choice([state.keeper, *(r.member for r in state.rows if r.member is not None)])
    row = rng.choice(state.rows).sin
    if now.roller is not None and rng.random() < 0.7:
        pair = rng.choice(["mirror_medusa", "david_goliath", "silverbullet_werewolf"])
        dice = rng.choice([None, [rng.randint(1, 6), rng.randint(1, 6)]])
        return writer, {"type": "tiebreak", "row": now.roller, "pair": pair, "dice": dice}
    if now.up is not None and rng.random() < 0.8:
        return writer, {"type": "score", "row": now.up, "value": rng.randint(0, 25)}
    return writer, rng.choice(
        [
            {"type": "correct", "row": row, "round": rng.randint(1, 3), "value": rng.randint(0, 30)},
            {"type": "reorder", "row": row, "dir": rng.choice(["up", "down"])},
            {"type": "rename", "row": row, "name": rng.choice(["Ana", "Bo", LONG_NAME])},
            {"type": "sin", "sin": rng.choice(SIN_NAMES), "to": rng.choice(["reserves", "out", row])},
            {"type": "sloth", "removed": rng.random() < 0.5},
            {"type": "score", "row": row, "value": -1},
            {"type": "new_game"},
        ]
    )


GAME = Game("vv_sheet", SheetSpec(bot=None), sheet_table, move=sheet_move)  # type: ignore[arg-type]
