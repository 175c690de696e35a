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

from rules.said import Said, said
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
_DIE_HELP = said("write dice like 3d4 or r1d6")
_KNAVERY_HELP = said("like “2d6 1d4 vs 3”")


class OddsInputError(ValueError):
    """The text is not a pool we can work out; ``str(error)`` is a short, friendly sentence for the user (its
    ``args[0]`` a ``Said``: ``localize`` it)."""


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


def _pool(words: list[str], what: Said, base_faces: int) -> Pool:
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
                raise OddsInputError(
                    said("{word} is not a die: did you mean {guess}?", word=echo(word, _QUOTED), guess=guess)
                )
            raise OddsInputError(said("I don't understand {word}: {help}.", word=echo(word, _QUOTED), help=_DIE_HELP))
        rattled, count_digits, face_digits = term.groups()
        count = _number(count_digits) if count_digits else 1
        faces = _number(face_digits)
        if count == 0:
            raise OddsInputError(said("{word} has no dice: write at least 1, like 1d4.", word=echo(word, _QUOTED)))
        if not MIN_FACES <= faces <= MAX_FACES:
            raise OddsInputError(
                said("{word}: dice go from d{low} to d{high}.", word=echo(word, _QUOTED), low=MIN_FACES, high=MAX_FACES)
            )
        if len(dice) + count > MAX_DICE:
            raise OddsInputError(
                said("{what} has more than {most} dice: {most} is the most.", what=what, most=MAX_DICE)
            )
        dice += [Die(faces=faces, rattled=bool(rattled))] * count
    if not dice:
        raise OddsInputError(said("{what} has no dice: {help}.", what=what, help=_DIE_HELP))
    return Pool(dice=tuple(dice))


def parse_pool(text: str) -> Pool:
    """One pool with no ``vs``, e.g. ``3d4 r1d6``: a side given on its own."""
    parts = _split(text)
    if len(parts) > 1:
        raise OddsInputError(said("Write one pool here, with no “vs”."))
    return _pool(parts[0], said("The pool"), VIOLENCE_DIE)


def parse_violence(text: str) -> tuple[Pool, ...]:
    """Two to ``MAX_SIDES`` sides separated by ``vs``, e.g. ``3d4 1d6 vs 2d4``."""
    parts = _split(text)
    if len(parts) == 1:
        raise OddsInputError(said("Write two sides with “vs” between them, like “3d4 1d6 vs 2d4”."))
    if len(parts) > MAX_SIDES:
        raise OddsInputError(said("That is {n} sides: {most} is the most.", n=len(parts), most=MAX_SIDES))
    return tuple(
        _pool(words, said("Side {name}", name=name), VIOLENCE_DIE)
        for name, words in zip(SIDE_NAMES, parts, strict=False)
    )


def parse_knavery(text: str, challenges: int | None = None) -> tuple[Pool, int]:
    """A pool and its number of challenges: ``2d6 1d4 vs 3``, or ``2d6 1d4`` with ``challenges=3``."""
    parts = _split(text)
    if len(parts) > 2 or (len(parts) == 2 and (len(parts[1]) != 1 or not parts[1][0].isdecimal())):
        raise OddsInputError(
            said("Write one pool, then “vs” and the number of challenges, {help}.", help=_KNAVERY_HELP)
        )
    if len(parts) == 2:
        if challenges is not None:
            raise OddsInputError(said("Give the number of challenges once: after “vs” or as the option, not both."))
        challenges = _number(parts[1][0])
    pool = _pool(parts[0], said("The pool"), KNAVERY_DIE)  # what isn't a pool is said before what is missing
    if challenges is None:
        raise OddsInputError(said("How many challenges? Write the number after “vs”, {help}.", help=_KNAVERY_HELP))
    if not 0 <= challenges <= MAX_CHALLENGES:
        raise OddsInputError(said("Challenges go from 0 to {most}.", most=MAX_CHALLENGES))
    return pool, challenges
