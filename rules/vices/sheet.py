"""The Vices & Vengeance scoresheet for people rolling physical dice (RULES.md 1.6), as an engine.

It is the seed's sheet: a column per player headed by their original Sin, a turn score per round,
"Lowest score wins. Exactly 70 steals the victory." The keeper writes the scores; the sheet keeps
the seat order, the round, the 70 trigger and who still plays, finds the winner (E1) or runs the
tie-break (E2), and seats the winner last in the next game (E3).

Who may write (``authorize``):

- The keeper may take every action. The keeper is stored in the state (``state.keeper``) and only
  a ``keeper`` action changes it; the core's ``host`` role, which stays with the sheet's creator,
  is not consulted.
- A member with Manage Server (role ``manager``) may hand the keeper role over, so a sheet whose
  keeper has gone can be rescued; nothing else.
- With ``settings.self_scoring`` ("everyone scores their own turn"), a listed member may also enter
  and correct the scores of their own row, take their own tie-break roll, and, while it is their
  turn, record Sin moves and the Sloth die (those happen during the defender's turn).
- Anyone else may look but not write.

Undo and redo (``undoable``): every action may be undone except a keeper hand-over and a tie-break
roll the bot made (undoing one would let people reroll until they liked the result). The core
rebuilds the state by replaying the log without undone actions: ``apply`` is pure and deterministic,
a hand-over never depends on other entries, and an entry that no longer fits (a score for someone
who is no longer up) raises IllegalAction rather than landing elsewhere. The core should let an
actor undo or redo an action when ``authorize`` allows them that action, so a self-scoring member
can take back their own entries.

Tie-break dice the bot rolls are named ``tb<round>.<row>.<die>``, e.g. ``tb1.Wrath.Mirror`` then
``tb1.Wrath.Medusa`` (round of the tie-break, the contender's row, the die in ``dice.yaml`` order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.dice import DiceSource
from rules.engine import MANAGER, Engine, IllegalAction, NotPermitted, Outcome, Permissions, Undo
from rules.said import said
from rules.vices.sheet_actions import (
    Correct,
    EnterScore,
    HandOver,
    MoveSin,
    NewGame,
    Rename,
    Reorder,
    SetSloth,
    SheetAction,
    TieBreak,
    parse_action,
)
from rules.vices.sheet_data import PAIRS, SIN_NAMES, SinName
from rules.vices.sheet_state import (
    RESERVES,
    PastGame,
    Phase,
    Place,
    Progress,
    Row,
    RowSpec,
    SheetOptions,
    SheetState,
    TieRoll,
    progress,
    row_of,
    seat_of,
    tie_points,
    totals,
    where,
)

Event = dict[str, Any]


def _replace_row(state: SheetState, row: Row) -> tuple[Row, ...]:
    return tuple(row if r.sin == row.sin else r for r in state.rows)


def _game_over_reason(state: SheetState, p: Progress) -> str:
    if p.winner is not None:
        name = row_of(state, p.winner).name
        return said("The game is over: {name} won. Start a new game to play again.", name=name)
    return said("The game is over: the tie-break decides the winner.")


def _score(state: SheetState, action: EnterScore) -> tuple[SheetState, list[Event]]:
    p = progress(state)
    if p.up is None:
        raise IllegalAction(_game_over_reason(state, p))
    row = row_of(state, action.row)
    if row.sin != p.up:
        raise IllegalAction(said("It is {up}'s turn, not {name}'s.", up=row_of(state, p.up).name, name=row.name))
    new = row.model_copy(update={"scores": (*row.scores, action.value)})
    event = {"type": "scored", "row": row.sin, "round": p.round, "value": action.value, "total": sum(new.scores)}
    return state.model_copy(update={"rows": _replace_row(state, new)}), [event]


def _correct(state: SheetState, action: Correct) -> tuple[SheetState, list[Event]]:
    if state.tiebreak:
        raise IllegalAction(said("The tie-break has started: undo its rolls before correcting a score."))
    row = row_of(state, action.row)
    if action.round > len(row.scores):
        raise IllegalAction(said("{name} has no score for round {round} yet.", name=row.name, round=action.round))
    old = row.scores[action.round - 1]
    if old == action.value:
        raise IllegalAction(
            said("{name}'s score for round {round} is already {old}.", name=row.name, round=action.round, old=old)
        )
    scores = list(row.scores)
    scores[action.round - 1] = action.value
    new_row = row.model_copy(update={"scores": tuple(scores)})
    new = state.model_copy(update={"rows": _replace_row(state, new_row)})
    trigger = progress(new).trigger
    if trigger is not None and sum(len(r.scores) for r in new.rows) > trigger.last_turn:
        # The 70 would now come earlier than before, and the game would have ended before turns already entered.
        raise IllegalAction(
            said(
                "With {value} there, {name} reaches {total} in round {round} and the game is over before the later "
                "scores: undo those first.",
                value=action.value,
                name=row_of(new, trigger.row).name,
                total=trigger.total,
                round=trigger.round,
            )
        )
    event = {
        "type": "corrected",
        "row": row.sin,
        "round": action.round,
        "old": old,
        "value": action.value,
        "total": sum(new_row.scores),
    }
    return new, [event]


def _reorder(state: SheetState, action: Reorder) -> tuple[SheetState, list[Event]]:
    if any(row.scores for row in state.rows):
        raise IllegalAction(said("The order is fixed once the first score is in."))
    seat = seat_of(state, action.row)
    other = seat - 1 if action.dir == "up" else seat + 1
    if not 0 <= other < len(state.rows):
        name = state.rows[seat].name
        if action.dir == "up":
            raise IllegalAction(said("{name} is already first.", name=name))
        raise IllegalAction(said("{name} is already last.", name=name))
    rows = list(state.rows)
    rows[seat], rows[other] = rows[other], rows[seat]
    new = state.model_copy(update={"rows": tuple(rows)})
    return new, [{"type": "reordered", "row": action.row, "order": [r.sin for r in rows]}]


def _rename(state: SheetState, action: Rename) -> tuple[SheetState, list[Event]]:
    row = row_of(state, action.row)
    if row.name == action.name:
        raise IllegalAction(said("{name} is already called that.", name=row.name))
    if any(r.name.casefold() == action.name.casefold() for r in state.rows if r.sin != row.sin):
        raise IllegalAction(said("Another player is already called {name}.", name=action.name))
    new = state.model_copy(update={"rows": _replace_row(state, row.model_copy(update={"name": action.name}))})
    return new, [{"type": "renamed", "row": row.sin, "old": row.name, "name": action.name}]


def _move_sin(state: SheetState, action: MoveSin) -> tuple[SheetState, list[Event]]:
    before = state.sins[action.sin]
    if action.to == before:
        raise IllegalAction(said("{sin} is already {place}.", sin=action.sin, place=where(state, before)))
    where(state, action.to)  # refuses a row nobody plays before anything moves
    new = state.model_copy(update={"sins": {**state.sins, action.sin: action.to}})
    return new, [{"type": "sin_moved", "sin": action.sin, "from": before, "to": action.to}]


def _sloth(state: SheetState, action: SetSloth) -> tuple[SheetState, list[Event]]:
    if all(row.sin != "Sloth" for row in state.rows):
        raise IllegalAction(said("Nobody started with Sloth, so no Sloth Nemesis die is in play."))
    if action.removed == state.sloth_removed:
        if action.removed:
            raise IllegalAction(said("The Sloth Nemesis die is already removed."))
        raise IllegalAction(said("The Sloth Nemesis die is already in play."))
    new = state.model_copy(update={"sloth_removed": action.removed})
    return new, [{"type": "sloth_die", "removed": action.removed}]


def _hand_over(state: SheetState, action: HandOver) -> tuple[SheetState, list[Event]]:
    if action.to == state.keeper:
        raise IllegalAction(said("{name} already keeps this sheet.", name=state.keeper_name))
    new = state.model_copy(update={"keeper": action.to, "keeper_name": action.name})
    return new, [{"type": "keeper", "from": state.keeper, "to": action.to, "name": action.name}]


def _tiebreak(state: SheetState, action: TieBreak, dice: DiceSource) -> tuple[SheetState, list[Event]]:
    p = progress(state)
    if p.phase is not Phase.TIEBREAK:
        raise IllegalAction(_game_over_reason(state, p) if p.winner else said("There is no tie-break now."))
    row = row_of(state, action.row)
    if row.sin not in p.contenders:
        raise IllegalAction(said("{name} is not in the tie-break.", name=row.name))
    assert p.roller is not None
    if row.sin != p.roller:
        raise IllegalAction(said("{name} rolls for the tie-break first.", name=row_of(state, p.roller).name))
    if action.dice is None:
        values = tuple(dice.roll(f"tb{p.tiebreak_round}.{row.sin}.{die}", 6) for die in PAIRS[action.pair])
        roll = TieRoll(row=row.sin, pair=action.pair, dice=(values[0], values[1]), rolled=True)
    else:
        roll = TieRoll(row=row.sin, pair=action.pair, dice=action.dice, rolled=False)
    rounds = list(state.tiebreak)
    if len(rounds) < p.tiebreak_round:
        rounds.append(())
    rounds[-1] = (*rounds[-1], roll)
    event = {
        "type": "tiebreak_roll",
        "round": p.tiebreak_round,
        "row": row.sin,
        "pair": roll.pair,
        "dice": list(roll.dice),
        "points": tie_points(roll, state.settings),
        "rolled": roll.rolled,
    }
    return state.model_copy(update={"tiebreak": tuple(rounds)}), [event]


def _new_game(state: SheetState) -> tuple[SheetState, list[Event]]:
    winner = progress(state).winner
    if winner is None:
        raise IllegalAction("This game has no winner yet.")
    seat = seat_of(state, winner)
    rows = tuple(r.model_copy(update={"scores": ()}) for r in (*state.rows[seat + 1 :], *state.rows[: seat + 1]))
    new = state.model_copy(
        update={
            "rows": rows,
            "sins": _starting_places(rows),
            "sloth_removed": False,
            "tiebreak": (),
            "history": (*state.history, PastGame(winner=winner, totals=totals(state))),
        }
    )
    return new, [{"type": "new_game", "game": len(new.history) + 1, "order": [r.sin for r in rows]}]


def _starting_places(rows: Sequence[RowSpec]) -> dict[SinName, Place]:
    """1.4 step 4: each player holds their own Sin; unclaimed Sins wait in the reserves."""
    played = {row.sin for row in rows}
    return {sin: (sin if sin in played else RESERVES) for sin in SIN_NAMES}


def _milestones(before: Progress, after: Progress, state: SheetState) -> list[Event]:
    """Events for what an action changed in the game's course: the 70 trigger, the end, a tie-break, a winner."""
    events: list[Event] = []
    if after.trigger != before.trigger:
        if after.trigger is None:
            events.append({"type": "end_cancelled"})
        else:
            t = after.trigger
            events.append(
                {"type": "finish_round", "row": t.row, "round": t.round, "total": t.total, "to_play": [*after.to_play]}
            )
    ended = (Phase.TIEBREAK, Phase.OVER)
    if after.phase in ended and before.phase not in ended:
        events.append({"type": "game_over", "finalists": list(after.finalists), "totals": totals(state)})
    elif before.phase in ended and after.phase not in ended:
        events.append({"type": "game_resumed", "up": after.up})
    if after.phase is Phase.TIEBREAK and (after.tiebreak_round, after.contenders) != (
        before.tiebreak_round,
        before.contenders,
    ):
        events.append({"type": "tiebreak", "round": after.tiebreak_round, "contenders": list(after.contenders)})
    if after.winner is not None and after.winner != before.winner:
        events.append({"type": "winner", "row": after.winner, "total": totals(state)[after.winner]})
    return events


def _member_may(state: SheetState, own: SinName, action: SheetAction) -> bool:
    """What "everyone scores their own turn" lets the player of row ``own`` write."""
    if isinstance(action, EnterScore | Correct | TieBreak):
        return action.row == own
    if isinstance(action, MoveSin | SetSloth):
        return progress(state).up == own
    return False


class SheetEngine:
    """The scoresheet as an :class:`~rules.engine.Engine` with Permissions and Undo (see the module docstring)."""

    kind = "vv_sheet"
    title: str = said("Vices & Vengeance scoresheet")  # the core says it (localize)
    options_model = SheetOptions
    state_model = SheetState

    def start(self, options: SheetOptions, players: Sequence[str], dice: DiceSource) -> Outcome[SheetState]:
        """A fresh sheet: ``options.rows`` in seat order, each player holding their original Sin.

        ``players`` must be empty: a sheet's rows include people without a Discord account, so they
        come from the options, not from seats.
        """
        if players:
            raise IllegalAction("A scoresheet takes its players from its options, not from seats.")
        settings, rows = options.settings, options.rows
        if not settings.min_players <= len(rows) <= settings.max_players:
            low, high = settings.min_players, settings.max_players
            raise IllegalAction(said("A sheet needs {low} to {high} players.", low=low, high=high))
        sins = [r.sin for r in rows]
        twice = next((sin for i, sin in enumerate(sins) if sin in sins[:i]), None)
        if twice is not None:
            raise IllegalAction(said("{sin} is given twice: each Sin heads one column only.", sin=twice))
        for seen, what in (
            ([r.name.casefold() for r in rows], said("Each player needs a name of their own.")),
            ([r.member for r in rows if r.member is not None], said("A member can have only one row.")),
        ):
            if len(set(seen)) != len(seen):
                raise IllegalAction(what)
        state = SheetState(
            settings=settings,
            keeper=options.keeper,
            keeper_name=options.keeper_name,
            rows=tuple(Row(**r.model_dump()) for r in rows),
            sins=_starting_places(rows),
        )
        return Outcome(state, [{"type": "sheet_started", "order": [r.sin for r in rows], "keeper": options.keeper}])

    def parse_action(self, data: Mapping[str, Any]) -> SheetAction:
        """Validate JSON (``{"type": "score", "row": "Wrath", "value": 14}``) into a sheet action."""
        return parse_action(data)

    def apply(self, state: SheetState, actor: str, action: SheetAction, dice: DiceSource) -> Outcome[SheetState]:
        """Write ``action`` on the sheet; raise IllegalAction (nothing changes) if it does not fit now.

        Who may write is ``authorize``'s question, which the core asks first.
        """
        before = progress(state)
        match action:
            case EnterScore():
                new, events = _score(state, action)
            case Correct():
                new, events = _correct(state, action)
            case Reorder():
                new, events = _reorder(state, action)
            case Rename():
                new, events = _rename(state, action)
            case MoveSin():
                new, events = _move_sin(state, action)
            case SetSloth():
                new, events = _sloth(state, action)
            case HandOver():
                new, events = _hand_over(state, action)
            case TieBreak():
                new, events = _tiebreak(state, action, dice)
            case NewGame():
                # A fresh game, not a turn in this one's course: no milestones to compare.
                return Outcome(*_new_game(state))
        return Outcome(new, events + _milestones(before, progress(new), new))

    def authorize(self, state: SheetState, actor: str, roles: frozenset[str], action: SheetAction) -> None:
        """Raise NotPermitted unless ``actor`` may write ``action`` on this sheet (module docstring)."""
        if actor == state.keeper:
            return
        if isinstance(action, HandOver) and MANAGER in roles:
            return
        own = next((r.sin for r in state.rows if r.member == actor), None) if state.settings.self_scoring else None
        if own is None:
            raise NotPermitted(said("Only the keeper, {name}, can write on this sheet.", name=state.keeper_name))
        if not _member_may(state, own, action):
            raise NotPermitted(
                said(
                    "You can write your own scores and your own turn's Sin moves; the keeper, {name}, writes the rest.",
                    name=state.keeper_name,
                )
            )

    def undoable(self, action: SheetAction) -> bool:
        """Everything but a keeper hand-over and a tie-break roll the bot made."""
        if isinstance(action, TieBreak):
            return action.dice is not None
        return not isinstance(action, HandOver)


SHEET_ENGINE = SheetEngine()

# Typed on purpose: mypy then proves the engine keeps the contract and both capabilities it claims.
_ENGINE: Engine[SheetOptions, SheetState, SheetAction] = SHEET_ENGINE
_PERMISSIONS: Permissions[SheetState, SheetAction] = SHEET_ENGINE
_UNDO: Undo[SheetAction] = SHEET_ENGINE
