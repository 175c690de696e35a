"""Race: on your turn roll a d6 and add it to your score; the first to reach the target wins.

A rolled 1 gives the *next* player a decision (take a point from the roller, or not), so the core
is exercised with a non-active player's choice as well as turns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from rules.dice import DiceSource
from rules.engine import NORMAL, IllegalAction, Outcome, Prompt, seat_after


class RaceOptions(BaseModel):
    target: int = Field(10, ge=2, le=100)
    timeouts: dict[str, int] = Field(default_factory=lambda: {"turn": 60})


class RaceState(BaseModel):
    players: list[str]
    scores: dict[str, int]
    active: str
    target: int
    pending_steal: str | None = None
    """The player who may take a point from the active player after a 1."""
    winner: str | None = None


class Roll(BaseModel):
    type: Literal["roll"] = "roll"


class Steal(BaseModel):
    type: Literal["steal"] = "steal"
    take: bool


RaceAction = Annotated[Roll | Steal, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Roll | Steal] = TypeAdapter(RaceAction)


class RaceEngine:
    kind = "race"
    title = "Race"
    min_players = 2
    max_players = 4
    options_model = RaceOptions
    state_model = RaceState

    def start(self, options: RaceOptions, players: Sequence[str], dice: DiceSource) -> Outcome[RaceState]:
        first = players[dice.roll("first", len(players)) - 1]
        state = RaceState(players=list(players), scores=dict.fromkeys(players, 0), active=first, target=options.target)
        return Outcome(state, [{"type": "started", "first": first}])

    def parse_action(self, data: Mapping[str, Any]) -> BaseModel:
        return _ADAPTER.validate_python(data)

    def apply(self, state: RaceState, actor: str, action: BaseModel, dice: DiceSource) -> Outcome[RaceState]:
        if state.winner:
            raise IllegalAction("The game is over.")
        s = state.model_copy(deep=True)
        if isinstance(action, Steal):
            if s.pending_steal != actor:
                raise IllegalAction("You can't take a point now.")
            s.pending_steal = None
            events: list[dict[str, Any]] = [{"type": "steal", "player": actor, "take": action.take}]
            if action.take and s.scores[s.active] > 0:
                s.scores[s.active] -= 1
                s.scores[actor] += 1
            s.active = seat_after(s.players, s.active)
            return Outcome(s, events)
        if s.pending_steal is not None or actor != s.active:
            raise IllegalAction("It's not your turn to roll.")
        value = dice.roll("d6", 6)
        s.scores[actor] += value
        events = [{"type": "rolled", "player": actor, "value": value}]
        if s.scores[actor] >= s.target:
            s.winner = actor
            events.append({"type": "won", "player": actor})
        elif value == 1:
            s.pending_steal = seat_after(s.players, actor)
        else:
            s.active = seat_after(s.players, actor)
        return Outcome(s, events)

    def prompts(self, state: RaceState) -> list[Prompt]:
        if state.winner:
            return []
        if state.pending_steal:
            return [Prompt(player=state.pending_steal, decision="steal", label="decide whether to take a point")]
        return [Prompt(player=state.active, decision="roll", label="roll")]

    def legal_actions(self, state: RaceState, player: str) -> list[BaseModel]:
        if state.winner:
            return []
        if state.pending_steal:
            return [Steal(take=True), Steal(take=False)] if player == state.pending_steal else []
        return [Roll()] if player == state.active else []

    def default_action(self, state: RaceState, player: str) -> BaseModel:
        return Steal(take=False) if state.pending_steal == player else Roll()

    def computer_action(self, seen: RaceState, player: str, dice: DiceSource, strength: str = NORMAL) -> BaseModel:
        """Always take the point; nothing is hidden, so ``seen`` is the whole state."""
        return Steal(take=True) if seen.pending_steal == player else Roll()

    def remove_player(self, state: RaceState, player: str, dice: DiceSource) -> Outcome[RaceState]:
        s = state.model_copy(deep=True)
        if s.active == player or s.pending_steal == player:
            s.pending_steal = None
            s.active = seat_after(s.players, player)
        s.players.remove(player)
        events: list[dict[str, Any]] = [{"type": "left", "player": player}]
        if len(s.players) == 1:
            s.winner = s.players[0]
            events.append({"type": "won", "player": s.winner})
        return Outcome(s, events)

    def winners(self, state: RaceState) -> list[str] | None:
        return [state.winner] if state.winner else None

    def rollers(self, events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        """Each roll is the roller's, in the luck statistics (every die is seen by all); who goes first is a pick."""
        return [(e["player"], "d6") for e in events if e["type"] == "rolled"]
