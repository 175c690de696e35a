"""Evaluating a roll with d20, every die coming from our :class:`~rules.dice.DiceSource`.

d20 draws faces from the module-global ``random`` inside ``Die._add_roll``. Rather than patch that
global (unsafe with rolls running in parallel threads), the roller here builds its own ``Die`` subclass
whose faces come from a per-roll context, which also carries the roll budget and the deadline. Nothing
global changes, so concurrent rolls cannot see each other's dice.
"""

from __future__ import annotations

import time

import d20
from d20 import diceast
from d20.expression import BinOp, Dice, Die, Expression, Literal, Number, Parenthetical, SetOperator, UnOp
from d20.expression import Set as NumberSet

from rules.dice import DiceSource
from rules.roll.errors import RollError, RollSyntaxError
from rules.roll.grammar import EXPLODE_ONCE, parse_body
from rules.roll.limits import DEFAULT_LIMITS, RollLimits
from rules.roll.model import DiceGroup, Face, Landing, Part, RollResult, RollSet, Text
from rules.roll.notation import Advantage, RollRequest, check_length, looks_like_notation, parse_request
from rules.roll.systems import find_preset, roll_preset, system_named
from rules.said import said

LIGHT_DICE = 100
"""Rolls of at most this many dice, with no open-ended rerolls or explosions, take well under a
millisecond: not worth a trip to another process."""
_OPEN_ENDED = ("e", "rr")
CHAINED_NOTE = said(
    "`e` explodes again on every die it adds (d20); Dice Maiden's `e`, once only, is `xo` here (or `3d6 e6`)."
)


def is_light(request: RollRequest) -> bool:
    """True when ``request`` is a small, bounded roll that may be evaluated right away; never raises."""
    try:
        tree = parse_body(request.body)
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
    """Parse and roll ``text`` (notation or a game-system preset, ``bitd 3``); raise :class:`RollError` with a
    user-readable message if it can't be done."""
    check_length(text, limits)
    preset = find_preset(text)
    if preset is not None:
        return roll_preset(preset, source)
    return evaluate(parse_request(text, limits), source, limits)


def check(text: str, limits: RollLimits = DEFAULT_LIMITS) -> RollRequest:
    """Parse notation and hold it against the limits, rolling nothing."""
    request = parse_request(text, limits)
    try:
        _check_size(parse_body(request.body), request, limits)
    except RecursionError:
        raise RollError(said("That roll is nested too deeply.")) from None
    return request


def check_roll(text: str, limits: RollLimits = DEFAULT_LIMITS) -> None:
    """Whatever ``/roll`` takes, notation or a game-system preset (``bitd 3``), checked without rolling (a saved
    roll is checked this way); RollError saying why it can't be rolled."""
    check_length(text, limits)
    if find_preset(text) is None:
        check(text, limits)


def shadows_notation(word: str) -> bool:
    """Whether ``word``, as a saved roll's name, would hide notation from ``/roll``: it rolls, the roller refuses it
    for what it means (``4d6k3``, ``4df``, ``+d20``, ``t7``, a limit), or it is shaped like notation (``k3``,
    ``e6``, ``1d6+``, ``d6-bolt``), or it calls a game-system preset (``bitd``). Only what the grammar can't read
    at all (``attack``, ``2nd-wind``) is free."""
    if looks_like_notation(word) or system_named(word) is not None:
        return True
    try:
        check_roll(word)
    except RollSyntaxError:
        return False
    except (RollError, RecursionError):
        return True
    return True


def evaluate(request: RollRequest, source: DiceSource, limits: RollLimits = DEFAULT_LIMITS) -> RollResult:
    """Roll an already parsed request, every set, within the limits."""
    budget = _RollBudget(source, limits)
    roller = _SourcedRoller(budget)
    try:
        tree = parse_body(request.body)
        _check_size(tree, request, limits)
        sets = tuple(_roll_set(roller, tree, request) for _ in range(request.sets))
    except RecursionError:
        raise RollError(said("That roll is nested too deeply.")) from None
    # Only when an added die exploded again do d20's `e` and Dice Maiden's differ: then say how it was read.
    notes = (*request.notes, CHAINED_NOTE) if budget.chained else request.notes
    return RollResult(
        expression=request.canonical(with_label=False),
        sets=sets,
        label=request.label,
        target=request.target,
        failure=request.failure,
        botch=request.botch,
        private=request.private,
        simple=request.simple,
        notes=notes,
    )


class _RollBudget(d20.RollContext):
    """One per /roll: the dice source, a cap on dice rolled (rerolls and explosions too), a deadline."""

    def __init__(self, source: DiceSource, limits: RollLimits) -> None:
        super().__init__(max_rolls=limits.max_rolls)
        self.source = source
        self.deadline = time.monotonic() + limits.time_limit_s
        self.chained = False
        """An ``e`` explosion added a die that exploded again."""

    def reset(self) -> None:
        # d20 resets the count at the start of every Roller.roll; repeated sets share one budget instead.
        return None

    def count_roll(self, n: int = 1) -> None:
        self.rolls += n
        if self.rolls > self.max_rolls:
            raise RollError(
                said(
                    "That roll keeps going: over {most} dice with rerolls and explosions. "
                    "Try a narrower reroll or explode rule.",
                    most=format(self.max_rolls, ","),
                )
            )
        self.check_clock()

    def check_clock(self) -> None:
        """Stop a roll that has used up its time, from inside the loops that could run long."""
        if time.monotonic() > self.deadline:
            raise RollError(said("That roll took too long to work out. Try fewer dice or fewer rerolls."))

    def face(self, sides: int) -> int:
        """The next face, from the injected source; die ids count up from 1 within one /roll."""
        return self.source.roll(str(self.rolls), sides)


class _SourcedDie(Die):
    __slots__ = ()

    def _add_roll(self) -> None:
        if self.size != "%" and self.size < 1:
            raise RollError(said("A die needs at least one side."))
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
        if self.op == EXPLODE_ONCE:
            self.explode_each_once(target)
        else:
            super().operate(target)

    def explode_each_once(self, target: Dice) -> None:
        """``xo``: every die matching adds one die; the dice added don't explode again."""
        for die in self._in_order(target.values, self.select(target)):
            die.explode()
            target.roll_another()

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
            self.budget.chained = self.budget.chained or bool(pending)

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
                    raise RollError(said("`rrh`/`rrl` would reroll forever (there is always a highest die). Try `ro`."))
        if isinstance(node, diceast.Dice):
            if node.size != "%" and node.size > limits.max_sides:
                raise RollError(
                    said(
                        "A d{sides} is too big; the largest die is a d{most}.",
                        sides=format(node.size, ","),
                        most=format(limits.max_sides, ","),
                    )
                )
            dice += node.num
    if request.advantage is not Advantage.NONE:
        left = d20.utils.leftmost(tree)
        if not (isinstance(left, diceast.Dice) and left.num == 1 and left.size == 20):
            raise RollError(said("`adv` and `dis` need a roll that starts with a d20, like `1d20+5 adv`."))
        dice += 1
    dice *= request.sets
    if dice > limits.max_dice:
        raise RollError(
            said(
                "That's {dice} dice; the most I roll at once is {most}.",
                dice=format(dice, ","),
                most=format(limits.max_dice, ","),
            )
        )


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
        raise RollError(said("That number is too big to work with.")) from None
    groups = [part for part in parts if isinstance(part, DiceGroup) and part.kept]
    faces = [face for group in groups for face in group.faces if face.kept]
    successes = None
    if request.target is not None:
        successes = sum(face.value >= request.target for face in faces)
        if request.failure is not None:
            successes -= sum(face.value <= request.failure for face in faces)
    botches = None if request.botch is None else sum(face.value <= request.botch for face in faces)
    return RollSet(parts=tuple(parts), total=total, successes=successes, botches=botches)


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
        exploded=final.exploded,
        earlier=tuple(_landing(literal) for literal in die.values[:-1]),
        forced_from=_forced_from(final),
    )


def _landing(literal: Literal) -> Landing:
    """A face that was rerolled, with its own explosion and ``mi``/``ma`` history."""
    return Landing(value=int(literal.number), exploded=literal.exploded, forced_from=_forced_from(literal))


def _forced_from(literal: Literal) -> int | None:
    return int(literal.values[0]) if len(literal.values) > 1 else None


def _number(value: float) -> str:
    """A number as typed: ``1234567.5`` stays that, never ``1.23457e+06``."""
    if isinstance(value, int) or value.is_integer():
        return str(int(value))
    text = repr(value)
    return text if "e" not in text else f"{value:f}".rstrip("0").rstrip(".")
