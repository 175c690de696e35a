"""The extensions around d20's notation: repeated sets, success and botch counting, adv/dis, labels, and the
forms people bring from Dice Maiden and Button Dice Roller.

Everything here is peeled off the outside of the string, or rewritten into d20's own spelling; what is left
(the body) goes to d20's grammar, lower-cased outside ``[annotations]`` because d20 only knows lower-case
operators. A form that means one thing in d20 and another in those bots is never guessed: it is refused
with both spellings (:func:`_refuse_ambiguous`), or rolled with a note saying how it was read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from rules.roll.errors import RollError
from rules.roll.limits import DEFAULT_LIMITS, RollLimits
from rules.said import said, said_n


class Advantage(IntEnum):
    """Same values as ``d20.AdvType`` so it can be passed straight through."""

    NONE = 0
    ADV = 1
    DIS = -1


@dataclass(frozen=True, slots=True)
class RollRequest:
    """A roll string taken apart: what d20 evaluates, and what we add on top."""

    body: str
    sets: int = 1
    advantage: Advantage = Advantage.NONE
    target: int | None = None
    """Dice showing at least this count as successes (``t7``)."""
    failure: int | None = None
    """Dice showing at most this take one success away (``f1``)."""
    label: str | None = None
    botch: int | None = None
    """Dice showing at most this are counted as botches, beside the total (Dice Maiden's ``b1``)."""
    private: bool = False
    """Dice Maiden's ``p``: only the roller sees the result."""
    simple: bool = False
    """Dice Maiden's ``s``: show the total without every die."""
    notes: tuple[str, ...] = ()
    """How a form that other bots read differently was read here (shown under the roll)."""

    def canonical(self, *, with_label: bool = True) -> str:
        """The request written back in the primary syntax; parsing it gives the same request."""
        parts = [f"{self.sets}x {self.body}" if self.sets > 1 else self.body]
        if self.target is not None:
            parts.append(f"t{self.target}")
        if self.failure is not None:
            parts.append(f"f{self.failure}")
        if self.botch is not None:
            parts.append(f"b{self.botch}")
        if self.advantage is not Advantage.NONE:
            parts.append("adv" if self.advantage is Advantage.ADV else "dis")
        if self.simple:
            parts.append("s")
        if with_label and self.label:
            parts.append(f"# {self.label}")
        return " ".join(parts)


MAX_ROLLS_AT_ONCE = 4
"""``2d6 ; 1d20``: how many rolls one message may hold (Dice Maiden's own limit)."""

# `6x 4d6kh3` is the primary form; `6 4d6kh3` (Dice Maiden) is accepted when what follows the count
# starts like a roll, so that d20's own `6 + 1` or `6 -1` keep meaning arithmetic.
_REPEAT_X = re.compile(r"^\s*(\d+)\s*x\s*(?=\S)", re.IGNORECASE)
_REPEAT_SPACE = re.compile(r"^\s*(\d+)\s+(?=[\d(d])", re.IGNORECASE)
# Suffix words, peeled from the right one at a time. They must follow a space, a digit, `)` or `]`
# so that they are never the tail of something else.
_SUFFIX = re.compile(
    r"(?:^|(?<=[\s\d)\]]))(?P<word>advantage|disadvantage|adv|dis|t\s*(?P<t>\d+)|f\s*(?P<f>\d+)"
    r"|(?<=\s)b\s*(?P<b>\d*))\s*$",
    re.IGNORECASE,
)
_ANNOTATION = re.compile(r"(\[[^\]]*\])")
_DEFAULT_ADV_BODY = "1d20"
# Dice Maiden's display flags, as words of their own before or after the roll.
_FLAGS_BEFORE = re.compile(r"\s*(p|s|ul)\s+", re.IGNORECASE)  # used with .match: at the start (or at pos)
_FLAGS_AFTER = re.compile(r"\s+(p|s|ul)\s*$", re.IGNORECASE)
_LEADING_LABEL = re.compile(r"^\s*\(([^()]*)\)\s*(?=\S)")
# A dice term and one of Dice Maiden's spaced modifiers after it: `4d6 k3`, `10d6 e6 k8`, `4d6 ir1`.
_DICE_TERM = r"\d*d(?:\d+|%)(?:(?:rr|ro|ra|xo|mi|ma|[kpe])[hl<>]?\d+)*"
_SPACED_MODIFIER = re.compile(rf"({_DICE_TERM})\s+(kh|kl|k|d|ie|e|ir|r)(\d*)(?![\w%])")
# d20's own operators written with a space, as Dice Maiden's are (`1d20 ro1`, `4d6 pl1`, `4d6 mi2`): joined.
_SPACED_D20 = re.compile(rf"({_DICE_TERM})\s+((?:rr|ro|ra|xo|mi|ma|p|k)[hl<>]?\d+)(?![\w%])")
# Button Dice Roller's `2d20L1` (keep the lowest): not d20 notation, so no clash.
_BDR_KEEP_LOWEST = re.compile(rf"({_DICE_TERM})l(\d+)")
_BARE_KEEP = re.compile(rf"({_DICE_TERM}|\))k(\d+)")
# Dice Maiden's `+dX` / `-dX` (advantage / disadvantage on any die), alone or followed by more (`+d20+5`).
# Dice Maiden's `4df` (Fudge dice): not d20 notation, so no clash; refused with the d20 spelling of the same total.
_FUDGE = re.compile(r"(?<![\w])(\d*)df(?![\w])")
_SIGNED_DIE = re.compile(r"^\s*([+-])\s*d(\d+)(?![\d%])(.*)$", re.DOTALL)


def check_length(text: str, limits: RollLimits = DEFAULT_LIMITS) -> None:
    """Refuse a roll longer than the limit, before reading any of it."""
    if len(text) > limits.max_chars:
        raise RollError(
            said(
                "That roll is too long ({length} characters; the limit is {most}).",
                length=len(text),
                most=limits.max_chars,
            )
        )


def split_rolls(text: str, limits: RollLimits = DEFAULT_LIMITS) -> list[str]:
    """``2d6 ; 1d20`` (Dice Maiden): the rolls of one message, each parsed on its own."""
    check_length(text, limits)
    pieces = [piece for piece in _outside_annotations(text, ";") if piece.strip()]
    if len(pieces) > MAX_ROLLS_AT_ONCE:
        raise RollError(
            said(
                "I roll up to {most} rolls at once (separated by `;`), not {rolls}.",
                most=MAX_ROLLS_AT_ONCE,
                rolls=len(pieces),
            )
        )
    return [piece.strip() for piece in pieces] or [text]


def parse_request(text: str, limits: RollLimits = DEFAULT_LIMITS) -> RollRequest:
    """Split a roll string into a :class:`RollRequest`; raise :class:`RollError` when it cannot be."""
    check_length(text, limits)
    body, label = split_label(text)
    body, flags = _peel_flags(body)
    body, leading = _leading_label(body)
    label = label or leading
    sets, body = _split_repeat(body, limits)
    advantage = Advantage.NONE
    target: int | None = None
    failure: int | None = None
    botch: int | None = None
    while match := _SUFFIX.search(body):
        word = match["word"].lower()
        if match["t"] is not None:
            target = _once(target, int(match["t"]), "t")
        elif match["f"] is not None:
            failure = _once(failure, int(match["f"]), "f")
        elif match["b"] is not None:
            botch = _once(botch, int(match["b"] or 1), "b")
        else:
            wanted = Advantage.ADV if word.startswith("adv") else Advantage.DIS
            if advantage is not Advantage.NONE:
                raise RollError(said("Use `adv` or `dis` once."))
            advantage = wanted
        body = body[: match.start()]
    body = _lower_outside_annotations(body.strip())
    body = _translate_other_bots(body)
    _refuse_ambiguous(body)
    if not body:
        if advantage is Advantage.NONE:
            raise RollError(said("There is nothing to roll. Try `1d20+5` or `4d6kh3`."))
        body = _DEFAULT_ADV_BODY
    if failure is not None and target is None:
        raise RollError(said("`f` counts failures against a target: add one, like `6d10 t7 f1`."))
    if target is not None and failure is not None and failure >= target:
        raise RollError(
            said(
                "The failure number (f{failure}) must be below the target (t{target}).", failure=failure, target=target
            )
        )
    notes = (said("`d%` is d20's tens die (0, 10, …, 90); for 1 to 100 write `1d100`."),) if "d%" in body else ()
    return RollRequest(
        body,
        sets,
        advantage,
        target,
        failure,
        label,
        botch=botch,
        private="p" in flags,
        simple="s" in flags,
        notes=notes,
    )


def _outside_annotations(text: str, separator: str) -> list[str]:
    """``text`` split at every ``separator`` that is not inside ``[…]``."""
    pieces: list[str] = []
    start = depth = 0
    for i, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(depth - 1, 0)
        elif char == separator and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
    pieces.append(text[start:])
    return pieces


def split_label(text: str) -> tuple[str, str | None]:
    """The roll and its label: after the first ``#`` outside ``[annotations]`` (``1d8[slashing#2]`` keeps its
    ``#``), or after Dice Maiden's ``!`` when a space comes before it (``4d6 ! Damage``).

    A ``!`` followed by ``=`` is d20's "not equal" (``1d20+5 != 15``, ``(3 != 3)``), never a comment: read as
    one, ``1d20+5 != 15`` rolled ``1d20+5`` labelled "= 15". With a space between (``! =``) it is neither: it
    stays in the roll, which d20's grammar refuses, saying to write ``!=``."""
    depth = 0
    for i, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(depth - 1, 0)
        elif depth == 0 and (char == "#" or (char == "!" and _starts_comment(text, i))):
            return text[:i], text[i + 1 :].strip() or None
    return text, None


def _starts_comment(text: str, i: int) -> bool:
    """Whether the ``!`` at ``i`` is Dice Maiden's comment mark: after a space (or first), and not ``!=``."""
    return (i == 0 or text[i - 1].isspace()) and not text[i + 1 :].lstrip().startswith("=")


def leading_flags(text: str) -> tuple[str, str]:
    """Dice Maiden's display words in front (``p hit``, ``s ul attack``) and what follows them; ``("", text)``
    when there are none, or nothing follows."""
    end = 0
    while (match := _FLAGS_BEFORE.match(text, end)) and text[match.end() :].strip():
        end = match.end()
    return text[:end], text[end:]


_MODIFIER_WORD = re.compile(
    r"adv(?:antage)?|dis(?:advantage)?|p|s|ul|x|[tfb]\d*|(?:kh|kl|ph|pl|k|p|d|ie|e|ir|r|rr|ro|ra|xo|mi|ma)[hl<>]?\d*",
    re.IGNORECASE,
)
"""A word of the notation on its own: ``adv``, ``t7``, Dice Maiden's ``k3``, ``e6``, ``ir2`` (``4d6 k3``)."""
_STARTS_AS_DICE = re.compile(
    r"[+-]?(?:\d*d(?:\d|%|f(?![^\W\d_]))|\d+x|\d+(?:\.\d+)?(?=$|[-+*/%<>=!(),.\[]))", re.IGNORECASE
)
"""A die (``d20``, ``4df``, ``+d20``, ``1d6+``), a repeat (``3x``) or a number with arithmetic after it."""


def looks_like_notation(word: str) -> bool:
    """Whether ``word`` reads as a piece of notation by its shape alone (the roller may still refuse it)."""
    word = word.strip()
    return bool(_MODIFIER_WORD.fullmatch(word) or _STARTS_AS_DICE.match(word))


def _peel_flags(body: str) -> tuple[str, set[str]]:
    """Dice Maiden's ``p`` (private), ``s`` (simplified) and ``ul`` (unsorted) words, before or after the roll."""
    flags: set[str] = set()
    while (match := _FLAGS_BEFORE.match(body) or _FLAGS_AFTER.search(body)) and body.strip() != match[1]:
        flags.add(match[1].lower())
        body = body[: match.start()] + " " + body[match.end() :]
    return body, flags


def _leading_label(body: str) -> tuple[str, str | None]:
    """Dice Maiden's ``(Fireball) 8d6``: a leading bracket of words that isn't part of the roll is its label."""
    match = _LEADING_LABEL.match(body)
    if match is None:
        return body, None
    # Words are what's left once dice and annotations are taken out: `(1d4, 1d6)kh1` is a roll, not a label.
    words = re.sub(_DICE_TERM, "", _ANNOTATION.sub("", match[1]), flags=re.IGNORECASE)
    if not any(char.isalpha() for char in words):
        return body, None
    return body[match.end() :], match[1].strip() or None


def _translate_other_bots(body: str) -> str:
    """Dice Maiden's spaced modifiers (and d20's own written the same way) and Button Dice Roller's ``L``, in
    d20's spelling (see docs/roll.md)."""
    while True:
        if match := _SPACED_MODIFIER.search(body):
            dice, word, number = match[1], match[2], match[3]
            body = body[: match.start()] + dice + _modifier(dice, word, number) + body[match.end() :]
        elif match := _SPACED_D20.search(body):
            body = body[: match.start()] + match[1] + match[2] + body[match.end() :]
        else:
            return _BDR_KEEP_LOWEST.sub(r"\1kl\2", body)


def _modifier(dice: str, word: str, number: str) -> str:
    if word in ("e", "ie"):
        # Dice Maiden explodes on the number or more (on the top face when none is given): once with `e`,
        # again and again with `ie`.
        on = f">{int(number) - 1}" if number else _top_face(dice)
        return ("xo" if word == "e" else "e") + on
    if not number:
        raise RollError(said("`{word}` after `{dice}` needs a number, like `{dice} {word}1`.", word=word, dice=dice))
    n = int(number)
    count = int(re.match(r"\d*", dice)[0] or 1)  # type: ignore[index]
    if word == "d" and n >= count:
        raise RollError(
            said(
                "`{dice} d{n}` would drop every die: Dice Maiden's `d` drops the lowest, like `4d6 d1`.", dice=dice, n=n
            )
        )
    return {
        "k": f"kh{n}",
        "kh": f"kh{n}",
        "kl": f"kl{n}",
        "d": f"pl{n}",
        "r": f"ro<{n + 1}",
        "ir": f"rr<{n + 1}",
    }[word]


def _top_face(dice: str) -> str:
    size = re.match(r"\d*d(\d+|%)", dice)
    assert size is not None
    if size[1] == "%":
        raise RollError(said("`e` needs a number on a `d%`, like `1d% e90`."))
    return size[1]


def _refuse_ambiguous(body: str) -> None:
    """Forms d20 reads one way and Dice Maiden / Button Dice Roller another: say both, roll neither."""
    plain = _ANNOTATION.sub("", body)
    if match := _FUDGE.search(plain):
        n = int(match[1] or 1)
        raise RollError(
            said(
                "`{n}df` (Fate / Fudge dice, −1, 0 or +1 each) isn't a die here: `{n}d3-{twice}` rolls the same total.",
                n=n,
                twice=2 * n,
            )
        )
    if match := _BARE_KEEP.search(plain):
        dice, n = (match[1] if match[1] != ")" else "(…)"), int(match[2])
        raise RollError(
            said_n(
                "`{dice}k{n}` keeps the dice showing exactly {n} in d20 notation, but the highest in Dice Maiden. "
                "Write `{dice}kh{n}` for the highest, or `{dice}p<{n}p>{n}` for the dice showing {n}.",
                "`{dice}k{n}` keeps the dice showing exactly {n} in d20 notation, but the {n} highest in Dice Maiden. "
                "Write `{dice}kh{n}` for the {n} highest, or `{dice}p<{n}p>{n}` for the dice showing {n}.",
                n,
                dice=dice,
            )
        )
    if match := _SIGNED_DIE.match(plain):
        sign, size, rest = match[1], match[2], "".join(match[3].split())
        rest = f" {rest}" if rest and rest[0] not in "+-*/" else rest
        typed = f"{sign}d{size}{rest}"
        if size == "20":
            meant = f"{'1d20' + rest + ' ' if rest else ''}{'adv' if sign == '+' else 'dis'}"
        else:
            meant = f"2d{size}k{'h' if sign == '+' else 'l'}1{rest}"
        if sign == "+":
            reason = said(
                "`{typed}` is Dice Maiden's shortcut for advantage. "
                "Write `{meant}` (two d{size}s, the higher kept), or `1d{size}{rest}` for one d{size}.",
                typed=typed,
                meant=meant,
                size=size,
                rest=rest,
            )
        else:
            reason = said(
                "`{typed}` is Dice Maiden's shortcut for disadvantage. "
                "Write `{meant}` (two d{size}s, the lower kept), or `-1d{size}{rest}` for minus a d{size}.",
                typed=typed,
                meant=meant,
                size=size,
                rest=rest,
            )
        raise RollError(reason)


def _split_repeat(body: str, limits: RollLimits) -> tuple[int, str]:
    match = _REPEAT_X.match(body) or _REPEAT_SPACE.match(body)
    if match is None:
        return 1, body
    sets = int(match[1])
    if not 1 <= sets <= limits.max_sets:
        raise RollError(said("You can repeat a roll 1 to {most} times, not {sets}.", most=limits.max_sets, sets=sets))
    return sets, body[match.end() :]


def _once(current: int | None, value: int, letter: str) -> int:
    if current is not None:
        raise RollError(said("Use `{letter}` once.", letter=letter))
    return value


def _lower_outside_annotations(body: str) -> str:
    # re.split with a capture group alternates outside/inside; annotations keep the user's case.
    pieces = _ANNOTATION.split(body)
    return "".join(piece if i % 2 else piece.lower() for i, piece in enumerate(pieces))
