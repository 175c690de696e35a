"""Every V&V sheet message of many random sheets fits Discord's limits (the fake's own validator): 2 to 7
players with 32-character names full of markdown, long games, Sin moves, tie-breaks, next games."""

from __future__ import annotations

import random
from typing import Any

from bot.board import compose
from bot.models import Session, Status
from bot.spec import ViewContext
from cogs.vices.sheet_view import render_sheet
from localdiscord.validation import check_message
from rules.dice import ScriptedDice
from rules.engine import IllegalAction
from rules.vices.sheet import SHEET_ENGINE
from rules.vices.sheet_data import PAIRS, SIN_NAMES
from rules.vices.sheet_state import OUT_OF_PLAY, RESERVES, Phase, SheetOptions, SheetState, progress

NAMES = (
    "*Bold* _Under_ `code` |spoiler|",
    "@everyone <@123456789012345678> ~x~",
    "Ångström Ørsted-Łukasz Þór 🐉🐉🐉🐉",
)
SESSION = Session(
    id=987_654_321, guild_id=1, channel_id=2, kind=SHEET_ENGINE.kind, status=Status.ACTIVE, host_id=1, version=99_999
)


def _payload(state: SheetState, events: list[dict[str, Any]]) -> dict[str, Any]:
    ctx = ViewContext(session=SESSION, state=state, prompts=[], events=events)
    drawn = render_sheet(ctx)
    payload = compose(SESSION, SHEET_ENGINE.title, [], drawn, [])
    assert len(drawn.pictures) == 1 and drawn.pictures[0].filename == "vv-sheet.png"
    view = payload.view
    return {
        "content": payload.content,
        "embeds": [e.to_dict() for e in payload.embeds],
        "components": view.to_components() if view is not None else [],
    }


def _random_sheet(rng: random.Random) -> SheetState:
    count = rng.randint(2, 7)
    sins = rng.sample(SIN_NAMES, count)
    rows = [
        {"sin": sin, "name": f"{i}{rng.choice(NAMES)}"[:32], "member": str(10**17 + i) if rng.random() < 0.5 else None}
        for i, sin in enumerate(sins)
    ]
    settings = {"min_players": 2, "max_players": 7, "self_scoring": rng.random() < 0.5}
    options = SheetOptions.model_validate({"keeper": "1", "keeper_name": "K" * 32, "rows": rows, "settings": settings})
    return SHEET_ENGINE.start(options, [], ScriptedDice([])).state


def _step(rng: random.Random, state: SheetState) -> tuple[SheetState, list[dict[str, Any]]]:
    p = progress(state)
    dice = ScriptedDice([rng.randint(1, 6) for _ in range(2)])
    if p.up is not None:
        if rng.random() < 0.2:
            places = [RESERVES, OUT_OF_PLAY, *(r.sin for r in state.rows)]
            action: dict[str, Any] = {"type": "sin", "sin": rng.choice(SIN_NAMES), "to": rng.choice(places)}
        else:
            action = {"type": "score", "row": p.up, "value": rng.choice([0, 1, 3, 7, 12, 25])}
    elif p.phase is Phase.TIEBREAK:
        action = {"type": "tiebreak", "row": p.roller, "pair": rng.choice(list(PAIRS))}
        if rng.random() < 0.5:
            action["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
    else:
        action = {"type": "new_game"}
    try:
        outcome = SHEET_ENGINE.apply(state, "1", SHEET_ENGINE.parse_action(action), dice)
    except IllegalAction:
        return state, []
    return outcome.state, outcome.events


def test_every_sheet_message_of_random_sheets_fits_discord() -> None:
    rng = random.Random(20261201)
    phases: set[Phase] = set()
    for _ in range(40):
        state = _random_sheet(rng)
        events: list[dict[str, Any]] = []
        for _ in range(rng.randint(10, 140)):
            state, new = _step(rng, state)
            events += new
            phases.add(progress(state).phase)
            check_message(_payload(state, events))
    assert phases == set(Phase)
