"""The text form of ``/vic odds``: dice pools as players type them.

Violence, two or more sides separated by ``vs``::

    3d4 1d6 vs 2d4
    2d4 r1d4 vs d4 d4 d6 vs 3d4

Knavery, one pool, then ``vs`` and the number of challenges; or the pool alone, with the number of challenges
given separately (the slash command's ``challenges`` option)::

    2d6 1d4 vs 3
    3d6 r1d6            (challenges=2)

A die term is ``[r][count]d<faces>``: ``d4`` is one d4, ``3d4`` three of them, ``rd6`` or ``r1d6`` a rattled d6
(rolled twice, the lower kept), ``r3d4`` three rattled d4s. Terms are separated by spaces, commas or ``+``;
``vs.`` works as ``vs``, and case does not matter.

Limits: at most 40 dice in a side or pool, dice of d2 to d100, at most 6 sides (``odds.MAX_SIDES``), and 0 to 40
challenges.

Every mistake raises :class:`OddsInputError`, whose message is a sentence to show the user as is. Messages quote
what the user typed through :func:`rules.text.echo` (cut to 20 characters, made inert), so they are shown as is.
"""

from __future__ import annotations

import re

from rules.text import echo
from rules.viciousness.odds import MAX_SIDES, SIDE_NAMES, Die, Pool

MAX_DICE = 40
MIN_FACES = 2
MAX_FACES = 100
MAX_CHALLENGES = 40
VIOLENCE_DIE = 4  # each combatant's base die (P3): what a bare number in a side most likely lacks
KNAVERY_DIE = 6  # each participant's base die (P4)
_QUOTED = 20  # longest bit of the user's text quoted back in an error

_TERM = re.compile(r"(r?)(\d*)d(\d+)")
_SEPARATORS = re.compile(r"[\s,+]+")
_VS = frozenset({"vs", "vs."})
_DIE_HELP = "write dice like 3d4 or r1d6"
_KNAVERY_HELP = "like “2d6 1d4 vs 3”"


class OddsInputError(ValueError):
    """The text is not a pool we can work out; ``str(error)`` is a short, friendly sentence for the user."""


def _number(digits: str) -> int:
    # Anything longer is over every limit; capping it keeps int() away from huge strings of digits.
    return int(digits) if len(digits) <= 4 else 10**4


def _split(text: str) -> list[list[str]]:
    """The words of ``text``, lower-cased, in one list per ``vs``-separated part."""
    parts: list[list[str]] = [[]]
    for word in _SEPARATORS.split(text.strip().lower()):
        if word in _VS:
            parts.append([])
        elif word:
            parts[-1].append(word)
    return parts


def _pool(words: list[str], what: str, base_faces: int) -> Pool:
    """The dice of ``words``.

    ``what`` names the side or pool in errors (``Side A``, ``The pool``); a bare number is taken for a count of
    dice of ``base_faces`` faces with the ``d…`` forgotten.
    """
    dice: list[Die] = []
    for word in words:
        term = _TERM.fullmatch(word)
        if term is None:
            if word.isdecimal():
                guess = echo(f"{word}d{base_faces}", _QUOTED)
                raise OddsInputError(f"{echo(word, _QUOTED)} is not a die: did you mean {guess}?")
            raise OddsInputError(f"I don't understand {echo(word, _QUOTED)}: {_DIE_HELP}.")
        rattled, count_digits, face_digits = term.groups()
        count = _number(count_digits) if count_digits else 1
        faces = _number(face_digits)
        if count == 0:
            raise OddsInputError(f"{echo(word, _QUOTED)} has no dice: write at least 1, like 1d4.")
        if not MIN_FACES <= faces <= MAX_FACES:
            raise OddsInputError(f"{echo(word, _QUOTED)}: dice go from d{MIN_FACES} to d{MAX_FACES}.")
        if len(dice) + count > MAX_DICE:
            raise OddsInputError(f"{what} has more than {MAX_DICE} dice: {MAX_DICE} is the most.")
        dice += [Die(faces=faces, rattled=bool(rattled))] * count
    if not dice:
        raise OddsInputError(f"{what} has no dice: {_DIE_HELP}.")
    return Pool(dice=tuple(dice))


def parse_pool(text: str) -> Pool:
    """One pool with no ``vs``, e.g. ``3d4 r1d6``: a side given on its own."""
    parts = _split(text)
    if len(parts) > 1:
        raise OddsInputError("Write one pool here, with no “vs”.")
    return _pool(parts[0], "The pool", VIOLENCE_DIE)


def parse_violence(text: str) -> tuple[Pool, ...]:
    """Two to ``MAX_SIDES`` sides separated by ``vs``, e.g. ``3d4 1d6 vs 2d4``."""
    parts = _split(text)
    if len(parts) == 1:
        raise OddsInputError("Write two sides with “vs” between them, like “3d4 1d6 vs 2d4”.")
    if len(parts) > MAX_SIDES:
        raise OddsInputError(f"That is {len(parts)} sides: {MAX_SIDES} is the most.")
    return tuple(_pool(words, f"Side {name}", VIOLENCE_DIE) for name, words in zip(SIDE_NAMES, parts, strict=False))


def parse_knavery(text: str, challenges: int | None = None) -> tuple[Pool, int]:
    """A pool and its number of challenges: ``2d6 1d4 vs 3``, or ``2d6 1d4`` with ``challenges=3``."""
    parts = _split(text)
    if len(parts) > 2 or (len(parts) == 2 and (len(parts[1]) != 1 or not parts[1][0].isdecimal())):
        raise OddsInputError(f"Write one pool, then “vs” and the number of challenges, {_KNAVERY_HELP}.")
    if len(parts) == 2:
        if challenges is not None:
            raise OddsInputError("Give the number of challenges once: after “vs” or as the option, not both.")
        challenges = _number(parts[1][0])
    pool = _pool(parts[0], "The pool", KNAVERY_DIE)  # what isn't a pool is said before what is missing
    if challenges is None:
        raise OddsInputError(f"How many challenges? Write the number after “vs”, {_KNAVERY_HELP}.")
    if not 0 <= challenges <= MAX_CHALLENGES:
        raise OddsInputError(f"Challenges go from 0 to {MAX_CHALLENGES}.")
    return pool, challenges
