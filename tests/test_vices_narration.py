"""How the Vices & Vengeance table narrates what happened: the sentences players read on the board and in
``/game log``, checked on the events the engine emits."""

from __future__ import annotations

from typing import Any

from bot.models import Seat, Session, Status
from cogs.vices.table_view import narrate, retired_line, score_lines
from rules.dice import SeededDice
from rules.vices.actions import ClaimSin
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions

NAMES = {"P1": "Alice", "P2": "Bob", "P3": "Carol"}


def session() -> Session:
    seats = [Seat(player=p, user_id=100 + i, name=n) for i, (p, n) in enumerate(NAMES.items())]
    return Session(
        id=1, guild_id=1, channel_id=2, kind="vices", status=Status.ACTIVE, host_id=100, options={}, seats=seats
    )


def told(*events: dict[str, Any]) -> list[str]:
    return narrate(session(), list(events))


def removed(*units: dict[str, Any]) -> dict[str, Any]:
    points = sum(u["points"] for u in units)
    return {"type": "removed", "player": "P1", "units": list(units), "points": points, "turn_score": points}


def test_a_removed_nemesis_d20_is_named_by_its_owner_as_on_the_board() -> None:
    bobs = {"unit": "N.Greed", "dice": [{"die": "N.Greed", "value": 6, "owner": "P2"}], "points": 14}
    assert told(removed(bobs)) == ["**Alice** removes **Bob**'s d20 → 14 (turn 14)."]
    # Logs written before the owner was recorded still read.
    old = {"unit": "N.Greed", "dice": [{"die": "N.Greed", "value": 6}], "points": 14}
    assert told(removed(old)) == ["**Alice** removes Greed d20 → 14 (turn 14)."]
    own = {"unit": "N.Envy", "dice": [{"die": "N.Envy", "value": 20, "owner": "P1"}], "points": 0}
    assert told(removed(own)) == ["**Alice** removes their d20 → 0 (turn 0)."]


def test_the_mirror_roll_shows_the_large_dice_it_was_rolled_against() -> None:
    miss = {"player": "P2", "mirror": 3, "matches": []}
    miss["dice"] = [{"die": "L.Greed", "value": 5}, {"die": "L.Envy", "value": 1}]
    hit = {**miss, "mirror": 5, "matches": ["Greed"]}
    both = {**miss, "mirror": 1, "matches": ["Greed", "Envy"]}
    both["dice"] = [{"die": "L.Greed", "value": 1}, {"die": "L.Envy", "value": 1}]
    assert told({"type": "mirror_roll", **miss}, {"type": "mirror_roll", **hit}, {"type": "mirror_roll", **both}) == [
        "**Bob** rolls the Mirror ⚂3 against 🟨Gr⚄5 🟩En⚀1: no match, roll again.",
        "**Bob** rolls the Mirror ⚄5 against 🟨Gr⚄5 🟩En⚀1: matches 🟨Greed.",
        "**Bob** rolls the Mirror ⚀1 against 🟨Gr⚀1 🟩En⚀1: matches 🟨Greed and 🟩Envy.",
    ]


def test_a_claim_lists_the_sins_with_commas_and_a_last_or() -> None:
    assert told({"type": "claim_needed", "player": "P1", "sins": ["Wrath", "Sloth", "Envy"]}) == [
        "**Alice** may claim 🟥Wrath, 🟦Sloth or 🟩Envy."
    ]


def test_the_game_end_says_why_and_who() -> None:
    left = {"type": "game_ended", "reason": "too_few_players", "candidates": ["P2", "P3"], "exact_target": False}
    exact = {"type": "game_ended", "reason": "end_of_round", "candidates": ["P1"], "exact_target": True}
    assert told(left, exact) == [
        "Too few players are left, so the game ends. **Bob** and **Carol** tie on the lowest total.",
        "Game over: **Alice** is on exactly 70.",
    ]


def test_a_penalty_with_equal_dice_says_why_they_score_nothing() -> None:
    def penalty(*faces: int, points: int) -> dict[str, Any]:
        dice = [{"die": f"d{i}", "value": v} for i, v in enumerate(faces)]
        return {"type": "penalty", "player": "P3", "sin": "Pride", "dice": dice, "points": points}

    assert told(penalty(3, 3, 5, points=1), penalty(1, 5, points=6)) == [
        "**Carol**'s Pride matched: penalty 3 + 3 + 5 → 1 point (equal dice score 0).",
        "**Carol**'s Pride matched: penalty 1 + 5 → 6 points.",
    ]


def test_the_extra_penalty_dice_say_where_they_come_from() -> None:
    dice = [("s.Gluttony", 6), ("L.Gluttony", 2), ("L.Pride", 4), ("M", 5)]
    event = {"type": "penalty", "player": "P2", "sin": "Gluttony", "points": 8}
    event["dice"] = [{"die": d, "value": v} for d, v in dice]
    assert told(event) == ["**Bob**'s Gluttony matched: penalty 6 + 2 + 4 (Pride's die) + 5 (metallic) → 8 points."]


def test_a_tie_break_roll_names_each_pair_with_its_faces() -> None:
    rolls = [
        {
            "player": "P2",
            "pair": "mirror_medusa",
            "dice": [{"die": "Mirror", "value": 6}, {"die": "Medusa", "value": 6}],
            "points": 0,
        },
        {
            "player": "P3",
            "pair": "david_goliath",
            "dice": [{"die": "David", "value": 6}, {"die": "Goliath", "value": 5}],
            "points": 1,
        },
    ]
    assert told({"type": "tiebreak_rolled", "round": 1, "rolls": rolls, "tied": []}) == [
        "Tie-break round 1 (lowest wins): **Bob**'s Mirror & Medusa ⚅6 ⚅6 → 0; **Carol**'s David & Goliath ⚅6 ⚄5 → 1."
    ]


def test_a_retired_board_tells_its_last_news_in_the_order_it_happened() -> None:
    ended = {"type": "turn_ended", "player": "P2", "abandoned": False, "turn_score": 17, "total": 17}
    started = {"type": "turn_started", "player": "P1", "round": 1, "pool": []}
    penalty = {"type": "penalty", "player": "P3", "sin": "Wrath", "dice": [{"die": "s.Wrath", "value": 5}], "points": 1}
    assert retired_line(session(), [ended, started, penalty]) == (
        "Round 1 · **Bob** scores 17 this turn (total 17). **Carol**'s Wrath matched: penalty 5 → 1 point."
    )


def test_during_setup_the_sins_left_are_unclaimed_not_reserves() -> None:
    options = VicesOptions(sin_assignment="choose", seat_order="join_order")
    setup = ENGINE.start(options, ["P1", "P2", "P3"], SeededDice(1)).state
    assert setup.phase == "setup"
    assert score_lines(setup, str)[-1].startswith("Unclaimed: 🟥Wrath 🟦Sloth")
    claims = [ClaimSin(sin="Wrath"), ClaimSin(sin="Sloth"), ClaimSin(sin="Pride")]
    state = setup
    for player, claim in zip(("P1", "P2", "P3"), claims, strict=True):
        state = ENGINE.apply(state, player, claim, SeededDice(2)).state
    assert state.phase == "turn" and "Reserves: 🔵Lust" in "\n".join(score_lines(state, str))


def test_a_removal_of_many_dice_names_every_one_of_them() -> None:
    """The log never says just "removes 6 dice → 5": which dice were taken is what people check."""
    units = [
        {"unit": "s.Wrath", "dice": [{"die": "s.Wrath", "value": 6}], "points": 0},
        {"unit": "s.Sloth", "dice": [{"die": "s.Sloth", "value": 5}], "points": 1},
        {"unit": "d12", "dice": [{"die": "d12", "value": 11}], "points": 1},
        {"unit": "d10", "dice": [{"die": "d10", "value": 8}], "points": 2},
        {"unit": "mirror_medusa", "dice": [{"die": "Mirror", "value": 2}, {"die": "Medusa", "value": 2}], "points": 0},
    ]
    assert told(removed(*units)) == ["**Alice** removes Wrath, Sloth, d12, d10, Mirror & Medusa → 4 (turn 4)."]
