"""Evaluating a roll with d20, every die coming from our :class:`~rules.dice.DiceSource`.

d20 draws faces from the module-global ``random`` inside ``Die._add_roll``. Rather than patch that
global (unsafe with rolls running in parallel threads), the roller here builds its own ``Die`` subclass
whose faces come from a per-roll context, which also carries the roll budget and the deadline. Nothing
global changes, so concurrent rolls cannot see each other's dice.
"""

from __future__ import annotations

import functools
import threading
import time

import d20
import lark
from d20 import diceast
from d20.expression import BinOp, Dice, Die, Expression, Literal, Number, Parenthetical, SetOperator, UnOp
from d20.expression import Set as NumberSet

from rules.dice import DiceSource
from rules.roll.errors import RollError
from rules.roll.limits import DEFAULT_LIMITS, RollLimits
from rules.roll.model import DiceGroup, Face, Part, RollResult, RollSet, Text
from rules.roll.notation import Advantage, RollRequest, parse_request
from rules.text import echo

LIGHT_DICE = 100
"""Rolls of at most this many dice, with no open-ended rerolls or explosions, take well under a
millisecond: not worth a trip to another process."""
_OPEN_ENDED = ("e", "rr")
_PARSE_CACHE_SIZE = 512
_PARSER = d20.Roller()
# d20 keeps its parse cache on the Roller and it is not thread-safe; tests roll in threads.
_PARSER_LOCK = threading.Lock()


def is_light(request: RollRequest) -> bool:
    """True when ``request`` is a small, bounded roll that may be evaluated right away; never raises."""
    try:
        tree = _parse(request.body)
    except (RollError, RecursionError):
        return False
    dice = 0
    stack: list[diceast.Node] = [tree]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if isinstance(node, diceast.OperatedSet) and any(op.op in _OPEN_ENDED for op in node.operations):
            return False
        if isinstance(node, diceast.Dice):
            dice += node.num
    return dice * request.sets <= LIGHT_DICE


def roll(text: str, source: DiceSource, limits: RollLimits = DEFAULT_LIMITS) -> RollResult:
    """Parse and roll ``text``; raise :class:`RollError` with a user-readable message if it can't be done."""
    return evaluate(parse_request(text, limits), source, limits)


def evaluate(request: RollRequest, source: DiceSource, limits: RollLimits = DEFAULT_LIMITS) -> RollResult:
    """Roll an already parsed request, every set, within the limits."""
    roller = _SourcedRoller(_RollBudget(source, limits))
    try:
        tree = _parse(request.body)
        _check_size(tree, request, limits)
        sets = tuple(_roll_set(roller, tree, request) for _ in range(request.sets))
    except RecursionError:
        raise RollError("That roll is nested too deeply.") from None
    return RollResult(
        expression=request.canonical(with_label=False),
        sets=sets,
        label=request.label,
        target=request.target,
        failure=request.failure,
    )


class _RollBudget(d20.RollContext):
    """One per /roll: the dice source, a cap on dice rolled (rerolls and explosions too), a deadline."""

    def __init__(self, source: DiceSource, limits: RollLimits) -> None:
        super().__init__(max_rolls=limits.max_rolls)
        self.source = source
        self.deadline = time.monotonic() + limits.time_limit_s

    def reset(self) -> None:
        # d20 resets the count at the start of every Roller.roll; repeated sets share one budget instead.
        return None

    def count_roll(self, n: int = 1) -> None:
        self.rolls += n
        if self.rolls > self.max_rolls:
            raise RollError(
                f"That roll keeps going: over {self.max_rolls:,} dice with rerolls and explosions. "
                "Try a narrower reroll or explode rule."
            )
        self.check_clock()

    def check_clock(self) -> None:
        """Stop a roll that has used up its time, from inside the loops that could run long."""
        if time.monotonic() > self.deadline:
            raise RollError("That roll took too long to work out. Try fewer dice or fewer rerolls.")

    def face(self, sides: int) -> int:
        """The next face, from the injected source; die ids count up from 1 within one /roll."""
        return self.source.roll(str(self.rolls), sides)


class _SourcedDie(Die):
    __slots__ = ()

    def _add_roll(self) -> None:
        if self.size != "%" and self.size < 1:
            raise RollError("A die needs at least one side.")
        budget: _RollBudget = self._context
        budget.count_roll()
        # d20's percentile die shows the tens: 0, 10, ..., 90.
        value = (budget.face(10) - 1) * 10 if self.size == "%" else budget.face(self.size)
        self.values.append(Literal(value))


class _SourcedDice(Dice):
    __slots__ = ()

    @classmethod
    def new(cls, num: int, size: int | str, context: _RollBudget | None = None) -> _SourcedDice:
        return cls(num, size, [_SourcedDie.new(size, context=context) for _ in range(num)], context=context)

    def roll_another(self) -> None:
        self.values.append(_SourcedDie.new(self.size, context=self._context))


class _BudgetedSetOperator(SetOperator):
    """d20's set operator, made deterministic and fast, with a deadline check.

    - d20 walks Python sets of dice, so which die receives the next face varies from run to run;
      here dice are always visited in the order they appear, so scripted dice land where a test expects.
    - d20's ``keep`` re-sorts the whole set for every die (quadratic: ~0.3 s for 1000d6kh3). Selecting
      once is equivalent: a die outside the selection leaving the kept set changes no selection.
    - d20's ``e`` re-scans every die after each wave (quadratic for a long chain). With ``<``, ``>`` or
      a plain number, only the dice just added can newly match, so only they are checked.
    """

    __slots__ = ("budget",)

    def __init__(self, op: str, sels: list[d20.SetSelector], budget: _RollBudget) -> None:
        super().__init__(op, sels)
        self.budget = budget

    def operate(self, target: Number) -> None:
        self.budget.check_clock()
        super().operate(target)

    def keep(self, target: NumberSet) -> None:
        selected = self.select(target)
        for value in target.keptset:
            if value not in selected:
                value.drop()

    def reroll(self, target: Dice) -> None:
        while to_reroll := self._in_order(target.values, self.select(target)):
            for die in to_reroll:
                die.reroll()

    def reroll_once(self, target: Dice) -> None:
        for die in self._in_order(target.values, self.select(target)):
            die.reroll()

    def explode(self, target: Dice) -> None:
        by_value_only = all(selector.cat not in _RANKED for selector in self.sels)
        exploded: set[Number] = set()
        pending = self._in_order(target.values, self.select(target))
        while pending:
            start = len(target.values)
            for die in pending:
                die.explode()
                target.roll_another()
            if by_value_only:
                added = target.values[start:]
                pending = self._in_order(added, self.select(NumberSet(added)))
            else:
                exploded.update(pending)
                pending = self._in_order(target.values, self.select(target) - exploded)

    @staticmethod
    def _in_order(values: list[Number], selected: set[Number]) -> list[Number]:
        return [value for value in values if value in selected]


_RANKED = ("h", "l")


class _SourcedRoller(d20.Roller):
    context: _RollBudget

    def _eval_dice(self, node: diceast.Dice) -> Dice:
        return _SourcedDice.new(node.num, node.size, context=self.context)

    def _eval_operatedset(self, node: diceast.OperatedSet) -> Number:
        target = self._eval(node.value)
        for op in node.operations:
            operator = _BudgetedSetOperator(op.op, [d20.SetSelector.from_ast(s) for s in op.sels], self.context)
            operator.operate(target)
            target.operations.append(operator)
        return target


@functools.lru_cache(maxsize=_PARSE_CACHE_SIZE)
def _parse(body: str) -> diceast.Expression:
    """Parse a roll body once: parsing costs ~0.1 ms, rolling a few dice far less. Trees are never mutated.

    One shared parser, because d20 keeps its cache on each Roller and we make a Roller per roll.
    lru_cache does not cache exceptions, so a bad roll is explained afresh every time.
    """
    try:
        with _PARSER_LOCK:
            return _PARSER.parse(body)
    except d20.RollSyntaxError as error:
        got = str(error.got)
        if got in ("$END", ""):
            raise RollError(
                f"That roll ends too early: {echo(body, 40, code=True)} needs something after it."
            ) from None
        raise RollError(
            f"I can't read that roll: unexpected {echo(got, 40, code=True)} at character {error.col}. "
            "Try something like `2d6+3`."
        ) from None
    except (d20.RollError, lark.exceptions.LarkError):
        raise RollError("I can't read that roll. Try something like `2d6+3`.") from None


def _check_size(tree: diceast.Expression, request: RollRequest, limits: RollLimits) -> None:
    """Refuse oversized rolls before rolling anything."""
    dice = 0
    stack: list[diceast.Node] = [tree]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if isinstance(node, diceast.OperatedSet):
            for op in node.operations:
                if op.op == "rr" and any(selector.cat in _RANKED for selector in op.sels):
                    raise RollError("`rrh`/`rrl` would reroll forever (there is always a highest die). Try `ro`.")
        if isinstance(node, diceast.Dice):
            if node.size != "%" and node.size > limits.max_sides:
                raise RollError(f"A d{node.size:,} is too big; the largest die is a d{limits.max_sides:,}.")
            dice += node.num
    if request.advantage is not Advantage.NONE:
        left = d20.utils.leftmost(tree)
        if not (isinstance(left, diceast.Dice) and left.num == 1 and left.size == 20):
            raise RollError("`adv` and `dis` need a roll that starts with a d20, like `1d20+5 adv`.")
        dice += 1
    dice *= request.sets
    if dice > limits.max_dice:
        raise RollError(f"That's {dice:,} dice; the most I roll at once is {limits.max_dice:,}.")


def _roll_set(roller: _SourcedRoller, tree: diceast.Expression, request: RollRequest) -> RollSet:
    try:
        result = roller.roll(tree, advantage=d20.AdvType(request.advantage))
        parts: list[Part] = []
        _flatten(result.expr, parts, kept=True)
        total = result.total
    except d20.RollValueError as error:
        raise RollError(str(error)) from None
    except (OverflowError, ValueError) as error:
        if isinstance(error, RollError):
            raise
        # Float arithmetic can reach inf/nan, which has no whole-number total.
        raise RollError("That number is too big to work with.") from None
    successes = None
    if request.target is not None:
        groups = [part for part in parts if isinstance(part, DiceGroup) and part.kept]
        faces = [face for group in groups for face in group.faces if face.kept]
        successes = sum(face.value >= request.target for face in faces)
        if request.failure is not None:
            successes -= sum(face.value <= request.failure for face in faces)
    return RollSet(parts=tuple(parts), total=total, successes=successes)


def _flatten(node: Number, out: list[Part], *, kept: bool) -> None:
    """Lay the evaluated tree out left to right as text and dice groups, as the user wrote it."""
    kept = kept and node.kept
    if isinstance(node, Dice):
        faces = tuple(_face(die) for die in node.values)
        ops = "".join(str(op) for op in node.operations)
        out.append(DiceGroup(f"{node.num}d{node.size}{ops}", node.size, faces, kept, node.annotation))
        return
    if isinstance(node, Expression):
        _flatten(node.roll, out, kept=kept)
    elif isinstance(node, Literal):
        out.append(Text(_number(node.number), kept))
    elif isinstance(node, UnOp):
        out.append(Text(node.op, kept))
        _flatten(node.value, out, kept=kept)
    elif isinstance(node, BinOp):
        _flatten(node.left, out, kept=kept)
        out.append(Text(f" {node.op} ", kept))
        _flatten(node.right, out, kept=kept)
    elif isinstance(node, Parenthetical | NumberSet):
        out.append(Text("(", kept))
        items = node.values if isinstance(node, NumberSet) else [node.value]
        for i, item in enumerate(items):
            if i:
                out.append(Text(", ", kept))
            _flatten(item, out, kept=kept)
        trailing_comma = "," if isinstance(node, NumberSet) and len(items) == 1 else ""
        out.append(Text(trailing_comma + ")" + "".join(str(op) for op in node.operations), kept))
    if node.annotation:
        out.append(Text(f" {node.annotation}", kept, user_text=True))


def _face(die: Die) -> Face:
    final: Literal = die.values[-1]
    return Face(
        value=int(final.number),
        kept=die.kept,
        exploded=any(literal.exploded for literal in die.values),
        rerolled=tuple(int(literal.values[-1]) for literal in die.values[:-1]),
        forced_from=int(final.values[0]) if len(final.values) > 1 else None,
    )


def _number(value: float) -> str:
    return str(int(value)) if isinstance(value, int) or value.is_integer() else f"{value:g}"
