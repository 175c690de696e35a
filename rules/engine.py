"""The contract every rules engine keeps, so the bot core can run any game without naming it.

An engine is a stateless object. Its options, state and actions are pydantic models that
round-trip exactly through JSON. ``apply`` never mutates the state it is given; it returns a new
state and the events that explain what happened, or raises :class:`IllegalAction` with a reason a
player can read. All randomness (including first player or seat order) comes from the dice source
passed in, one named die at a time.

Every engine has the three methods of :class:`Engine`. Everything else is an optional
*capability*, a protocol the core detects with ``isinstance`` and turns features on for:

==========================  =====================================================================
capability                  what the core does with it
==========================  =====================================================================
:class:`Turns`              prompts and "waiting for" lines, deadlines with timeout defaults,
                            refusing clicks from players who are not asked to act
:class:`ComputerPlayers`    computer seats in the lobby, seats taken over after missed turns; a computer
                            decides from what its seat may see (``view(state, Viewer(player))``)
:class:`Seats`              a lobby with min/max players, leaving and kicking, winners, rematches
:class:`HiddenInformation`  every message, log and reply is drawn from ``view(state, viewer)``
:class:`Permissions`        who may take an action (GM, owner of a record…), checked before apply
:class:`Records`            sub-records with their own version, so unrelated edits never collide
:class:`Undo`               undo and redo built on the log
:class:`ForcedMoves`        the bot takes a move the player has no real choice about, and says so
:class:`Reminders`          reminders the core times besides turns (a campaign's waits, a session)
:class:`Chapters`           each log entry is stored with its part of a long session (a turn), so
                            one part is read without the rest
:class:`Rollers`            each die of an action counts in the luck statistics of the player who
                            rolled it, and random picks count for nobody; without it no die counts
:class:`ScoreLuck`          the game's own luck in ``/stats luck``: points a turn against what fair
                            dice give with the same choices
==========================  =====================================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, SkipValidation

from rules.dice import DiceSource


class IllegalAction(Exception):
    """The action is not allowed now; ``reason`` is shown to the player as is."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotPermitted(IllegalAction):
    """This actor may never take this action (it is someone else's record, or needs the GM)."""


class Prompt(BaseModel):
    """Someone who must decide something before the game can go on."""

    model_config = ConfigDict(frozen=True)

    player: str
    """Player id (as given to ``start``)."""
    decision: str
    """Machine name of the decision, e.g. ``roll`` or ``assign_scroll``."""
    label: SkipValidation[str]
    """Short text for the board: "roll the dice", "give a scroll die to a rival" (a ``rules.said.said``, kept as
    one: validation would make it a plain str and so English only)."""
    timer: str | None = "turn"
    """Which of the game's timeouts applies (``options.timeouts[timer]`` seconds); None = no deadline."""
    ping: bool = True
    """Whether asking for this decision should mention the player (a fate window pings nobody)."""


class Reminder(BaseModel):
    """A reminder a game asks the core to time (:class:`Reminders`): to ``player`` about ``key``, once, at a moment
    or some time after it is first asked for. The key names what it is about for as long as that lasts (put the
    moment in it when the moment can change): the same key asked for again is the same reminder."""

    model_config = ConfigDict(frozen=True)

    player: str
    key: str
    at: float | None = None
    """Seconds since the epoch (a session planned for a date)."""
    after: float | None = None
    """Seconds from when the game first asks for it."""


# Roles the core knows. An engine with :class:`Permissions` is told which of them an actor holds.
HOST = "host"
"""Opened the lobby, or keeps a scoresheet."""
PLAYER = "player"
"""Sits at the table (has a seat that has not left)."""
GM = "gm"
"""Runs a campaign; transferable."""
CO_GM = "co_gm"
"""Helps the GM and sees what the GM sees."""
MANAGER = "manager"
"""Has Manage Server in the session's server."""

GM_ROLES = frozenset({GM, CO_GM})


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who will see something drawn from a state: a channel (``PUBLIC``), or one actor with their roles."""

    id: str | None = None
    roles: frozenset[str] = frozenset()

    @property
    def is_gm(self) -> bool:
        """The GM or a co-GM."""
        return bool(self.roles & GM_ROLES)


PUBLIC = Viewer()
"""Everyone in the channel: a channel message, or an ephemeral reply to someone with no special role."""


def visible(event: Mapping[str, Any], viewer: Viewer) -> bool:
    """Whether ``viewer`` may see ``event``.

    An event is public unless it has an ``only`` list: then it is for the actor ids and role names
    listed there (``{"type": "design_added", "only": ["gm"]}`` is for the GM and co-GMs).
    """
    only = event.get("only")
    if not only:
        return True
    if viewer.id is not None and viewer.id in only:
        return True
    allowed = set(only)
    if GM in allowed:
        allowed.add(CO_GM)
    return bool(viewer.roles & allowed)


StateT = TypeVar("StateT", bound=BaseModel)
OptionsT = TypeVar("OptionsT", bound=BaseModel)
ActionT = TypeVar("ActionT", bound=BaseModel)
# Capabilities that only take a state (or an action) are contravariant in it, and those that only
# return an action covariant: a protocol's type variables must say so.
StateIn = TypeVar("StateIn", bound=BaseModel, contravariant=True)
OptionsIn = TypeVar("OptionsIn", bound=BaseModel, contravariant=True)
ActionIn = TypeVar("ActionIn", bound=BaseModel, contravariant=True)
ActionOut = TypeVar("ActionOut", bound=BaseModel, covariant=True)


@dataclass(slots=True)
class Outcome(Generic[StateT]):
    """What an action did: the new state and the events (JSON-able dicts with a ``type``), oldest first."""

    state: StateT
    events: list[dict[str, Any]] = field(default_factory=list)


class Engine(Protocol[OptionsIn, StateT, ActionT]):
    """What every game gives the core."""

    kind: str
    """Stable short name stored with each session (``crowns``)."""
    title: str
    """Name shown to players (``Dice of Crowns``)."""

    @property
    def options_model(self) -> type[BaseModel]:
        """The model of the options a session is opened with."""
        ...

    @property
    def state_model(self) -> type[StateT]:
        """The model of the state."""
        ...

    def start(self, options: OptionsIn, players: Sequence[str], dice: DiceSource) -> Outcome[StateT]:
        """Set up a new session; ``players`` are the seated player ids in seat order (may be empty)."""
        ...

    def parse_action(self, data: Mapping[str, Any]) -> ActionT:
        """Validate JSON data (from a click, a command, a modal or the log) into one of the game's actions.

        Raises pydantic's ValidationError for data that is not an action of this game.
        """
        ...

    def apply(self, state: StateT, actor: str, action: ActionT, dice: DiceSource) -> Outcome[StateT]:
        """Apply ``action`` by ``actor``; raise IllegalAction if it is not allowed now."""
        ...


@runtime_checkable
class Turns(Protocol[StateIn, ActionOut]):
    """The game waits on named decisions by named players."""

    def prompts(self, state: StateIn) -> list[Prompt]:
        """Who must act now, and on what. Empty when nobody must (or the game is over)."""
        ...

    def legal_actions(self, state: StateIn, player: str) -> Sequence[ActionOut]:
        """Every action ``player`` may take now (empty if none)."""
        ...

    def default_action(self, state: StateIn, player: str) -> ActionOut:
        """The documented default taken for ``player`` when their decision times out."""
        ...


EASY = "easy"
NORMAL = "normal"
STRONG = "strong"
STRENGTHS = (EASY, NORMAL, STRONG)
"""How well a computer seat plays, chosen per seat in the lobby: a beginner, the game's usual computer, and one
that searches for the best chance to win. The core stores it with the seat and hands it to ``computer_action``."""


@runtime_checkable
class ComputerPlayers(Protocol[StateIn, ActionOut]):
    """A seat can be played by the computer.

    The core hands a computer only what its seat may see: ``seen`` is ``view(state, Viewer(player))`` for a game
    with :class:`HiddenInformation` (other seats' secrets removed), the state itself otherwise. A computer cannot
    cheat, and its choice depends on nothing a player in its seat could not know.
    """

    def computer_action(self, seen: StateIn, player: str, dice: DiceSource, strength: str = NORMAL) -> ActionOut:
        """The action a computer player in ``player``'s seat takes now, judged from ``seen`` (what that seat may
        see); ``dice`` is for its own random choices, never the game's dice. ``strength`` is the seat's (one of
        :data:`STRENGTHS`); a game with one way of playing may ignore it."""
        ...


@runtime_checkable
class Seats(Protocol[StateT]):
    """Players sit at a table: the core runs a lobby, leaving and kicking, winners and rematches."""

    @property
    def min_players(self) -> int:
        """The fewest players the game can seat."""
        ...

    @property
    def max_players(self) -> int:
        """The most players the game can seat."""
        ...

    def remove_player(self, state: StateT, player: str, dice: DiceSource) -> Outcome[StateT]:
        """``player`` leaves mid-game; the game decides what happens to their seat."""
        ...

    def winners(self, state: StateT) -> list[str] | None:
        """None while the game goes on; the winning player ids once it is over."""
        ...


@runtime_checkable
class Places(Protocol[StateIn]):
    """The game ranks every seat when it ends, not only its winners (for ratings): a free-for-all's places.

    Without it a finished game ranks its winners first and every other seat tied behind them. A game whose results
    say nothing about skill sets ``rated = False`` on its engine (ratings are on by default for a game with seats).
    """

    def places(self, state: StateIn) -> dict[str, int] | None:
        """None while the game goes on; else each player's place, 1 the best, equal places for a tie (a player who
        left may be left out: the core puts them last)."""
        ...


@runtime_checkable
class HiddenInformation(Protocol[StateT]):
    """Some of the state is secret: the core draws everything from ``view``."""

    def view(self, state: StateT, viewer: Viewer) -> StateT:
        """The state as ``viewer`` may see it (secrets removed); ``state`` itself when nothing is hidden."""
        ...


@runtime_checkable
class Permissions(Protocol[StateIn, ActionIn]):
    """Who may take which action, beyond whose turn it is."""

    def authorize(self, state: StateIn, actor: str, roles: frozenset[str], action: ActionIn) -> None:
        """Raise NotPermitted with a reason if ``actor`` (holding ``roles``) may not take ``action``.

        Permission only: whether the action is legal *now* is still ``apply``'s to decide.
        """
        ...


@runtime_checkable
class Records(Protocol[StateIn]):
    """The state is made of records (a company, each troupe…) that change independently."""

    def records(self, state: StateIn) -> Mapping[str, object]:
        """Every record by a stable key. The core versions a record each time its value changes."""
        ...


@runtime_checkable
class Undo(Protocol[ActionIn]):
    """Actions can be taken back; the core rebuilds the state from the log without them."""

    def undoable(self, action: ActionIn) -> bool:
        """Whether ``action`` may be undone (and redone) once taken."""
        ...


@runtime_checkable
class Chapters(Protocol[StateIn]):
    """A long session is lived in numbered parts (a campaign's turns): its log can be read one part at a time."""

    def chapter(self, state: StateIn) -> int:
        """The part ``state`` is in; never decreases from one state of a session to the next."""
        ...


@runtime_checkable
class ForcedMoves(Protocol[StateIn, ActionOut]):
    """Some decisions have only one real answer; the bot takes it instead of asking for a click."""

    def forced_action(self, state: StateIn, player: str) -> ActionOut | None:
        """The action ``player`` has no real choice about now (the only legal one, or one of several
        equivalent ones), or None when the choice is theirs. A dramatic moment that has one legal
        answer, such as the roll that starts a turn, is still the player's to take: return None."""
        ...


@runtime_checkable
class Reminders(Protocol[StateIn]):
    """The game asks for reminders besides its turns' deadlines (the players a campaign waits on who asked to be
    reminded, a planned session). Each is sent once (through the game's spec), while the game still asks for it."""

    def reminders(self, state: StateIn) -> list[Reminder]:
        """Every reminder the game wants now."""
        ...


def seat_after(players: Sequence[str], player: str, step: int = 1) -> str:
    """The player ``step`` seats clockwise after ``player``."""
    return players[(players.index(player) + step) % len(players)]


@runtime_checkable
class Rollers(Protocol):
    """The game says who rolled each die, for the luck statistics: an action's dice may be rolled by several
    players (an attacker's dice during a defender's roll, the next player's opening roll), and some are random
    picks nobody rolled (who goes first).

    Without it no die of the game is counted: the core cannot tell a die everyone saw from a secret one, and a
    secret die counted for its roller would show in ``/stats luck`` to everyone. Name only dice every player sees
    when they are rolled (the contract suite checks that the statistics never change with a hidden die).
    """

    def rollers(self, events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        """``(player, die id)`` for each die a player rolled in the action that emitted ``events``, in the order
        rolled; a die rolled for nobody in particular, or that not every player sees, is left out."""
        ...


@dataclass(frozen=True, slots=True)
class TurnLuck:
    """One player's turns in an action's events, and how much their dice helped (:class:`ScoreLuck`).

    ``luck`` is in the game's points, in the player's favour (positive: fair dice would have done worse with
    the same choices), and ``variance`` is its variance under fair dice, so many turns can be judged together.
    """

    player: str
    turns: int = 0
    points: int = 0
    luck: float = 0.0
    variance: float = 0.0


@runtime_checkable
class ScoreLuck(Protocol[OptionsIn]):
    """The game scores turns in points, and can tell how much of a turn's points its dice decided."""

    def score_luck(self, options: OptionsIn, events: Sequence[Mapping[str, Any]]) -> list[TurnLuck]:
        """Each player's turns ended and dice luck in ``events`` (players with neither left out)."""
        ...
