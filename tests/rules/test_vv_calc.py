"""/vv calc: RULES.md 1.6's example, VV-1/VV-4/VV-5's figures, and readable refusals."""

from __future__ import annotations

import pytest

from rules.vices.calc import CALC_HELP, MAX_DICE, MAX_TERMS, CalcError, calculate

ISOLATE, END_ISOLATE = "\u2068", "\u2069"


def test_the_rules_example_part_by_part() -> None:
    result = calculate("d12:8 d8:3 pair:3,5 penalty:2,2,5 d20:17")
    assert [(p.kind, p.total) for p in result.parts] == [("d12", 4), ("d8", 5), ("pair", 4), ("penalty", 1), ("d20", 3)]
    assert result.total == 17
    assert result.render() == (
        "d12 8 → 4\nd8 3 → 5\npair 3,5 → 3+1 = 4\npenalty 2,2,5 → 0+0+1 = 1\nd20 17 → 3\nTotal: 4 + 5 + 4 + 1 + 3 = 17"
    )


@pytest.mark.parametrize(
    ("term", "points"),
    [
        ("d6:1", 5),
        ("d6:6", 0),
        ("d8:3", 5),
        ("d8:8", 0),
        ("d10:1", 9),
        ("d10:10", 0),
        ("d12:8", 4),
        ("d12:12", 0),
        ("d20:4", 16),
        ("d20:20", 0),
        ("d20:1", 19),
    ],
)
def test_vv1_every_die_size(term: str, points: int) -> None:
    assert calculate(term).total == points


@pytest.mark.parametrize(
    ("term", "points", "shown"),
    [
        ("pair:4,4", 0, "pair 4,4 → match = 0"),
        ("pair:1,3", 8, "pair 1,3 → 5+3 = 8"),
        ("bullet:1,2", 0, "bullet 1,2 → wild Silver Bullet = 0"),
        ("bullet:3,3", 0, "bullet 3,3 → match = 0"),
        ("bullet:2,5", 5, "bullet 2,5 → 4+1 = 5"),
    ],
)
def test_vv4_mythical_pairs_and_the_silver_bullet(term: str, points: int, shown: str) -> None:
    result = calculate(term)
    assert result.total == points and result.parts[0].render() == shown


def test_the_wild_face_is_a_parameter_or_a_term() -> None:
    assert calculate("bullet:1,2", wild_face=6).total == 9
    assert calculate("bullet:6,2", wild_face=6).total == 0
    assert calculate("bullet:1,2 wild:6").total == 9
    assert calculate("wild:none bullet:1,2").total == 9
    assert calculate("bullet:1,2", wild_face=None).wild_face is None
    assert calculate("wild:3 bullet:3,1", wild_face=None).total == 0


@pytest.mark.parametrize(
    ("term", "points"),
    [("penalty:3,3,5", 1), ("penalty:2,4,5", 7), ("penalty:4,4,4", 0), ("penalty:5,2", 5), ("penalty:1,1,1,1", 0)],
)
def test_vv5_penalty_rolls_and_matching_groups_of_any_size(term: str, points: int) -> None:
    assert calculate(term).total == points


def test_matching_nemesis_dice_score_zero_together() -> None:
    assert calculate("nemesis:7,7").total == 0
    assert calculate("nemesis:12,12,12 d20:5").total == 15


def test_repeated_dice_spacing_and_case() -> None:
    result = calculate("  D6:1,3,5   PAIR: 3 , 5 d20:2 d20:3 ")
    assert [p.render() for p in result.parts] == [
        "d6 1,3,5 → 5+3+1 = 9",
        "pair 3,5 → 3+1 = 4",
        "d20 2 → 18",
        "d20 3 → 17",
    ]
    assert result.total == 48
    assert calculate("d8:8").render() == "d8 8 → 0\nTotal: 0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Nothing to add up: try `d12:8 d8:3 pair:3,5`."),
        (
            "d12:8 d7:3",
            "`d7:3`: unknown kind of die; use d6, d8, d10, d12, d20, pair, bullet, penalty, nemesis or wild.",
        ),
        ("d12:13", "`d12:13`: a d12 shows 1 to 12."),
        ("d6:0", "`d6:0`: a d6 shows 1 to 6."),
        ("d12:", "`d12:`: give what the dice show, e.g. `d12:8`."),
        ("d12:-3", "`d12:-3`: `-3` is not a whole number."),
        ("d12:4.5", "`d12:4.5`: `4.5` is not a whole number."),
        ("d12:3,,4", "`d12:3,,4`: a value is missing between commas."),
        ("d12", "`d12`: write a term as `kind:values`, e.g. `d12:8`."),
        ("pair:3", "`pair:3`: a pair is two dice, e.g. `pair:3,5`."),
        ("bullet:1,2,3", "`bullet:1,2,3`: a pair is two dice, e.g. `bullet:1,2`."),
        ("pair:7,1", "`pair:7,1`: Mythical dice show 1 to 6."),
        ("penalty:4", "`penalty:4`: a penalty roll has 2 to 4 dice, e.g. `penalty:2,2,5`."),
        ("penalty:1,2,3,4,5", "`penalty:1,2,3,4,5`: a penalty roll has 2 to 4 dice, e.g. `penalty:2,2,5`."),
        ("penalty:8,1", "`penalty:8,1`: penalty dice are d6s and show 1 to 6."),
        (
            "nemesis:3,4",
            "`nemesis:3,4`: only matching Nemesis dice score 0 together, e.g. `nemesis:7,7`; "
            "score any other d20 with `d20:`.",
        ),
        ("wild:7 d6:1", "`wild:7`: the wild face is 1 to 6."),
        ("wild:1 wild:2 d6:1", "`wild:2`: give the wild face once."),
        ("wild:1", "Nothing to add up: `wild:` only sets the Silver Bullet's face."),
        ("d`6:1", "`d'6:1`: unknown kind of die; use d6, d8, d10, d12, d20, pair, bullet, penalty, nemesis or wild."),
        (
            "x" * 50 + ":1",
            "`"
            + "x" * 29
            + "…`: unknown kind of die; use d6, d8, d10, d12, d20, pair, bullet, penalty, nemesis or wild.",
        ),
    ],
)
def test_bad_input_names_the_term(text: str, message: str) -> None:
    with pytest.raises(CalcError) as info:
        calculate(text)
    assert str(info.value).replace(ISOLATE, "").replace(END_ISOLATE, "") == message  # the term is isolated (echo)
    assert isinstance(info.value, ValueError)


def test_limits_keep_the_answer_within_a_message() -> None:
    with pytest.raises(CalcError, match="more than 30 terms"):
        calculate(" ".join(["d6:1"] * (MAX_TERMS + 1)))
    with pytest.raises(CalcError, match="more than 60 dice"):
        calculate("d20:" + ",".join(["1"] * (MAX_DICE + 1)))
    biggest = [
        " ".join(["d20:1"] * (MAX_TERMS - 1)) + " d20:" + ",".join(["1"] * (MAX_DICE - MAX_TERMS + 1)),
        " ".join(["d20:1,1"] * MAX_TERMS),
        " ".join(["penalty:1,2,3,4"] * 15),
        " ".join(["bullet:2,1"] * MAX_TERMS),
    ]
    for text in biggest:
        assert len(calculate(text).render()) <= 2000


def test_the_help_names_every_kind_and_fits_an_embed_field() -> None:
    for kind in ("d6", "d8", "d10", "d12", "d20", "pair", "bullet", "penalty", "nemesis", "wild"):
        assert f"`{kind}" in CALC_HELP
    assert len(CALC_HELP) <= 1024
    assert "`d12:8 d8:3 pair:3,5 penalty:2,2,5 d20:17` → 17" in CALC_HELP
