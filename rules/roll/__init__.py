"""``/roll``: d20 dice notation plus the extensions Dice Maiden and Sidekick users expect.

Pure: no Discord here. :func:`roll` parses and evaluates a string with dice from any
:class:`~rules.dice.DiceSource`; :func:`render` turns the result into Discord markdown that fits a message.
See docs/roll.md for the notation.
"""

from rules.roll.engine import roll
from rules.roll.errors import RollError
from rules.roll.limits import DEFAULT_LIMITS, RollLimits
from rules.roll.model import DiceGroup, Face, RollResult, RollSet, Text
from rules.roll.notation import RollRequest, parse_request
from rules.roll.render import render

__all__ = [
    "DEFAULT_LIMITS",
    "DiceGroup",
    "Face",
    "RollError",
    "RollLimits",
    "RollRequest",
    "RollResult",
    "RollSet",
    "Text",
    "parse_request",
    "render",
    "roll",
]
