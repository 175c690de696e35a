"""The names people take in the web client: refused when nothing of them would show, or when they would show as a
member's name already there, so that nobody can pass for someone else at the table.

Look-alikes are found as Unicode's security mechanisms (UTS #39) find them: both names are folded to their
*skeleton*, each character replaced by the prototype it can be confused with, from Unicode's own table of
confusables (``confusables.txt``, as the ``confusable-homoglyphs`` package ships it), and compared with and without
case. Characters drawn as nothing (zero-width, ignorable, the bidirectional controls that make text display in
another order) are refused outright: a name shows exactly the characters it holds, in the order they are typed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache

import regex
from confusable_homoglyphs.confusables import confusables_data

MAX_NAME = 32
# Drawn as nothing, or changing how the rest is drawn: ignorable code points, controls, format characters (the
# bidirectional overrides among them), private use, unassigned, surrogates, line and paragraph separators; and the
# braille blank, a symbol with no dots.
HIDDEN = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\u2800]")
# Emoji are drawn from sequences: a zero-width joiner between two pictographs (a family), a variation selector
# after one (a red heart). Those are part of the picture, not hidden.
EMOJI_GLUE = regex.compile(
    r"(?<=\p{Extended_Pictographic}[\U0001F3FB-\U0001F3FF\uFE0E\uFE0F]*)"
    r"(?:\u200D(?=\p{Extended_Pictographic})|[\uFE0E\uFE0F])"
)
VISIBLE = regex.compile(r"[\p{L}\p{N}\p{P}\p{S}]")
# The table writes right-to-left characters between left-to-right marks, for display; they are not part of them.
MARK = "\u200e"


def tidy(name: str) -> str:
    """A typed name as it is kept: runs of spaces made one, none at either end, composed (NFC)."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


def refusal(name: str, taken: Iterable[str]) -> str | None:
    """Why ``name`` (tidied) can't be taken beside the members' names ``taken``; None if it can."""
    if not 1 <= len(name) <= MAX_NAME:
        return f"A name is 1 to {MAX_NAME} characters."
    if HIDDEN.search(EMOJI_GLUE.sub("", name)):
        return "A name can't hold invisible characters."
    if not VISIBLE.search(name):
        return "A name needs a letter, a digit or a symbol that shows."
    mine = lookalike_keys(name)
    for other in taken:
        if other.casefold() == name.casefold():
            return f"Someone here is already called {name}."
        if mine & lookalike_keys(other):
            return f"{name} looks just like {other}, who is already here: pick another name."
    return None


def lookalike_keys(name: str) -> set[str]:
    """Two names that share a key show the same: their skeletons as typed, and ignoring case."""
    return {skeleton(name), skeleton(name.casefold()).casefold()}


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype among the confusables, NFD again."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (the character, or sequence, everything like it folds to).

    The package keeps Unicode's table both ways round: a prototype lists everything that looks like it, a character
    lists its one prototype. A character with several look-alikes is a prototype and stands for itself; a lone pair
    folds to either, the same one for both.
    """
    near: dict[str, list[str]] = {}
    for key, entries in confusables_data.items():
        near.setdefault(key.replace(MARK, ""), []).extend(entry["c"].replace(MARK, "") for entry in entries)
    table: dict[str, str] = {}
    for char, others in near.items():
        if len(char) != 1 or len(others) != 1:
            continue
        other = others[0]
        table[char] = other if len(other) > 1 or len(near.get(other, ())) > 1 else min(char, other)
    return table
