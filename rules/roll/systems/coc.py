"""Call of Cthulhu 7th edition: d100 under a skill, with bonus and penalty dice.

``coc 60 (b1 | p2)``: each bonus (penalty) die is another tens die, the lowest (highest) result counts.
01 is a critical, a fifth of the skill or less an extreme success, half a hard one, the skill a regular one;
100 is a fumble, and 96–100 when the skill is under 50."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource
from rules.roll.errors import RollError
from rules.roll.model import Text
from rules.roll.systems.base import Faces, Odds, Rolled, System, count_outcomes, draw, group, plain, read_args, within
from rules.said import said

USAGE = "coc 60 (b1 | p1)"
CRITICAL, EXTREME, HARD = said("Critical success"), said("Extreme success"), said("Hard success")
REGULAR, FAILURE, FUMBLE = said("Regular success"), said("Failure"), said("Fumble")
CATEGORIES = (CRITICAL, EXTREME, HARD, REGULAR, FAILURE, FUMBLE)
MAX_EXTRA = 2


@dataclass(frozen=True, slots=True)
class Params:
    """The skill, and bonus (positive) or penalty (negative) dice."""

    skill: int
    extra: int = 0


def parse(text: str) -> Params:
    """``60 b1`` → Params(60, 1)."""
    args = read_args(text, USAGE, {"b": False, "p": False, "bonus": False, "penalty": False})
    if len(args.numbers) < 1:
        raise RollError(said("Against what skill? Write `{usage}`.", usage=USAGE))
    skill = within(args.numbers[0], 1, 99, said("A skill"))
    bonus = args.flag("b") or args.flag("bonus")
    penalty = args.flag("p") or args.flag("penalty")
    if bonus and penalty:
        raise RollError(said("Bonus and penalty dice cancel out: give the difference, like `b1`."))
    count = sum(args.numbers[1:]) if len(args.numbers) > 1 else int(bonus or penalty)
    count = within(count, 0, MAX_EXTRA, said("Bonus or penalty dice"))
    return Params(skill, -count if penalty else count)


def canonical(params: Params) -> str:
    """``coc 60 b1``."""
    extra = f" b{params.extra}" if params.extra > 0 else f" p{-params.extra}" if params.extra < 0 else ""
    return f"coc {params.skill}{extra}"


def _value(tens: int, units: int) -> int:
    """A tens die (1–10, 10 shows 00) and the units die (1–10, 10 shows 0): 1 to 100 (00 and 0 is 100)."""
    value = (tens % 10) * 10 + units % 10
    return value or 100


def _chosen(params: Params, tens: tuple[int, ...], units: int) -> int:
    values = [_value(t, units) for t in tens]
    return min(values) if params.extra >= 0 else max(values)


def grade(skill: int, value: int) -> str:
    """The success level of ``value`` against ``skill``."""
    if value == 100 or (skill < 50 and value >= 96):
        return FUMBLE
    if value == 1:
        return CRITICAL
    if value <= skill // 5:
        return EXTREME
    if value <= skill // 2:
        return HARD
    return REGULAR if value <= skill else FAILURE


def judge(params: Params, faces: Faces) -> tuple[str, int]:
    """From the units die and the tens dice."""
    value = _chosen(params, faces[1], faces[0][0])
    return grade(params.skill, value), value


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll the units die and one tens die per bonus or penalty die, plus one."""
    units = draw(source, "units", 10, 1)
    tens = draw(source, "tens", 10, 1 + abs(params.extra))
    category, value = judge(params, (units, tens))
    chosen = next(i for i, t in enumerate(tens) if _value(t, units[0]) == value)
    kept = [i == chosen for i in range(len(tens))]
    shown = [(t % 10) * 10 for t in tens]  # as percentile dice read: 00, 10, … 90
    # The units die reads 0–9: shown as such, and left out of luck statistics (which count 1 to N).
    parts = (group(said("tens"), "%", shown, kept), Text(" + "), group(said("units"), "0-9", [units[0] % 10]))
    return Rolled(parts, value, category, said("{outcome} (skill {skill})", outcome=category, skill=params.skill))


def odds(params: Params) -> Odds:
    """Every landing of the units die and the tens dice."""
    groups = [(plain(10), 1), (plain(10), 1 + abs(params.extra))]
    return count_outcomes(groups, lambda faces: judge(params, faces), CATEGORIES, "d100")


SYSTEM = System(
    key="coc",
    words=("coc", "cthulhu"),
    name=said("Call of Cthulhu 7th edition"),
    summary=said("d100 under skill with bonus/penalty dice: critical, extreme, hard, regular, failure, fumble."),
    usage=USAGE,
    examples=("coc 60", "coc 45 p1", "coc 70 b2"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
