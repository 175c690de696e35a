"""What can be written on a Vices & Vengeance scoresheet: one small model per action, told apart by ``type``.

Rows are named by their original Sin (``"Wrath"``), which never changes, so every action except a
rename or a keeper hand-over fits a Discord custom id; names come from modals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from rules.engine import IllegalAction
from rules.vices.sheet_data import PairKey, SinName
from rules.vices.sheet_state import RULE_ERROR, Name, Pip, Place, Points, UserId


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EnterScore(_Action):
    """The turn score of ``row``, who must be the player up; the sheet then moves to the next player.

    The row is part of the action (not "whoever is up") so the log says whose score it is, and
    replaying a log with an earlier entry taken out fails loudly instead of shifting scores.
    """

    type: Literal["score"] = "score"
    row: SinName
    value: Points = Field(title="Points this turn")


class Correct(_Action):
    """Replace ``row``'s score in ``round`` (1-based) by ``value``."""

    type: Literal["correct"] = "correct"
    row: SinName
    round: int = Field(ge=1)
    value: Points


class Reorder(_Action):
    """Move ``row`` one seat up or down (only before the first score)."""

    type: Literal["reorder"] = "reorder"
    row: SinName
    dir: Literal["up", "down"]


class Rename(_Action):
    """Give ``row`` a new name (any time)."""

    type: Literal["rename"] = "rename"
    row: SinName
    name: Name = Field(title="Name")


class MoveSin(_Action):
    """Record where ``sin`` is now: with the player of row ``to``, in the ``reserves``, or ``out`` of play."""

    type: Literal["sin"] = "sin"
    sin: SinName
    to: Place


class SetSloth(_Action):
    """Record whether the Sloth Nemesis die has been removed from play."""

    type: Literal["sloth"] = "sloth"
    removed: bool


class HandOver(_Action):
    """Make the Discord user ``to`` (shown as ``name``) the sheet's keeper."""

    type: Literal["keeper"] = "keeper"
    to: UserId
    name: Name


class TieBreak(_Action):
    """``row``'s tie-break roll of ``pair``: the bot rolls it when ``dice`` is None, else these are the
    physical dice, in the pair's order (Silver Bullet first)."""

    type: Literal["tiebreak"] = "tiebreak"
    row: SinName
    pair: PairKey
    dice: tuple[Pip, Pip] | None = None


class NewGame(_Action):
    """Start the next game with the same players, the winner seated last (E3)."""

    type: Literal["new_game"] = "new_game"


SheetAction = EnterScore | Correct | Reorder | Rename | MoveSin | SetSloth | HandOver | TieBreak | NewGame

_ADAPTER: TypeAdapter[SheetAction] = TypeAdapter(Annotated[SheetAction, Field(discriminator="type")])


def parse_action(data: Mapping[str, Any]) -> SheetAction:
    """Validate JSON data into a sheet action.

    A value that breaks a sheet rule (a score of -3, a name of 40 characters) is an IllegalAction
    with that rule as its reason; anything else that is not a sheet action is pydantic's
    ValidationError, as the engine contract says.
    """
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        for error in exc.errors():
            if error["type"] == RULE_ERROR:
                raise IllegalAction(error.get("ctx", {}).get("rule", error["msg"])) from exc

        raise
