"""Ratings: per server and game, a skill estimate for every member from every finished table game, with OpenSkill's
Weng–Lin Plackett–Luce model (free-for-all places, any number of seats, ties).

Each member's rating is a belief about their skill: a mean ``mu`` and an uncertainty ``sigma`` (25 and 25/3 at the
start). A computer seat is a fixed anchor per strength (``ANCHORS``): it is rated against, never updated, so the
scale stays tied to something that does not drift. What is shown is a conservative estimate, the *ordinal*
``mu - 3 sigma`` scaled: ``1500 + 20 * (mu - 3 sigma)`` (a new member shows 1,500 and climbs as the bot grows sure
of them). A member is provisional for their first ``PROVISIONAL_GAMES`` games of a game in a server.

Discord-free and SQL-free: the service asks for a finished game's changes at commit time (they are written with it,
and told as its news), and the store's recompute replays every finished game through a :class:`Ledger`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce
from pydantic import BaseModel

from bot.i18n import _
from bot.models import News, Scope, Seat, Session, Status
from bot.registry import GameKind

MODEL = PlackettLuce()
"""OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (sigma grows by tau each game, so old results
fade slowly)."""
PROVISIONAL_GAMES = 5
"""Games of one game in one server before a member's rating stops being provisional."""
BASE, SCALE = 1500, 20
"""The shown rating: ``BASE + SCALE * (mu - 3 sigma)``."""
DEFAULT_STRENGTH = "normal"
ANCHOR_SIGMA = 1.0
ANCHORS: dict[str, float] = {"easy": 18.0, "normal": 25.0, "strong": 32.0}
"""Each computer strength's fixed ``mu`` (with ``ANCHOR_SIGMA``); an unknown label counts as ``DEFAULT_STRENGTH``.
``normal`` sits at a new member's mean: a newcomer is expected to be as good as today's computer."""

Player = int | str
"""A member (their id) or a computer anchor (its strength label, e.g. ``normal``)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A member's rating in one game in one server."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` (what leaderboards sort by)."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating as members see it (``BASE + SCALE * ordinal``)."""
        return round(BASE + SCALE * self.ordinal)

    @property
    def provisional(self) -> bool:
        """Too few games to mean much yet."""
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one finished game did to one member's rating."""

    guild_id: int
    kind: str
    user_id: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change in the shown rating."""
        return self.after.shown - self.before.shown


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as ratings see it: each seat (a member or an anchor) and its place (1 the best)."""

    guild_id: int
    kind: str
    seats: tuple[tuple[Player, int], ...]

    @property
    def members(self) -> list[int]:
        """The members who played."""
        return [p for p, _ in self.seats if isinstance(p, int)]


def strength_of(seat: Seat) -> str:
    """A computer seat's strength label (``normal`` if it has none, or one no anchor knows)."""
    label = str(getattr(seat, "strength", None) or DEFAULT_STRENGTH).casefold()
    return label if label in ANCHORS else DEFAULT_STRENGTH


def anchor(label: str) -> Rating:
    """The fixed rating of a computer strength."""
    return Rating(ANCHORS.get(label, ANCHORS[DEFAULT_STRENGTH]), ANCHOR_SIGMA)


def places_of(session: Session, kind: GameKind, state: BaseModel | None) -> dict[str, int]:
    """Each seat's place: the game's own (``Places``), else its winners first and every other seat tied second."""
    ranks = kind.places
    placed = ranks.places(state) if ranks is not None and state is not None else None
    if placed is not None:
        return dict(placed)
    winners = set(session.winners or ())
    return {s.player: 1 if s.player in winners else 2 for s in session.seats if not s.left}


def rated_game(session: Session, kind: GameKind, state: BaseModel | None) -> RatedGame | None:
    """The finished table game as ratings see it, or None if it changes no rating (not finished with winners, in
    no server, a game that isn't rated, no member at the table, or fewer than two seats). A member's seat a
    computer took over plays as a computer; a seat that left comes last."""
    if (
        session.status is not Status.FINISHED
        or not session.winners
        or session.scope is not Scope.TABLE
        or session.guild_id is None
        or not kind.rated
    ):
        return None
    placed = places_of(session, kind, state)
    last = max(placed.values(), default=0) + 1
    seats: list[tuple[Player, int]] = []
    for seat in session.seats:
        who: Player = strength_of(seat) if seat.computer or seat.user_id is None else seat.user_id
        seats.append((who, placed.get(seat.player, last) if not seat.left else last))
    members = [p for p, _ in seats if isinstance(p, int)]
    if len(seats) < 2 or not members or len(set(members)) != len(members):
        return None
    return RatedGame(session.guild_id, session.kind, tuple(seats))


def rate(game: RatedGame, current: Mapping[int, Rating]) -> list[RatingChange]:
    """Each member's change from one game, from their ratings before it (a member not in ``current`` is new)."""
    before = [current.get(p, Rating()) if isinstance(p, int) else anchor(p) for p, _ in game.seats]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(place) for _, place in game.seats])
    changes = []
    for (player, _place), old, [new] in zip(game.seats, before, after, strict=True):
        if isinstance(player, int):
            changes.append(
                RatingChange(game.guild_id, game.kind, player, old, Rating(new.mu, new.sigma, old.games + 1))
            )
    return changes


def change_words(change: RatingChange) -> str:
    """``+14, now 1,512``, with how many games remain provisional."""
    after = change.after
    delta, shown = format(change.delta, "+,").replace("-", "−"), format(after.shown, ",").replace("-", "−")
    words = _("{change}, now {rating}", change=delta, rating=shown)
    if after.provisional:
        words += _(" (provisional: {games} of {total} games)", games=after.games, total=PROVISIONAL_GAMES)
    return words


def rating_news(title: str, changes: Iterable[RatingChange], hidden: set[int]) -> News | None:
    """The final board's ratings line (members who left the leaderboards are not shown), or None if nobody's is."""
    shown = [c for c in changes if c.user_id not in hidden]
    if not shown:
        return None
    lines = [_("📈 **Ratings** · {game}", game=title)] + [f"<@{c.user_id}> {change_words(c)}" for c in shown]
    return News(text="\n".join(lines))


@dataclass
class Ledger:
    """Every member's rating, played forward game by game (the recompute and the simulated leagues): a member who
    deleted their statistics (``/stats forget``) at some moment starts afresh from then."""

    forgot: Mapping[int, float] = field(default_factory=dict)
    ratings: dict[tuple[int, str, int], Rating] = field(default_factory=dict)
    last_at: dict[tuple[int, str, int], float] = field(default_factory=dict)
    played: int = 0
    """Games rated so far."""

    def play(self, game: RatedGame, at: float) -> list[RatingChange]:
        """Rate one game that ended at ``at`` (games must come in the order they ended)."""
        keys = {m: (game.guild_id, game.kind, m) for m in game.members}
        for member, key in keys.items():
            if self._forgotten(key, member, at):
                self.ratings.pop(key, None)
        changes = rate(game, {m: self.ratings[k] for m, k in keys.items() if k in self.ratings})
        for change in changes:
            key = keys[change.user_id]
            self.ratings[key] = change.after
            self.last_at[key] = at
        self.played += 1
        return changes

    def _forgotten(self, key: tuple[int, str, int], member: int, at: float) -> bool:
        moment = self.forgot.get(member)
        return moment is not None and self.last_at.get(key, float("-inf")) < moment <= at

    def kept(self) -> dict[tuple[int, str, int], Rating]:
        """The ratings as they stand, without those their member deleted after their last game."""
        return {k: r for k, r in self.ratings.items() if not self._forgotten(k, k[2], float("inf"))}


__all__ = [
    "ANCHORS",
    "PROVISIONAL_GAMES",
    "Ledger",
    "RatedGame",
    "Rating",
    "RatingChange",
    "rate",
    "rated_game",
    "rating_news",
]
