"""Viciousness as a :class:`rules.engine.Engine` with permissions, records and hidden information.

A campaign is one long-lived session without seats or turn order: ``start`` makes an empty one (the
core records the GM), players join by creating troupes, and everything else is an action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from rules.dice import DiceSource
from rules.engine import (
    Chapters,
    Engine,
    HiddenInformation,
    IllegalAction,
    Outcome,
    Permissions,
    Records,
    Reminder,
    Reminders,
    Rollers,
    Undo,
    Viewer,
)
from rules.said import said
from rules.viciousness import (
    calls,
    checks,
    commitments,
    company,
    dicepool,
    knavery,
    pools,
    recap,
    rivals,
    sessions,
    troupes,
    turns,
    violence,
)
from rules.viciousness.actions import Action, Notes, Restore, parse_action
from rules.viciousness.options import VicOptions
from rules.viciousness.permissions import authorize
from rules.viciousness.state import CampaignState
from rules.viciousness.work import Work

Handler = Callable[[Work, Any], None]


def handlers_of(*modules: ModuleType) -> dict[type[Action], Handler]:
    """Each module's ``HANDLERS`` (its actions, each with the function that applies it) in one table; an action two
    modules claim fails here, rather than one silently taking the other's."""
    merged: dict[type[Action], Handler] = {}
    for module in modules:
        for action, handler in module.HANDLERS.items():
            if action in merged:
                raise TypeError(f"{action.__name__} is applied by two modules (one is {module.__name__})")
            merged[action] = handler
    return merged


HANDLERS = handlers_of(
    company, troupes, checks, pools, violence, knavery, rivals, turns, calls, recap, sessions, commitments
)


def records(state: CampaignState) -> dict[str, object]:
    """Every record by its stable key: what an action did not change keeps the very same value."""
    out: dict[str, object] = {
        "options": state.options,
        "company": state.company,
        "turn": state.turn,
        "traits": state.traits,
        "notes": state.notes,
        "archived": state.archived,
        "recap": state.recap,
        "planned": state.planned,
        "committed": state.committed,
    }
    out["roster"] = roster(state)
    out.update({f"calls:{member}": c for member, c in state.calls.items()})
    out.update({f"troupe:{owner}": t for owner, t in state.troupes.items()})
    out.update({f"rival:{rid}": r for rid, r in state.rivals.items()})
    out.update({f"pool:{pid}": p for pid, p in state.pools.items()})
    return out


def roster(state: CampaignState) -> tuple[tuple[str, bool, bool, bool], ...]:
    """Who may take part in a pool now: each active character of a whole troupe, whether they acted this turn, are
    wounded, or are in a pool. Not a part of the state but a view of it: a pool's board follows it (``pool:<id>+
    roster``), so its *Join* list never offers someone who has rested or joined another pool since it was drawn."""
    busy = {c.id for p in state.pools.values() for c in p.combatants}
    turn = state.turn
    return tuple(
        (pc.id, turn.running and pc.action_turn == turn.number, pc.wounded, pc.id in busy)
        for troupe in state.troupes.values()
        if not troupe.dissolved
        for pc in troupe.pcs
        if pc.active
    )


class ViciousnessEngine:
    """The rules of Viciousness for a GM's campaign: company, troupes, turns, pools and rivals."""

    kind = "viciousness"
    title = "Viciousness"
    options_model = VicOptions
    state_model = CampaignState

    def start(self, options: VicOptions, players: Sequence[str], dice: DiceSource) -> Outcome[CampaignState]:
        """An empty campaign at wealth rank 2 (the GM names it and sets the rank through actions)."""
        state = CampaignState(options=options)
        return Outcome(state, [{"type": "campaign_started", "rank": state.company.rank, "ip": state.company.ip}])

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        """Validate JSON data (``{"type": "turn_start"}``) into its action model."""
        return parse_action(data)

    def apply(self, state: CampaignState, actor: str, action: Action, dice: DiceSource) -> Outcome[CampaignState]:
        """Apply ``action``; raises IllegalAction with a readable reason. Never checks who (see ``authorize``)."""
        if state.archived and not isinstance(action, Restore):
            raise IllegalAction(
                said("The campaign is archived: the GM brings it back with `/vic-gm campaign restore`.")
            )
        work = Work(state, actor, dice, salt=getattr(action, "salt", ""))
        HANDLERS[type(action)](work, action)
        recap.after_action(work, state, action)
        calls.after_action(work, state)
        return Outcome(work.s, work.events)

    def authorize(self, state: CampaignState, actor: str, roles: frozenset[str], action: Action) -> None:
        """Raise NotPermitted if ``actor`` may not take ``action`` (players: their own troupe and PCs)."""
        authorize(state, actor, roles, action)

    def records(self, state: CampaignState) -> Mapping[str, object]:
        """company, turn, options, traits, notes, archived, troupe:<owner>, rival:<id>, pool:<id>, and the roster."""
        return records(state)

    def view(self, state: CampaignState, viewer: Viewer) -> CampaignState:
        """The GM sees everything; anyone else sees no rivals, no GM notes and no rival dice waiting to be revealed."""
        if viewer.is_gm:
            return state
        return state.model_copy(update={"rivals": {}, "notes": "", "committed": ()})

    def reminders(self, state: CampaignState) -> list[Reminder]:
        """Players the table still waits on who asked to be reminded (``/vic calls``), and the players before a
        planned session."""
        return calls.reminders(state) + sessions.reminders(state)

    def undoable(self, action: Action) -> bool:
        """GM corrections: any action that rolls no dice can be undone (rolls can't be taken back). The GM's notes
        are not a change of the campaign to take back: an undo never reverts them by surprise (it stops there)."""
        return not action.rolls() and not isinstance(action, Notes)

    def rollers(self, events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        """Each pool die a player's character rolled, theirs (``dicepool.rollers``): NPCs', equipment and the GM's
        secret dice are nobody's."""
        return dicepool.rollers(events)

    def chapter(self, state: CampaignState) -> int:
        """The turn (0: the set-up before the first), from its start to the next one's: ``/vic log`` reads a turn
        by it."""
        return state.turn.number


ENGINE = ViciousnessEngine()

_engine: Engine[VicOptions, CampaignState, Action] = ENGINE
_permissions: Permissions[CampaignState, Action] = ENGINE
_records: Records[CampaignState] = ENGINE
_hidden: HiddenInformation[CampaignState] = ENGINE
_undo: Undo[Action] = ENGINE
_reminders: Reminders[CampaignState] = ENGINE
_chapters: Chapters[CampaignState] = ENGINE
_rollers: Rollers = ENGINE
