"""Discord markdown for a roll: every die when it fits, less detail step by step when it doesn't.

Detail levels, most to least: every face; faces tallied by value (``6×12``); one summary per dice term;
set totals only. The first level that fits wins; a final cut guarantees the limit even for absurd input.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from enum import IntEnum

from rules.roll.model import DiceGroup, Face, Landing, RollResult, RollSet, Text
from rules.roll.speech import ENGLISH, Say
from rules.said import said, said_n

DISCORD_MESSAGE_LIMIT = 2_000
SHRUNK_NOTE = said("-# Some dice are summarised to fit in one message.")


class Detail(IntEnum):
    """How much of each dice term to show."""

    FACES = 3
    TALLY = 2
    SUMMARY = 1
    TOTALS = 0


def render(
    result: RollResult,
    *,
    escape: Callable[[str], str] = str,
    limit: int = DISCORD_MESSAGE_LIMIT,
    say: Say = ENGLISH,
) -> str:
    """Format ``result`` as markdown of at most ``limit`` characters.

    ``escape`` is applied to user-written text (the label and ``[annotations]``) so the caller can
    neutralise markdown and mentions without this module knowing about Discord; ``say`` says the roller's
    words (a preset's verdict, "successes", notes) in the reader's language.
    """
    head = [f"**{escape(result.label)}**"] if result.label else []
    notes = [f"-# {say(note)}" for note in result.notes]
    # Dice Maiden's `s` asks for the totals alone: no note that detail was left out, since it was asked for.
    details = [Detail.TOTALS] if result.simple else list(Detail)
    for detail in details:
        lines = head + _set_lines(result, detail, escape, say) + notes
        if detail is not Detail.FACES and not result.simple:
            lines.append(say(SHRUNK_NOTE))
        text = "\n".join(lines)
        if len(text) <= limit:
            return text
    return text[: limit - 1] + "…"


def _set_lines(result: RollResult, detail: Detail, escape: Callable[[str], str], say: Say) -> list[str]:
    if detail is Detail.TOTALS:
        values = ", ".join(_value(roll_set, say) for roll_set in result.sets)
        return [f"{escape(result.expression)} → {values}"]
    lines = [_set_line(result, roll_set, detail, escape, say) for roll_set in result.sets]
    if len(lines) == 1:
        return lines
    return [f"{i}. {line}" for i, line in enumerate(lines, 1)]


def _set_line(result: RollResult, roll_set: RollSet, detail: Detail, escape: Callable[[str], str], say: Say) -> str:
    runs: list[tuple[str, bool]] = []
    for part in roll_set.parts:
        if isinstance(part, Text):
            text = escape(part.text) if part.user_text else say(part.text)
            runs.append((text, part.kept))
        else:
            runs.append((_group(result, part, detail, escape, say), part.kept))
    # Dropped pieces of an expression are struck through as one run, so the markers never nest.
    merged: list[str] = []
    for kept, group in _runs(runs):
        text = "".join(group)
        merged.append(text if kept else f"~~{text}~~")
    return f"{''.join(merged)} = {_value(roll_set, say)}"


def _runs(runs: list[tuple[str, bool]]) -> Iterable[tuple[bool, list[str]]]:
    current: list[str] = []
    current_kept = True
    for text, kept in runs:
        if current and kept != current_kept:
            yield current_kept, current
            current = []
        current_kept = kept
        current.append(text)
    if current:
        yield current_kept, current


def _value(roll_set: RollSet, say: Say) -> str:
    if roll_set.verdict is not None:
        return f"{roll_set.total} → **{say(roll_set.verdict)}**"
    if roll_set.successes is None:
        value = f"**{roll_set.total}**"
    else:
        # The count, not its size, chooses the form: -1 is "-1 success" in English.
        count = abs(roll_set.successes)
        value = say(said_n("**{total}** success", "**{total}** successes", count, total=roll_set.successes))
    if roll_set.botches is not None:
        value += " · " + say(said_n("{n} botch", "{n} botches", roll_set.botches))
    return value


def _group(result: RollResult, group: DiceGroup, detail: Detail, escape: Callable[[str], str], say: Say) -> str:
    annotation = f" {escape(group.annotation)}" if group.annotation else ""
    if detail is Detail.FACES:
        inside = ", ".join(_face(result, group, face, struck=group.kept) for face in group.faces)
    elif detail is Detail.TALLY:
        inside = _tally(group, say)
    else:
        inside = say(said_n("{n} dice → {total}", "{n} dice → {total}", len(group.faces), total=group.total))
    return f"{say(group.notation)} [{inside}]{annotation}"


def _face(result: RollResult, group: DiceGroup, face: Face, *, struck: bool) -> str:
    text = str(face.value)
    if face.exploded:
        text += "!"
    if not face.kept:
        # Inside an already struck term the strike is implied; nesting ~~ would break the markdown.
        return f"~~{text}~~" if struck else text
    if result.target is not None:
        if face.value >= result.target:
            text = f"**{text}**"
        elif result.failure is not None and face.value <= result.failure:
            text = f"*{text}*"
    elif face.value == 1 or face.value == group.sides:
        text = f"**{text}**"
    if face.forced_from is not None:
        text = f"{face.forced_from}→{text}"
    if face.earlier and struck:
        text = "".join(f"~~{_landing(old)}~~→" for old in face.earlier) + text
    return text


def _landing(old: Landing) -> str:
    """A rerolled face as it was: ``6!`` (it had exploded), ``1→3`` (raised by ``mi``)."""
    text = f"{old.value}!" if old.exploded else str(old.value)
    return f"{old.forced_from}→{text}" if old.forced_from is not None else text


def _tally(group: DiceGroup, say: Say) -> str:
    kept = Counter(face.value for face in group.faces if face.kept)
    pieces = [f"{value}×{count}" for value, count in sorted(kept.items(), reverse=True)]
    dropped = sum(not face.kept for face in group.faces)
    exploded = sum(face.exploded for face in group.faces)
    if dropped:
        pieces.append(say(said_n("{n} dropped", "{n} dropped", dropped)))
    if exploded:
        pieces.append(say(said_n("{n} exploded", "{n} exploded", exploded)))
    return ", ".join(pieces)
