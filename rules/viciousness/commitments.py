"""The GM's rival dice, committed in the channel (``vic.rival_dice = committed``, a table's own setting): each d20,
d4 and d6 a rival rolls is shown at once as a commitment — the SHA-256 of its result line and a salt, as ``/dice
secret`` does (``rules/roll/commitment.py``) — naming no rival or design, and kept (GM-only) until the GM reveals
it: the result line and the salt, which anyone checks with ``/dice verify`` or any SHA-256 tool.

The salt of each die is derived from a salt the bot draws for the action (``RivalDice.salt``) and the die's id, so
revealing one die shows nothing of another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from rules.engine import IllegalAction
from rules.roll.commitment import commitment
from rules.said import said
from rules.viciousness.actions import Action, RevealDice
from rules.viciousness.state import COMMITTED_KEPT, CommittedDie
from rules.viciousness.work import Work

SALT_CHARS = 32


def die_salt(salt: str, die: str) -> str:
    """The salt of one die, from the action's salt and the die's id."""
    return hashlib.sha256(f"{salt}:{die}".encode()).hexdigest()[:SALT_CHARS]


def result_line(sides: int, value: int) -> str:
    """One die's result as ``/roll`` writes it (``1d20 [14] = 14``): the line its commitment hashes."""
    return f"1d{sides} [{value}] = {value}"


def roll_rival_die(w: Work, die: str, sides: int) -> int:
    """Roll one of the GM's rival dice; committed in the channel when the table chose so."""
    value = w.roll(die, sides)
    if w.s.options.rival_dice != "committed" or not w.salt:
        return value
    line, salt = result_line(sides, value), die_salt(w.salt, die)
    kept = CommittedDie(
        die=die, sides=sides, turn=w.s.turn.number, line=line, salt=salt, commitment=commitment(line, salt)
    )
    w.put(committed=(*w.s.committed, kept)[-COMMITTED_KEPT:])
    w.emit("die_committed", sides=sides, turn=kept.turn, commitment=kept.commitment)
    return value


def _reveal(w: Work, a: RevealDice) -> None:
    wanted = set(a.dice)
    shown = [d for d in w.s.committed if not wanted or d.die in wanted]
    if not shown:
        raise IllegalAction(
            said("No rival die waits to be revealed.") if not wanted else said("No such die waits to be revealed.")
        )
    w.put(committed=tuple(d for d in w.s.committed if d not in shown))
    for d in shown:
        w.emit("die_revealed", sides=d.sides, turn=d.turn, line=d.line, salt=d.salt, commitment=d.commitment)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {RevealDice: _reveal}
