"""The Vices & Vengeance scoresheet's data (options, rows, state) and every read-only question about it.

The state stores only what people wrote: each row's turn scores, where the Sins are, the tie-break
rolls. Everything else — whose turn it is, the round, the 70 trigger, who still plays, the
finalists, the winner — is worked out from it by :func:`progress`, so a correction or an undo can
never leave a stale flag behind.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Final, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from rules.engine import IllegalAction
from rules.said import Said, said
from rules.vices.scoring import pair_points
from rules.vices.sheet_data import EXACT_TARGET, SIN_NAMES, PairKey, SinName

RULE_ERROR = "sheet_rule"
"""Pydantic error type of a value that breaks a sheet rule; its message is shown to players as is."""

SCORE_RULE = said("Scores are whole numbers of 0 or more.")
MAX_TURN_SCORE = 300
"""No turn can score more (every die at its worst, every Sin matched, seven d20s: 267), so more is a typo."""
NAME_MAX = 32
"""Discord's display-name limit, used for typed names too, so every name fits the same column."""

RESERVES: Final = "reserves"
OUT_OF_PLAY: Final = "out"
Place = SinName | Literal["reserves", "out"]
"""Where a Sin is now: with a player (named by the row's original Sin), in the reserves, or out of play."""


def _broken(rule: Said) -> PydanticCustomError:
    """A sheet rule broken: pydantic's message is the English, its context keeps the rule to say in any language."""
    return PydanticCustomError(RULE_ERROR, "{rule}", {"rule": rule})


def _whole_number(value: object) -> int:
    # Modal text arrives as a string; a bool is an int to Python but never a score.
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _broken(SCORE_RULE)
    if value > MAX_TURN_SCORE:
        raise _broken(said("No turn scores more than {most}.", most=MAX_TURN_SCORE))
    return value


def _name(value: object) -> str:
    if not isinstance(value, str):
        raise _broken(said("A name is a line of text."))
    name = " ".join(value.split())
    if not name:
        raise _broken(said("A name can't be empty."))
    if len(name) > NAME_MAX:
        raise _broken(said("Names are at most {most} characters.", most=NAME_MAX))
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise _broken(said("Names can't contain control characters."))
    return name


def _pip(value: object) -> int:
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise _broken(said("Mythical dice show 1 to 6."))
    return value


Points = Annotated[int, BeforeValidator(_whole_number), Field(le=MAX_TURN_SCORE)]
"""One turn's score: a whole number from 0 to MAX_TURN_SCORE (digits typed in a modal are accepted)."""
Name = Annotated[str, BeforeValidator(_name), Field(max_length=NAME_MAX)]
"""A player's or keeper's name: one line, spaces tidied, 1 to 32 characters."""
Pip = Annotated[int, BeforeValidator(_pip), Field(le=6)]
"""What a six-sided Mythical die shows."""
UserId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^\S+$")]
"""A Discord user id as the core passes actors."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SheetSettings(_Frozen):
    """House rules and who may write (RULES.md PART 5 ``vv.*``); fixed for the sheet's life."""

    end_mode: Literal["finish_round", "one_more_each"] = "finish_round"
    """1.8 #26: after someone reaches 70, finish the round, or give every other player one more turn."""
    silver_bullet_wild_face: int | None = Field(default=1, ge=1, le=6)
    """1.8 #23: the Silver Bullet face that matches any Werewolf in a tie-break roll; None = no wild face."""
    self_scoring: bool = False
    """"Everyone scores their own turn": a listed member may write their own row (see ``SheetEngine``)."""
    min_players: int = Field(default=3, ge=2, le=7)
    max_players: int = Field(default=6, ge=2, le=7)

    @model_validator(mode="after")
    def _range(self) -> SheetSettings:
        if self.min_players > self.max_players:
            raise ValueError("min_players is more than max_players")
        return self


class RowSpec(_Frozen):
    """A player as the sheet is created: a Discord member (``member`` = user id) or a typed name."""

    sin: SinName
    """The player's original Sin, which heads their column for the whole sheet."""
    name: Name
    member: UserId | None = None


class Row(RowSpec):
    """A player on the sheet, with this game's turn scores (``scores[r - 1]`` is round r)."""

    scores: tuple[Points, ...] = ()


class SheetOptions(_Frozen):
    """How a sheet starts: its keeper (the creator), its rows in seat order, and its settings."""

    keeper: UserId
    keeper_name: Name
    rows: tuple[RowSpec, ...]
    settings: SheetSettings = SheetSettings()


class TieRoll(_Frozen):
    """One contender's tie-break roll of a Mythical pair."""

    row: SinName
    pair: PairKey
    dice: tuple[Pip, Pip]
    """In the pair's order (Silver Bullet first)."""
    rolled: bool
    """The bot rolled it (True) or the keeper typed in physical dice (False)."""


class PastGame(_Frozen):
    """A finished game on this sheet, kept when a new one starts."""

    winner: SinName
    totals: dict[SinName, int]


class SheetState(_Frozen):
    """The whole sheet. Read-only; every action returns a new one."""

    settings: SheetSettings
    keeper: UserId
    """The one source of truth for who keeps the sheet (the core's ``host`` role stays with the creator)."""
    keeper_name: Name
    rows: tuple[Row, ...]
    """In seat order; the first seat opens every round."""
    sins: dict[SinName, Place]
    """Where each of the seven Sins is now. Scores stay under original Sins whatever this says."""
    sloth_removed: bool = False
    """The Sloth Nemesis die has been removed from play (only meaningful when someone started with Sloth)."""
    tiebreak: tuple[tuple[TieRoll, ...], ...] = ()
    """Tie-break rounds, oldest first; each holds its contenders' rolls in seat order."""
    history: tuple[PastGame, ...] = ()


class Phase(StrEnum):
    """Where the current game is."""

    PLAYING = "playing"
    FINISHING = "finishing"
    """Someone reached 70: the players in ``Progress.to_play`` still take their turns."""
    TIEBREAK = "tiebreak"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Trigger:
    """Who first reached 70 or more, and when the game therefore ends."""

    row: SinName
    round: int
    total: int
    last_turn: int
    """The game ends once this many turns have been entered."""


@dataclass(frozen=True, slots=True)
class Progress:
    """Everything the sheet's entries imply (RULES.md 1.5 T8, E1–E2, 1.8 #26–29)."""

    phase: Phase
    turns: int
    """Turn scores entered in this game."""
    round: int
    """The round being played (the last round once the game is over)."""
    up: SinName | None
    """Whose turn it is, while turns remain."""
    trigger: Trigger | None
    to_play: tuple[SinName, ...]
    """After the 70 trigger: who still plays before the end, in order (``up`` first)."""
    finalists: tuple[SinName, ...]
    """Once no turns remain: those on exactly 70, else those on the lowest total (E1), in seat order."""
    tiebreak_round: int
    """The tie-break round being rolled (1-based), 0 when there is none."""
    contenders: tuple[SinName, ...]
    """Who rolls in the current tie-break round, in seat order."""
    roller: SinName | None
    """The contender whose tie-break roll comes next (seat order, RULES.md top)."""
    winner: SinName | None


def row_of(state: SheetState, sin: SinName) -> Row:
    """The row headed by ``sin``; IllegalAction if nobody started with that Sin."""
    for row in state.rows:
        if row.sin == sin:
            return row
    raise IllegalAction(said("Nobody on this sheet started with {sin}.", sin=sin))


def where(state: SheetState, place: Place, name: Callable[[str], str] = str) -> str:
    """Where a Sin is, in words ("with Casey", "in the reserves", "out of play"); ``name`` formats a player's name.

    IllegalAction if ``place`` is a row nobody plays.
    """
    if place == RESERVES:
        return said("in the reserves")
    if place == OUT_OF_PLAY:
        return said("out of play")
    return said("with {name}", name=name(row_of(state, place).name))


def seat_of(state: SheetState, sin: SinName) -> int:
    """The 0-based seat of the row headed by ``sin``."""
    return state.rows.index(row_of(state, sin))


def totals(state: SheetState) -> dict[SinName, int]:
    """Each row's total so far, in seat order."""
    return {row.sin: sum(row.scores) for row in state.rows}


def running_totals(row: Row) -> tuple[int, ...]:
    """``row``'s total after each of its turns."""
    out: list[int] = []
    total = 0
    for score in row.scores:
        total += score
        out.append(total)
    return tuple(out)


def holdings(state: SheetState) -> dict[SinName, tuple[SinName, ...]]:
    """The Sins each row holds now (precedence order), by row."""
    return {row.sin: tuple(s for s in SIN_NAMES if state.sins[s] == row.sin) for row in state.rows}


def tie_points(roll: TieRoll, settings: SheetSettings) -> int:
    """A tie-break roll's score: 0 for a match or the wild Silver Bullet, else both dice's points (E2)."""
    return pair_points(roll.pair, *roll.dice, wild_face=settings.silver_bullet_wild_face)


def _trigger(state: SheetState, turns: int) -> Trigger | None:
    """Replay the turns in play order; the first turn that leaves a total at 70+ sets the end (1.8 #27)."""
    n = len(state.rows)
    running = [0] * n
    for k in range(turns):
        seat, rnd = k % n, k // n
        running[seat] += state.rows[seat].scores[rnd]
        if running[seat] >= EXACT_TARGET:
            # finish_round: up to the round's last seat; one_more_each: turns k+1 … k+n-1 (0-based) for the others.
            last = (rnd + 1) * n if state.settings.end_mode == "finish_round" else k + n
            return Trigger(row=state.rows[seat].sin, round=rnd + 1, total=running[seat], last_turn=last)
    return None


def finalists(state: SheetState) -> tuple[SinName, ...]:
    """E1: the rows on exactly 70 if any, else the rows on the lowest total, in seat order."""
    by_row = totals(state)
    exact = tuple(s for s, t in by_row.items() if t == EXACT_TARGET)
    if exact:
        return exact
    low = min(by_row.values())
    return tuple(s for s, t in by_row.items() if t == low)


def progress(state: SheetState) -> Progress:
    """Where the current game stands: whose turn, the 70 trigger, finalists, tie-break, winner."""
    n = len(state.rows)
    turns = sum(len(row.scores) for row in state.rows)
    trigger = _trigger(state, turns)
    if trigger is None or turns < trigger.last_turn:
        up = state.rows[turns % n].sin
        to_play = () if trigger is None else tuple(state.rows[k % n].sin for k in range(turns, trigger.last_turn))
        phase = Phase.PLAYING if trigger is None else Phase.FINISHING
        return Progress(phase, turns, turns // n + 1, up, trigger, to_play, (), 0, (), None, None)
    final = finalists(state)
    contenders, done = final, 0
    for rnd in state.tiebreak:
        if len(rnd) < len(contenders):
            break
        points = {r.row: tie_points(r, state.settings) for r in rnd}
        low = min(points.values())
        contenders, done = tuple(c for c in contenders if points[c] == low), done + 1
    last_round = (turns - 1) // n + 1
    if len(contenders) == 1:
        return Progress(Phase.OVER, turns, last_round, None, trigger, (), final, 0, (), None, contenders[0])
    rolled = {r.row for r in state.tiebreak[done]} if done < len(state.tiebreak) else set()
    roller = next(c for c in contenders if c not in rolled)
    return Progress(Phase.TIEBREAK, turns, last_round, None, trigger, (), final, done + 1, contenders, roller, None)
