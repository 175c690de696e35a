"""Ledger: a campaign-like test game for the core. Members keep a page each; the GM keeps secret notes.

It has every capability a campaign needs and nothing else: records (each page, the notes),
permissions (a page is its owner's or the GM's), hidden information (notes are the GM's only),
undo, chapters (one per GM note), and dice (a page can roll a d6 onto itself), so the core's campaign paths are tested
without any real game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from rules.dice import DiceSource
from rules.engine import GM_ROLES, IllegalAction, NotPermitted, Outcome, Viewer


class LedgerOptions(BaseModel):
    model_config = ConfigDict(frozen=True)


class Page(BaseModel):
    model_config = ConfigDict(frozen=True)

    owner: str
    name: str
    entries: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.entries)


class LedgerState(BaseModel):
    model_config = ConfigDict(frozen=True)

    pages: dict[str, Page] = Field(default_factory=dict)
    notes: tuple[str, ...] = ()
    """The GM's secret notes: nobody else ever sees them."""


class Join(BaseModel):
    type: Literal["join"] = "join"
    name: str = Field(min_length=1, max_length=40)


class Add(BaseModel):
    type: Literal["add"] = "add"
    page: str
    amount: int = Field(ge=-100, le=100, title="Amount", description="A whole number from -100 to 100")


class RollOnto(BaseModel):
    type: Literal["roll"] = "roll"
    page: str


class Note(BaseModel):
    type: Literal["note"] = "note"
    text: str = Field(min_length=1, max_length=200)


LedgerAction = Annotated[Join | Add | RollOnto | Note, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Join | Add | RollOnto | Note] = TypeAdapter(LedgerAction)


class LedgerEngine:
    kind = "ledger"
    title = "Ledger"
    options_model = LedgerOptions
    state_model = LedgerState

    def start(self, options: LedgerOptions, players: Sequence[str], dice: DiceSource) -> Outcome[LedgerState]:
        return Outcome(LedgerState(), [{"type": "opened"}])

    def parse_action(self, data: Mapping[str, Any]) -> BaseModel:
        return _ADAPTER.validate_python(data)

    def authorize(self, state: LedgerState, actor: str, roles: frozenset[str], action: BaseModel) -> None:
        gm = bool(roles & GM_ROLES)
        if isinstance(action, Note) and not gm:
            raise NotPermitted("Only the GM keeps notes.")
        if isinstance(action, Add | RollOnto) and action.page != actor and not gm:
            raise NotPermitted("That is someone else's page.")

    def apply(self, state: LedgerState, actor: str, action: BaseModel, dice: DiceSource) -> Outcome[LedgerState]:
        if isinstance(action, Join):
            if actor in state.pages:
                raise IllegalAction("You already have a page.")
            page = Page(owner=actor, name=action.name)
            return Outcome(
                state.model_copy(update={"pages": {**state.pages, actor: page}}), [{"type": "joined", "page": actor}]
            )
        if isinstance(action, Note):
            notes = (*state.notes, action.text)
            return Outcome(
                state.model_copy(update={"notes": notes}), [{"type": "noted", "text": action.text, "only": ["gm"]}]
            )
        assert isinstance(action, Add | RollOnto)
        page = state.pages.get(action.page)
        if page is None:
            raise IllegalAction("There is no such page.")
        amount = action.amount if isinstance(action, Add) else dice.roll(f"d6.{action.page}", 6)
        new = page.model_copy(update={"entries": (*page.entries, amount)})
        event = {"type": "added", "page": action.page, "amount": amount, "total": new.total}
        return Outcome(state.model_copy(update={"pages": {**state.pages, action.page: new}}), [event])

    def records(self, state: LedgerState) -> Mapping[str, object]:
        return {**{f"page:{owner}": page for owner, page in state.pages.items()}, "notes": state.notes}

    def view(self, state: LedgerState, viewer: Viewer) -> LedgerState:
        return state if viewer.is_gm else state.model_copy(update={"notes": ()})

    def undoable(self, action: BaseModel) -> bool:
        return isinstance(action, Add | RollOnto)

    def chapter(self, state: LedgerState) -> int:
        """A chapter per GM note: the log is read a chapter at a time like a campaign's turns."""
        return len(state.notes)
