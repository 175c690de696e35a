"""Viciousness odds (rules/viciousness/odds.py, odds_parse.py): exact against brute force, the text form, the tables."""

from __future__ import annotations

import os
import random
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.viciousness.odds import (
    LINE_WIDTH,
    MAX_SIDES,
    Die,
    KnaveryOdds,
    Pool,
    ViolenceOdds,
    knavery_odds,
    render_knavery,
    render_violence,
    summary,
    violence_odds,
)
from rules.viciousness.odds_parse import (
    MAX_CHALLENGES,
    MAX_DICE,
    OddsInputError,
    parse_knavery,
    parse_pool,
    parse_violence,
)

P = parse_pool
D4 = Die(faces=4)
D6 = Die(faces=6)


# --- brute force: every outcome of every die, counted one by one ---------------------------------------------------


def results(die: Die) -> list[int]:
    """The equally likely results of one die: a rattled die is every ordered pair of rolls, the lower kept."""
    rolls = range(1, die.faces + 1)
    return [min(a, b) for a in rolls for b in rolls] if die.rattled else list(rolls)


def outcomes(*pools: Pool) -> tuple[list[list[list[int]]], int]:
    """Every outcome of all the pools at once, split back into one list of results per pool, and how many."""
    sizes = [len(pool.dice) for pool in pools]
    everything = [list(roll) for roll in product(*(results(d) for pool in pools for d in pool.dice))]
    split = []
    for roll in everything:
        parts, start = [], 0
        for size in sizes:
            parts.append(roll[start : start + size])
            start += size
        split.append(parts)
    return split, len(split)


class Brute(NamedTuple):
    hits: list[dict[int, Fraction]]
    most: list[Fraction]
    tie: Fraction
    lands: list[dict[int, Fraction]]


def brute_violence(*pools: Pool) -> Brute:
    rolls, total = outcomes(*pools)
    hits: list[Counter[int]] = [Counter() for _ in pools]
    most: Counter[int] = Counter()
    lands: list[Counter[int]] = [Counter(), Counter()]
    for parts in rolls:
        counts = [sum(1 for value in part if value == 4) for part in parts]
        for i, n in enumerate(counts):
            hits[i][n] += 1
        top = max(counts)
        leaders = [i for i, n in enumerate(counts) if n == top]
        most[leaders[0] if len(leaders) == 1 else -1] += 1
        if len(pools) == 2:
            a, b = counts
            # The side with more hits assigns them all; the other cancels as many as it has (P3 step 3).
            lands[0][a - min(a, b) if a > b else 0] += 1
            lands[1][b - min(a, b) if b > a else 0] += 1
    return Brute(
        hits=[{k: Fraction(v, total) for k, v in c.items()} for c in hits],
        most=[Fraction(most[i], total) for i in range(len(pools))],
        tie=Fraction(most[-1], total),
        lands=[{k: Fraction(v, total) for k, v in c.items()} for c in lands] if len(pools) == 2 else [],
    )


def as_dict(dist: tuple[Fraction, ...]) -> dict[int, Fraction]:
    return {k: p for k, p in enumerate(dist) if p}


VIOLENCE_CASES = [
    ("d4", "d4"),
    ("3d4 1d6", "2d4"),
    ("d4 rd4 d6", "d4 rd6"),
    ("rd4 d6", "2d4 rd6"),
    ("d3 d5 d8", "rd4"),  # a d3 can never hit; odd sizes still hit on exactly 4
    ("d6 d4", "d4 d6 d4"),
    ("d4 d6", "rd4", "2d4"),
    ("d4", "d4", "d4", "rd6"),
]


@pytest.mark.parametrize("texts", VIOLENCE_CASES, ids=" vs ".join)
def test_violence_matches_brute_force(texts: tuple[str, ...]) -> None:
    pools = [P(text) for text in texts]
    odds = violence_odds(*pools)
    expected = brute_violence(*pools)
    assert [as_dict(h) for h in odds.hits] == expected.hits
    assert list(odds.most) == expected.most
    assert odds.tie == expected.tie
    assert [as_dict(lands) for lands in odds.lands] == expected.lands


def brute_knavery(pool: Pool) -> tuple[list[tuple[int, int]], int]:
    """(successes, free pushes) of every outcome."""
    rolls, total = outcomes(pool)
    return [(sum(v >= 4 for v in part), sum(v == 6 for v in part)) for (part,) in rolls], total


@pytest.mark.parametrize("text", ["d6", "rd6", "2d6 1d4", "d6 rd6 d4 rd4", "r2d6 d8", "3d6 d10"])
def test_knavery_matches_brute_force(text: str) -> None:
    pool = P(text)
    rolls, total = brute_knavery(pool)
    for challenges in range(len(pool.dice) + 2):
        odds = knavery_odds(pool, challenges)
        assert as_dict(odds.successes) == {k: Fraction(v, total) for k, v in Counter(s for s, _ in rolls).items()}
        assert as_dict(odds.free_pushes) == {k: Fraction(v, total) for k, v in Counter(x for _, x in rolls).items()}
        won = [pushes for successes, pushes in rolls if successes >= challenges]
        lost = [pushes for successes, pushes in rolls if successes < challenges]
        assert (odds.success, odds.failure) == (Fraction(len(won), total), Fraction(len(lost), total))
        assert odds.success_with_push == Fraction(sum(1 for pushes in won if pushes), total)
        assert odds.failure_with_push == Fraction(sum(1 for pushes in lost if pushes), total)


# --- known values and exact sums -----------------------------------------------------------------------------------


def test_known_violence_values() -> None:
    one_hit = violence_odds(P("d4"), Pool())
    assert one_hit.most == (Fraction(1, 4), 0)
    assert one_hit.tie == Fraction(3, 4)
    assert one_hit.lands[0] == (Fraction(3, 4), Fraction(1, 4))
    assert violence_odds(P("rd4"), Pool()).most[0] == Fraction(1, 16)  # both rolls must show 4
    assert violence_odds(P("d6"), Pool()).most[0] == Fraction(1, 6)  # a d6 hits on its 4 only
    assert violence_odds(P("rd6"), Pool()).most[0] == Fraction(5, 36)  # lower of two is 4: (3/6)² − (2/6)²
    assert violence_odds(P("d2 d3"), P("d100")).most == (0, Fraction(1, 100))
    # d4 against d4: each hits with 1/4, so one side alone hits with 3/16, and both or neither with 10/16.
    assert violence_odds(P("d4"), P("d4")).most == (Fraction(3, 16), Fraction(3, 16))


def test_known_knavery_values() -> None:
    assert knavery_odds(P("d6"), 1).success == Fraction(1, 2)
    assert knavery_odds(P("rd6"), 1).success == Fraction(1, 4)
    assert knavery_odds(P("d6"), 1).free_pushes[1] == Fraction(1, 6)
    assert knavery_odds(P("rd6"), 1).free_pushes[1] == Fraction(1, 36)
    assert knavery_odds(P("d4"), 1).success == Fraction(1, 4)
    assert knavery_odds(P("d4"), 1).free_pushes == (1, 0)  # a d4 never shows 6
    assert knavery_odds(P("3d6"), 0).success == 1  # 3.6 #16: no challenges, no roll needed
    assert knavery_odds(P("3d6"), 4).success == 0  # more challenges than dice


@pytest.mark.parametrize("texts", [*VIOLENCE_CASES, ("40d4", "40d6"), ("r20d4 20d6", "d4", "r40d100", "40d4")])
def test_violence_chances_add_up_exactly(texts: tuple[str, ...]) -> None:
    odds = violence_odds(*(P(text) for text in texts))
    assert all(sum(h) == 1 for h in odds.hits)
    assert sum(odds.most) + odds.tie == 1
    assert all(sum(lands) == 1 for lands in odds.lands)
    for most, lands in zip(odds.most, odds.lands, strict=False):
        assert most == 1 - lands[0]  # landing any hit is having more hits


def test_knavery_chances_add_up_exactly() -> None:
    odds = knavery_odds(P("r13d6 20d6 7d4"), 12)
    assert sum(odds.successes) == sum(odds.free_pushes) == 1
    assert odds.success + odds.failure == 1
    assert odds.success_with_push + odds.failure_with_push == 1 - odds.free_pushes[0]


def test_order_and_grouping_of_dice_do_not_matter() -> None:
    shuffled = violence_odds(P("rd4 d4 d6 d4"), P("d6"))
    grouped = violence_odds(P("2d4 r1d4 1d6"), P("d6"))
    assert (shuffled.hits, shuffled.most, shuffled.lands) == (grouped.hits, grouped.most, grouped.lands)


def test_too_many_sides_is_refused() -> None:
    with pytest.raises(ValueError, match="at most"):
        violence_odds(*[P("d4")] * (MAX_SIDES + 1))


# --- seeded Monte Carlo for pools too big to enumerate ------------------------------------------------------------


def roll(rng: random.Random, pool: Pool) -> list[int]:
    return [
        min(rng.randint(1, d.faces), rng.randint(1, d.faces)) if d.rattled else rng.randint(1, d.faces)
        for d in pool.dice
    ]


def close(estimate: float, exact: Fraction, samples: int) -> bool:
    """Within 4.5 standard errors (a false alarm about once in 150,000 checks)."""
    p = float(exact)
    return abs(estimate - p) <= 4.5 * (p * (1 - p) / samples) ** 0.5 + 1e-9


def test_violence_matches_monte_carlo() -> None:
    rng = random.Random(20240611)
    a, b = P("10d4 4d6 r3d4"), P("8d4 r2d6 d6")
    odds = violence_odds(a, b)
    samples = 10_000
    margins = Counter(sum(v == 4 for v in roll(rng, a)) - sum(v == 4 for v in roll(rng, b)) for _ in range(samples))
    assert close(sum(n for m, n in margins.items() if m > 0) / samples, odds.most[0], samples)
    assert close(sum(n for m, n in margins.items() if m < 0) / samples, odds.most[1], samples)
    assert close(margins[0] / samples, odds.tie, samples)
    for k in (1, 2, 3):
        assert close(margins[k] / samples, odds.lands[0][k], samples)
        assert close(margins[-k] / samples, odds.lands[1][k], samples)


def test_knavery_matches_monte_carlo() -> None:
    rng = random.Random(77)
    pool, challenges = parse_knavery("6d6 r4d6 3d4 r2d8 vs 6")
    odds = knavery_odds(pool, challenges)
    samples = 10_000
    rolls = [roll(rng, pool) for _ in range(samples)]
    fails_with_push = sum(sum(v >= 4 for v in r) < challenges and 6 in r for r in rolls)
    assert close(sum(sum(v >= 4 for v in r) >= challenges for r in rolls) / samples, odds.success, samples)
    assert close(fails_with_push / samples, odds.failure_with_push, samples)
    assert close(sum(r.count(6) == 2 for r in rolls) / samples, odds.free_pushes[2], samples)


# --- the text form -------------------------------------------------------------------------------------------------


def labels(pools: tuple[Pool, ...]) -> list[str]:
    return [pool.label for pool in pools]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3d4 1d6 vs 2d4", ["3d4 1d6", "2d4"]),
        ("2d4 r1d4 vs d4 d4 d6", ["2d4 r1d4", "2d4 1d6"]),
        ("D4 RD6 R3D4 VS 1d4", ["1d4 r1d6 r3d4", "1d4"]),
        ("  3d4,1d6 + r2d4   vs.  d4 ", ["3d4 1d6 r2d4", "1d4"]),
        ("d4 vs d6 vs d8", ["1d4", "1d6", "1d8"]),
        ("40d4 vs 20d2 20d100", ["40d4", "20d2 20d100"]),
    ],
)
def test_parse_violence_accepts(text: str, expected: list[str]) -> None:
    assert labels(parse_violence(text)) == expected


def test_parse_keeps_every_die_and_its_state() -> None:
    assert parse_violence("2d4 r1d6 vs d4") == (Pool(dice=(D4, D4, Die(faces=6, rattled=True))), Pool(dice=(D4,)))


def plain(message: str) -> str:
    """A message without the marks that isolate the typed text it repeats (``rules.text.echo``)."""
    return message.replace("\u2068", "").replace("\u2069", "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3x4 vs 2d4", "I don't understand “3x4”: write dice like 3d4 or r1d6."),
        ("3 vs 2d4", "“3” is not a die: did you mean “3d4”?"),
        ("3d4", "Write two sides with “vs” between them, like “3d4 1d6 vs 2d4”."),
        ("", "Write two sides with “vs” between them, like “3d4 1d6 vs 2d4”."),
        ("3d4 vs", "Side B has no dice: write dice like 3d4 or r1d6."),
        ("vs 3d4", "Side A has no dice: write dice like 3d4 or r1d6."),
        ("0d4 vs d4", "“0d4” has no dice: write at least 1, like 1d4."),
        ("3d1 vs d4", "“3d1”: dice go from d2 to d100."),
        ("d4 vs d101", "“d101”: dice go from d2 to d100."),
        ("41d4 vs d4", "Side A has more than 40 dice: 40 is the most."),
        ("d4 vs 20d4 r21d6", "Side B has more than 40 dice: 40 is the most."),
        ("9" * 5000 + "d4 vs d4", "Side A has more than 40 dice: 40 is the most."),
        (" vs ".join(["d4"] * 7), "That is 7 sides: 6 is the most."),
        ("d4 vs 3d4vs2d4", "I don't understand “3d4vs2d4”: write dice like 3d4 or r1d6."),
        ("x" * 30 + " vs d4", "I don't understand “xxxxxxxxxxxxxxxxxxx…”: write dice like 3d4 or r1d6."),
    ],
)
def test_parse_violence_rejects(text: str, message: str) -> None:
    with pytest.raises(OddsInputError) as caught:
        parse_violence(text)
    assert plain(str(caught.value)) == message
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("text", "challenges", "expected"),
    [
        ("2d6 1d4 vs 3", None, ("2d6 1d4", 3)),
        ("2d6 1d4", 3, ("2d6 1d4", 3)),
        ("r2d6 vs 0", None, ("r2d6", 0)),
        ("40d6 vs 40", None, ("40d6", 40)),
    ],
)
def test_parse_knavery_accepts(text: str, challenges: int | None, expected: tuple[str, int]) -> None:
    pool, count = parse_knavery(text, challenges)
    assert (pool.label, count) == expected


@pytest.mark.parametrize(
    ("text", "challenges", "message"),
    [
        ("2d6 1d4", None, "How many challenges? Write the number after “vs”, like “2d6 1d4 vs 3”."),
        ("banana", None, "I don't understand “banana”: write dice like 3d4 or r1d6."),
        ("2d6 vs 3", 3, "Give the number of challenges once: after “vs” or as the option, not both."),
        ("2d6 vs x", None, "Write one pool, then “vs” and the number of challenges, like “2d6 1d4 vs 3”."),
        ("2d6 vs 3 vs 2", None, "Write one pool, then “vs” and the number of challenges, like “2d6 1d4 vs 3”."),
        ("2d6 vs 3d6", None, "Write one pool, then “vs” and the number of challenges, like “2d6 1d4 vs 3”."),
        ("2d6 vs 41", None, "Challenges go from 0 to 40."),
        ("2d6", -1, "Challenges go from 0 to 40."),
        ("vs 3", None, "The pool has no dice: write dice like 3d4 or r1d6."),
        ("2d6 3", 2, "“3” is not a die: did you mean “3d6”?"),
        ("2d6 d0", 2, "“d0”: dice go from d2 to d100."),
    ],
)
def test_parse_knavery_rejects(text: str, challenges: int | None, message: str) -> None:
    with pytest.raises(OddsInputError) as caught:
        parse_knavery(text, challenges)
    assert plain(str(caught.value)) == message


def test_parse_pool_is_one_side() -> None:
    assert P("r2d4 d6").label == "r2d4 1d6"
    with pytest.raises(OddsInputError, match="no “vs”"):
        P("d4 vs d4")


# --- the tables and the summary ------------------------------------------------------------------------------------


def test_render_violence_two_sides() -> None:
    assert render_violence(violence_odds(*parse_violence("3d4 1d6 vs 2d4"))) == "\n".join(
        [
            "```",
            "A 3d4 1d6",
            "B 2d4",
            "A wins         45.2% █████▍",
            "B wins         18.0% ██▏",
            "No hits land   36.8% ████▍",
            "A lands",
            "  1            31.0% ███▊",
            "  2            11.9% █▍",
            "  3             2.1% ▎",
            "  4             0.1% ▏",
            "B lands",
            "  1            15.8% █▉",
            "  2             2.2% ▎",
            "```",
        ]
    )


def test_render_violence_three_sides() -> None:
    text = render_violence(violence_odds(*parse_violence("3d4 1d6 vs 2d4 vs d4")))
    assert text.splitlines()[4:] == [
        "Most hits",
        "  A            39.3% ████▊",
        "  B            14.7% █▊",
        "  C             4.9% ▋",
        "  Tie          41.1% ████▉",
        "```",
    ]


def test_render_violence_sums_the_tails_of_a_big_pool() -> None:
    lines = render_violence(violence_odds(*parse_violence("40d4 vs 4d4"))).splitlines()
    a_lands = lines[lines.index("A lands") + 1 : -1]
    assert [line.split()[0] for line in a_lands] == ["1–6", "7", "8", "9", "10", "11+"]
    assert "B wins         <0.1% ▏" in lines  # possible, though rare: never shown as 0
    assert "B lands" not in lines  # every row of it would be under 0.05 %


def test_render_knavery() -> None:
    assert render_knavery(knavery_odds(*parse_knavery("2d6 1d4 r1d6 vs 2"))) == "\n".join(
        [
            "```",
            "2d6 1d4 r1d6 vs 2 challenges",
            "Success        48.4% █████▉",
            "Fail           51.6% ██████▎",
            "Fail, 1+ push   9.9% █▎",
            "Successes",
            "  0            14.1% █▊",
            "  1            37.5% ████▌",
            "  2            34.4% ████▏",
            "  3            12.5% █▌",
            "  4             1.6% ▎",
            "Free pushes",
            "  0            67.5% ████████▏",
            "  1            28.9% ███▌",
            "  2             3.5% ▍",
            "  3             0.1% ▏",
            "```",
        ]
    )


def test_percentages_never_round_to_certainty() -> None:
    sure = render_violence(violence_odds(P("40d4"), P("d2")))
    assert "A wins        >99.9% ████████████" in sure.splitlines()
    assert summary(violence_odds(P("40d4"), P("d2"))) == "odds now: >99% to win, 0% to lose"
    assert "Success       100.0% ████████████" in render_knavery(knavery_odds(P("d6"), 0)).splitlines()


def test_summary() -> None:
    assert summary(violence_odds(*parse_violence("3d4 1d6 vs 2d4"))) == "odds now: 45% to win, 18% to lose"
    assert summary(violence_odds(*parse_violence("3d4 1d6 vs 2d4 vs d4"))) == "odds now: 39% to roll the most hits"
    assert summary(knavery_odds(*parse_knavery("2d6 1d4 r1d6 vs 2"))) == "odds now: 48% to succeed"
    assert summary(knavery_odds(P("rd4"), 1)) == "odds now: 6% to succeed"  # 1/16 = 6.25 % rounds half up


def assert_fits(text: str) -> None:
    lines = text.splitlines()
    assert lines[0] == lines[-1] == "```"
    assert max(len(line) for line in lines) <= LINE_WIDTH
    assert len(text) <= 1000


# Every kind of die there is, to make the longest pool labels.
MIXED = " ".join(f"{'r' if faces % 2 else ''}d{faces}" for faces in range(2, 2 + MAX_DICE))


@pytest.mark.parametrize(
    "text",
    [
        "40d4 vs 40d4",
        "40d4 vs r40d4",
        "40d100 vs 40d2",
        f"{MIXED} vs {MIXED}",
        " vs ".join([MIXED] * MAX_SIDES),
        " vs ".join(["40d4"] * MAX_SIDES),
    ],
)
def test_biggest_violence_tables_fit(text: str) -> None:
    odds = violence_odds(*parse_violence(text))
    assert_fits(render_violence(odds))
    assert len(summary(odds)) <= LINE_WIDTH


@pytest.mark.parametrize("text", ["40d6", "r40d6", "40d100", "20d4 20d6", MIXED])
@pytest.mark.parametrize("challenges", [0, 1, 20, MAX_CHALLENGES])
def test_biggest_knavery_tables_fit(text: str, challenges: int) -> None:
    odds = knavery_odds(*parse_knavery(text, challenges))
    assert_fits(render_knavery(odds))


# Random pools within the limits, reproducible in CI.
dice = st.builds(Die, faces=st.integers(2, 100), rattled=st.booleans())
pools = st.lists(dice, min_size=1, max_size=MAX_DICE).map(lambda ds: Pool(dice=tuple(ds)))


@settings(max_examples=60, deadline=None, derandomize=os.environ.get("CI") == "true")
@given(st.lists(pools, min_size=2, max_size=MAX_SIDES))
def test_any_violence_within_limits_adds_up_and_fits(sides: list[Pool]) -> None:
    odds = violence_odds(*sides)
    assert isinstance(odds, ViolenceOdds)
    assert sum(odds.most) + odds.tie == 1
    assert_fits(render_violence(odds))


@settings(max_examples=60, deadline=None, derandomize=os.environ.get("CI") == "true")
@given(pools, st.integers(0, MAX_CHALLENGES))
def test_any_knavery_within_limits_adds_up_and_fits(pool: Pool, challenges: int) -> None:
    odds = knavery_odds(pool, challenges)
    assert isinstance(odds, KnaveryOdds)
    assert sum(odds.successes) == 1
    assert_fits(render_knavery(odds))
