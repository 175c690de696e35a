"""Game-system presets for ``/roll``: each system in its own module, all declared once here.

``/roll bitd 3`` finds the system by its first word (or a pattern of its own, like Fate's ``4dF+2``), reads the
rest with the system's ``parse``, and answers with a :class:`~rules.roll.model.RollResult` whose one set carries
the game's words (``verdict``), so rendering, Roll again, secret rolls and luck statistics work as for any roll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.dice import DiceSource
from rules.roll.errors import RollError
from rules.roll.model import RollResult, RollSet
from rules.roll.notation import split_label
from rules.roll.systems import (
    bitd,
    coc,
    cyberpunk,
    daggerheart,
    fate,
    genesys,
    ironsworn,
    pbta,
    savage,
    shadowrun,
    vtm,
    yze,
)
from rules.roll.systems.base import Odds, Rolled, System
from rules.said import said

SYSTEMS: tuple[System, ...] = (
    daggerheart.SYSTEM,
    bitd.SYSTEM,
    pbta.SYSTEM,
    vtm.SYSTEM,
    yze.SYSTEM,
    fate.SYSTEM,
    savage.SYSTEM,
    coc.SYSTEM,
    cyberpunk.SYSTEM,
    shadowrun.SYSTEM,
    ironsworn.SYSTEM,
    genesys.SYSTEM,
)
_BY_WORD = {word: system for system in SYSTEMS for word in system.words}
_FIRST_WORD = re.compile(r"^\s*([a-z][a-z0-9]*)(?=$|[\s+-])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Preset:
    """A preset roll as asked: the system, its parameters and the label."""

    system: System
    params: Any
    label: str | None = None

    @property
    def expression(self) -> str:
        """The notation in full (what Roll again and a push roll again)."""
        return self.system.canonical(self.params)


def system_named(word: str) -> System | None:
    """The system ``word`` calls, if any (``bitd``, ``FitD``)."""
    return _BY_WORD.get(word.strip().lower())


def find_preset(text: str) -> Preset | None:
    """The preset ``text`` asks for (``bitd 3 # Sneak``), None when it isn't one; RollError when the system is
    named but its arguments don't fit."""
    body, label = split_label(text)
    for system in SYSTEMS:
        if system.pattern is not None and system.pattern.match(body) and _whole_preset(system, body):
            return Preset(system, system.parse(body), label)
    match = _FIRST_WORD.match(body)
    named = system_named(match[1]) if match is not None else None
    if match is None or named is None:
        return None
    return Preset(named, named.parse(body[match.end() :]), label)


def _whole_preset(system: System, body: str) -> bool:
    """Whether ``body`` is the system's own form and nothing else: ``4dF+2`` is, ``4dF+1d6`` is not (d20's
    notation then refuses it, with the d20 spelling of the same total)."""
    try:
        system.parse(body)
    except RollError:
        return False
    return True


def roll_preset(preset: Preset, source: DiceSource) -> RollResult:
    """Roll a preset: its dice from ``source``, its verdict in the game's words."""
    return _result(preset, preset.system.roll(preset.params, source))


def push_preset(preset: Preset, state: tuple[int, ...], source: DiceSource) -> RollResult:
    """Push a roll (Year Zero) from its ``state``; RollError for a system without pushes."""
    if preset.system.push is None:
        raise RollError(said("{system} rolls can't be pushed.", system=preset.system.name))
    return _result(preset, preset.system.push(preset.params, state, source))


def preset_odds(preset: Preset) -> Odds:
    """The exact odds of a preset roll."""
    return preset.system.odds(preset.params)


def _result(preset: Preset, rolled: Rolled) -> RollResult:
    roll_set = RollSet(parts=rolled.parts, total=rolled.total, verdict=rolled.verdict, state=rolled.state)
    return RollResult(expression=preset.expression, sets=(roll_set,), label=preset.label)


__all__ = [
    "SYSTEMS",
    "Odds",
    "Preset",
    "System",
    "find_preset",
    "preset_odds",
    "push_preset",
    "roll_preset",
    "system_named",
]
