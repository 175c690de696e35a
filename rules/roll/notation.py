"""The extensions around d20's notation: repeated sets, success counting, adv/dis, and a ``#`` label.

Everything here is peeled off the outside of the string; what is left (the body) goes to d20 unchanged
apart from lower-casing outside ``[annotations]``, because d20 only knows lower-case operators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from rules.roll.errors import RollError
from rules.roll.limits import DEFAULT_LIMITS, RollLimits


class Advantage(IntEnum):
    """Same values as ``d20.AdvType`` so it can be passed straight through."""

    NONE = 0
    ADV = 1
    DIS = -1


@dataclass(frozen=True, slots=True)
class RollRequest:
    """A roll string taken apart: what d20 evaluates, and what we add on top."""

    body: str
    sets: int = 1
    advantage: Advantage = Advantage.NONE
    target: int | None = None
    """Dice showing at least this count as successes (``t7``)."""
    failure: int | None = None
    """Dice showing at most this take one success away (``f1``)."""
    label: str | None = None

    def canonical(self, *, with_label: bool = True) -> str:
        """The request written back in the primary syntax; parsing it gives the same request."""
        parts = [f"{self.sets}x {self.body}" if self.sets > 1 else self.body]
        if self.target is not None:
            parts.append(f"t{self.target}")
        if self.failure is not None:
            parts.append(f"f{self.failure}")
        if self.advantage is not Advantage.NONE:
            parts.append("adv" if self.advantage is Advantage.ADV else "dis")
        if with_label and self.label:
            parts.append(f"# {self.label}")
        return " ".join(parts)


# `6x 4d6kh3` is the primary form; `6 4d6kh3` (Dice Maiden) is accepted when what follows the count
# starts like a roll, so that d20's own `6 + 1` or `6 -1` keep meaning arithmetic.
_REPEAT_X = re.compile(r"^\s*(\d+)\s*x\s*(?=\S)", re.IGNORECASE)
_REPEAT_SPACE = re.compile(r"^\s*(\d+)\s+(?=[\d(d])", re.IGNORECASE)
# Suffix words, peeled from the right one at a time. They must follow a space, a digit, `)` or `]`
# so that they are never the tail of something else.
_SUFFIX = re.compile(
    r"(?:^|(?<=[\s\d)\]]))(?P<word>advantage|disadvantage|adv|dis|t\s*(?P<t>\d+)|f\s*(?P<f>\d+))\s*$",
    re.IGNORECASE,
)
_ANNOTATION = re.compile(r"(\[[^\]]*\])")
_DEFAULT_ADV_BODY = "1d20"


def parse_request(text: str, limits: RollLimits = DEFAULT_LIMITS) -> RollRequest:
    """Split a roll string into a :class:`RollRequest`; raise :class:`RollError` when it cannot be."""
    if len(text) > limits.max_chars:
        raise RollError(f"That roll is too long ({len(text)} characters; the limit is {limits.max_chars}).")
    body, _, comment = text.partition("#")
    label = comment.strip() or None
    sets, body = _split_repeat(body, limits)
    advantage = Advantage.NONE
    target: int | None = None
    failure: int | None = None
    while match := _SUFFIX.search(body):
        word = match["word"].lower()
        if match["t"] is not None:
            target = _once(target, int(match["t"]), "t")
        elif match["f"] is not None:
            failure = _once(failure, int(match["f"]), "f")
        else:
            wanted = Advantage.ADV if word.startswith("adv") else Advantage.DIS
            if advantage is not Advantage.NONE:
                raise RollError("Use `adv` or `dis` once.")
            advantage = wanted
        body = body[: match.start()]
    body = _lower_outside_annotations(body.strip())
    if not body:
        if advantage is Advantage.NONE:
            raise RollError("There is nothing to roll. Try `1d20+5` or `4d6kh3`.")
        body = _DEFAULT_ADV_BODY
    if failure is not None and target is None:
        raise RollError("`f` counts failures against a target: add one, like `6d10 t7 f1`.")
    if target is not None and failure is not None and failure >= target:
        raise RollError(f"The failure number (f{failure}) must be below the target (t{target}).")
    return RollRequest(body, sets, advantage, target, failure, label)


def _split_repeat(body: str, limits: RollLimits) -> tuple[int, str]:
    match = _REPEAT_X.match(body) or _REPEAT_SPACE.match(body)
    if match is None:
        return 1, body
    sets = int(match[1])
    if not 1 <= sets <= limits.max_sets:
        raise RollError(f"You can repeat a roll 1 to {limits.max_sets} times, not {sets}.")
    return sets, body[match.end() :]


def _once(current: int | None, value: int, letter: str) -> int:
    if current is not None:
        raise RollError(f"Use `{letter}` once.")
    return value


def _lower_outside_annotations(body: str) -> str:
    # re.split with a capture group alternates outside/inside; annotations keep the user's case.
    pieces = _ANNOTATION.split(body)
    return "".join(piece if i % 2 else piece.lower() for i, piece in enumerate(pieces))
