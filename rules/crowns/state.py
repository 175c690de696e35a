"""The state of a Dice of Crowns game (RULES.md 2.2) and read-only questions about it.

Every container is a tuple of frozen models, so the engine can copy the top-level state shallowly
and replace only what an action changes; nothing a caller holds is ever mutated. Nothing here keeps
state between calls: the caches are keyed by the values they describe.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Annotated, Literal, NamedTuple

from pydantic import AfterValidator, BaseModel, ConfigDict

from rules.crowns.data import FATE_SUPPLY
from rules.crowns.options import CrownsOptions


class Face(StrEnum):
    """The four faces of a die, named as in data/crowns/dice.yaml."""

    CROWN = "CROWN"
    DAGGER = "DAGGER"
    SKULL = "SKULL"
    SCROLL = "SCROLL"


class DieState(StrEnum):
    """Where a die is in the turn procedure (RULES.md 2.2)."""

    HANDED = "HANDED"
    LOCKED = "LOCKED"
    FREE_SKULL = "FREE_SKULL"
    RETURNED_SCROLL = "RETURNED_SCROLL"
    PENDING_SCROLL = "PENDING_SCROLL"
    AT_RIVAL = "AT_RIVAL"
    IN_TRANSIT = "IN_TRANSIT"


class Phase(StrEnum):
    """What the game waits for."""

    TURN_START = "turn_start"
    SCROLL_ASSIGN = "scroll_assign"
    DAGGER_ASSIGN = "dagger_assign"
    FATE_WINDOW = "fate_window"
    DECIDE = "decide"
    SIX_SKULLS = "six_skulls"
    LAST_STAND = "last_stand"
    STEAL = "steal"
    OVERKILL_ASSIGN = "overkill_assign"
    GAME_OVER = "game_over"


# Enum members tested in per-die loops, as module names: on Python 3.11 each ``DieState.X`` is a
# class attribute lookup through the enum metaclass (about ten times a plain name), and these
# loops run over all seven dice several times per action.
_AT_RIVAL = DieState.AT_RIVAL
_HANDED = DieState.HANDED
_FREE_SKULL = DieState.FREE_SKULL
_RETURNED_SCROLL = DieState.RETURNED_SCROLL
_CROWN = Face.CROWN
_DAGGER = Face.DAGGER
_SKULL = Face.SKULL


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Die(_Frozen):
    """One of the seven dice. ``face`` is None only before its first roll."""

    id: str
    face: Face | None = None
    holder: str | None
    state: DieState
    by_fate: bool = False
    """The face came from a Fate reroll, so it does not count towards a 7-of-a-kind (2.6 #28)."""


@lru_cache(maxsize=8192)
def die_value(die_id: str, face: Face | None, holder: str | None, state: DieState, by_fate: bool) -> Die:
    """The shared :class:`Die` with these fields.

    Dice are immutable values and a game reaches only a few hundred distinct ones, so the engine
    shares one instance per value rather than building a model each time a die changes (several
    times per action). The engine only passes values of the declared types, so no validation.
    """
    return Die.model_construct(id=die_id, face=face, holder=holder, state=state, by_fate=by_fate)


@lru_cache(maxsize=1024)
def scroll_roll(die_id: str, rival: str) -> ScrollRoll:
    """The shared :class:`ScrollRoll` for ``die_id`` at ``rival`` (immutable, so one per value will do)."""
    return ScrollRoll(die=die_id, rival=rival)


class Seat(_Frozen):
    """A player's tokens and status."""

    id: str
    claims: int = 0
    fate: int = 0
    messenger: bool = False
    """Immune to daggers until this player next rolls as active player (2.6 #23)."""
    left: bool = False


class ScrollRoll(_Frozen):
    """A scroll die handed to a rival to roll."""

    die: str
    rival: str


class Counts(NamedTuple):
    """The active player's derived counts (RULES.md 2.2)."""

    crowns: int
    daggers: int
    skulls: int
    free_skulls: int
    ret_scrolls: int


class _SeatOrder(NamedTuple):
    players: tuple[Seat, ...]
    seats: dict[str, Seat]
    present: tuple[str, ...]
    rivals: dict[str, tuple[str, ...]]


@lru_cache(maxsize=512)
def _seat_order(players: tuple[Seat, ...]) -> _SeatOrder:
    """Seat order facts of a players tuple, worked out once per distinct tuple.

    The turn procedure asks who the rivals are several times per action, and the players tuple
    changes only when a seat does (a seat change makes a new tuple).
    """
    rivals = {
        seat.id: tuple(p.id for p in players[i + 1 :] + players[:i] if not p.left) for i, seat in enumerate(players)
    }
    present = tuple(p.id for p in players if not p.left)
    return _SeatOrder(players, {p.id: p for p in players}, present, rivals)


def _count(dice: tuple[Die, ...], active: str) -> Counts:
    """The counts of ``active``'s dice."""
    crowns = daggers = skulls = free = ret = 0
    for d in dice:
        if d.holder != active:
            continue
        state = d.state
        if state is _AT_RIVAL or state is _HANDED:
            continue
        face = d.face
        if face is _CROWN:
            crowns += 1
        elif face is _DAGGER:
            daggers += 1
        elif face is _SKULL:
            skulls += 1
        if state is _FREE_SKULL:
            free += 1
        elif state is _RETURNED_SCROLL:
            ret += 1
    return Counts(crowns, daggers, skulls, free, ret)


class Dice(tuple[Die, ...]):
    """The seven dice, remembering the counts worked out from them.

    Evaluating a roll and then offering the reroll choices both need the counts of the same dice,
    and any change to a die makes a new tuple, so the counts belong with the tuple.
    """

    @cached_property
    def _counts(self) -> dict[str, Counts]:
        return {}

    def counts(self, active: str) -> Counts:
        """``active``'s crowns, daggers, skulls, free skulls and returned scrolls."""
        known = self._counts.get(active)
        if known is None:
            known = self._counts[active] = _count(self, active)
        return known


class Players(tuple[Seat, ...]):
    """The seats in order, knowing their seat order facts (worked out on first use).

    The turn procedure asks who the rivals are several times per action, and a seat change always
    makes a new tuple, so the facts belong with the tuple.
    """

    @cached_property
    def order(self) -> _SeatOrder:
        """Who is present, each player's rivals clockwise, and seats by id."""
        return _seat_order(self)


class CrownsState(BaseModel):
    """A whole game. Treat it as read-only; the engine returns a new one after each action."""

    model_config = ConfigDict(extra="forbid")

    options: CrownsOptions
    players: Annotated[tuple[Seat, ...], AfterValidator(lambda seats: Players(seats))]
    dice: Annotated[tuple[Die, ...], AfterValidator(lambda dice: Dice(dice))]
    active: str
    phase: Phase
    turn_no: int = 1
    round_no: int = 1
    crown_holder: str | None = None
    crown_turn: bool = False
    """The active player started this turn holding the Crown: one roll, then win unless betrayed (S10)."""
    scroll_queue: tuple[ScrollRoll, ...] = ()
    """Scroll dice handed out and not yet rolled: in assignment order while handing out, then in roll order."""
    rolling: ScrollRoll | None = None
    """The scroll die a rival has just rolled, while its dagger recipient or a pre-scroll fate window is pending."""
    window: Literal["post_resolution", "pre_scroll"] | None = None
    fate_passed: tuple[str, ...] = ()
    overkill_left: int = 0
    overkill_given: int = 0
    seven_roll: Face | None = None
    """Face of this turn's latest roll of all 7 dice if they all matched (legendary_mode=single_roll)."""
    winner: str | None = None

    def _seats(self) -> _SeatOrder:
        players = self.players
        return players.order if isinstance(players, Players) else _seat_order(players)

    def seat(self, player: str) -> Seat:
        """The seat of ``player``."""
        return self._seats().seats[player]

    def present(self) -> list[str]:
        """Ids of players still in the game, in seat order."""
        return list(self._seats().present)

    def rivals(self, player: str) -> list[str]:
        """Players still in the game other than ``player``, clockwise starting after them."""
        return list(self._seats().rivals[player])

    def next_seat(self, player: str) -> str:
        """The next player still in the game clockwise after ``player`` (who may have left)."""
        return self.rivals(player)[0]

    def die(self, die_id: str) -> Die:
        """The die called ``die_id``."""
        return self.dice[int(die_id) - 1]

    def held(self, player: str) -> list[Die]:
        """Dice ``player`` holds, in any state except handed-out scrolls."""
        return [d for d in self.dice if d.holder == player and d.state is not _AT_RIVAL]

    def counts(self) -> Counts:
        """The active player's crowns, daggers, skulls, free skulls and returned scrolls."""
        dice = self.dice
        return dice.counts(self.active) if isinstance(dice, Dice) else _count(dice, self.active)

    def fate_in_supply(self) -> int | None:
        """Fate tokens left in the box, or None when the supply is not limited (2.6 #15)."""
        if not self.options.limit_fate_supply:
            return None
        return FATE_SUPPLY - sum(p.fate for p in self.players)
