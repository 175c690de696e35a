"""Who may write on a V&V scoresheet, and undo/redo the way the core does it (replaying the log)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import ScriptedDice
from rules.engine import HOST, MANAGER, PLAYER, Engine, IllegalAction, NotPermitted, Permissions, Undo
from rules.vices.sheet import SHEET_ENGINE
from rules.vices.sheet_state import SheetState, progress, totals
from tests.rules.test_vv_sheet_support import KEEPER, Log, new_sheet, play, replay

JORDAN, TAYLOR = "1", "2"  # members of rows Wrath and Sloth; Casey and Avery are typed names
KEEPER_ONLY = "Only the keeper, Kim, can write on this sheet."
OWN_ONLY = "You can write your own scores and your own turn's Sin moves; the keeper, Kim, writes the rest."


def allowed(state: SheetState, actor: str, data: dict[str, Any], roles: frozenset[str] = frozenset()) -> bool:
    """Whether ``authorize`` lets ``actor`` take the action; a refusal must carry a known reason."""
    try:
        SHEET_ENGINE.authorize(state, actor, roles, SHEET_ENGINE.parse_action(data))
    except NotPermitted as exc:
        assert exc.reason.startswith(("Only the keeper, ", "You can write your own scores"))
        return False
    return True


def test_the_engine_has_the_capabilities_the_core_detects() -> None:
    assert isinstance(SHEET_ENGINE, Permissions) and isinstance(SHEET_ENGINE, Undo)
    engine: Engine[Any, Any, Any] = SHEET_ENGINE
    assert (engine.kind, engine.title) == ("vv_sheet", "Vices & Vengeance scoresheet")


def test_only_the_keeper_writes_by_default() -> None:
    state = new_sheet(members=(JORDAN, TAYLOR))
    mine = {"type": "score", "row": "Wrath", "value": 4}
    assert allowed(state, KEEPER, mine)
    # The core's host role is not the keeper: the state is the one source of truth.
    assert not allowed(state, "999", mine, frozenset({HOST, PLAYER}))
    with pytest.raises(NotPermitted) as info:
        SHEET_ENGINE.authorize(state, JORDAN, frozenset({PLAYER}), SHEET_ENGINE.parse_action(mine))
    assert info.value.reason == KEEPER_ONLY
    for data in ({"type": "reorder", "row": "Wrath", "dir": "down"}, {"type": "new_game"}):
        assert allowed(state, KEEPER, data) and not allowed(state, JORDAN, data)


def test_handing_over_the_keeper_role() -> None:
    state = new_sheet(members=(JORDAN, TAYLOR))
    out = SHEET_ENGINE.apply(
        state, KEEPER, SHEET_ENGINE.parse_action({"type": "keeper", "to": "7", "name": "Sam"}), ScriptedDice([])
    )
    assert out.events == [{"type": "keeper", "from": KEEPER, "to": "7", "name": "Sam"}]
    state = out.state
    assert (state.keeper, state.keeper_name) == ("7", "Sam")
    score = {"type": "score", "row": "Wrath", "value": 4}
    assert allowed(state, "7", score)
    with pytest.raises(NotPermitted, match="Only the keeper, Sam, can write"):
        SHEET_ENGINE.authorize(state, KEEPER, frozenset({HOST}), SHEET_ENGINE.parse_action(score))
    # Someone with Manage Server may rescue a sheet whose keeper has gone, and do nothing else.
    rescue = {"type": "keeper", "to": "8", "name": "Mo"}
    assert allowed(state, "8", rescue, frozenset({MANAGER}))
    assert not allowed(state, "8", rescue) and not allowed(state, "8", score, frozenset({MANAGER}))


def test_everyone_scores_their_own_turn() -> None:
    state = play(new_sheet(members=(JORDAN, TAYLOR), self_scoring=True), 14)  # Taylor is up
    own = {"type": "score", "row": "Sloth", "value": 9}
    assert allowed(state, TAYLOR, own)
    assert not allowed(state, JORDAN, own)  # a member cannot write another row
    assert not allowed(state, "3", own)  # nor can someone with no row
    with pytest.raises(NotPermitted) as info:
        SHEET_ENGINE.authorize(state, JORDAN, frozenset(), SHEET_ENGINE.parse_action(own))
    assert info.value.reason == OWN_ONLY
    # Corrections of your own row; Sin moves and the Sloth die only during your own turn.
    assert allowed(state, JORDAN, {"type": "correct", "row": "Wrath", "round": 1, "value": 15})
    assert not allowed(state, TAYLOR, {"type": "correct", "row": "Wrath", "round": 1, "value": 15})
    assert allowed(state, TAYLOR, {"type": "sin", "sin": "Greed", "to": "Sloth"})
    assert allowed(state, TAYLOR, {"type": "sloth", "removed": True})
    assert not allowed(state, JORDAN, {"type": "sin", "sin": "Greed", "to": "Wrath"})
    for data in (
        {"type": "rename", "row": "Sloth", "name": "T"},
        {"type": "reorder", "row": "Sloth", "dir": "up"},
        {"type": "keeper", "to": TAYLOR, "name": "Taylor"},
        {"type": "new_game"},
    ):
        assert not allowed(state, TAYLOR, data)
    # Typed-name rows have no member, so only the keeper writes them.
    assert allowed(state, KEEPER, {"type": "correct", "row": "Greed", "round": 1, "value": 1}) is True


def test_a_member_rolls_their_own_tie_break() -> None:
    state = new_sheet(members=(JORDAN, TAYLOR), self_scoring=True)
    state = play(state, *[0] * 12, 70, 70, 1, 2)
    assert progress(state).contenders == ("Wrath", "Sloth")
    mine = {"type": "tiebreak", "row": "Wrath", "pair": "mirror_medusa"}
    assert allowed(state, JORDAN, mine) and not allowed(state, TAYLOR, mine)


def test_what_can_be_undone() -> None:
    undoable = {
        "score": {"type": "score", "row": "Wrath", "value": 1},
        "correct": {"type": "correct", "row": "Wrath", "round": 1, "value": 1},
        "reorder": {"type": "reorder", "row": "Wrath", "dir": "down"},
        "rename": {"type": "rename", "row": "Wrath", "name": "J"},
        "sin": {"type": "sin", "sin": "Lust", "to": "out"},
        "sloth": {"type": "sloth", "removed": True},
        "typed tie-break": {"type": "tiebreak", "row": "Wrath", "pair": "mirror_medusa", "dice": [1, 2]},
        "new game": {"type": "new_game"},
    }
    for name, data in undoable.items():
        assert SHEET_ENGINE.undoable(SHEET_ENGINE.parse_action(data)), name
    # A hand-over is not an entry; a roll the bot made must not be rerolled by undoing it.
    assert not SHEET_ENGINE.undoable(SHEET_ENGINE.parse_action({"type": "keeper", "to": "5", "name": "S"}))
    assert not SHEET_ENGINE.undoable(
        SHEET_ENGINE.parse_action({"type": "tiebreak", "row": "Wrath", "pair": "mirror_medusa"})
    )


def test_undo_and_redo_by_replaying_the_log() -> None:
    log = Log(new_sheet())
    for value in (14, 9, 22):
        log.act({"type": "score", "row": progress(log.state).up, "value": value})
    after_three = log.state
    log.act({"type": "keeper", "to": "7", "name": "Sam"})
    log.act({"type": "sin", "sin": "Lust", "to": "Pride"}, actor="7")
    log.act({"type": "score", "row": "Pride", "value": 11}, actor="7")
    assert totals(log.state)["Pride"] == 11 and progress(log.state).up == "Wrath"
    log.undo()  # Avery's 11
    assert totals(log.state)["Pride"] == 0 and progress(log.state).up == "Pride"
    log.undo()  # the Lust move
    assert log.state.sins["Lust"] == "reserves"
    log.undo()  # skips the hand-over (not undoable), takes back Casey's 22
    state = log.state
    assert state.keeper == "7" and progress(state).up == "Greed"
    assert state.rows[2].scores == () and state.rows[:2] == after_three.rows[:2]
    log.redo()
    assert log.state.rows == after_three.rows and log.state.sins["Lust"] == "reserves"
    log.redo()
    log.redo()
    assert totals(log.state)["Pride"] == 11 and log.state.sins["Lust"] == "Pride"
    log.undo()
    log.act({"type": "score", "row": "Pride", "value": 5}, actor="7")  # a new entry drops the redo
    assert totals(log.state)["Pride"] == 5
    with pytest.raises(IndexError):
        log.redo()


def test_undoing_a_typed_tie_break_roll_and_the_new_game() -> None:
    log = Log(play(new_sheet(), *[0] * 12, 70, 45, 70, 81))
    log.act({"type": "tiebreak", "row": "Wrath", "pair": "silverbullet_werewolf", "dice": [3, 5]})
    log.act({"type": "tiebreak", "row": "Greed", "pair": "mirror_medusa", "dice": [2, 2]})
    assert progress(log.state).winner == "Greed"
    log.act({"type": "new_game"})
    assert log.state.rows[-1].sin == "Greed"
    log.undo()
    log.undo()
    assert progress(log.state).roller == "Greed" and log.state.tiebreak[0][0].dice == (3, 5)
    log.act({"type": "tiebreak", "row": "Greed", "pair": "mirror_medusa", "dice": [1, 3]})
    assert progress(log.state).winner == "Wrath"


def test_a_bot_roll_replays_with_its_recorded_dice() -> None:
    log = Log(play(new_sheet(), *[0] * 12, 70, 45, 70, 81))
    log.act({"type": "tiebreak", "row": "Wrath", "pair": "mirror_medusa"}, dice=ScriptedDice([4, 4]))
    log.act({"type": "tiebreak", "row": "Greed", "pair": "mirror_medusa", "dice": [1, 3]})
    assert log.state.tiebreak[0][0].dice == (4, 4) and progress(log.state).winner == "Wrath"
    log.undo()  # the typed roll; the bot's roll stays
    assert log.state.tiebreak == ((log.state.tiebreak[0][0],),) and log.state.tiebreak[0][0].rolled


def test_replaying_without_an_earlier_score_fails_loudly() -> None:
    """Scores name their row: dropping one from the middle cannot shift later scores to someone else."""
    log = Log(new_sheet())
    for row, value in (("Wrath", 14), ("Sloth", 9), ("Greed", 22)):
        log.act({"type": "score", "row": row, "value": value})
    with pytest.raises(IllegalAction) as info:
        replay(log.start, log.entries[1:])
    assert info.value.reason == "It is Jordan's turn, not Taylor's."
