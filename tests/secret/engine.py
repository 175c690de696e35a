"""Secret dice: each player rolls a d6 only they can see, then the table bids on the total of every die.

On your turn, bid a total higher than the last bid (the sum of all dice is at least that much), or call the last
bid: every die is revealed, and the bidder wins if the total reaches the bid, the caller wins if it doesn't. The
first player must bid. Once a game, before you bid or call, you may reroll your own die (in secret; your turn goes
on). A die is its owner's secret until the call: ``view`` hides the others, and the event of each roll is ``only``
for the player who rolled it.

No ``Rollers``: every die is secret when rolled, so none counts in the luck statistics.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from rules.dice import DiceSource
from rules.engine import NORMAL, IllegalAction, Outcome, Prompt, Viewer, seat_after

SIDES = 6


class SecretOptions(BaseModel):
    # The core reads ``timeouts["turn"]`` for every prompt whose timer is "turn" (the default): without this
    # field no decision ever has a deadline, and the lobby's turn timeout has nothing to set.
    timeouts: dict[str, int] = Field(default_factory=lambda: {"turn": 120})


class SecretState(BaseModel):
    players: list[str]
    dice: dict[str, int | None]
    """Each player's die; None where the viewer may not see it (``view``)."""
    active: str
    bid: int = 0
    bidder: str | None = None
    revealed: bool = False
    winner: str | None = None
    rerolled: list[str] = Field(default_factory=list)
    """The players who have used their reroll."""


class Bid(BaseModel):
    type: Literal["bid"] = "bid"
    total: int = Field(ge=1, le=SIDES * 4)


class Call(BaseModel):
    type: Literal["call"] = "call"


class Reroll(BaseModel):
    type: Literal["reroll"] = "reroll"


SecretAction = Annotated[Bid | Call | Reroll, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Bid | Call | Reroll] = TypeAdapter(SecretAction)


class SecretEngine:
    kind = "secret"
    title = "Secret dice"
    min_players = 2
    max_players = 4
    options_model = SecretOptions
    state_model = SecretState

    def start(self, options: SecretOptions, players: Sequence[str], dice: DiceSource) -> Outcome[SecretState]:
        rolled = {p: dice.roll(f"die.{p}", SIDES) for p in players}
        state = SecretState(players=list(players), dice=dict(rolled), active=players[0])
        events: list[dict[str, Any]] = [
            {"type": "rolled", "player": p, "value": v, "only": [p]} for p, v in rolled.items()
        ]
        return Outcome(state, [*events, {"type": "started", "first": players[0]}])

    def parse_action(self, data: Mapping[str, Any]) -> BaseModel:
        return _ADAPTER.validate_python(data)

    def apply(self, state: SecretState, actor: str, action: BaseModel, dice: DiceSource) -> Outcome[SecretState]:
        if state.winner:
            raise IllegalAction("The game is over.")
        if actor != state.active:
            raise IllegalAction("It's not your turn.")
        s = state.model_copy(deep=True)
        if isinstance(action, Reroll):
            if actor in s.rerolled:
                raise IllegalAction("You have rerolled your die already.")
            s.rerolled.append(actor)
            s.dice[actor] = value = dice.roll(f"die.{actor}.again", SIDES)
            return Outcome(
                s,
                [
                    {"type": "rerolled", "player": actor},
                    {"type": "rolled", "player": actor, "value": value, "only": [actor]},
                ],
            )
        if isinstance(action, Bid):
            if action.total <= s.bid:
                raise IllegalAction(f"Bid more than {s.bid}.")
            if action.total > SIDES * len(s.players):
                raise IllegalAction(f"The dice can't add up to more than {SIDES * len(s.players)}.")
            s.bid, s.bidder = action.total, actor
            s.active = seat_after(s.players, actor)
            return Outcome(s, [{"type": "bid", "player": actor, "total": action.total}])
        if s.bidder is None:
            raise IllegalAction("There is no bid to call yet: make one.")
        return Outcome(*_reveal(s, caller=actor))

    def view(self, state: SecretState, viewer: Viewer) -> SecretState:
        if state.revealed:
            return state
        hidden = {p: (v if p == viewer.id else None) for p, v in state.dice.items()}
        return state.model_copy(update={"dice": hidden})

    def prompts(self, state: SecretState) -> list[Prompt]:
        if state.winner:
            return []
        return [Prompt(player=state.active, decision="bid", label="bid higher or call")]

    def legal_actions(self, state: SecretState, player: str) -> list[BaseModel]:
        if state.winner or player != state.active:
            return []
        bids: list[BaseModel] = [Bid(total=t) for t in range(state.bid + 1, SIDES * len(state.players) + 1)]
        reroll = [] if player in state.rerolled else [Reroll()]
        return [*bids, *reroll, Call()] if state.bidder is not None else [*bids, *reroll]

    def default_action(self, state: SecretState, player: str) -> BaseModel:
        return Call() if state.bidder is not None else Bid(total=1)

    def computer_action(self, seen: SecretState, player: str, dice: DiceSource, strength: str = NORMAL) -> BaseModel:
        """Bid what the dice it can see make likely (its own, and the average of the others), call a bid at or
        over that. ``seen`` is its seat's view: the other dice are None, so it plays as a person in its seat."""
        known = [v for v in seen.dice.values() if v is not None]
        likely = sum(known) + (len(seen.dice) - len(known)) * (SIDES + 1) / 2
        if seen.bidder is not None and seen.bid >= likely:
            return Call()
        return Bid(total=max(seen.bid + 1, math.floor(likely)))

    def remove_player(self, state: SecretState, player: str, dice: DiceSource) -> Outcome[SecretState]:
        s = state.model_copy(deep=True)
        if s.active == player:
            s.active = seat_after(s.players, player)
        s.players.remove(player)
        del s.dice[player]
        if s.bidder == player:  # their bid goes with them: the table bids afresh
            s.bidder, s.bid = None, 0
        s.bid = min(s.bid, SIDES * len(s.players))
        events: list[dict[str, Any]] = [{"type": "left", "player": player}]
        if len(s.players) == 1:
            s.winner = s.players[0]
            events.append({"type": "won", "player": s.winner})
        return Outcome(s, events)

    def winners(self, state: SecretState) -> list[str] | None:
        return [state.winner] if state.winner else None


def _reveal(s: SecretState, *, caller: str) -> tuple[SecretState, list[dict[str, Any]]]:
    assert s.bidder is not None
    total = sum(v or 0 for v in s.dice.values())
    s.revealed = True
    s.winner = s.bidder if total >= s.bid else caller
    return s, [
        {"type": "called", "player": caller, "dice": dict(s.dice), "total": total},
        {"type": "won", "player": s.winner},
    ]


ENGINE = SecretEngine()
