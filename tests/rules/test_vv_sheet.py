"""The V&V scoresheet engine: entering scores, seat order, the 70 rule, tie-breaks, VV-14, JSON."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from rules.dice import DiceScriptError, ScriptedDice
from rules.engine import IllegalAction
from rules.vices.sheet import SHEET_ENGINE
from rules.vices.sheet_actions import (
    Correct,
    EnterScore,
    HandOver,
    MoveSin,
    NewGame,
    Rename,
    Reorder,
    SetSloth,
    TieBreak,
)
from rules.vices.sheet_state import (
    Phase,
    SheetOptions,
    SheetState,
    finalists,
    holdings,
    progress,
    running_totals,
    totals,
)
from tests.rules.test_vv_sheet_support import KEEPER, NO_DICE, VV14, act, new_sheet, play

FOUR = (("Wrath", "P1"), ("Sloth", "P2"), ("Greed", "P3"), ("Pride", "P4"))


def refused(state: SheetState, data: dict[str, Any], reason: str, dice: ScriptedDice = NO_DICE) -> None:
    """``data`` is refused with exactly ``reason`` and the state given is untouched."""
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        act(state, data, dice=dice)
    assert info.value.reason == reason
    assert state.model_dump_json() == before


def score(row: str, value: object) -> dict[str, Any]:
    return {"type": "score", "row": row, "value": value}


def tiebreak(row: str, pair: str, dice: list[int] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"type": "tiebreak", "row": row, "pair": pair}
    if dice is not None:
        data["dice"] = dice
    return data


def game_with_totals(*final: int, rows: tuple[tuple[str, str], ...] = FOUR) -> SheetState:
    """A finished four-round game whose totals are ``final`` (the 70 trigger lands in the last round)."""
    state = play(new_sheet(rows), *[0] * (3 * len(rows)))
    return play(state, *final)


# --- starting a sheet ---------------------------------------------------------------------------


def test_start_seats_rows_in_order_and_puts_unused_sins_in_the_reserves() -> None:
    state = new_sheet(members=("1", None, "3"))
    assert [(r.sin, r.name, r.member) for r in state.rows] == [
        ("Wrath", "Jordan", "1"),
        ("Sloth", "Taylor", None),
        ("Greed", "Casey", "3"),
        ("Pride", "Avery", None),
    ]
    assert state.sins == {
        "Wrath": "Wrath",
        "Sloth": "Sloth",
        "Pride": "Pride",
        "Lust": "reserves",
        "Greed": "Greed",
        "Gluttony": "reserves",
        "Envy": "reserves",
    }
    p = progress(state)
    assert (p.phase, p.up, p.round, p.turns) == (Phase.PLAYING, "Wrath", 1, 0)


@pytest.mark.parametrize(
    ("rows", "settings", "reason"),
    [
        (VV14[:2], {}, "A sheet needs 3 to 6 players."),
        ((*VV14, ("Lust", "E"), ("Envy", "F"), ("Gluttony", "G")), {}, "A sheet needs 3 to 6 players."),
        ((("Wrath", "A"), ("Wrath", "B"), ("Greed", "C")), {}, "Wrath is given twice: each Sin heads one column only."),
        ((("Wrath", "Ann"), ("Sloth", "ann"), ("Greed", "C")), {}, "Each player needs a name of their own."),
    ],
)
def test_start_refuses_bad_rows(rows: Any, settings: dict[str, Any], reason: str) -> None:
    with pytest.raises(IllegalAction) as info:
        new_sheet(rows, **settings)
    assert info.value.reason == reason


def test_start_allows_two_to_seven_players_when_set() -> None:
    assert len(new_sheet(VV14[:2], min_players=2).rows) == 2
    seven = (*VV14, ("Lust", "E"), ("Envy", "F"), ("Gluttony", "G"))
    assert len(new_sheet(seven, max_players=7).rows) == 7
    with pytest.raises(IllegalAction, match="A member can have only one row"):
        new_sheet(members=("1", "1"))
    with pytest.raises(ValidationError):
        new_sheet(max_players=8)


def test_start_takes_no_seats() -> None:
    options = SheetOptions(keeper=KEEPER, keeper_name="Kim", rows=())
    with pytest.raises(IllegalAction, match="from its options"):
        SHEET_ENGINE.start(options, ["1", "2", "3"], NO_DICE)


def test_names_are_tidied_and_checked() -> None:
    state = new_sheet(((" Wrath ".strip(), "  Jordan   Lee "), ("Sloth", "B"), ("Greed", "C")))
    assert state.rows[0].name == "Jordan Lee"
    for bad, reason in [("", "A name can't be empty."), ("x" * 33, "Names are at most 32 characters.")]:
        with pytest.raises(IllegalAction) as info:
            SHEET_ENGINE.parse_action({"type": "rename", "row": "Wrath", "name": bad})
        assert info.value.reason == reason
    with pytest.raises(IllegalAction, match="control characters"):
        SHEET_ENGINE.parse_action({"type": "rename", "row": "Wrath", "name": "a\u200bb"})


# --- entering scores ----------------------------------------------------------------------------


def test_a_score_goes_to_the_player_up_and_the_sheet_moves_on() -> None:
    state = new_sheet()
    out = SHEET_ENGINE.apply(state, KEEPER, EnterScore(row="Wrath", value=14), NO_DICE)
    assert out.events == [{"type": "scored", "row": "Wrath", "round": 1, "value": 14, "total": 14}]
    assert out.state.rows[0].scores == (14,)
    assert progress(out.state).up == "Sloth"
    assert state.rows[0].scores == ()  # apply never mutates its input
    state = play(out.state, 9, 22, 11)
    assert (progress(state).up, progress(state).round) == ("Wrath", 2)


@pytest.mark.parametrize("value", [-1, "-3", "abc", "", 2.5, "2.5", True, None, "1e3", "٣"])
def test_scores_are_whole_numbers_of_0_or_more(value: object) -> None:
    with pytest.raises(IllegalAction) as info:
        SHEET_ENGINE.parse_action(score("Wrath", value))
    assert info.value.reason == "Scores are whole numbers of 0 or more."


def test_typed_digits_and_zero_are_scores_but_not_absurd_ones() -> None:
    assert SHEET_ENGINE.parse_action(score("Wrath", " 14 ")) == EnterScore(row="Wrath", value=14)
    assert SHEET_ENGINE.parse_action(score("Wrath", 0)) == EnterScore(row="Wrath", value=0)
    with pytest.raises(IllegalAction, match="No turn scores more than 300"):
        SHEET_ENGINE.parse_action(score("Wrath", 301))


def test_a_score_for_someone_else_than_the_player_up_is_refused() -> None:
    refused(new_sheet(), score("Sloth", 5), "It is Jordan's turn, not Taylor's.")
    refused(new_sheet(), score("Lust", 5), "Nobody on this sheet started with Lust.")


def test_not_sheet_actions_are_validation_errors() -> None:
    for data in ({"type": "roll"}, {"type": "score", "row": "Wrath"}, {"type": "score", "row": "Bob", "value": 1}):
        with pytest.raises(ValidationError):
            SHEET_ENGINE.parse_action(data)


def test_corrections_change_a_past_entry_and_the_totals() -> None:
    state = play(new_sheet(), 14, 9, 22, 11, 17)
    out = SHEET_ENGINE.apply(state, KEEPER, Correct(row="Sloth", round=1, value=19), NO_DICE)
    assert out.events == [{"type": "corrected", "row": "Sloth", "round": 1, "old": 9, "value": 19, "total": 19}]
    assert totals(out.state) == {"Wrath": 31, "Sloth": 19, "Greed": 22, "Pride": 11}
    assert progress(out.state).up == "Sloth"
    refused(state, {"type": "correct", "row": "Sloth", "round": 2, "value": 3}, "Taylor has no score for round 2 yet.")
    refused(
        state, {"type": "correct", "row": "Sloth", "round": 1, "value": 9}, "Taylor's score for round 1 is already 9."
    )


def test_a_correction_can_set_off_or_call_off_the_70_rule() -> None:
    state = play(new_sheet(), 30, 9, 22, 11, 30)
    p = progress(act(state, {"type": "correct", "row": "Wrath", "round": 2, "value": 40}))
    assert (p.phase, p.trigger and p.trigger.row, p.to_play) == (Phase.FINISHING, "Wrath", ("Sloth", "Greed", "Pride"))
    state = play(state, 9, 22)  # Jordan 60, Taylor 18, Casey 44: Avery is up in round 2
    # Jordan on 70 in round 1 would have ended the game after round 1, before the entries of round 2.
    refused(
        state,
        {"type": "correct", "row": "Wrath", "round": 1, "value": 70},
        "With 70 there, Jordan reaches 70 in round 1 and the game is over before the later scores: undo those first.",
    )
    over = play(act(state, {"type": "correct", "row": "Wrath", "round": 2, "value": 40}), 5)
    assert progress(over).phase is Phase.OVER
    out = SHEET_ENGINE.apply(over, KEEPER, Correct(row="Wrath", round=2, value=10), NO_DICE)
    assert out.events[1:] == [{"type": "end_cancelled"}, {"type": "game_resumed", "up": "Wrath"}]
    assert progress(out.state).phase is Phase.PLAYING


# --- seat order -----------------------------------------------------------------------------------


def test_players_move_up_and_down_until_the_first_score() -> None:
    state = new_sheet()
    state = act(state, {"type": "reorder", "row": "Greed", "dir": "up"})
    assert [r.name for r in state.rows] == ["Jordan", "Casey", "Taylor", "Avery"]
    state = act(state, {"type": "reorder", "row": "Wrath", "dir": "down"})
    assert [r.name for r in state.rows] == ["Casey", "Jordan", "Taylor", "Avery"]
    assert progress(state).up == "Greed"
    refused(state, {"type": "reorder", "row": "Greed", "dir": "up"}, "Casey is already first.")
    refused(state, {"type": "reorder", "row": "Pride", "dir": "down"}, "Avery is already last.")
    state = play(state, 12)
    refused(state, {"type": "reorder", "row": "Pride", "dir": "up"}, "The order is fixed once the first score is in.")


def test_rename_any_time_but_not_to_a_name_in_use() -> None:
    state = play(new_sheet(), 1, 2, 3)
    out = SHEET_ENGINE.apply(state, KEEPER, Rename(row="Sloth", name="Tay"), NO_DICE)
    assert out.events == [{"type": "renamed", "row": "Sloth", "old": "Taylor", "name": "Tay"}]
    assert out.state.rows[1].scores == (2,)
    refused(state, {"type": "rename", "row": "Sloth", "name": "casey"}, "Another player is already called casey.")
    refused(state, {"type": "rename", "row": "Sloth", "name": "Taylor"}, "Taylor is already called that.")


# --- Sins ---------------------------------------------------------------------------------------


def test_sins_move_but_scores_stay_under_the_original_sin() -> None:
    state = play(new_sheet(), 14, 9)
    state = act(state, {"type": "sin", "sin": "Greed", "to": "Wrath"})  # Jordan's Greed match took Casey's Sin
    state = act(state, {"type": "sin", "sin": "Wrath", "to": "out"})
    out = SHEET_ENGINE.apply(state, KEEPER, MoveSin(sin="Lust", to="Sloth"), NO_DICE)
    assert out.events == [{"type": "sin_moved", "sin": "Lust", "from": "reserves", "to": "Sloth"}]
    state = out.state
    assert holdings(state) == {"Wrath": ("Greed",), "Sloth": ("Sloth", "Lust"), "Greed": (), "Pride": ("Pride",)}
    assert [r.sin for r in state.rows] == ["Wrath", "Sloth", "Greed", "Pride"]
    assert totals(state) == {"Wrath": 14, "Sloth": 9, "Greed": 0, "Pride": 0}
    refused(state, {"type": "sin", "sin": "Greed", "to": "Wrath"}, "Greed is already with Jordan.")
    refused(state, {"type": "sin", "sin": "Wrath", "to": "out"}, "Wrath is already out of play.")
    refused(state, {"type": "sin", "sin": "Envy", "to": "reserves"}, "Envy is already in the reserves.")
    refused(state, {"type": "sin", "sin": "Envy", "to": "Lust"}, "Nobody on this sheet started with Lust.")


def test_the_sloth_nemesis_die() -> None:
    state = new_sheet()
    out = SHEET_ENGINE.apply(state, KEEPER, SetSloth(removed=True), NO_DICE)
    assert out.state.sloth_removed and out.events == [{"type": "sloth_die", "removed": True}]
    refused(out.state, {"type": "sloth", "removed": True}, "The Sloth Nemesis die is already removed.")
    assert not act(out.state, {"type": "sloth", "removed": False}).sloth_removed
    no_sloth = new_sheet((("Wrath", "A"), ("Greed", "B"), ("Envy", "C")))
    refused(
        no_sloth, {"type": "sloth", "removed": True}, "Nobody started with Sloth, so no Sloth Nemesis die is in play."
    )


# --- the 70 rule ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_reaching_70_finishes_the_round_from_each_seat(seat: int) -> None:
    state = play(new_sheet(FOUR), 50, 50, 50, 50)
    state = play(state, *[5] * seat)
    out = SHEET_ENGINE.apply(state, KEEPER, EnterScore(row=FOUR[seat][0], value=20), NO_DICE)
    later = tuple(sin for sin, _ in FOUR[seat + 1 :])
    trigger = {"type": "finish_round", "row": FOUR[seat][0], "round": 2, "total": 70, "to_play": list(later)}
    assert trigger in out.events
    p = progress(out.state)
    assert p.to_play == later
    assert p.phase is (Phase.FINISHING if later else Phase.OVER)
    state = play(out.state, *[5] * len(later))
    assert progress(state).phase is Phase.OVER and progress(state).winner == FOUR[seat][0]
    assert progress(state).round == 2
    refused(state, score("Wrath", 1), f"The game is over: {FOUR[seat][1]} won. Start a new game to play again.")


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_one_more_each_gives_every_other_player_one_more_turn(seat: int) -> None:
    state = play(new_sheet(FOUR, end_mode="one_more_each"), 50, 50, 50, 50, *[5] * seat)
    state = play(state, 25)
    others = tuple(FOUR[(seat + i) % 4][0] for i in range(1, 4))
    p = progress(state)
    assert (p.phase, p.to_play, p.trigger and p.trigger.total) == (Phase.FINISHING, others, 75)
    state = play(state, 5, 5, 5)
    assert progress(state).up is None
    # The trigger's own player does not play again; the others played exactly once more.
    assert len(state.rows[seat].scores) == 2
    assert sum(len(r.scores) for r in state.rows) == (4 + seat + 1) + 3


def test_vv11_finish_round_and_its_variants() -> None:
    """P2 goes 64 → 73 in round 7: P3 and P4 play, P1 does not; P4 triggering ends the game at once."""
    six_rounds = (*[10, 10, 10, 10] * 5, 10, 14, 10, 10)
    base = play(new_sheet(FOUR), *six_rounds)
    assert totals(base) == {"Wrath": 60, "Sloth": 64, "Greed": 60, "Pride": 60}
    state = play(base, 1, 9)
    assert progress(state).to_play == ("Greed", "Pride")
    state = play(state, 1, 1)
    assert progress(state).up is None and len(state.rows[0].scores) == 7
    p4 = play(base, 1, 1, 1, 10)
    assert progress(p4).phase is Phase.OVER and progress(p4).winner == "Pride"
    more = play(new_sheet(FOUR, end_mode="one_more_each"), *six_rounds, 1, 9)
    assert progress(more).to_play == ("Greed", "Pride", "Wrath")
    assert progress(play(more, 1, 1, 1)).up is None


def test_exactly_70_beats_a_lower_total() -> None:
    state = game_with_totals(70, 45, 81, 10)
    assert totals(state) == {"Wrath": 70, "Sloth": 45, "Greed": 81, "Pride": 10}
    assert finalists(state) == ("Wrath",)
    assert progress(state).winner == "Wrath"


def test_without_70_the_lowest_total_wins() -> None:
    state = game_with_totals(72, 38, 69, 40)
    p = progress(state)
    assert (p.phase, p.finalists, p.winner) == (Phase.OVER, ("Sloth",), "Sloth")


def test_vv9_two_players_on_70_roll_off_and_the_winner_goes_last() -> None:
    state = game_with_totals(70, 45, 70, 81)
    p = progress(state)
    assert (p.phase, p.finalists, p.contenders, p.roller) == (
        Phase.TIEBREAK,
        ("Wrath", "Greed"),
        ("Wrath", "Greed"),
        "Wrath",
    )
    refused(state, tiebreak("Greed", "mirror_medusa", [2, 2]), "P1 rolls for the tie-break first.")
    refused(state, tiebreak("Sloth", "mirror_medusa", [2, 2]), "P2 is not in the tie-break.")
    out = SHEET_ENGINE.apply(state, KEEPER, TieBreak(row="Wrath", pair="silverbullet_werewolf", dice=(3, 5)), NO_DICE)
    assert out.events == [
        {
            "type": "tiebreak_roll",
            "round": 1,
            "row": "Wrath",
            "pair": "silverbullet_werewolf",
            "dice": [3, 5],
            "points": 4,
            "rolled": False,
        }
    ]
    out = SHEET_ENGINE.apply(out.state, KEEPER, TieBreak(row="Greed", pair="mirror_medusa", dice=(2, 2)), NO_DICE)
    assert out.events[-1] == {"type": "winner", "row": "Greed", "total": 70}
    refused(out.state, tiebreak("Wrath", "mirror_medusa"), "The game is over: P3 won. Start a new game to play again.")
    refused(
        out.state,
        {"type": "correct", "row": "Wrath", "round": 1, "value": 3},
        ("The tie-break has started: undo its rolls before correcting a score."),
    )
    nxt = SHEET_ENGINE.apply(out.state, KEEPER, NewGame(), NO_DICE)
    assert nxt.events == [{"type": "new_game", "game": 2, "order": ["Pride", "Wrath", "Sloth", "Greed"]}]
    assert [r.name for r in nxt.state.rows] == ["P4", "P1", "P2", "P3"]
    assert all(r.scores == () for r in nxt.state.rows) and nxt.state.tiebreak == ()
    assert nxt.state.history[0].winner == "Greed"
    assert nxt.state.history[0].totals == {"Wrath": 70, "Sloth": 45, "Greed": 70, "Pride": 81}
    assert progress(nxt.state).up == "Pride"


def test_vv10_a_repeated_tie_break_and_the_bot_rolling_named_dice() -> None:
    state = game_with_totals(72, 38, 38, 69)
    dice = ScriptedDice({"tb1.Sloth.David": [4], "tb1.Sloth.Goliath": [4]})
    out = SHEET_ENGINE.apply(state, KEEPER, TieBreak(row="Sloth", pair="david_goliath"), dice)
    assert out.events[0]["dice"] == [4, 4] and out.events[0]["rolled"] is True and dice.remaining == 0
    state = act(
        out.state,
        tiebreak("Greed", "mirror_medusa"),
        dice=ScriptedDice({"tb1.Greed.Mirror": [5], "tb1.Greed.Medusa": [5]}),
    )
    p = progress(state)
    assert (p.tiebreak_round, p.contenders, p.roller) == (2, ("Sloth", "Greed"), "Sloth")
    state = act(
        state, tiebreak("Sloth", "david_goliath"), dice=ScriptedDice({"tb2.Sloth.David": [1], "tb2.Sloth.Goliath": [6]})
    )
    with pytest.raises(DiceScriptError):  # the die ids name the round, the row and the die
        act(state, tiebreak("Greed", "silverbullet_werewolf"), dice=ScriptedDice({"tb1.Greed.SilverBullet": [4]}))
    dice = ScriptedDice({"tb2.Greed.SilverBullet": [4], "tb2.Greed.Werewolf": [2]})
    out = SHEET_ENGINE.apply(state, KEEPER, TieBreak(row="Greed", pair="silverbullet_werewolf"), dice)
    assert out.events[0]["points"] == 6 and out.events[-1] == {"type": "winner", "row": "Sloth", "total": 38}
    assert [r.name for r in act(out.state, {"type": "new_game"}).rows] == ["P3", "P4", "P1", "P2"]


def test_a_three_way_tie_repeated_until_one_is_lowest() -> None:
    state = game_with_totals(70, 70, 70, 65)
    state = act(state, tiebreak("Wrath", "mirror_medusa", [3, 3]))
    state = act(state, tiebreak("Sloth", "david_goliath", [6, 6]))
    out = SHEET_ENGINE.apply(state, KEEPER, TieBreak(row="Greed", pair="silverbullet_werewolf", dice=(1, 4)), NO_DICE)
    assert out.events[0]["points"] == 0  # the wild Silver Bullet
    assert out.events[1:] == [{"type": "tiebreak", "round": 2, "contenders": ["Wrath", "Sloth", "Greed"]}]
    state = act(out.state, tiebreak("Wrath", "mirror_medusa", [1, 2]))  # 5 + 4 = 9
    state = act(state, tiebreak("Sloth", "mirror_medusa", [5, 4]))  # 1 + 2 = 3
    out = SHEET_ENGINE.apply(state, KEEPER, TieBreak(row="Greed", pair="david_goliath", dice=(4, 5)), NO_DICE)
    assert out.events[1:] == [{"type": "tiebreak", "round": 3, "contenders": ["Sloth", "Greed"]}]
    p = progress(out.state)
    assert (p.contenders, p.roller, p.winner) == (("Sloth", "Greed"), "Sloth", None)
    refused(out.state, tiebreak("Wrath", "mirror_medusa", [1, 1]), "P1 is not in the tie-break.")
    state = act(out.state, tiebreak("Sloth", "mirror_medusa", [2, 3]))
    state = act(state, tiebreak("Greed", "mirror_medusa", [6, 6]))
    assert progress(state).winner == "Greed"
    assert [len(r) for r in state.tiebreak] == [3, 3, 2]


def test_the_wild_face_is_a_setting() -> None:
    state = game_with_totals(70, 70, 1, 2)
    state = act(state, tiebreak("Wrath", "silverbullet_werewolf", [1, 2]))
    state = act(state, tiebreak("Sloth", "mirror_medusa", [5, 6]))
    assert progress(state).winner == "Wrath"  # 0 against 1
    rows = FOUR
    plain = play(play(new_sheet(rows, silver_bullet_wild_face=None), *[0] * 12), 70, 70, 1, 2)
    plain = act(plain, tiebreak("Wrath", "silverbullet_werewolf", [1, 2]))
    plain = act(plain, tiebreak("Sloth", "mirror_medusa", [5, 6]))
    assert progress(plain).winner == "Sloth"  # 9 against 1


def test_tie_break_dice_are_checked() -> None:
    with pytest.raises(IllegalAction, match="Mythical dice show 1 to 6"):
        SHEET_ENGINE.parse_action(tiebreak("Wrath", "mirror_medusa", [0, 7]))
    refused(play(new_sheet(), 1), tiebreak("Wrath", "mirror_medusa", [1, 1]), "There is no tie-break now.")
    refused(new_sheet(), {"type": "new_game"}, "This game has no winner yet.")


def test_vv14_exactly_as_written() -> None:
    state = new_sheet()
    expected = [
        {"Wrath": 14, "Sloth": 9, "Greed": 22, "Pride": 11},
        {"Wrath": 31, "Sloth": 17, "Greed": 41, "Pride": 26},
        {"Wrath": 51, "Sloth": 38, "Greed": 56, "Pride": 56},
    ]
    for entries, after in zip([(14, 9, 22, 11), (17, 8, 19, 15), (20, 21, 15, 30)], expected, strict=True):
        state = play(state, *entries)
        assert totals(state) == after
    assert progress(state).phase is Phase.PLAYING and progress(state).round == 4
    # Sins move during play; the columns keep their original Sins.
    state = act(state, {"type": "sin", "sin": "Greed", "to": "Pride"})
    state = act(state, {"type": "sin", "sin": "Envy", "to": "Greed"})
    out = SHEET_ENGINE.apply(state, KEEPER, EnterScore(row="Wrath", value=19), NO_DICE)
    assert out.events[1] == {
        "type": "finish_round",
        "row": "Wrath",
        "round": 4,
        "total": 70,
        "to_play": ["Sloth", "Greed", "Pride"],
    }
    state = play(out.state, 32, 14)
    assert progress(state).to_play == ("Pride",)
    out = SHEET_ENGINE.apply(state, KEEPER, EnterScore(row="Pride", value=9), NO_DICE)
    assert totals(out.state) == {"Wrath": 70, "Sloth": 70, "Greed": 70, "Pride": 65}
    assert [running_totals(r) for r in out.state.rows] == [
        (14, 31, 51, 70),
        (9, 17, 38, 70),
        (22, 41, 56, 70),
        (11, 26, 56, 65),
    ]
    assert out.events[1:] == [
        {"type": "game_over", "finalists": ["Wrath", "Sloth", "Greed"], "totals": totals(out.state)},
        {"type": "tiebreak", "round": 1, "contenders": ["Wrath", "Sloth", "Greed"]},
    ]
    p = progress(out.state)
    assert (p.phase, p.contenders, p.roller) == (Phase.TIEBREAK, ("Wrath", "Sloth", "Greed"), "Wrath")
    assert [(r.sin, r.name) for r in out.state.rows] == list(VV14)


# --- JSON and purity ----------------------------------------------------------------------------


def test_options_state_and_actions_round_trip_through_json() -> None:
    state = game_with_totals(70, 70, 1, 2)
    state = act(state, tiebreak("Wrath", "silverbullet_werewolf", [1, 2]))
    state = act(state, {"type": "sin", "sin": "Lust", "to": "out"})
    state = act(state, {"type": "sloth", "removed": True})
    assert SheetState.model_validate_json(state.model_dump_json()) == state
    assert SheetState.model_validate_json(state.model_dump_json()).model_dump_json() == state.model_dump_json()
    options = SheetOptions.model_validate(
        {"keeper": "1", "keeper_name": "K", "rows": [{"sin": "Envy", "name": "E", "member": "9"}]}
    )
    assert SheetOptions.model_validate_json(options.model_dump_json()) == options
    actions = [
        EnterScore(row="Wrath", value=3),
        Correct(row="Envy", round=2, value=0),
        Reorder(row="Lust", dir="down"),
        Rename(row="Pride", name="Ava"),
        MoveSin(sin="Greed", to="reserves"),
        SetSloth(removed=False),
        HandOver(to="55", name="Sam"),
        TieBreak(row="Sloth", pair="david_goliath"),
        TieBreak(row="Sloth", pair="david_goliath", dice=(2, 5)),
        NewGame(),
    ]
    for action in actions:
        assert SHEET_ENGINE.parse_action(action.model_dump(mode="json")) == action
        assert len(action.model_dump_json()) <= 100 or isinstance(action, Rename | HandOver)
