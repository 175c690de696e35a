"""Secret rolls anyone can verify: a roll's result in one canonical line, and a SHA-256 commitment to it.

The channel first sees only ``commitment = SHA-256(result + "\\n" + salt)`` (lowercase hex of the UTF-8 bytes),
with a random salt so a short result (a d20's 20 faces) can't be found by trying them all. The reveal shows the
result line and the salt; anyone can recompute the hash, with ``/dice verify`` or any SHA-256 tool:

    printf '%s\\n%s' "$RESULT" "$SALT" | sha256sum

Pure: the salt is passed in (the bot draws it from the OS CSPRNG).
"""

from __future__ import annotations

import hashlib
import hmac

from rules.roll.model import DiceGroup, Face, RollResult, RollSet

RESULT_MAX = 1_000
"""Longest result line (a slash command option holds it when verifying); beyond it, dice are summarised."""


def canonical(result: RollResult, *, detail: bool = True) -> str:
    """The result as one line of plain text: ``Stealth: 1d20 [14] + 5 = 19``. Dropped dice are in parentheses;
    repeated sets are joined by `` ; ``. Backticks become quotes, so it sits in a code span unchanged."""
    sets = " ; ".join(_set(result, roll_set, detail=detail) for roll_set in result.sets)
    line = f"{result.label}: {sets}" if result.label else sets
    line = " ".join(line.replace("`", "'").split())  # one line, single spaces
    if len(line) > RESULT_MAX and detail:
        return canonical(result, detail=False)
    # Never a space at either end, even where the cut falls: verify() ignores spaces around what is pasted.
    return line[:RESULT_MAX].rstrip()


def commitment(result_line: str, salt: str) -> str:
    """SHA-256 of ``result_line``, a newline and ``salt``, as lowercase hex."""
    return hashlib.sha256(f"{result_line}\n{salt}".encode()).hexdigest()


def verify(expected: str, result_line: str, salt: str) -> bool:
    """Whether ``result_line`` and ``salt`` hash to the ``expected`` commitment.

    Part of the formula, and said so in docs/roll.md: spaces around each of the three pasted values are not part
    of it (a result line never starts or ends with one, a salt is hex digits), and the commitment is a number
    written in hex, so ``A3F9…`` is ``a3f9…``. The result line and the salt are hashed exactly, case included."""
    # Bytes: compare_digest refuses str with non-ASCII characters, and a typed commitment may hold any.
    computed = commitment(result_line.strip(), salt.strip()).encode()
    return hmac.compare_digest(computed, expected.strip().lower().encode())


def _set(result: RollResult, roll_set: RollSet, *, detail: bool) -> str:
    if detail:
        body = "".join(_group(p) if isinstance(p, DiceGroup) else p.text for p in roll_set.parts)
    else:
        body = result.expression
    if roll_set.verdict is not None:
        value = f"{roll_set.total} ({roll_set.verdict})"
    elif roll_set.successes is not None:
        value = f"{roll_set.successes} success{'' if abs(roll_set.successes) == 1 else 'es'}"
    else:
        value = str(roll_set.total)
    return f"{body} = {value}"


def _group(group: DiceGroup) -> str:
    annotation = f" {group.annotation}" if group.annotation else ""
    return f"{group.notation} [{', '.join(_face(face) for face in group.faces)}]{annotation}"


def _face(face: Face) -> str:
    text = str(face.value) + ("!" if face.exploded else "")
    return text if face.kept else f"({text})"
