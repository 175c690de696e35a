"""The state of a Vices & Vengeance game (RULES.md 1.2) and read-only questions about it.

Every model is frozen and every container a tuple, except ``sins`` and ``nemesis_out``, small dicts
that the engine replaces and never changes; so a state handed out is never mutated, and the engine
builds the next one from copies (``model_copy(update=...)``).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.vices.data import LARGE, METALLIC, NEMESIS, PRECEDENCE, PRIDE, SINS
from rules.vices.options import VicesOptions

RESERVES = "reserves"
"""Where unclaimed Sins and the Sins of players who left wait (``VicesState.sins`` value)."""
OUT = "out"
"""A Sin destroyed by Wrath: out of play for the rest of the game."""

NEMESIS_SLOTH = "sloth"
"""``VicesState.nemesis_out`` reason: a Sloth match removed the d20 from play."""
NEMESIS_LEFT = "left"
"""``VicesState.nemesis_out`` reason: its owner left the game."""

Phase = Literal["setup", "turn", "tiebreak", "over"]
Effect = Literal["wrath", "gluttony", "greed", "lust", "envy"]
"""The Sin effects that may need their owner to choose something."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Seat(_Frozen):
    """A player at the table. Scores stay under ``sin``, the Sin they claimed at setup (RULES.md 1.4 #5)."""

    id: str
    sin: str | None = None
    """The original Sin: the score column's label and the colour of this player's Nemesis d20."""
    total: int = 0
    turns: tuple[int, ...] = ()
    """Each finished turn's score, oldest first."""
    left: bool = False


class PoolDie(_Frozen):
    """A die in the defender's active pool with the value it shows now."""

    id: str
    value: int
    joined: bool = False
    """A Nemesis d20 absorbed on this roll: it cannot be removed until the next roll (T5)."""


@cache
def pool_die(die_id: str, value: int, joined: bool = False) -> PoolDie:
    """The shared :class:`PoolDie` with these fields (immutable, so one instance per value will do)."""
    return PoolDie(id=die_id, value=value, joined=joined)


class Match(_Frozen):
    """A Sin match of this roll, still to resolve. ``player`` rolled the matching large die and owns the
    effect, even if the Sin has moved since (RULES.md 1.5 T4a)."""

    sin: str
    player: str


class Choice(_Frozen):
    """An attacker must choose how their Sin's effect is applied (table 1.3 D4–D8)."""

    effect: Effect
    player: str


class Turn(_Frozen):
    """One defender's turn (RULES.md 1.2 TurnState)."""

    defender: str
    roll: int = 0
    """Rolls made so far this turn (the first roll is roll 1)."""
    pool: tuple[PoolDie, ...] = ()
    """The active pool in roll order: small Sin dice, spoilers, pairs, own d20, absorbed d20s."""
    scored: tuple[str, ...] = ()
    """Dice that left the pool this turn by scoring (removal or penalty roll), in order."""
    absorbed: tuple[str, ...] = ()
    """Nemesis d20s taken from attackers this turn, in order; they go back to their owners at the end."""
    matched: tuple[str, ...] = ()
    """The defender's d20s that an attacker's d20 matched on this roll (vv.nemesis_zero_rule)."""
    penalty_met: bool = False
    """A penalty roll on this roll already counts as its removal."""
    score: int = 0
    queue: tuple[Match, ...] = ()
    """This roll's Sin matches still to resolve, in precedence order; the first is being resolved."""
    absorbing: tuple[PoolDie, ...] = ()
    """Attackers' d20s that matched on this roll, absorbed once the Sin matches are resolved."""
    choice: Choice | None = None


class Claim(_Frozen):
    """Setup: ``player`` must claim one of ``sins`` (the Sins whose large die matched the Mirror die)."""

    player: str
    sins: tuple[str, ...]


class Pick(_Frozen):
    """A tie-break contender's Mythical pair for this tie-break roll."""

    player: str
    pair: str


class TieBreak(_Frozen):
    """Players tied for the win roll a Mythical pair each until one scores lowest (E2)."""

    contenders: tuple[str, ...]
    picks: tuple[Pick, ...] = ()
    round: int = 1


class VicesState(_Frozen):
    """A whole game. The engine returns a new one after each action."""

    options: VicesOptions
    players: tuple[Seat, ...]
    """Seat order: play goes clockwise, that is along this tuple."""
    phase: Phase
    sins: dict[str, str]
    """Where each Sin (with its token, large die and, for Pride, the metallic die) is: a player id,
    ``reserves`` or ``out``."""
    nemesis_out: dict[str, str] = Field(default_factory=dict)
    """Nemesis d20s out of play, by colour: ``sloth`` (removed by a Sloth match) or ``left`` (owner left)."""
    first_seat: str
    round_no: int = 1
    turn: Turn | None = None
    claim: Claim | None = None
    tiebreak: TieBreak | None = None
    end_triggered: bool = False
    """Someone reached 70 or more: the game ends once ``last_turns`` have been played."""
    last_turns: tuple[str, ...] = ()
    """After the trigger, the players who still take a turn, in order (vv.end_mode)."""
    winners: tuple[str, ...] = ()

    def seat(self, player: str) -> Seat:
        """The seat of ``player``."""
        for seat in self.players:
            if seat.id == player:
                return seat
        raise KeyError(player)

    def present(self) -> list[str]:
        """Ids of players still in the game, in seat order."""
        return [p.id for p in self.players if not p.left]

    def clockwise_from(self, player: str) -> list[str]:
        """Players still in the game other than ``player`` (who may have left), clockwise starting after them."""
        ids = [p.id for p in self.players]
        i = ids.index(player)
        return [p.id for p in self.players[i + 1 :] + self.players[:i] if not p.left]

    def sins_of(self, player: str) -> list[str]:
        """The Sins ``player`` holds now, in precedence order."""
        return [sin for sin in SINS if self.sins[sin] == player]

    def reserves(self) -> list[str]:
        """Sins in the reserves, in precedence order."""
        return [sin for sin in SINS if self.sins[sin] == RESERVES]

    def nemesis_owner(self, colour: str) -> str | None:
        """Who owns the Nemesis d20 of ``colour`` (the player whose original Sin it is), or None if unused."""
        for seat in self.players:
            if seat.sin == colour:
                return seat.id
        return None

    def own_nemesis(self, player: str) -> str | None:
        """The die id of ``player``'s own Nemesis d20, or None if it is out of play (or not assigned yet)."""
        sin = self.seat(player).sin
        return None if sin is None or sin in self.nemesis_out else NEMESIS[sin]

    def ordered_sins(self, sins: list[str]) -> list[str]:
        """``sins`` in the fixed order of RULES.md 1.8 #35: the reserves first, then holders in seat order,
        several Sins of one holder in precedence order."""
        seat_index = {p.id: i for i, p in enumerate(self.players)}
        return sorted(sins, key=lambda s: (seat_index.get(self.sins[s], -1), PRECEDENCE[s]))


def large_dice(sin: str) -> list[str]:
    """The dice that travel with ``sin``: its large d6, and the metallic d6 for Pride."""
    return [LARGE[sin], METALLIC] if sin == PRIDE else [LARGE[sin]]
