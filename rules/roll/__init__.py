"""``/roll``: d20 dice notation plus the extensions Dice Maiden and Sidekick users expect.

Pure: no Discord here. :func:`roll` parses and evaluates a string with dice from any
:class:`~rules.dice.DiceSource`; :func:`render` turns the result into Discord markdown that fits a message.
See docs/roll.md for the notation.
"""

from rules.roll.engine import check, check_roll, roll, shadows_notation
from rules.roll.errors import RollError, RollSyntaxError
from rules.roll.limits import DEFAULT_LIMITS, RollLimits
from rules.roll.model import DiceGroup, Face, RollResult, RollSet, Text, faces_rolled
from rules.roll.notation import RollRequest, leading_flags, parse_request, split_label, split_rolls
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
    "RollSyntaxError",
    "Text",
    "check",
    "check_roll",
    "faces_rolled",
    "leading_flags",
    "parse_request",
    "render",
    "roll",
    "shadows_notation",
    "split_label",
    "split_rolls",
]
