"""Exact odds of a ``/roll`` expression: the distribution of what it would roll, on ``rules/odds.py``'s counts.

The same parse as a roll (``rules/roll/grammar.py``), and the same meaning: ``adv``/``dis`` rewrite the tree as the
roller does (``2d20kh1`` before the d20's own operators), d20's own arithmetic (``/`` in floating point, as d20
divides), a dice term's operators left to right on its kept dice (a reroll draws a fresh face; ``mi``/``ma``
clamp; ``e``/``xo`` add dice; ``kh``/``kl``/``ph``/``pl`` keep or drop by rank, ``k>3``-style selectors by value),
totals truncated toward zero at the end, and with ``t``/``f`` the number of successes of every kept die. One set of
a repeated roll is shown.

What isn't worked out exactly is refused with the reason (:class:`~rules.odds.TooCostly`, or a ``RollError`` for an
order of operators this module doesn't follow): a keep after an explosion (the added dice join the pool), more
operators after a keep by rank that leaves several dice, a set operator on terms with many values, numbers past
2^53 once fractions are in play (floats stop being exact there). Explosions are followed until the chance of going
further is below one in a billion (``OddsResult.explode_depth`` says how far); everything else is exact.

The work is bounded by counting it, not by a clock: every step that combines values spends from one budget
(``WORK_LIMIT``), checked before the step, so an expression the per-step limits accept but whose steps add up
stops with :class:`OverBudget` instead of computing on after its asker was told it took too long.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

import d20
from d20 import diceast
from d20.expression import BinOp

from rules.odds import Dist, TooCostly, Value, bar, keep, percent
from rules.roll.engine import check
from rules.roll.errors import RollError
from rules.roll.grammar import EXPLODE_ONCE, parse_body
from rules.roll.notation import RollRequest, check_length
from rules.roll.speech import ENGLISH, Say
from rules.roll.systems import find_preset, preset_odds
from rules.roll.systems.table import odds_text
from rules.said import said

COMBINE_LIMIT = 4_000_000
"""Pairs of values one arithmetic step may combine (``1d100*1d100`` is 10,000)."""
KEEP_LIMIT = 1_000_000
"""Steps of a keep by rank (values² × dice² × kept): ``20d10kh10`` takes 400,000."""
SET_LIMIT = 20_000
"""Combinations of a set's terms walked one by one (``(1d20, 1d20, 1d20)kh1`` is 8,000)."""
SUPPORT_LIMIT = 100_000
"""Different values a distribution may hold."""
TERM_SPAN_LIMIT = 1_000
"""Totals one dice term may span (``200d6`` spans 1,000): the counts grow to hundreds of digits past it."""
WORK_LIMIT = 1_000_000
"""Steps one answer may take in all (a multiply-add of a convolution, a state of a keep): about a second of work
at most. The heaviest accepted in bench/dice.py take 300,000 to 900,000; ``1d1000/1d1000`` (a million
quotients) is refused before it starts."""
DICT_STEP = 4
"""Steps one pair of values costs when it goes through Python's dicts (any operator but a sum of whole numbers,
an explosion's chain, a set's combination): measured at about four multiply-adds of a convolution."""
EXACT_FLOAT = 2**53
"""Past this, a float no longer holds every whole number: with fractions in play, odds stop there."""
EXPLODE_TAIL = Fraction(1, 10**9)
ROWS = 20
LINE = 38


@dataclass(frozen=True, slots=True)
class OddsResult:
    """The distribution of a roll's total (or successes), and how it was worked out."""

    expression: str
    dist: Dist
    successes: bool
    explode_depth: int = 0
    sets: int = 1
    work: int = 0
    """Steps spent working it out (at most ``WORK_LIMIT``)."""


class OverBudget(TooCostly):
    """The answer would take more than ``WORK_LIMIT`` steps; ``work`` is how many were spent when it stopped."""

    def __init__(self, work: int) -> None:
        super().__init__(said("it takes over {most} steps", most=format(WORK_LIMIT, ",")))
        self.work = work


class _Context:
    def __init__(self, request: RollRequest, tree: diceast.Node) -> None:
        self.request = request
        self.explode_depth = 0
        self.successes = request.target is not None
        self.work = 0
        self.floats = _has_floats(tree)
        """``/`` or a decimal somewhere: values may be floats, and a float and an int of the same value share a
        key, which is only harmless while every value is a whole number a float holds exactly."""

    def spend(self, steps: int) -> None:
        """Count ``steps`` of work about to be done; stop the whole answer before it goes over the budget."""
        if self.work + steps > WORK_LIMIT:
            raise OverBudget(self.work)
        self.work += steps

    def checked(self, dist: Dist) -> Dist:
        """``dist``, once it is known to hold only numbers whose odds are exact (see ``floats``)."""
        if self.floats:
            self.spend(len(dist.ways))
            if any(_inexact(v) for v in dist.ways if v is not DROPPED):
                raise RollError(
                    said(
                        "Odds of numbers past {most} with `/` or decimals aren't worked out "
                        "(floating point isn't exact there).",
                        most=format(EXACT_FLOAT, ","),
                    )
                )
        return dist

    def map(self, dist: Dist, f: Callable[[Any], Any]) -> Dist:
        """``dist.map(f)``, counted."""
        self.spend(len(dist.ways))
        return dist.map(f)

    def plus(self, left: Dist, right: Dist) -> Dist:
        """The sum, counted: a convolution over the spans of whole numbers, else every pair."""
        dense = all(isinstance(v, int) for v in (*left.ways, *right.ways))
        self.spend(_span(left) * _span(right) if dense else DICT_STEP * len(left.ways) * len(right.ways))
        return self.checked(left.plus(right, COMBINE_LIMIT))

    def success_value(self, face: Value) -> Value:
        """What one kept die adds: its face, or with ``t``/``f`` its success (+1), failure (−1) or nothing."""
        request = self.request
        if not self.successes or request.target is None:
            return face
        return int(face >= request.target) - int(request.failure is not None and face <= request.failure)


def odds(text: str) -> OddsResult:
    """The exact distribution of ``text`` as ``/roll`` would roll it; RollError or TooCostly when it can't be had."""
    request = check(text)
    try:
        # The roller's own rewrite for adv/dis (d20's): the leftmost 1d20 becomes 2d20kh1 (kl1), the keep put
        # before the d20's own operators, so `1d20mi10 adv` keeps the higher d20 and then raises it to 10.
        tree = d20.utils.ast_adv_copy(parse_body(request.body), d20.AdvType(request.advantage))
        context = _Context(request, tree)
        if context.successes:
            _check_total(tree, context)
            dist = _successes(tree, context)
        else:
            dist = context.map(_value(tree, context), _truncate)
    except RecursionError:
        raise RollError(said("That roll is nested too deeply.")) from None
    if len(dist.ways) > SUPPORT_LIMIT:
        raise TooCostly(said("it has {totals} different totals", totals=format(len(dist.ways), ",")))
    return OddsResult(
        request.canonical(with_label=False), dist, context.successes, context.explode_depth, request.sets, context.work
    )


def _truncate(value: Value) -> Value:
    return int(value)  # d20's total: toward zero


def _check_total(tree: diceast.Node, context: _Context) -> None:
    """Counting successes, the roller still works out the total, and refuses a roll whose total can't be had
    (``1d6 t3 + 1/0``): so do odds. Only a division or a fraction can make a total fail."""
    if _has_node(tree, lambda node: isinstance(node, diceast.BinOp) and node.op in ("/", "//", "%")) or context.floats:
        context.successes = False
        _value(tree, context)
        context.successes = True


def _has_floats(tree: diceast.Node) -> bool:
    return _has_node(
        tree,
        lambda node: (
            (isinstance(node, diceast.Literal) and isinstance(node.value, float))
            or (isinstance(node, diceast.BinOp) and node.op == "/")
        ),
    )


def _has_node(tree: diceast.Node, test: Callable[[diceast.Node], bool]) -> bool:
    stack = [tree]
    while stack:
        node = stack.pop()
        if test(node):
            return True
        stack.extend(node.children)
    return False


def _inexact(value: Value) -> bool:
    return (isinstance(value, float) and not math.isfinite(value)) or not -EXACT_FLOAT < value < EXACT_FLOAT


def _span(dist: Dist) -> int:
    return int(max(dist.ways)) - int(min(dist.ways)) + 1


def _value(node: diceast.Node, context: _Context) -> Dist:
    if isinstance(node, diceast.Expression):
        return _value(node.roll, context)
    if isinstance(node, diceast.AnnotatedNumber | diceast.Parenthetical):
        return _value(node.value, context)
    if isinstance(node, diceast.Literal):
        return context.checked(Dist.constant(node.value))
    if isinstance(node, diceast.UnOp):
        inner = _value(node.value, context)
        return context.map(inner, _negate) if node.op == "-" else inner
    if isinstance(node, diceast.BinOp):
        return _binary(_value(node.left, context), node.op, _value(node.right, context), context)
    if isinstance(node, diceast.OperatedDice | diceast.Dice):
        return _dice(node, context)
    if isinstance(node, diceast.OperatedSet | diceast.NumberSet):
        return _set(node, context)
    raise RollError(said("I can't work out the odds of that roll."))


def _negate(value: Value) -> Value:
    return -value


def _binary(left: Dist, op: str, right: Dist, context: _Context) -> Dist:
    """d20's own operator (its table, so `/` divides in floating point exactly as the roller does)."""
    if op in ("/", "//", "%") and 0 in right.ways:
        raise RollError(said("That roll can divide by zero."))
    if op == "+":
        return context.plus(left, right)
    context.spend(DICT_STEP * len(left.ways) * len(right.ways))
    return context.checked(left.combine(right, BinOp.BINARY_OPS[op], COMBINE_LIMIT))


def _faces(size: int | str) -> Dist:
    if size == "%":
        return Dist.uniform(range(0, 100, 10))
    assert isinstance(size, int)
    if size < 1:
        raise RollError(said("A die needs at least one side."))
    return Dist.uniform(range(1, size + 1))


def _matches(value: Value, selectors: Sequence[d20.SetSelector]) -> bool:
    for selector in selectors:
        if selector.cat is None and value == selector.num:
            return True
        if selector.cat == ">" and value > selector.num:
            return True
        if selector.cat == "<" and value < selector.num:
            return True
    return False


def _ranked(selectors: Sequence[d20.SetSelector]) -> bool:
    return any(selector.cat in ("h", "l") for selector in selectors)


def _dice(node: diceast.OperatedDice | diceast.Dice, context: _Context) -> Dist:
    """One dice term: its operators in order on its kept dice, then the sum of its dice."""
    dice = node.value if isinstance(node, diceast.OperatedDice) else node
    operations = list(node.operations) if isinstance(node, diceast.OperatedDice) else []
    count = dice.num
    base = _faces(dice.size)
    per_die = base
    extra: Callable[[Value], Dist] | None = None
    for index, operation in enumerate(operations):
        selectors = [d20.SetSelector.from_ast(s) if isinstance(s, diceast.SetSelector) else s for s in operation.sels]
        if extra is not None:
            raise RollError(
                said("Odds for operators after an explosion aren't worked out (the added dice join the pool).")
            )
        if operation.op in ("k", "p") and _ranked(selectors):
            if len(selectors) > 1:  # d20 joins `p1ph0` into one drop of either
                raise RollError(
                    said("Odds for `{op}` by rank and by value at once aren't worked out.", op=operation.op)
                )
            if index == len(operations) - 1:
                return _keep_ranked(per_die, count, operation.op, selectors[0], context)
            per_die, count = _keep_ranked_then_more(per_die, count, operation.op, selectors[0], context)
        elif operation.op in ("k", "p"):
            per_die = context.map(per_die, _keeper(selectors, keep=operation.op == "k"))
        elif _ranked(selectors):
            raise RollError(
                said("Odds for `{op}` with `h`/`l` aren't worked out; use a value, like `rr1`.", op=operation.op)
            )
        elif operation.op in ("rr", "ro"):
            per_die = _reroll(per_die, base, selectors, context, forever=operation.op == "rr")
        elif operation.op in ("mi", "ma"):
            if selectors[-1].cat is not None:  # the roller refuses it too (d20's own error)
                raise RollError(
                    said("{selector} is not a valid selector for {op}.", selector=selectors[-1], op=operation.op)
                )
            per_die = context.map(per_die, _clamp(selectors[-1].num, low=operation.op == "mi"))
        elif operation.op in ("e", EXPLODE_ONCE, "ra"):
            if operation.op == "ra" and count > 1:
                raise RollError(said("Odds for `ra` on several dice aren't worked out; `xo` explodes each die once."))
            extra = _explosion(base, selectors, context, once=operation.op != "e")
    if extra is not None:
        if DROPPED in per_die.ways:
            raise RollError(said("Odds for an explosion after a keep by value aren't worked out."))
        contribution = _with_explosions(per_die, extra, context)
    else:
        # A die a keep by value dropped adds nothing; a kept one its face (or its success).
        contribution = context.map(per_die, lambda v: 0 if v is DROPPED else context.success_value(v))
    span = int(max(contribution.ways)) - int(min(contribution.ways))
    if count * span > TERM_SPAN_LIMIT:
        term = f"{count}d{dice.size}"
        raise TooCostly(said("`{dice}` has {totals} different totals", dice=term, totals=format(count * span + 1, ",")))
    return contribution.repeat(count, COMBINE_LIMIT, plus=context.plus)


DROPPED = None
"""A die dropped by a keep by value: it adds nothing, and later operators pass it by (they see kept dice only)."""


def _keeper(selectors: Sequence[d20.SetSelector], *, keep: bool) -> Callable[[Value | None], Value | None]:
    def kept(value: Value | None) -> Value | None:
        return value if value is not DROPPED and _matches(value, selectors) == keep else DROPPED

    return kept


def _clamp(bound: int, *, low: bool) -> Callable[[Value | None], Value | None]:
    def clamped(value: Value | None) -> Value | None:
        if value is DROPPED:
            return value
        return max(value, bound) if low else min(value, bound)

    return clamped


def _kept_by_rank(count: int, op: str, selector: d20.SetSelector) -> tuple[bool, int]:
    """(highest?, how many) a keep or drop by rank keeps of ``count`` dice: dropping the n highest keeps the
    count - n lowest."""
    highest, n = selector.cat == "h", selector.num
    if op == "p":
        highest, n = not highest, count - n
    return highest, max(0, min(n, count))


def _keep_ranked(per_die: Dist, count: int, op: str, selector: d20.SetSelector, context: _Context) -> Dist:
    """The sum of what the kept dice add. With ``t``/``f`` a die adds its success, which never goes down as its
    face goes up, so the dice with the highest faces are the ones with the highest successes."""
    if DROPPED in per_die.ways:
        raise RollError(said("Odds for a keep by rank after a keep by value aren't worked out."))
    highest, n = _kept_by_rank(count, op, selector)
    values = len(per_die.ways)
    context.spend(values * count * count * max(1, n) * values)  # keep()'s own count of its steps
    return keep(context.map(per_die, context.success_value), count, n, highest=highest, limit=KEEP_LIMIT)


def _keep_ranked_then_more(
    per_die: Dist, count: int, op: str, selector: d20.SetSelector, context: _Context
) -> tuple[Dist, int]:
    """A keep by rank with more operators after it, on the dice it kept (d20's order: ``adv`` makes ``1d20mi10``
    into ``2d20kh1mi10``). Worked out when it keeps one die (what that die shows), all of them, or none."""
    highest, n = _kept_by_rank(count, op, selector)
    if n == count:
        return per_die, count
    if n == 0:
        return Dist({DROPPED: 1}), count
    if n > 1:
        raise RollError(
            "Odds for more after a keep or drop by rank that leaves several dice aren't worked out; keep it last."
        )
    if DROPPED in per_die.ways:
        raise RollError(said("Odds for a keep by rank after a keep by value aren't worked out."))
    values = len(per_die.ways)
    context.spend(values * count * count * values)
    return keep(per_die, count, 1, highest=highest, limit=KEEP_LIMIT), 1


def _reroll(
    per_die: Dist, base: Dist, selectors: Sequence[d20.SetSelector], context: _Context, *, forever: bool
) -> Dist:
    """``ro``: a die showing a match is rolled once more; ``rr``: until it doesn't match."""
    context.spend(len(per_die.ways) + len(base.ways))
    matching = sum(c for v, c in per_die.ways.items() if v is not DROPPED and _matches(v, selectors))
    if not matching:
        return per_die
    fresh = Dist({v: c for v, c in base.ways.items() if not _matches(v, selectors)}) if forever else base
    if not fresh.ways:
        raise RollError(said("That reroll would never stop: every face matches."))
    total_fresh = fresh.total
    ways: dict[Value, int] = {}
    for value, count in per_die.ways.items():
        if value is DROPPED or not _matches(value, selectors):
            ways[value] = ways.get(value, 0) + count * total_fresh
    for value, count in fresh.ways.items():
        ways[value] = ways.get(value, 0) + matching * count
    return Dist(ways)


def _explosion(
    base: Dist, selectors: Sequence[d20.SetSelector], context: _Context, *, once: bool
) -> Callable[[Value], Dist]:
    """What a die that exploded adds: one more die (``xo``), or a chain while they match (``e``)."""
    chance = base.chance(lambda v: _matches(v, selectors))
    if chance == 1:
        raise RollError(said("Every face explodes: that roll would never stop."))
    mapped = base.map(context.success_value)
    if once:
        chain = mapped
    else:
        depth = 1
        while chance**depth > EXPLODE_TAIL and depth < 60:
            depth += 1
        context.explode_depth = max(context.explode_depth, depth)
        chain = mapped
        for _ in range(depth - 1):
            chain = _explode_step(base, selectors, context, chain)
    return lambda face: chain if _matches(face, selectors) else Dist.constant(0)


def _explode_step(base: Dist, selectors: Sequence[d20.SetSelector], context: _Context, chain: Dist) -> Dist:
    context.spend(DICT_STEP * len(base.ways) * len(chain.ways))
    ways: dict[Value, int] = {}
    total = chain.total
    for face, count in base.ways.items():
        value = context.success_value(face)
        if _matches(face, selectors):
            for more, ways_more in chain.ways.items():
                ways[value + more] = ways.get(value + more, 0) + count * ways_more
        else:
            ways[value] = ways.get(value, 0) + count * total
    return Dist(ways)


def _with_explosions(per_die: Dist, extra: Callable[[Value], Dist], context: _Context) -> Dist:
    """Each die's own value (or success) plus what its explosion adds."""
    parts: dict[Value, int] = {}
    context.spend(DICT_STEP * len(per_die.ways) * max(len(extra(v).ways) for v in per_die.ways))
    scale = max(extra(v).total for v in per_die.ways)
    for face, count in per_die.ways.items():
        added = extra(face)
        factor = scale // added.total
        own = context.success_value(face)
        for more, ways_more in added.ways.items():
            key = own + more
            parts[key] = parts.get(key, 0) + count * ways_more * factor
    return Dist(parts)


def _set(node: diceast.OperatedSet | diceast.NumberSet, context: _Context) -> Dist:
    """``(1d4, 1d6)kh1``: terms kept or dropped by their totals (every combination, within a limit)."""
    the_set = node.value if isinstance(node, diceast.OperatedSet) else node
    operations = list(node.operations) if isinstance(node, diceast.OperatedSet) else []
    if isinstance(the_set, diceast.Parenthetical):
        terms = [_value(the_set.value, context)]
    else:
        terms = [_value(term, context) for term in the_set.values]
    if not operations:
        total = Dist.constant(0)
        for term in terms:
            total = context.plus(total, term)
        return total
    combinations = 1
    for term in terms:
        combinations *= len(term.ways)
    if combinations > SET_LIMIT:
        raise TooCostly(
            said(
                "a set of {terms} terms has {combinations} combinations",
                terms=len(terms),
                combinations=format(combinations, ","),
            )
        )
    context.spend(DICT_STEP * combinations * max(1, len(terms)))
    ways: dict[Value, int] = {}
    for picks in product(*(term.ways.items() for term in terms)):
        values = [value for value, _ in picks]
        kept = _kept_terms(values, operations)
        key = sum((values[i] for i in kept), start=0)
        weight = 1
        for _, count in picks:
            weight *= count
        ways[key] = ways.get(key, 0) + weight
    return context.checked(Dist(ways))


def _kept_terms(values: list[Value], operations: Sequence[d20.SetOperator]) -> list[int]:
    kept = list(range(len(values)))
    for operation in operations:
        selectors = [d20.SetSelector.from_ast(s) if isinstance(s, diceast.SetSelector) else s for s in operation.sels]
        chosen: set[int] = set()
        for selector in selectors:
            ordered = sorted(kept, key=lambda i: values[i])
            if selector.cat == "h":
                chosen.update(ordered[len(ordered) - selector.num :] if selector.num else [])
            elif selector.cat == "l":
                chosen.update(ordered[: selector.num])
            else:
                chosen.update(i for i in kept if _matches(values[i], [selector]))
        if operation.op == "k":
            kept = [i for i in kept if i in chosen]
        elif operation.op == "p":
            kept = [i for i in kept if i not in chosen]
        else:
            raise RollError(said("Odds for `{op}` on a set aren't worked out.", op=operation.op))
    return kept


def _successes(node: diceast.Node, context: _Context) -> Dist:
    """With ``t``/``f``: the successes of every dice term, whatever arithmetic joins them."""
    total = Dist.constant(0)
    stack: list[diceast.Node] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, diceast.OperatedDice | diceast.Dice):
            total = context.plus(total, _dice(current, context))
        elif isinstance(current, diceast.OperatedSet) and current.operations:
            raise RollError(said("Odds of successes with a set operator aren't worked out."))
        else:
            stack.extend(current.children)
    return total


def odds_table(
    text: str, at_least: int | None = None, at_most: int | None = None, *, say: Say = ENGLISH
) -> tuple[str, str]:
    """What ``/dice odds`` shows of ``text``: the expression as understood and the table. Worked out in one call,
    so that the roll worker's process does it all and sends back only text (a table of 72,000 values took
    seconds to render, which must not happen on the event loop). A game-system preset (``bitd 3``) shows each of
    its outcomes in the game's words."""
    check_length(text)
    preset = find_preset(text)
    if preset is not None:
        return preset.expression, odds_text(preset_odds(preset), at_least=at_least, at_most=at_most, say=say)
    result = odds(text)
    return result.expression, render_odds(result, at_least=at_least, at_most=at_most, say=say)


def render_odds(
    result: OddsResult, *, at_least: int | None = None, at_most: int | None = None, say: Say = ENGLISH
) -> str:
    """A code block for Discord: each value (or range of values) with its chance, the chance of at least it, a
    bar; then the mean and the asked chances. At most ``ROWS`` rows, under 1,500 characters."""
    dist = result.dist
    total = dist.total
    low, high = int(min(dist.ways)), int(max(dist.ways))
    width = max(1, -(-(high - low + 1) // ROWS))
    noun = say(said("successes") if result.successes else said("total"))
    heading = say(said("chance   ≥ this"))
    lines = [f"{noun:>9}  {heading}"]
    rows: dict[int, int] = {}  # row → ways, in one pass (a row per value scanned everything 20 times)
    for value, count in dist.ways.items():
        row = (int(value) - low) // width
        rows[row] = rows.get(row, 0) + count
    at_or_above = Fraction(1)
    for row in sorted(rows):
        start = low + row * width
        share = Fraction(rows[row], total)
        label = str(start) if width == 1 else f"{start}–{start + width - 1}"
        lines.append(f"{label:>9} {percent(share):>7} {percent(at_or_above):>7} {bar(share, 10)}".rstrip())
        at_or_above -= share
    mean = dist.mean()
    lines.append(say(said("mean {mean} · sd {sd}", mean=format(float(mean), ".2f"), sd=format(dist.sd(), ".2f"))))
    if at_least is not None:
        chance = percent(dist.chance(lambda v: v >= at_least))
        lines.append(say(said("at least {value}: {chance}", value=at_least, chance=chance)))
    if at_most is not None:
        chance = percent(dist.chance(lambda v: v <= at_most))
        lines.append(say(said("at most {value}: {chance}", value=at_most, chance=chance)))
    notes = []
    if result.sets > 1:
        notes.append(say(said("-# For one of the {sets} sets.", sets=result.sets)))
    if result.explode_depth:
        notes.append(
            say(
                said(
                    "-# Explosions followed {depth} deep (going further: under 1 in a billion).",
                    depth=result.explode_depth,
                )
            )
        )
    return "\n".join(["```", *lines, "```", *notes])
