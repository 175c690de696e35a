"""The tracker's state and actions: plain frozen pydantic models that round-trip through JSON.

Invariants:
- ``order`` holds every key of ``entries`` exactly once, in the order they act;
- ``current`` is None before the first round (``round == 0``) or when nobody is left, else a key of ``entries``;
- a hidden entry (an NPC the GM has not revealed) has an id starting ``h``, a visible one ``e``: ids are counted
  separately, so the ids players see never skip a number for a hidden entry.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_ENTRIES = 30
"""Entries in one tracker: a board lists them all (and a Remove menu holds 25)."""
MAX_GROUP = 10
MAX_CONDITIONS = 5
MAX_TURNS = 100
NAME_MAX = 32
CONDITION_MAX = 30
ROLL_MAX = 100


class InitOptions(BaseModel):
    """The tracker has no options (kept for the engine contract)."""

    model_config = ConfigDict(frozen=True)


class Condition(BaseModel):
    """A condition on an entry; ``turns`` counts the holder's turns it still lasts (None: until removed)."""

    model_config = ConfigDict(frozen=True)

    name: str
    turns: int | None = None


class Entry(BaseModel):
    """One line of the order: a member's character, or an NPC (``owner`` None) the GM runs."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    owner: str | None = None
    """The member's user id; None for an NPC."""
    group: str
    """Entries added together (a group of NPCs) share one roll and keep their order among themselves."""
    total: int
    mod: int = 0
    """The modifier of the roll (its total less its dice): the first tie-break."""
    tiebreak: int = 0
    """A d20 rolled when the entry joins: the second tie-break."""
    hidden: bool = False
    conditions: tuple[Condition, ...] = ()
    pinged: int = 0
    """The latest round its member was called for: a turn calls them once, however often it is gone back to."""
    counted: int = 0
    """The latest round whose turn end counted its conditions down, so Previous then Next counts it once."""

    @property
    def key(self) -> tuple[int, int, int]:
        """What orders entries, highest first: the total, then the modifier, then the roll-off."""
        return (self.total, self.mod, self.tiebreak)


class InitState(BaseModel):
    """The tracker: every entry, the order they act in, whose turn it is and the round."""

    model_config = ConfigDict(frozen=True)

    entries: dict[str, Entry] = Field(default_factory=dict)
    order: tuple[str, ...] = ()
    current: str | None = None
    round: int = 0
    """0 while people join; 1 from the first Next on."""
    next_visible: int = 1
    next_hidden: int = 1
    gm_turn: bool = False
    """Only in a view for players: it is a hidden entry's turn (whose, they don't see)."""

    def find(self, who: str) -> Entry | None:
        """The entry ``who`` names: its id, else its name (any case)."""
        if who in self.entries:
            return self.entries[who]
        folded = who.strip().casefold()
        return next((e for e in self.entries.values() if e.name.casefold() == folded), None)


class Join(BaseModel):
    """Join the order: a member for themselves, or the GM for an NPC or a group of them (``npc``)."""

    type: Literal["join"] = "join"
    member: str | None = Field(default=None, max_length=20)
    """Who joins (a member's user id; by default whoever acts): a member joins only themselves, so Undo can't take
    back someone else's joining either."""
    name: str = Field(min_length=1, max_length=NAME_MAX)
    roll: str | None = Field(default=None, max_length=ROLL_MAX)
    """Dice notation (``1d20+3``); with neither a roll nor a value, ``1d20`` is rolled."""
    value: int | None = Field(default=None, ge=-99, le=999)
    mod: int | None = Field(default=None, ge=-99, le=99)
    """The modifier for ties (by default the roll's total less its dice, 0 for a value)."""
    npc: bool = False
    count: int = Field(default=1, ge=1, le=MAX_GROUP)
    hidden: bool = False


class Next(BaseModel):
    """The current turn ends; ``of`` names whose (a member ends only their own, and a turn ends once)."""

    type: Literal["next"] = "next"
    of: str | None = Field(default=None, max_length=8)


class Previous(BaseModel):
    type: Literal["prev"] = "prev"


class Delay(BaseModel):
    """The current entry (``of``, as for Next) waits: it goes after the next one, who acts now."""

    type: Literal["delay"] = "delay"
    of: str | None = Field(default=None, max_length=8)


class Remove(BaseModel):
    type: Literal["rm"] = "rm"
    who: str = Field(min_length=1, max_length=NAME_MAX)


class Reveal(BaseModel):
    """Show a hidden entry (and the rest of its group) to everyone."""

    type: Literal["reveal"] = "reveal"
    who: str = Field(min_length=1, max_length=NAME_MAX)


class SetCondition(BaseModel):
    """Put a condition on an entry for some of its turns (None: until removed), or take it off (0)."""

    type: Literal["cond"] = "cond"
    who: str = Field(min_length=1, max_length=NAME_MAX)
    name: str = Field(min_length=1, max_length=CONDITION_MAX)
    turns: int | None = Field(default=None, ge=0, le=MAX_TURNS)


InitAction = Annotated[Join | Next | Previous | Delay | Remove | Reveal | SetCondition, Field(discriminator="type")]
