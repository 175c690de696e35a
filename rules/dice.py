"""Dice sources: the only way an engine gets randomness.

Contract (RULES.md, top): the engine asks for one named die at a time, ``roll(die_id, sides)``, and
gets a value in ``1..sides``. Production uses the OS CSPRNG; tests use :class:`ScriptedDice`, which
fails loudly when it runs out or is asked for a die it was not told about. :class:`RecordingDice`
wraps any source and keeps every roll, so an action's log entry can replay it exactly.
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Protocol

from pydantic import BaseModel, ConfigDict


class DiceSource(Protocol):
    """Anything that can roll one named die."""

    def roll(self, die_id: str, sides: int) -> int:
        """Return a value in ``1..sides`` for the die called ``die_id``."""
        ...


class Roll(BaseModel):
    """One die rolled: which die, how many sides, what came up."""

    model_config = ConfigDict(frozen=True)

    die: str
    sides: int
    value: int


class SystemDice:
    """Production dice: the operating system's CSPRNG."""

    def roll(self, die_id: str, sides: int) -> int:
        return secrets.randbelow(sides) + 1


class SeededDice:
    """A reproducible pseudo-random source for simulations, benchmarks and tests (real games use SystemDice)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random

    def roll(self, die_id: str, sides: int) -> int:
        """A value in 1..sides."""
        return int(self._random() * sides) + 1


class DiceScriptError(AssertionError):
    """A scripted dice source was asked for something its script does not hold."""


class ScriptedDice:
    """Test dice: either one global sequence, or a FIFO queue per die id.

    ``ScriptedDice([1, 2, 3])`` answers any die in order. ``ScriptedDice({"3": [5, 1]})`` answers
    die ``3`` with 5 then 1 and refuses any other die. Values out of range are refused too.
    """

    def __init__(self, script: Iterable[int] | Mapping[str, Iterable[int]]) -> None:
        self._per_die: dict[str, deque[int]] | None = None
        self._sequence: deque[int] | None = None
        if isinstance(script, Mapping):
            self._per_die = {str(k): deque(v) for k, v in script.items()}
        else:
            self._sequence = deque(script)

    def roll(self, die_id: str, sides: int) -> int:
        if self._per_die is not None:
            queue = self._per_die.get(die_id)
            if queue is None:
                raise DiceScriptError(f"die {die_id!r} was rolled but is not in the script")
        else:
            queue = self._sequence
        assert queue is not None
        if not queue:
            raise DiceScriptError(f"script ran out when die {die_id!r} (d{sides}) was rolled")
        value = queue.popleft()
        if not 1 <= value <= sides:
            raise DiceScriptError(f"scripted value {value} does not fit die {die_id!r} (d{sides})")
        return value

    @property
    def remaining(self) -> int:
        """How many scripted values have not been used."""
        if self._per_die is not None:
            return sum(len(q) for q in self._per_die.values())
        assert self._sequence is not None
        return len(self._sequence)


class RecordingDice:
    """Wraps a source and records every roll in order."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.rolls: list[Roll] = []

    def roll(self, die_id: str, sides: int) -> int:
        value = self.source.roll(die_id, sides)
        self.rolls.append(Roll(die=die_id, sides=sides, value=value))
        return value


class ReplayDice:
    """Answers from a recorded list of rolls, checking each die id and size matches the record."""

    def __init__(self, rolls: Iterable[Roll]) -> None:
        self._rolls = deque(rolls)

    def roll(self, die_id: str, sides: int) -> int:
        if not self._rolls:
            raise DiceScriptError(f"replay ran out when die {die_id!r} (d{sides}) was rolled")
        rec = self._rolls.popleft()
        if rec.die != die_id or rec.sides != sides:
            raise DiceScriptError(f"replay expected die {rec.die!r} (d{rec.sides}), got {die_id!r} (d{sides})")
        return rec.value

    @property
    def exhausted(self) -> bool:
        """True when every recorded roll has been used."""
        return not self._rolls
