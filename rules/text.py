"""Text typed by players: made safe to show (its markdown and mentions inert, cut when a message repeats it), and
read as a number.

Pure and Discord-free (the engines repeat what was typed in the reasons they give), but written for the way
Discord reads a message: markdown, ``@everyone``, ``<@id>`` mentions and masked links.
"""

from __future__ import annotations

import re

# Characters that format text anywhere, and the block markers that only count at a line's start.
_INLINE = re.compile(r"([\\*_~`|\[\]])")
_LINE_START = re.compile(r"^(\s*)([>#-])", re.MULTILINE)
# @everyone, @here, and raw user or role mentions: a zero-width space after the @ makes them inert.
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")
_ANGLE_MENTION = re.compile(r"<([@#])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # Unicode's control characters (category Cc)

ECHO_MAX = 100
"""How much of what someone typed a message repeats (a name, a search): enough to recognise it."""
_ISOLATE, _END_ISOLATE = "\u2068", "\u2069"
NUMBER_DIGITS = 9
"""The most digits a typed number may have: more than any game counts, and far from the thousands of digits
that Python refuses to turn into an int."""


def escape(text: str) -> str:
    """Typed text (a display name, a label, a note) made inert: no markdown, no mentions, no masked links."""
    text = _INLINE.sub(r"\\\1", text)
    text = _LINE_START.sub(r"\1\\\2", text)
    text = _ANGLE_MENTION.sub("<\u200b\\1", text)
    return _MENTION.sub("@\u200b\\1", text)


def echo(typed: str, limit: int = ECHO_MAX, *, code: bool = False) -> str:
    """What someone typed, as a reply repeats it (No character is called “Bob”): on one line without control
    characters, cut to ``limit`` characters (ending in …), inert, and isolated from the sentence around it, so
    right-to-left text or a direction override inside it can't turn that sentence around.

    In quotes with its markdown and mentions escaped (``escape``), or with ``code`` in a code span (a term of a
    notation: `d7:3`), where nothing renders and only backticks need replacing."""
    line = " ".join(_CONTROL.sub(" ", typed).split())
    if len(line) > limit:
        line = line[: limit - 1].rstrip() + "…"
    if code:
        unquoted = line.replace("`", "'")
        return f"`{_ISOLATE}{unquoted}{_END_ISOLATE}`"
    return f"“{_ISOLATE}{escape(line)}{_END_ISOLATE}”"


def whole_number(typed: str, digits: int = NUMBER_DIGITS) -> int | None:
    """The whole number (0 or more) ``typed`` is in ASCII digits, spaces around it allowed; None if it isn't one.

    A number of more than ``digits`` digits (leading zeros aside) is read as ``10**digits``: over every limit a
    game has, so it is refused as too big, and int() never meets thousands of digits."""
    value = typed.strip()
    if not (value.isascii() and value.isdigit()):
        return None
    value = value.lstrip("0") or "0"
    return int(value) if len(value) <= digits else 10**digits
