"""What a roll produced: plain frozen data, cheap to pickle across a process boundary."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Landing:
    """A face a die showed before ``rr``/``ro`` threw it away, with what happened to it meanwhile."""

    value: int
    exploded: bool = False
    forced_from: int | None = None


@dataclass(frozen=True, slots=True)
class Face:
    """One die as it finally landed, with how it got there."""

    value: int
    kept: bool = True
    exploded: bool = False
    """This face triggered an extra die (``e``/``ra``/``xo``)."""
    earlier: tuple[Landing, ...] = ()
    """Earlier faces of this die that were thrown away by ``rr``/``ro`` (oldest first)."""
    forced_from: int | None = None
    """The face before ``mi``/``ma`` raised or lowered it."""

    @property
    def rerolled(self) -> tuple[int, ...]:
        """The values of the earlier faces, oldest first."""
        return tuple(landing.value for landing in self.earlier)


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """One ``NdM`` term with its operators, e.g. ``4d6kh3``, and every die it rolled."""

    notation: str
    sides: int | str
    faces: tuple[Face, ...]
    kept: bool = True
    """False when a set operator dropped this whole term, as in ``(1d4, 1d6)kh1``."""
    annotation: str | None = None

    @property
    def total(self) -> int:
        """Sum of the kept faces (what this term adds to the expression when kept)."""
        return sum(face.value for face in self.faces if face.kept)


@dataclass(frozen=True, slots=True)
class Text:
    """Anything between dice in the rendered expression: numbers, operators, brackets, annotations."""

    text: str
    kept: bool = True
    user_text: bool = False
    """True for ``[annotations]``, which need escaping before they reach Discord."""


Part = DiceGroup | Text


@dataclass(frozen=True, slots=True)
class RollSet:
    """One evaluation of the expression (a plain roll has exactly one)."""

    parts: tuple[Part, ...]
    total: int
    successes: int | None = None
    botches: int | None = None
    """Kept dice showing the botch number or less (Dice Maiden's ``b1``)."""
    verdict: str | None = None
    """A game-system preset's answer in the game's words (``Partial success``), beside the total."""
    state: tuple[int, ...] = ()
    """What a preset's follow-up needs (the faces a Year Zero push starts from)."""

    @property
    def groups(self) -> tuple[DiceGroup, ...]:
        """The dice terms, left to right."""
        return tuple(part for part in self.parts if isinstance(part, DiceGroup))


@dataclass(frozen=True, slots=True)
class RollResult:
    """A whole /roll: the request as understood, and each set rolled."""

    expression: str
    """The request in canonical form, label excluded."""
    sets: tuple[RollSet, ...]
    label: str | None = None
    target: int | None = None
    failure: int | None = None
    botch: int | None = None
    private: bool = False
    """The roll asked to be seen by the roller only (Dice Maiden's ``p``)."""
    simple: bool = False
    """Show totals only (Dice Maiden's ``s``)."""
    notes: tuple[str, ...] = ()
    """How a form other bots read differently was read here."""


def faces_rolled(result: RollResult) -> list[tuple[int, int]]:
    """Every die that came up in ``result``, as ``(sides, face)`` in the order rolled: rerolled faces too, and
    faces as they landed before ``mi``/``ma`` (what the dice did, for luck statistics). A ``d%`` is its d10."""
    rolled: list[tuple[int, int]] = []
    for roll_set in result.sets:
        for group in roll_set.groups:
            for face in group.faces:
                landings: tuple[Landing | Face, ...] = (*face.earlier, face)
                for landed in landings:
                    raw = landed.forced_from if landed.forced_from is not None else landed.value
                    if group.sides == "%":
                        rolled.append((10, raw // 10 + 1))
                    elif isinstance(group.sides, int):
                        rolled.append((group.sides, raw))
    return rolled
