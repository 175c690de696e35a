"""Reading a roll body into d20's syntax tree, with one operator of ours, and nothing shared between rolls.

d20's own ``Roller.parse`` keeps a cache keyed by the text *with its spaces removed*, shared by every roll that
goes through the same Roller: after someone rolled ``4d6k3``, ``4d6 k3`` (a syntax error in d20) was accepted
with that meaning, and after ``1d20``, the typo ``1d2 0`` rolled a d20. Here the grammar's parser is used
directly, behind a cache keyed by the exact text: what a roll means never depends on what was rolled before.

The grammar is d20's, with one more dice operator, ``xo`` (explode once: each die matching adds one die, and
the added dice don't explode again; Foundry's spelling, and what Dice Maiden's ``e`` does).
"""

from __future__ import annotations

import functools
import threading
from typing import NoReturn

import d20
import lark
from d20 import diceast

from rules.roll.errors import RollError, RollSyntaxError
from rules.said import said
from rules.text import echo

EXPLODE_ONCE = "xo"
_D20_OPERATORS = '"rr" | "ro" | "ra" | "e"'
if _D20_OPERATORS not in diceast.grammar:  # pragma: no cover - a d20 upgrade changed its grammar
    raise ImportError("d20's grammar changed: rules/roll/grammar.py must be updated")
_GRAMMAR = diceast.grammar.replace(_D20_OPERATORS, f'"rr" | "ro" | "ra" | "{EXPLODE_ONCE}" | "e"')
_PARSER = lark.Lark(
    _GRAMMAR, start=["expr"], parser="lalr", transformer=diceast.RollTransformer(), maybe_placeholders=True
)
# Lark's LALR parser with an inline transformer keeps per-parse state; tests roll in threads.
_PARSER_LOCK = threading.Lock()
_PARSE_CACHE_SIZE = 512


@functools.lru_cache(maxsize=_PARSE_CACHE_SIZE)
def parse_body(body: str) -> diceast.Expression:
    """Parse a roll body once per exact text (parsing costs ~0.1 ms, rolling a few dice far less).

    Trees are never mutated. lru_cache does not cache exceptions, so a bad roll is explained afresh every time.
    """
    try:
        with _PARSER_LOCK:
            return _PARSER.parse(body, start="expr")
    except lark.UnexpectedToken as error:
        token = error.token  # type: ignore[attr-defined]  # lark-parser 0.9 sets it in __init__
        _syntax_error(body, "$END" if token.type == "$END" else str(token), error.column)  # type: ignore[attr-defined]
    except lark.UnexpectedCharacters as error:
        _syntax_error(body, body[error.pos_in_stream], error.column, after=body[error.pos_in_stream + 1 :])
    except (d20.RollError, lark.exceptions.LarkError):
        raise RollSyntaxError(said("I can't read that roll. Try something like `2d6+3`.")) from None


def reads_as_roll(text: str) -> bool:
    """True when ``text`` is a roll body by itself (``d20``, ``2d6+3``)."""
    try:
        parse_body(text.strip().lower())
    except (RollError, RecursionError):
        return False
    return True


def _syntax_error(body: str, got: str, column: object, after: str = "") -> NoReturn:
    if got in ("$END", ""):
        raise RollSyntaxError(
            said("That roll ends too early: {roll} needs something after it.", roll=echo(body, 40, code=True))
        ) from None
    raise RollSyntaxError(
        said(
            "I can't read that roll: unexpected {got} at character {column}. {hint}",
            got=echo(got, 40, code=True),
            column=column,
            hint=_hint(got, after),
        )
    ) from None


def _hint(got: str, after: str) -> str:
    if got == "!" and after.lstrip().startswith("="):
        return said("To compare, write `!=` without a space, like `1d20 != 1`.")
    if got == "!":
        return said("To explode dice write `e`, like `3d6e6`.")
    return said("Try something like `2d6+3`.")
