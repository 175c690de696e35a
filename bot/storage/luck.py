"""What a roll adds to the luck statistics: per-member tallies of faces, made from a game's log entry or a
``/roll``, shared by every backend. Discord-free and SQL-free: the backends write what these functions count.

A member's dice are kept as counts per (server, channel, game kind, campaign, day, visibility, die size, face),
so any period, game or channel is a sum over a few thousand rows at most, never a scan of the log. Dice of
more than ``EXACT_FACES`` sides are counted in ``BINS`` equal bins (a d10000 would otherwise need 10,000 rows);
each row also keeps the sum of its faces, so means stay exact.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.models import LogEntry, Scope, Session, Status
from bot.registry import GameKind
from rules.engine import GM_ROLES, TurnLuck

EXACT_FACES = 100
BINS = 20
DAY_S = 86_400
ROLL_KIND = "roll"
"""The game kind of ``/roll`` dice."""


@dataclass(frozen=True, slots=True)
class Where:
    """Where dice were rolled, and whether others may see them."""

    user_id: int
    guild_id: int
    """0 in a DM."""
    channel_id: int
    kind: str
    campaign_id: int = 0
    hidden: bool = False
    """A private roll or a GM's roll: counted for the member, never shown to anyone else."""


@dataclass(frozen=True, slots=True)
class DiceTally:
    """Dice one member rolled in one place on one day: ``faces[(sides, bin)] = (count, sum of faces)``, and the
    faces in the order rolled (for streaks)."""

    where: Where
    day: int
    faces: dict[tuple[int, int], tuple[int, int]]
    sequence: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class TurnTally:
    """A member's turns and how much their dice decided them, in one place on one day (``ScoreLuck``)."""

    where: Where
    day: int
    turns: TurnLuck


@dataclass(frozen=True, slots=True)
class WinTally:
    """A finished table game, for the leaderboard: who played it (a member id) and who won."""

    guild_id: int
    kind: str
    players: tuple[int, ...]
    winners: tuple[int, ...]


def bin_of(sides: int, face: int) -> int:
    """The row a face is counted in: the face itself, or its bin for a big die."""
    return face if sides <= EXACT_FACES else (face - 1) * BINS // sides


def bin_width(sides: int, index: int) -> int:
    """How many faces of a ``sides`` die fall in bin ``index`` (1 for a small die)."""
    if sides <= EXACT_FACES:
        return 1
    return sum(1 for face in range(1, sides + 1) if bin_of(sides, face) == index)


def tally(where: Where, at: float, dice: Iterable[tuple[int, int]]) -> DiceTally | None:
    """The tally of ``(sides, face)`` pairs rolled at ``at`` (None if there are none)."""
    sequence = tuple((sides, face) for sides, face in dice if sides >= 2 and 1 <= face <= sides)
    if not sequence:
        return None
    counts: Counter[tuple[int, int]] = Counter()
    sums: Counter[tuple[int, int]] = Counter()
    for sides, face in sequence:
        key = (sides, bin_of(sides, face))
        counts[key] += 1
        sums[key] += face
    return DiceTally(where, int(at // DAY_S), {k: (counts[k], sums[k]) for k in counts}, sequence)


def member_of(session: Session, player: str | None) -> int | None:
    """The member who plays ``player`` (a seat at a table, or a member's own id in an open session)."""
    if player is None:
        return None
    seat = next((s for s in session.seats if s.player == player), None)
    if seat is not None:
        return seat.user_id if seat.user_id is not None and not seat.computer else None
    return int(player) if player.isdigit() else None


def _where(session: Session, user: int) -> Where:
    """Where a member's dice in a session count. A GM's or co-GM's dice are hidden: rival dice are theirs to show."""
    return Where(
        user_id=user,
        guild_id=session.guild_id or 0,
        channel_id=session.channel_id,
        kind=session.kind,
        campaign_id=session.id if session.scope is Scope.CAMPAIGN else 0,
        hidden=bool(set(session.roles.get(str(user), ())) & GM_ROLES),
    )


def _rolled(kind: GameKind | None, entry: LogEntry) -> dict[str, list[tuple[int, int]]]:
    """Each player's ``(sides, face)`` in an entry, as the game says who rolled each die (``Rollers``), followed
    die by die in every entry (a computer's last move rolls the next player's opening dice). A game that doesn't
    say counts nothing: crediting an action's dice to whoever acted would put secret dice (a hand of hidden dice
    rolled by a call) in statistics anyone can read."""
    rollers = kind.rollers if kind is not None else None
    if rollers is None:
        return {}
    waiting: dict[str, deque[dict[str, Any]]] = defaultdict(deque)
    for die in entry.dice:
        waiting[str(die["die"])].append(die)
    rolled: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for player, die_id in rollers.rollers(entry.events):
        queue = waiting.get(die_id)
        if queue:  # a die the events name but the log doesn't hold is nobody's (never counted twice)
            die = queue.popleft()
            rolled[player].append((int(die["sides"]), int(die["value"])))
    return rolled


def entry_tallies(session: Session, entry: LogEntry, kind: GameKind | None) -> list[DiceTally]:
    """The dice each member rolled in a game's log entry (computers' dice are nobody's)."""
    if not entry.dice:
        return []
    tallies = []
    for player, dice in _rolled(kind, entry).items():
        user = member_of(session, player)
        counted = None if user is None else tally(_where(session, user), entry.at, dice)
        if counted is not None:
            tallies.append(counted)
    return tallies


def turn_tallies(session: Session, entry: LogEntry, kind: GameKind | None) -> list[TurnTally]:
    """Each member's turns and dice luck in points in a log entry, for a game that measures them (``ScoreLuck``)."""
    measure = kind.score_luck if kind is not None else None
    if kind is None or measure is None or not entry.events:
        return []
    found = measure.score_luck(kind.parse_options(session.engine_options), entry.events)
    tallies = []
    for turn in found:
        user = member_of(session, turn.player)
        if user is not None:
            tallies.append(TurnTally(_where(session, user), int(entry.at // DAY_S), turn))
    return tallies


def win_tally(session: Session) -> WinTally | None:
    """A table game that has just finished with winners: who played, who won."""
    if session.status is not Status.FINISHED or not session.winners or session.scope is not Scope.TABLE:
        return None
    players = {s.player: s.user_id for s in session.seats if s.user_id is not None and not s.computer}
    if not players:
        return None
    winners = tuple(players[p] for p in session.winners if p in players)
    return WinTally(session.guild_id or 0, session.kind, tuple(players.values()), winners)


def streak_step(run: int, best_hot: int, best_cold: int, sides: int, face: int) -> tuple[int, int, int]:
    """One more face in a member's run for a die size: ``run`` > 0 counts rolls above the die's mean in a row,
    < 0 below it; a face on the mean (a d5's 3) ends either run."""
    twice = 2 * face
    if twice > sides + 1:
        run = run + 1 if run > 0 else 1
    elif twice < sides + 1:
        run = run - 1 if run < 0 else -1
    else:
        run = 0
    return run, max(best_hot, run), max(best_cold, -run)
