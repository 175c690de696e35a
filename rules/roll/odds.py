"""Exact odds of a ``/roll`` expression: the distribution of what it would roll, on ``rules/odds.py``'s counts.

The same parse as a roll (``rules/roll/grammar.py``), and the same meaning: d20 applies a dice term's operators
left to right (a reroll draws a fresh face; ``mi``/``ma`` clamp; ``e``/``xo`` add dice; ``kh``/``kl``/``ph``/``pl``
keep or drop by rank, ``k>3``-style selectors by value), totals are truncated toward zero at the end, and with
``t``/``f`` the answer is the number of successes of every kept die. One set of a repeated roll is shown.

What isn't worked out exactly is refused with the reason (:class:`~rules.odds.TooCostly`, or a ``RollError`` for an
order of operators this module doesn't follow): a keep after an explosion (the added dice join the pool), a
reroll after a keep, a set operator on terms with many values. Explosions are followed until the chance of going
further is below one in a billion (``OddsResult.explode_depth`` says how far); everything else is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import d20
from d20 import diceast

from rules.odds import Dist, TooCostly, Value, bar, keep, percent
from rules.roll.engine import check
from rules.roll.errors import RollError
from rules.roll.grammar import EXPLODE_ONCE, parse_body
from rules.roll.notation import Advantage, RollRequest

COMBINE_LIMIT = 4_000_000
"""Pairs of values one arithmetic step may combine (``1d100*1d100`` is 10,000)."""
KEEP_LIMIT = 1_000_000
"""Steps of a keep by rank (values² × dice² × kept): ``20d10kh10`` takes 400,000."""
SET_LIMIT = 20_000
"""Combinations of a set's terms walked one by one (``(1d20, 1d20, 1d20)kh1`` is 8,000)."""
SUPPORT_LIMIT = 100_000
TERM_SPAN_LIMIT = 1_000
"""Totals one dice term may span (``200d6`` spans 1,000): the counts grow to hundreds of digits past it."""
"""Different values a distribution may hold."""
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


class _Context:
    def __init__(self, request: RollRequest) -> None:
        self.request = request
        self.advantage_left = request.advantage is not Advantage.NONE
        self.explode_depth = 0
        self.successes = request.target is not None

    def success_value(self, face: Value) -> Value:
        """What one kept die adds: its face, or with ``t``/``f`` its success (+1), failure (−1) or nothing."""
        request = self.request
        if request.target is None:
            return face
        return int(face >= request.target) - int(request.failure is not None and face <= request.failure)


def odds(text: str) -> OddsResult:
    """The exact distribution of ``text`` as ``/roll`` would roll it; RollError or TooCostly when it can't be had."""
    request = check(text)
    context = _Context(request)
    try:
        tree = parse_body(request.body)
        dist = _successes(tree, context) if context.successes else _value(tree, context).map(_truncate)
    except RecursionError:
        raise RollError("That roll is nested too deeply.") from None
    if len(dist.ways) > SUPPORT_LIMIT:
        raise TooCostly(f"it has {len(dist.ways):,} different totals")
    return OddsResult(request.canonical(with_label=False), dist, context.successes, context.explode_depth, request.sets)


def _truncate(value: Value) -> Value:
    return int(value)  # d20's total: toward zero


def _value(node: diceast.Node, context: _Context) -> Dist:
    if isinstance(node, diceast.Expression):
        return _value(node.roll, context)
    if isinstance(node, diceast.AnnotatedNumber | diceast.Parenthetical):
        return _value(node.value, context)
    if isinstance(node, diceast.Literal):
        value = node.value
        return Dist.constant(value if isinstance(value, int) else Fraction(str(value)))
    if isinstance(node, diceast.UnOp):
        inner = _value(node.value, context)
        return inner.map(_negate) if node.op == "-" else inner
    if isinstance(node, diceast.BinOp):
        return _binary(_value(node.left, context), node.op, _value(node.right, context))
    if isinstance(node, diceast.OperatedDice | diceast.Dice):
        return _dice(node, context)
    if isinstance(node, diceast.OperatedSet | diceast.NumberSet):
        return _set(node, context)
    raise RollError("I can't work out the odds of that roll.")


def _negate(value: Value) -> Value:
    return -value


_OPS: dict[str, Callable[[Value, Value], Value]] = {
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: Fraction(a) / b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b),
    "==": lambda a, b: int(a == b),
    ">=": lambda a, b: int(a >= b),
    "<=": lambda a, b: int(a <= b),
    "!=": lambda a, b: int(a != b),
}


def _binary(left: Dist, op: str, right: Dist) -> Dist:
    if op in ("/", "//", "%") and 0 in right.ways:
        raise RollError("That roll can divide by zero.")
    if op == "+":
        return left.plus(right, COMBINE_LIMIT)
    return left.combine(right, _OPS[op], COMBINE_LIMIT)


def _faces(size: int | str) -> Dist:
    if size == "%":
        return Dist.uniform(range(0, 100, 10))
    assert isinstance(size, int)
    if size < 1:
        raise RollError("A die needs at least one side.")
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
    """One dice term: its per-die operators, then a keep by rank, then the sum of its dice."""
    dice = node.value if isinstance(node, diceast.OperatedDice) else node
    operations = list(node.operations) if isinstance(node, diceast.OperatedDice) else []
    count = dice.num
    if context.advantage_left and count == 1 and dice.size == 20:
        # `adv`/`dis` roll the leftmost d20 twice and keep one, exactly as d20 does.
        context.advantage_left = False
        operations = [d20.SetOperator("k", [d20.SetSelector("h" if context.request.advantage > 0 else "l", 1)])]
        count = 2
    base = _faces(dice.size)
    per_die = base
    extra: Callable[[Value], Dist] | None = None
    for index, operation in enumerate(operations):
        selectors = [d20.SetSelector.from_ast(s) if isinstance(s, diceast.SetSelector) else s for s in operation.sels]
        last = index == len(operations) - 1
        if extra is not None:
            raise RollError("Odds for operators after an explosion aren't worked out (the added dice join the pool).")
        if operation.op in ("k", "p"):
            if _ranked(selectors):
                if not last or len(selectors) > 1:
                    raise RollError("Odds for more after a keep or drop by rank aren't worked out; keep it last.")
                return _keep_ranked(per_die.map(context.success_value), count, operation.op, selectors[0])
            per_die = per_die.map(_keeper(selectors, keep=operation.op == "k"))
            continue
        if _ranked(selectors):
            raise RollError(f"Odds for `{operation.op}` with `h`/`l` aren't worked out; use a value, like `rr1`.")
        if operation.op in ("rr", "ro"):
            per_die = _reroll(per_die, base, selectors, forever=operation.op == "rr")
        elif operation.op in ("mi", "ma"):
            per_die = per_die.map(_clamp(selectors[-1].num, low=operation.op == "mi"))
        elif operation.op in ("e", EXPLODE_ONCE, "ra"):
            if operation.op == "ra" and count > 1:
                raise RollError("Odds for `ra` on several dice aren't worked out; `xo` explodes each die once.")
            extra = _explosion(base, selectors, context, once=operation.op != "e")
    if extra is not None:
        if DROPPED in per_die.ways:
            raise RollError("Odds for an explosion after a keep by value aren't worked out.")
        contribution = _with_explosions(per_die, extra, context)
    else:
        # A die a keep by value dropped adds nothing; a kept one its face (or its success).
        contribution = per_die.map(lambda v: 0 if v is DROPPED else context.success_value(v))
    span = int(max(contribution.ways)) - int(min(contribution.ways))
    if count * span > TERM_SPAN_LIMIT:
        raise TooCostly(f"`{count}d{dice.size}` has {count * span + 1:,} different totals")
    return contribution.repeat(count, COMBINE_LIMIT)


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


def _keep_ranked(per_die: Dist, count: int, op: str, selector: d20.SetSelector) -> Dist:
    highest = selector.cat == "h"
    n = selector.num
    if op == "p":  # dropping the n highest keeps the count - n lowest
        highest, n = not highest, count - n
    if DROPPED in per_die.ways:
        raise RollError("Odds for a keep by rank after a keep by value aren't worked out.")
    return keep(per_die, count, n, highest=highest, limit=KEEP_LIMIT)


def _reroll(per_die: Dist, base: Dist, selectors: Sequence[d20.SetSelector], *, forever: bool) -> Dist:
    """``ro``: a die showing a match is rolled once more; ``rr``: until it doesn't match."""
    matching = sum(c for v, c in per_die.ways.items() if v is not DROPPED and _matches(v, selectors))
    if not matching:
        return per_die
    fresh = Dist({v: c for v, c in base.ways.items() if not _matches(v, selectors)}) if forever else base
    if not fresh.ways:
        raise RollError("That reroll would never stop: every face matches.")
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
        raise RollError("Every face explodes: that roll would never stop.")
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
            total = total.plus(term, COMBINE_LIMIT)
        return total
    combinations = 1
    for term in terms:
        combinations *= len(term.ways)
    if combinations > SET_LIMIT:
        raise TooCostly(f"a set of {len(terms)} terms has {combinations:,} combinations")
    ways: dict[Value, int] = {}
    for picks in product(*(term.ways.items() for term in terms)):
        values = [value for value, _ in picks]
        kept = _kept_terms(values, operations)
        key = sum((values[i] for i in kept), start=0)
        weight = 1
        for _, count in picks:
            weight *= count
        ways[key] = ways.get(key, 0) + weight
    return Dist(ways)


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
            raise RollError(f"Odds for `{operation.op}` on a set aren't worked out.")
    return kept


def _successes(node: diceast.Node, context: _Context) -> Dist:
    """With ``t``/``f``: the successes of every dice term, whatever arithmetic joins them."""
    total = Dist.constant(0)
    stack: list[diceast.Node] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, diceast.OperatedDice | diceast.Dice):
            total = total.plus(_dice(current, context), COMBINE_LIMIT)
        elif isinstance(current, diceast.OperatedSet) and current.operations:
            raise RollError("Odds of successes with a set operator aren't worked out.")
        else:
            stack.extend(current.children)
    return total


def render_odds(result: OddsResult, *, at_least: int | None = None, at_most: int | None = None) -> str:
    """A code block for Discord: each value (or range of values) with its chance, the chance of at least it, a
    bar; then the mean and the asked chances. At most ``ROWS`` rows, under 1,500 characters."""
    dist = result.dist
    total = dist.total
    values = sorted(dist.ways)
    low, high = int(values[0]), int(values[-1])
    width = max(1, -(-(high - low + 1) // ROWS))
    noun = "successes" if result.successes else "total"
    lines = [f"{noun:>9}  chance   ≥ this"]
    at_or_above = Fraction(1)
    start = low
    while start <= high:
        end = start + width - 1
        share = Fraction(sum(c for v, c in dist.ways.items() if start <= v <= end), total)
        if share:
            label = str(start) if width == 1 else f"{start}–{end}"
            lines.append(f"{label:>9} {percent(share):>7} {percent(at_or_above):>7} {bar(share, 10)}".rstrip())
        at_or_above -= share
        start = end + 1
    mean = dist.mean()
    lines.append(f"mean {float(mean):.2f} · sd {dist.sd():.2f}")
    if at_least is not None:
        lines.append(f"at least {at_least}: {percent(dist.chance(lambda v: v >= at_least))}")
    if at_most is not None:
        lines.append(f"at most {at_most}: {percent(dist.chance(lambda v: v <= at_most))}")
    notes = []
    if result.sets > 1:
        notes.append(f"-# For one of the {result.sets} sets.")
    if result.explode_depth:
        notes.append(f"-# Explosions followed {result.explode_depth} deep (going further: under 1 in a billion).")
    return "\n".join(["```", *lines, "```", *notes])
