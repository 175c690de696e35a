"""Game-system presets against outcomes worked out here, independently, by enumerating every way the dice land.

For each preset and several parameters: (1) every landing of real faces (no grouping of faces) is judged by a
classifier written in this file from the rules' text, and each category's and each shown number's chance must equal
``/dice odds``'s exactly; (2) the roller itself is driven through every sequence of faces it asks for, and what it
answers must have the same distribution (so a roll and its odds never disagree)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import product

import pytest

from rules.dice import ScriptedDice
from rules.roll import RollError, check_roll, roll, shadows_notation
from rules.roll.commitment import canonical
from rules.roll.odds import odds_table
from rules.roll.systems import SYSTEMS, find_preset, preset_odds, push_preset
from tests.test_roll_odds import _NeedDie, _Path

Chances = dict[object, Fraction]


def exact(text: str) -> tuple[Chances, Chances]:
    """The preset's own odds, as chances per category and per shown number."""
    preset = find_preset(text)
    assert preset is not None
    odds = preset_odds(preset)
    total = odds.totals.total
    categories = {name: Fraction(ways, total) for name, ways in odds.categories if ways}
    totals = {value: Fraction(ways, total) for value, ways in odds.totals.ways.items()}
    assert sum(categories.values()) == 1 == sum(totals.values())
    return categories, totals


def enumerate_faces(
    dice: Sequence[int], judge: Callable[[tuple[int, ...]], tuple[str, int]]
) -> tuple[Chances, Chances]:
    """Every landing of ``dice`` (their sides), equally likely, judged by ``judge``."""
    categories: dict[object, Fraction] = defaultdict(Fraction)
    totals: dict[object, Fraction] = defaultdict(Fraction)
    landings = list(product(*(range(1, sides + 1) for sides in dice)))
    for faces in landings:
        category, total = judge(faces)
        categories[category] += Fraction(1, len(landings))
        totals[total] += Fraction(1, len(landings))
    return dict(categories), dict(totals)


def assert_same(text: str, expected: tuple[Chances, Chances]) -> None:
    """Category by category and number by number."""
    categories, totals = exact(text)
    assert categories == expected[0], text
    assert totals == expected[1], text


# -- (1) each system, judged here -------------------------------------------------------------------------


@pytest.mark.parametrize("dice", range(0, 6))
def test_blades(dice: int) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        if dice == 0:
            worst = min(faces)
            return ("Full success" if worst == 6 else "Partial success" if worst >= 4 else "Bad outcome"), worst
        best = max(faces)
        if faces.count(6) > 1:
            return "Critical", 6
        return ("Full success" if best == 6 else "Partial success" if best > 3 else "Bad outcome"), best

    assert_same(f"bitd {dice}", enumerate_faces([6] * (dice or 2), judge))


@pytest.mark.parametrize(("stat", "edge"), [(-2, ""), (0, ""), (1, ""), (3, ""), (2, "adv"), (-1, "dis")])
def test_pbta(stat: int, edge: str) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        ordered = sorted(faces)
        kept = ordered[1:] if edge == "adv" else ordered[:2]
        total = sum(kept) + stat
        return ("Miss" if total <= 6 else "Weak hit" if total <= 9 else "Strong hit"), total

    assert_same(f"pbta {stat:+d} {edge}", enumerate_faces([6] * (3 if edge else 2), judge))


@pytest.mark.parametrize(
    ("modifier", "edge", "difficulty"), [(0, "", None), (2, "", None), (1, "adv", 14), (-1, "dis", 12), (3, "", 15)]
)
def test_daggerheart(modifier: int, edge: str, difficulty: int | None) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        hope, fear = faces[0], faces[1]
        d6 = {"adv": faces[-1], "dis": -faces[-1], "": 0}[edge]
        total = hope + fear + d6 + modifier
        if hope == fear:
            return "Critical success", total
        side = "with Hope" if hope > fear else "with Fear"
        if difficulty is None:
            return "W" + side[1:], total
        return ("Success " if total >= difficulty else "Failure ") + side, total

    text = f"dh {modifier:+d} {edge}" + (f" vs {difficulty}" if difficulty else "")
    assert_same(text, enumerate_faces([12, 12] + ([6] if edge else []), judge))


@pytest.mark.parametrize(
    ("pool", "hunger", "difficulty"), [(1, 0, 1), (3, 1, 1), (4, 2, 2), (5, 2, 3), (2, 2, 1), (5, 5, 4)]
)
def test_vampire(pool: int, hunger: int, difficulty: int) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        hungry = faces[pool - hunger :]
        tens = faces.count(10)
        successes = len([f for f in faces if f > 5]) + (tens - tens % 2)
        if successes < difficulty:
            return ("Bestial failure" if 1 in hungry else "Failure"), successes
        if tens < 2:
            return "Win", successes
        return ("Messy critical" if 10 in hungry else "Critical win"), successes

    assert_same(f"vtm {pool} h{hunger} vs {difficulty}", enumerate_faces([10] * pool, judge))


@pytest.mark.parametrize(("base", "skill", "gear"), [(1, 0, 0), (3, 2, 1), (2, 0, 2), (0, 4, 0)])
def test_year_zero(base: int, skill: int, gear: int) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        sixes = faces.count(6)
        return ("Success" if sixes else "Failure"), sixes

    assert_same(f"yz {base} {skill} {gear}", enumerate_faces([6] * (base + skill + gear), judge))


LADDER = [
    "Terrible",
    "Poor",
    "Mediocre",
    "Average",
    "Fair",
    "Good",
    "Great",
    "Superb",
    "Fantastic",
    "Epic",
    "Legendary",
]


@pytest.mark.parametrize(
    ("text", "dice", "skill", "opposition"),
    [
        ("fate +2", 4, 2, None),
        ("4dF-1", 4, -1, None),
        ("4df+3 vs 2", 4, 3, 2),
        ("fate +6", 4, 6, None),
        ("2dF", 2, 0, None),
        ("fate +0 vs 4", 4, 0, 4),
    ],
)
def test_fate(text: str, dice: int, skill: int, opposition: int | None) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        total = sum(face - 2 for face in faces) + skill  # a d3 read as -, blank, +
        if opposition is None:
            word = (
                LADDER[total + 2]
                if -2 <= total <= 8
                else (f"Legendary+{total - 8}" if total > 8 else f"Terrible{total + 2}")
            )
            return f"{word} ({total:+d})", total
        shifts = total - opposition
        return (
            "Fail" if shifts < 0 else "Tie" if shifts == 0 else "Succeed" if shifts < 3 else "Succeed with style"
        ), total

    assert_same(text, enumerate_faces([3] * dice, judge))


@pytest.mark.parametrize(
    ("skill", "extra"),
    [(60, ""), (45, ""), (50, ""), (70, "b1"), (30, "p1"), (49, "b2"), (80, "p2"), (1, ""), (99, "")],
)
def test_call_of_cthulhu(skill: int, extra: str) -> None:
    count = 1 + (int(extra[1:]) if extra else 0)

    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        units = faces[0] - 1
        results = [10 * (tens - 1) + units or 100 for tens in faces[1:]]
        value = max(results) if extra.startswith("p") else min(results)
        if value == 100 or (value > 95 and skill < 50):
            return "Fumble", value
        if value == 1:
            return "Critical success", value
        for name, bound in (("Extreme success", skill // 5), ("Hard success", skill // 2), ("Regular success", skill)):
            if value <= bound:
                return name, value
        return "Failure", value

    assert_same(f"coc {skill} {extra}", enumerate_faces([10] * (1 + count), judge))


@pytest.mark.parametrize(("modifier", "dv"), [(12, None), (0, None), (9, 15), (5, 13), (15, 17)])
def test_cyberpunk(modifier: int, dv: int | None) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        d10, extra = faces
        total = d10 + modifier + (extra if d10 == 10 else -extra if d10 == 1 else 0)
        if dv is None:
            return {10: "Critical success", 1: "Critical failure"}.get(d10, "Regular roll"), total
        success = total > dv
        if d10 == 10 and success:
            return "Critical success", total
        if d10 == 1 and not success:
            return "Critical failure", total
        return ("Success" if success else "Failure"), total

    text = f"cpr {modifier:+d}" + (f" vs {dv}" if dv is not None else "")
    assert_same(text, enumerate_faces([10, 10], judge))


@pytest.mark.parametrize(("pool", "threshold"), [(1, 1), (2, 1), (3, 2), (5, 1), (6, 3), (7, 2)])
def test_shadowrun(pool: int, threshold: int) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        hits = len([f for f in faces if f in (5, 6)])
        if faces.count(1) > pool / 2:
            return ("Glitch" if hits else "Critical glitch"), hits
        return ("Success" if hits >= threshold else "Failure"), hits

    assert_same(f"sr {pool} vs {threshold}", enumerate_faces([6] * pool, judge))


@pytest.mark.parametrize("stat", [-1, 0, 2, 4, 7, 9])
def test_ironsworn(stat: int) -> None:
    def judge(faces: tuple[int, ...]) -> tuple[str, int]:
        score = min(10, faces[0] + stat)
        beaten = len([c for c in faces[1:] if score > c])
        match = faces[1] == faces[2]
        if beaten == 2:
            return ("Strong hit with a match" if match else "Strong hit"), score
        if beaten == 1:
            return "Weak hit", score
        return ("Miss with a match" if match else "Miss"), score

    assert_same(f"is {stat:+d}", enumerate_faces([6, 10, 10], judge))


def aced(sides: int) -> dict[tuple[bool, int], Fraction]:
    """A die that aces (rolls again on its top face), followed until one more ace is under one in a billion; the
    last roll stands. (natural 1, total) → chance."""
    depth = next(d for d in range(1, 100) if Fraction(1, sides) ** d < Fraction(1, 10**9))
    chances: dict[tuple[bool, int], Fraction] = defaultdict(Fraction)
    for aces in range(depth + 1):
        for last in range(1, sides + 1):
            if last == sides and aces < depth:
                continue  # that roll aced: counted in the longer chains
            chances[(aces == 0 and last == 1, aces * sides + last)] += Fraction(1, sides) ** (aces + 1)
    return chances


@pytest.mark.parametrize(
    ("trait", "modifier", "target", "wild"),
    [(4, 0, 4, True), (8, 1, 4, True), (12, -2, 6, True), (6, 0, 4, False), (10, 2, 8, True)],
)
def test_savage_worlds(trait: int, modifier: int, target: int, wild: bool) -> None:
    categories: dict[object, Fraction] = defaultdict(Fraction)
    totals: dict[object, Fraction] = defaultdict(Fraction)
    wild_die = aced(6) if wild else {(False, 0): Fraction(1)}
    for (trait_one, trait_total), p in aced(trait).items():
        for (wild_one, wild_total), q in wild_die.items():
            total = max(trait_total, wild_total) + modifier
            if wild and trait_one and wild_one:
                category = "Critical failure"
            elif total < target:
                category = "Failure"
            else:
                category = (
                    ["Success", "Raise", "2 raises"][(total - target) // 4] if total - target < 12 else "3+ raises"
                )
            categories[category] += p * q
            totals[total] += p * q
    text = f"sw d{trait} {modifier:+d} vs {target}" + ("" if wild else " extra")
    assert_same(text, (dict(categories), dict(totals)))


# Genesys' dice, face by face as (successes, advantages, triumphs, failures, threats, despairs), typed here from the
# rulebook's dice charts independently of rules/roll/systems/genesys.py.
BLANK = (0, 0, 0, 0, 0, 0)
S, SS, A, AA, SA = (1, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (0, 2, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0)
F, FF, T, TT, FT = (0, 0, 0, 1, 0, 0), (0, 0, 0, 2, 0, 0), (0, 0, 0, 0, 1, 0), (0, 0, 0, 0, 2, 0), (0, 0, 0, 1, 1, 0)
GENESYS = {
    "g": [BLANK, S, S, SS, A, A, SA, AA],
    "y": [BLANK, S, S, SS, SS, A, SA, SA, SA, AA, AA, (0, 0, 1, 0, 0, 0)],
    "p": [BLANK, F, FF, T, T, T, TT, FT],
    "r": [BLANK, F, F, FF, FF, T, T, FT, FT, TT, TT, (0, 0, 0, 0, 0, 1)],
    "b": [BLANK, BLANK, S, SA, AA, A],
    "k": [BLANK, BLANK, F, F, T, T],
}


@pytest.mark.parametrize("pool", ["1g 1p", "2g 1y 2p", "1y 1r 1b 1k", "2y 2r", "3g 2k"])
def test_genesys(pool: str) -> None:
    dice = [GENESYS[colour] for count, colour in re.findall(r"(\d)([a-z])", pool) for _ in range(int(count))]
    categories: dict[object, Fraction] = defaultdict(Fraction)
    totals: dict[object, Fraction] = defaultdict(Fraction)
    landings = list(product(*dice))
    for faces in landings:
        s, a, tr, f, t, de = (sum(face[i] for face in faces) for i in range(6))
        net = s + tr - f - de  # a triumph is also a success, a despair also a failure
        lean = " with advantage" if a > t else " with threat" if t > a else ""
        categories[("Success" if net > 0 else "Failure") + lean] += Fraction(1, len(landings))
        totals[net] += Fraction(1, len(landings))
    assert_same(f"gen {pool}", (dict(categories), dict(totals)))


# -- (2) the roller, driven through every sequence of faces -----------------------------------------------


def rolled(text: str, max_dice: int = 8) -> tuple[Chances, Fraction]:
    """What ``roll`` answers over every sequence of faces (cut at ``max_dice``: the mass left out is returned)."""
    verdicts: dict[object, Fraction] = defaultdict(Fraction)
    cut = Fraction(0)
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        faces, chance = stack.pop()
        try:
            result = roll(text, _Path(faces))
        except _NeedDie as need:
            if len(faces) == max_dice:
                cut += chance
                continue
            stack += [([*faces, face], chance / need.sides) for face in range(1, need.sides + 1)]
            continue
        verdicts[result.sets[0].verdict] += chance
    return dict(verdicts), cut


def _verdict_category(text: str, verdict: str) -> str:
    preset = find_preset(text)
    assert preset is not None
    names = [name for name, _ in preset_odds(preset).categories]
    # A verdict is its category, sometimes with details after it: the longest category it starts with.
    return max((name for name in names if verdict.startswith(name)), key=len)


@pytest.mark.parametrize(
    "text",
    [
        "bitd 0",
        "bitd 3",
        "pbta +1 adv",
        "dh +1 dis vs 13",
        "vtm 4 h2 vs 2",
        "yz 2 1 1",
        "fate +1 vs 1",
        "coc 55 p1",
        "cpr +10 vs 15",
        "sr 5",
        "is +2",
        "sw d4 +1",
    ],
)
def test_the_roller_lands_as_the_odds_say(text: str) -> None:
    verdicts, cut = rolled(text)
    by_category: dict[object, Fraction] = defaultdict(Fraction)
    for verdict, chance in verdicts.items():
        by_category[_verdict_category(text, str(verdict))] += chance
    categories, _ = exact(text)
    if cut == 0:
        assert dict(by_category) == categories
    else:  # aces past the cut: each category's chance is within what was cut
        for name, chance in categories.items():
            assert (
                by_category.get(name, Fraction(0))
                <= chance
                <= by_category.get(name, Fraction(0)) + cut + Fraction(1, 10**8)
            )


# -- reading, writing back, pushing -----------------------------------------------------------------------


def test_every_system_is_declared_once_with_words_of_its_own() -> None:
    words = [word for system in SYSTEMS for word in system.words]
    assert len(words) == len(set(words))
    assert len({system.key for system in SYSTEMS}) == len(SYSTEMS) >= 11
    for system in SYSTEMS:
        assert system.words[0] == system.key
        assert len(system.summary) <= 100
        for example in system.examples:
            preset = find_preset(example)
            assert preset is not None and preset.system is system
            again = find_preset(preset.expression)  # the canonical form reads back the same
            assert again is not None and again.params == preset.params
            check_roll(example)
            odds_table(example)
        assert shadows_notation(system.key) and shadows_notation(system.key.upper())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bitd", "How many dice"),
        ("bitd 11", "from 0 to 10"),
        ("vtm 3 h4", "part of the pool"),
        ("sw d7", "d4, d6, d8, d10 or d12"),
        ("coc 60 b1 p1", "cancel out"),
        ("pbta +1 adv dis", "not both"),
        ("dh +1 banana", "`banana` isn't part"),
        ("yz 0 0 0", "at least one"),
        ("sr 12 vs", "needs a number"),
        ("gen 2g 1z", "counts and colours"),
        ("gen 9g", "up to 8 dice of a kind"),
    ],
)
def test_arguments_that_dont_fit_are_refused_saying_how(text: str, message: str) -> None:
    with pytest.raises(RollError, match=message):
        roll(text, ScriptedDice([]))


def test_a_roll_in_the_games_words_with_its_label_and_commitment_line() -> None:
    result = roll("bitd 3 # Sneak past", ScriptedDice([2, 5, 4]))
    assert result.expression == "bitd 3" and result.label == "Sneak past"
    assert result.sets[0].verdict == "Partial success" and result.sets[0].total == 5
    assert canonical(result) == "Sneak past: 3d6 [2, 5, 4] = 5 (Partial success)"


def test_fate_dice_are_rolled_natively() -> None:
    result = roll("4dF+2", ScriptedDice([3, 3, 2, 1]))  # +, +, blank, -
    assert (result.sets[0].total, result.sets[0].verdict) == (3, "Good (+3)")
    with pytest.raises(RollError, match="Fate / Fudge"):  # mixed with other dice: still d20's refusal
        roll("4df+1d6", ScriptedDice([]))


def test_a_year_zero_push_rerolls_all_but_sixes_and_base_and_gear_banes() -> None:
    # base 1, 6, 3 · skill 1, 2 · gear 1
    first = roll("yz 3 2 1", ScriptedDice([1, 6, 3, 1, 2, 1]))
    assert first.sets[0].state == (1, 6, 3, 1, 2, 1) and first.sets[0].verdict == "Success (1 success)"
    preset = find_preset(first.expression)
    assert preset is not None
    pushed = push_preset(
        preset, first.sets[0].state, ScriptedDice({"push.base.3": [6], "push.skill.1": [1], "push.skill.2": [6]})
    )
    assert pushed.sets[0].state == (1, 6, 6, 1, 6, 1)
    assert pushed.sets[0].verdict == "Pushed: Success (3 successes) · 1 damage or stress, 1 gear bonus lost"
    with pytest.raises(RollError, match="can't be pushed"):
        push_preset(find_preset("bitd 2"), (1, 2), ScriptedDice([]))  # type: ignore[arg-type]


def test_savage_worlds_aces_and_snake_eyes() -> None:
    aced_roll = roll("sw d4 +1", ScriptedDice([4, 4, 2, 3]))  # trait 4+4+2 = 10, wild 3
    assert (aced_roll.sets[0].total, aced_roll.sets[0].verdict) == (11, "Raise")
    snake_eyes = roll("sw d8", ScriptedDice([1, 1]))
    assert snake_eyes.sets[0].verdict == "Critical failure"
