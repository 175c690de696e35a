"""Genesys (and Star Wars RPG) narrative dice: symbols instead of numbers, net successes and advantages.

``gen 2g 1y 2p 1r 1b 1k``: ability (green d8), proficiency (yellow d12), difficulty (purple d8), challenge (red
d12), boost (blue d6), setback (black d6), written as a count and a colour letter, in any order (``gen ggyppr``).
Successes cancel failures and advantages cancel threats; one net success or more succeeds. A triumph counts as a
success too, a despair as a failure, and neither is cancelled."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import DiceSource
from rules.odds import Dist, percent
from rules.roll.errors import RollError
from rules.roll.model import Part, Text
from rules.roll.speech import listing
from rules.roll.systems.base import Odds, Rolled, System
from rules.said import said, said_n

USAGE = "gen 2g 1y 2p 1r (1b 1k)"
SUCCESS_ADVANTAGE, SUCCESS, SUCCESS_THREAT = (
    said("Success with advantage"),
    said("Success"),
    said("Success with threat"),
)
FAILURE_ADVANTAGE, FAILURE, FAILURE_THREAT = (
    said("Failure with advantage"),
    said("Failure"),
    said("Failure with threat"),
)
CATEGORIES = (SUCCESS_ADVANTAGE, SUCCESS, SUCCESS_THREAT, FAILURE_ADVANTAGE, FAILURE, FAILURE_THREAT)
MAX_OF_A_KIND = 8
MAX_DICE = 20
SYMBOLS = {"s": "✔", "a": "▲", "f": "✘", "t": "▼", "!": "★", "x": "☠"}
"""success, advantage, failure, threat, triumph, despair (as each face shows them)."""
# Each die's faces as letters of SYMBOLS ("" is a blank), from the Genesys Core Rulebook's dice.
DICE: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "g": ("ability", "d8", ("", "s", "s", "ss", "a", "a", "sa", "aa")),
    "y": ("proficiency", "d12", ("", "s", "s", "ss", "ss", "a", "sa", "sa", "sa", "aa", "aa", "!")),
    "p": ("difficulty", "d8", ("", "f", "ff", "t", "t", "t", "tt", "ft")),
    "r": ("challenge", "d12", ("", "f", "f", "ff", "ff", "t", "t", "ft", "ft", "tt", "tt", "x")),
    "b": ("boost", "d6", ("", "", "s", "sa", "aa", "a")),
    "k": ("setback", "d6", ("", "", "f", "f", "t", "t")),
}
NAMES = {
    "ability": said("ability"),
    "proficiency": said("proficiency"),
    "difficulty": said("difficulty"),
    "challenge": said("challenge"),
    "boost": said("boost"),
    "setback": said("setback"),
}
"""Each die's name as shown (its name in ``DICE`` also names its dice for the source)."""
ORDER = "gypbrk"
_POOL = re.compile(r"(\d*)([gyprbk])", re.IGNORECASE)

State = tuple[int, int, bool, bool]
"""Net successes, net advantages, a triumph, a despair."""


@dataclass(frozen=True, slots=True)
class Params:
    """How many of each die, in ``ORDER``."""

    counts: tuple[int, ...]


def parse(text: str) -> Params:
    """``2g 1y 2p`` or ``ggypp`` → Params((2, 1, 2, 0, 0, 0))."""
    compact = "".join(text.split()).lower()
    if not compact or _POOL.sub("", compact):
        raise RollError(said("Write the dice as counts and colours, like `{usage}` (g y p r b k).", usage=USAGE))
    counts = dict.fromkeys(ORDER, 0)
    for count, colour in _POOL.findall(compact):
        counts[colour] += int(count or 1)
    if any(n > MAX_OF_A_KIND for n in counts.values()) or sum(counts.values()) > MAX_DICE:
        raise RollError(
            said("A pool holds up to {most} dice of a kind and {total} in all.", most=MAX_OF_A_KIND, total=MAX_DICE)
        )
    return Params(tuple(counts[colour] for colour in ORDER))


def canonical(params: Params) -> str:
    """``gen 2g 1y 2p``."""
    return "gen " + " ".join(f"{n}{colour}" for n, colour in zip(params.counts, ORDER, strict=True) if n)


def face_state(face: str) -> State:
    """What one face adds."""
    successes = face.count("s") + face.count("!") - face.count("f") - face.count("x")
    return successes, face.count("a") - face.count("t"), "!" in face, "x" in face


def add(one: State, other: State) -> State:
    """Two states together."""
    return one[0] + other[0], one[1] + other[1], one[2] or other[2], one[3] or other[3]


def judge(state: State) -> str:
    """The outcome's words from the net symbols."""
    if state[0] >= 1:
        return SUCCESS_ADVANTAGE if state[1] > 0 else SUCCESS_THREAT if state[1] < 0 else SUCCESS
    return FAILURE_ADVANTAGE if state[1] > 0 else FAILURE_THREAT if state[1] < 0 else FAILURE


def describe(state: State) -> str:
    """``2 net successes, 1 advantage, a triumph`` (each piece said on its own, joined by the reader's ``say``)."""
    successes, advantages, triumph, despair = state
    parts: list[str] = [
        said_n("{n} net success", "{n} net successes", successes)
        if successes >= 0
        else said_n("{n} net failure", "{n} net failures", -successes)
    ]
    if advantages > 0:
        parts.append(said_n("{n} advantage", "{n} advantages", advantages))
    elif advantages < 0:
        parts.append(said_n("{n} threat", "{n} threats", -advantages))
    parts += [said("a triumph")] * triumph + [said("a despair")] * despair
    return listing(parts)


def roll(params: Params, source: DiceSource) -> Rolled:
    """Roll every die and net the symbols."""
    state: State = (0, 0, False, False)
    parts: list[Part] = []
    for count, colour in zip(params.counts, ORDER, strict=True):
        name, die, faces = DICE[colour]
        landed = [faces[source.roll(f"{name}.{i}", len(faces)) - 1] for i in range(1, count + 1)]
        for face in landed:
            state = add(state, face_state(face))
        if landed:
            shown = ", ".join("".join(SYMBOLS[c] for c in face) or "–" for face in landed)
            parts += [Text(" + ")] if parts else []
            dice = f"{count}{die}"
            parts.append(Text(said("{name} {dice} [{faces}]", name=NAMES[name], dice=dice, faces=shown)))
    category = judge(state)
    verdict = said("{outcome} ({details})", outcome=category, details=describe(state))
    return Rolled(tuple(parts), state[0], category, verdict)


def odds(params: Params) -> Odds:
    """The pool's net symbols, die by die (each face's symbols added to every state so far)."""
    states: dict[State, int] = {(0, 0, False, False): 1}
    for count, colour in zip(params.counts, ORDER, strict=True):
        die = [face_state(face) for face in DICE[colour][2]]
        for _ in range(count):
            grown: dict[State, int] = {}
            for state, ways in states.items():
                for face in die:
                    key = add(state, face)
                    grown[key] = grown.get(key, 0) + ways
            states = grown
    by_category: dict[str, int] = dict.fromkeys(CATEGORIES, 0)
    totals: dict[int, int] = {}
    for state, ways in states.items():
        by_category[judge(state)] += ways
        totals[state[0]] = totals.get(state[0], 0) + ways
    total = sum(states.values())
    triumph = Fraction(sum(w for s, w in states.items() if s[2]), total)
    despair = Fraction(sum(w for s, w in states.items() if s[3]), total)
    note = said("A triumph {triumph} · a despair {despair}.", triumph=percent(triumph), despair=percent(despair))
    return Odds(tuple(by_category.items()), Dist(totals), said("net successes"), note)


SYSTEM = System(
    key="gen",
    words=("gen", "genesys", "swrpg"),
    name=said("Genesys / Star Wars RPG"),
    summary=said("Narrative dice by colour (g y p r b k): net successes and advantages, triumph and despair."),
    usage=USAGE,
    examples=("gen 2g 1y 2p 1r", "gen ggy ppk"),
    parse=parse,
    canonical=canonical,
    roll=roll,
    odds=odds,
)
