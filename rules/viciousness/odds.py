"""Exact odds for Viciousness dice pools (RULES.md P3, P4, P5; rulings 3.6 #1, #2, #5, #11), and their text.

Rules counted here:

- Violence: a die showing exactly 4 is a hit, whatever its size (3.6 #1). With two sides, the side with more hits
  assigns them, the other cancels as many as it has, and the difference lands; equal hits land nothing (3.6 #2).
  With three or more sides, who hits whom is up to the players (3.6 #3-4), so only "who has the most hits" is
  exact there.
- Knavery: a die showing 4 or more is a success, and a 6 also gives a free push; the scheme succeeds when the
  successes reach the number of challenges (P4).
- A rattled die is rolled twice and the lower roll kept, die by die (3.6 #11).

Nothing is sampled. A die has a whole number of equally likely outcomes (its faces, or faces² for a rattled die),
so a pool's distribution is a list of integer outcome counts, built from one binomial per group of identical dice;
only the final answers become ``Fraction``s. Integers keep the sums exact and fast: 40 dice a side take
milliseconds. The convolution and the percentages are the project's one way of computing odds (``rules/odds.py``,
shared with ``/dice odds``).

The text form players type is read by :mod:`rules.viciousness.odds_parse`. The renderers here fit a phone: a
code block of lines of at most 40 characters (in English), under 1,000 characters in all, whatever the pools. Their
words are ``Said``: a renderer takes ``say`` (the bot's ``localize``) to put them in the reader's language.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

from pydantic import BaseModel, ConfigDict, Field

from rules.odds import bar, convolve, percent
from rules.said import Said, said

HIT_FACE = 4  # violence: exactly this face is a hit (3.6 #1)
SUCCESS_FACE = 4  # knavery: this face or more is a success
PUSH_FACE = 6  # knavery: exactly this face gives a free push
SIDE_NAMES = "ABCDEF"  # sides are named by letter, which also caps how many a result can show
MAX_SIDES = len(SIDE_NAMES)

LINE_WIDTH = 40
WINDOW = 4  # values of a distribution shown one by one; the rest are summed into two rows
_SHOWN = Fraction(1, 2000)  # rows under 0.05 % would only read "<0.1%", so they are left out


class Die(BaseModel):
    """One die of a pool: a d4, a d6 or any dN, optionally rolled by a rattled character."""

    model_config = ConfigDict(frozen=True)

    faces: int = Field(ge=1)
    rattled: bool = False


class Pool(BaseModel):
    """The dice a side (violence) or a group (knavery) rolls together, in the order they were added."""

    model_config = ConfigDict(frozen=True)

    dice: tuple[Die, ...] = ()

    def groups(self) -> list[tuple[Die, int]]:
        """Identical dice with their counts, in order of first appearance."""
        return list(Counter(self.dice).items())

    @property
    def label(self) -> str:
        """The pool as a player would write it, e.g. ``3d4 r1d4 1d6``."""
        terms = [f"{'r' if die.rattled else ''}{count}d{die.faces}" for die, count in self.groups()]
        return " ".join(terms) or said("no dice")


class ViolenceOdds(BaseModel):
    """Exact odds of one violence round between two or more sides.

    ``hits[i][k]``: side i rolls exactly k hits. ``most[i]``: side i has strictly more hits than every other side.
    ``tie``: the most hits are shared (all sides at 0 included); with two sides that is "no hits land".
    ``lands[i][k]``, two sides only: side i lands exactly k hits on the other (k = 0 covers losing and ties).
    With three or more sides ``lands`` is empty: the players choose where hits go (3.6 #3-4).
    """

    model_config = ConfigDict(frozen=True)

    sides: tuple[Pool, ...]
    hits: tuple[tuple[Fraction, ...], ...]
    most: tuple[Fraction, ...]
    tie: Fraction
    lands: tuple[tuple[Fraction, ...], ...]


class KnaveryOdds(BaseModel):
    """Exact odds of one knavery roll.

    ``successes[k]``: exactly k dice show 4 or more. ``free_pushes[k]``: exactly k dice show 6.
    ``successes_without_push[k]``: exactly k successes and no 6 at all; together with ``successes`` it gives the
    joint chances of the properties below.
    """

    model_config = ConfigDict(frozen=True)

    pool: Pool
    challenges: int = Field(ge=0)
    successes: tuple[Fraction, ...]
    free_pushes: tuple[Fraction, ...]
    successes_without_push: tuple[Fraction, ...]

    @property
    def success(self) -> Fraction:
        """The scheme succeeds: successes ≥ challenges."""
        return sum(self.successes[self.challenges :], Fraction(0))

    @property
    def failure(self) -> Fraction:
        """The scheme fails."""
        return 1 - self.success

    @property
    def success_with_push(self) -> Fraction:
        """The scheme succeeds and at least one die shows 6."""
        return self.success - sum(self.successes_without_push[self.challenges :], Fraction(0))

    @property
    def failure_with_push(self) -> Fraction:
        """The scheme fails but at least one die shows 6, a free push to fall back on."""
        return self.failure - sum(self.successes_without_push[: self.challenges], Fraction(0))


@lru_cache(maxsize=512)
def _face_ways(faces: int, rattled: bool) -> tuple[int, ...]:
    """How many of a die's equally likely outcomes show each face 1..faces.

    A plain die has one outcome per face. A rattled die has faces² ordered pairs of rolls, and
    (faces − v + 1)² − (faces − v)² = 2·(faces − v) + 1 of them have v as the lower roll.
    """
    if rattled:
        return tuple(2 * (faces - v) + 1 for v in range(1, faces + 1))
    return (1,) * faces


def _outcomes(pool: Pool) -> int:
    """The number of equally likely outcomes of the whole pool."""
    return math.prod(sum(_face_ways(die.faces, die.rattled)) ** n for die, n in pool.groups())


def _any_face(face: int) -> bool:
    return True


def _tally(pool: Pool, counts: Callable[[int], bool], allowed: Callable[[int], bool] = _any_face) -> list[int]:
    """``tally[k]``: outcomes of ``pool`` in which exactly k dice show a face that ``counts``.

    Outcomes with any die on a face that is not ``allowed`` are left out, which is how the knavery chances
    "with no 6" are taken without a second dimension.
    """
    tally = [1]
    for die, n in pool.groups():
        ways = _face_ways(die.faces, die.rattled)
        yes = sum(w for face, w in enumerate(ways, 1) if allowed(face) and counts(face))
        no = sum(w for face, w in enumerate(ways, 1) if allowed(face) and not counts(face))
        # n identical dice are one binomial, so twenty d4s cost one convolution, not twenty.
        tally = convolve(tally, [math.comb(n, k) * yes**k * no ** (n - k) for k in range(n + 1)])
    return tally


def _chances(tally: Sequence[int], total: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(count, total) for count in tally)


def _is_hit(face: int) -> bool:
    return face == HIT_FACE


def _is_success(face: int) -> bool:
    return face >= SUCCESS_FACE


def _is_push(face: int) -> bool:
    return face == PUSH_FACE


def _is_not_push(face: int) -> bool:
    return face != PUSH_FACE


def _landing(mine: Sequence[int], theirs: Sequence[int]) -> list[int]:
    """``lands[k]``: outcomes of both pools in which the first side lands exactly k hits on the second."""
    lands = [0] * len(mine)
    for b, their in enumerate(theirs):
        for a in range(b + 1, len(mine)):
            lands[a - b] += mine[a] * their
    lands[0] = sum(mine) * sum(theirs) - sum(lands)
    return lands


def violence_odds(side_a: Pool, side_b: Pool, *more_sides: Pool) -> ViolenceOdds:
    """Exact odds of a violence round between two sides, or more (at most ``MAX_SIDES``).

    Raises ``ValueError`` beyond ``MAX_SIDES`` sides: the results name sides A to F.
    """
    sides = (side_a, side_b, *more_sides)
    if len(sides) > MAX_SIDES:
        raise ValueError(f"at most {MAX_SIDES} sides, not {len(sides)}")
    tallies = [_tally(pool, _is_hit) for pool in sides]
    totals = [_outcomes(pool) for pool in sides]
    everything = math.prod(totals)
    # fewer[j][h]: outcomes of side j with fewer than h hits, for h up to one past its most.
    fewer = [list(accumulate(tally, initial=0)) for tally in tallies]
    most = []
    for i, tally in enumerate(tallies):
        ways = 0
        for h, count in enumerate(tally):
            if count:
                ways += count * math.prod(fewer[j][min(h, len(fewer[j]) - 1)] for j in range(len(sides)) if j != i)
        most.append(Fraction(ways, everything))
    lands: tuple[tuple[Fraction, ...], ...] = ()
    if len(sides) == 2:
        lands = (
            _chances(_landing(tallies[0], tallies[1]), everything),
            _chances(_landing(tallies[1], tallies[0]), everything),
        )
    return ViolenceOdds(
        sides=sides,
        hits=tuple(_chances(tally, total) for tally, total in zip(tallies, totals, strict=True)),
        most=tuple(most),
        tie=1 - sum(most, Fraction(0)),
        lands=lands,
    )


def knavery_odds(pool: Pool, challenges: int) -> KnaveryOdds:
    """Exact odds of a knavery roll of ``pool`` against ``challenges`` (0 or more; 0 always succeeds)."""
    total = _outcomes(pool)
    return KnaveryOdds(
        pool=pool,
        challenges=challenges,
        successes=_chances(_tally(pool, _is_success), total),
        free_pushes=_chances(_tally(pool, _is_push), total),
        successes_without_push=_chances(_tally(pool, _is_success, allowed=_is_not_push), total),
    )


Say = Callable[[str], str]
"""How a renderer's words are said: the bot passes ``localize``; English as it is by default."""


def _as_is(text: str) -> str:
    return text


def _row(label: str, p: Fraction) -> str:
    return f"{label:<14}{percent(p):>6} {bar(p)}".rstrip()


def _fit(text: str, suffix: str = "") -> str:
    """``text`` + ``suffix`` in one line, cutting ``text`` short if need be."""
    room = LINE_WIDTH - len(suffix)
    if len(text) > room:
        text = text[: room - 1] + "…"
    return text + suffix


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def _spread(dist: Sequence[Fraction], start: int) -> list[tuple[str, Fraction]]:
    """Rows for the values ``start``… of ``dist``.

    The ``WINDOW`` consecutive values holding the most probability come one by one; the rest are summed into a
    range below and a "k+" row above, so even 40 dice take at most ``WINDOW`` + 2 lines.
    """
    last = len(dist) - 1
    if last < start:
        return []
    width = min(WINDOW, last - start + 1)
    low = max(range(start, last - width + 2), key=lambda k: sum(dist[k : k + width], Fraction(0)))
    high = low + width - 1
    rows = []
    if low > start:
        rows.append((_span(start, low - 1), sum(dist[start:low], Fraction(0))))
    rows += [(str(k), dist[k]) for k in range(low, high + 1)]
    if high < last:
        label = f"{high + 1}+" if high + 1 < last else str(last)
        rows.append((label, sum(dist[high + 1 :], Fraction(0))))
    return [(label, p) for label, p in rows if p >= _SHOWN]


def _block(lines: list[str]) -> str:
    return "\n".join(["```", *lines, "```"])


def render_violence(odds: ViolenceOdds, say: Say = _as_is) -> str:
    """A code block for Discord: who wins and how many hits land (two sides), or who rolls the most hits."""
    names = SIDE_NAMES[: len(odds.sides)]
    lines = [_fit(f"{name} {say(pool.label)}") for name, pool in zip(names, odds.sides, strict=True)]
    if odds.lands:
        lines += [
            _row(say(said("{side} wins", side="A")), odds.most[0]),
            _row(say(said("{side} wins", side="B")), odds.most[1]),
            _row(say(said("No hits land")), odds.tie),
        ]
        for name, lands in zip(names, odds.lands, strict=True):
            rows = _spread(lands, 1)
            if rows:
                lines.append(say(said("{side} lands", side=name)))
                lines += [_row(f"  {label}", p) for label, p in rows]
    else:
        lines.append(say(said("Most hits")))
        lines += [_row(f"  {name}", p) for name, p in zip(names, odds.most, strict=True)]
        tie = say(said("Tie"))
        lines.append(_row(f"  {tie}", odds.tie))
    return _block(lines)


def render_knavery(odds: KnaveryOdds, say: Say = _as_is) -> str:
    """A code block for Discord: the chance of success, of failing with a free push, and the spreads."""
    n = odds.challenges
    challenges = said("vs {n} challenge", n=n) if n == 1 else said("vs {n} challenges", n=n)
    lines = [
        _fit(say(odds.pool.label), f" {say(challenges)}"),
        _row(say(said("Success")), odds.success),
        _row(say(said("Fail")), odds.failure),
        _row(say(said("Fail, 1+ push")), odds.failure_with_push),
    ]
    for heading, dist in ((said("Successes"), odds.successes), (said("Free pushes"), odds.free_pushes)):
        lines.append(say(heading))
        lines += [_row(f"  {label}", p) for label, p in _spread(dist, 0)]
    return _block(lines)


def chances(odds: ViolenceOdds | KnaveryOdds) -> Said:
    """``58% to win, 20% to lose``: the odds in a few words, from the first side's point of view."""
    if isinstance(odds, KnaveryOdds):
        return said("{p} to succeed", p=percent(odds.success, 0))
    if odds.lands:
        return said("{win} to win, {lose} to lose", win=percent(odds.most[0], 0), lose=percent(odds.most[1], 0))
    return said("{p} to roll the most hits", p=percent(odds.most[0], 0))


def summary(odds: ViolenceOdds | KnaveryOdds) -> str:
    """One short line for under a pool being built: ``odds now:`` and the ``chances`` (a ``Said``)."""
    return said("odds now: {chances}", chances=chances(odds))
