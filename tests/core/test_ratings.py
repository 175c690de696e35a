"""Ratings (``bot.ratings``): the library's numbers on known results, places and anchors, and a simulated league of
players of fixed skill ranked as they play."""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable

import pytest
from openskill.models import PlackettLuce
from pydantic import BaseModel

from bot.models import Scope, Seat, Session, Status
from bot.ratings import (
    ANCHORS,
    MODEL,
    PROVISIONAL_GAMES,
    Ledger,
    RatedGame,
    Rating,
    change_words,
    rate,
    rated_game,
    rating_news,
)
from bot.registry import GameKind
from rules import engine as contract
from rules.crowns.engine import ENGINE as CROWNS
from rules.dice import DiceSource, SeededDice
from rules.vices.ending import places
from rules.vices.engine import ENGINE as VICES
from rules.vices.options import VicesOptions
from rules.vices.state import Seat as VicesSeat
from rules.vices.state import VicesState


def test_the_library_gives_its_documented_numbers() -> None:
    """openskill's own documented example (its README: a1, a2 beat b1, b2), with no skill drift (tau 0), as printed
    there to the last digit."""
    model = PlackettLuce(tau=0)
    a1, a2 = model.rating(), model.rating(mu=32.444, sigma=5.123)
    b1, b2 = model.rating(mu=43.381, sigma=2.421), model.rating(mu=25.188, sigma=6.211)
    [[x1, x2], [y1, y2]] = model.rate([[a1, a2], [b1, b2]])
    assert (x1.mu, x1.sigma) == pytest.approx((28.669648436582808, 8.071520788025197), rel=1e-12)
    assert (x2.mu, x2.sigma) == pytest.approx((33.83086971107981, 5.062772998705765), rel=1e-12)
    assert (y1.mu, y1.sigma) == pytest.approx((43.071274808241974, 2.4166900452721256), rel=1e-12)
    assert (y2.mu, y2.sigma) == pytest.approx((23.149503312339064, 6.1378606973362135), rel=1e-12)


def test_a_first_game_between_newcomers_moves_them_as_worked_by_hand() -> None:
    """Weng & Lin's Plackett–Luce update (their Algorithm 4) for two new players, worked by hand: sigma grows by tau
    first; c = sqrt(2 (s + beta^2)) with s = sigma^2; the winner gains s / 2c and the loser loses as much; each
    variance shrinks by the factor 1 - sqrt(s) s / 4c^3."""
    s = MODEL.sigma**2 + MODEL.tau**2
    c = math.sqrt(2 * (s + MODEL.beta**2))
    gain = s / (2 * c)
    sigma = math.sqrt(s * (1 - math.sqrt(s) * s / (4 * c**3)))
    game = RatedGame(1, "race", ((10, 1), (20, 2)))
    won, lost = rate(game, {})
    assert (won.after.mu, won.after.sigma) == pytest.approx((25 + gain, sigma), rel=1e-12)
    assert (lost.after.mu, lost.after.sigma) == pytest.approx((25 - gain, sigma), rel=1e-12)
    assert won.before == Rating() and won.after.games == 1
    # Shown: 1500 + 20 (mu - 3 sigma); a newcomer shows 1,500.
    assert Rating().shown == 1500
    assert won.after.shown == round(1500 + 20 * (25 + gain - 3 * sigma))
    assert won.delta == won.after.shown - 1500 > 0 > lost.delta


def test_a_known_sequence_of_three_player_games() -> None:
    """Three members over three games (ties included): each step is openskill's own update of the ratings before."""
    ledger = Ledger()
    games = [((1, 1), (2, 2), (3, 3)), ((1, 2), (2, 1), (3, 2)), ((1, 1), (2, 1), (3, 3))]
    expected = {m: MODEL.rating() for m in (1, 2, 3)}
    for at, seats in enumerate(games):
        changes = ledger.play(RatedGame(5, "race", seats), float(at))
        teams = [[expected[m]] for m, _ in seats]
        after = MODEL.rate(teams, ranks=[float(p) for _, p in seats])
        for (member, _), [new] in zip(seats, after, strict=True):
            expected[member] = new
        assert [c.user_id for c in changes] == [1, 2, 3]
    for member, rating in expected.items():
        got = ledger.ratings[(5, "race", member)]
        assert (got.mu, got.sigma, got.games) == pytest.approx((rating.mu, rating.sigma, 3), rel=1e-12)
    # A tie moves both tied players alike (game 3: members 1 and 2 share first place).
    changes = rate(RatedGame(5, "race", ((1, 1), (2, 1), (3, 2))), {})
    assert changes[0].after == changes[1].after


def test_computer_seats_are_fixed_anchors_by_strength() -> None:
    """A computer seat rates against its strength's anchor and is never written; an unknown label is ``normal``."""
    members = {1: Rating(25.0, 3.0, 9)}
    beat_easy = rate(RatedGame(1, "race", ((1, 1), ("easy", 2))), members)[0]
    beat_strong = rate(RatedGame(1, "race", ((1, 1), ("strong", 2))), members)[0]
    assert [c.user_id for c in rate(RatedGame(1, "race", ((1, 1), ("strong", 2))), members)] == [1]
    assert 0 < beat_easy.after.mu - 25 < beat_strong.after.mu - 25
    assert ANCHORS["easy"] < ANCHORS["normal"] < ANCHORS["strong"]
    seat = Seat(player="P2", name="Computer 1", computer=True)
    session = finished([Seat(player="P1", user_id=1, name="A"), seat], winners=["P1"])
    game = rated_game(session, GameKind(CROWNS), None)
    assert game is not None and game.seats == ((1, 1), ("normal", 2))
    labelled = session.model_copy(
        update={"seats": [session.seats[0], _Labelled(player="P2", name="Computer 1", computer=True, strength="Eh")]}
    )
    game = rated_game(labelled, GameKind(CROWNS), None)
    assert game is not None and game.seats[1] == ("normal", 2)


class _Labelled(Seat):
    """A seat as another part of the bot may label a computer's strength (read by name, with a default)."""

    strength: str = "normal"


def finished(seats: list[Seat], winners: list[str], *, guild: int | None = 1) -> Session:
    return Session(
        guild_id=guild,
        channel_id=2,
        kind="crowns",
        scope=Scope.TABLE,
        status=Status.FINISHED,
        host_id=1,
        seats=seats,
        winners=winners,
    )


def test_which_games_are_rated_and_places_without_a_ranking() -> None:
    seats = [
        Seat(player="P1", user_id=1, name="A"),
        Seat(player="P2", user_id=2, name="B"),
        Seat(player="P3", user_id=3, name="C", left=True),
    ]
    game = rated_game(finished(seats, ["P2"]), GameKind(CROWNS), None)
    assert game is not None and game.seats == ((1, 2), (2, 1), (3, 3))  # winner first, the rest tied, leavers last
    assert rated_game(finished(seats, ["P2"], guild=None), GameKind(CROWNS), None) is None  # a DM has no ladder
    assert rated_game(finished(seats, []), GameKind(CROWNS), None) is None
    abandoned = finished(seats, ["P2"]).model_copy(update={"status": Status.ABANDONED})
    assert rated_game(abandoned, GameKind(CROWNS), None) is None
    only_computers = [Seat(player="P1", name="C1", computer=True), Seat(player="P2", name="C2", computer=True)]
    assert rated_game(finished(only_computers, ["P1"]), GameKind(CROWNS), None) is None


def test_a_game_may_say_it_is_not_rated() -> None:
    class Unrated(type(CROWNS)):  # type: ignore[misc]
        rated = False

    assert GameKind(CROWNS).rated and GameKind(VICES).rated
    assert not GameKind(Unrated()).rated


def test_the_final_board_line() -> None:
    game = RatedGame(1, "race", ((10, 1), (20, 2)))
    won, lost = rate(game, {10: Rating(30.0, 2.0, PROVISIONAL_GAMES + 3)})
    assert change_words(won).startswith("+") and "provisional" not in change_words(won)
    assert change_words(lost).startswith("−") and f"(provisional: 1 of {PROVISIONAL_GAMES} games)" in change_words(lost)
    news = rating_news("Race", [won, lost], hidden={20})
    assert news is not None and news.text.splitlines() == ["📈 **Ratings** · Race", f"<@10> {change_words(won)}"]
    assert rating_news("Race", [won, lost], hidden={10, 20}) is None


def test_forgetting_starts_a_member_afresh_from_then() -> None:
    ledger = Ledger(forgot={1: 2.5})
    for at in range(4):
        ledger.play(RatedGame(1, "race", ((1, 1), (2, 2))), float(at))
    assert ledger.kept()[(1, "race", 1)].games == 1  # only the game after they forgot
    assert ledger.kept()[(1, "race", 2)].games == 4
    assert (1, "race", 1) not in Ledger(forgot={1: 9.0}, ratings=dict(ledger.ratings), last_at=ledger.last_at).kept()


LEAGUE = {"crowns": (GameKind(CROWNS), 120), "vices": (GameKind(VICES), 60)}
"""Games played in each league: Dice of Crowns is mostly luck, so it needs more to tell the players apart."""


Chooser = Callable[[BaseModel, str, random.Random, DiceSource], BaseModel]
"""How a member of a league picks their action: from the state, their seat, the league's own randomness and dice."""


def at_random(state: BaseModel, player: str, rng: random.Random, dice: DiceSource, *, kind: GameKind) -> BaseModel:
    return rng.choice(list(kind.legal_actions(state, player)))


def as_computer(state: BaseModel, player: str, rng: random.Random, dice: DiceSource, *, kind: GameKind) -> BaseModel:
    return kind.computer_action(state, player, dice)


def league(kind: GameKind, games: int, seed: int, members: dict[str, Chooser]) -> dict[str, Rating]:
    """``games`` games of the ``members`` (each always playing the same way) and a Normal computer seat, seats
    rotated; each member's rating after them."""
    rng, dice = random.Random(seed), SeededDice(seed)
    ids = {who: n for n, who in enumerate(members, start=1)}
    options = kind.parse_options({})
    seats = kind.seats
    assert seats is not None
    ledger = Ledger()
    for n in range(games):
        order = [*members, "cpu"]
        rng.shuffle(order)
        players = [f"P{i}" for i in range(1, len(order) + 1)]
        state = kind.engine.start(options, players, dice).state
        while seats.winners(state) is None:
            player = kind.prompts(state)[0].player
            who = order[players.index(player)]
            if who == "cpu":
                action = kind.computer_action(state, player, dice)
            else:
                action = members[who](state, player, rng, dice)
            state = kind.engine.apply(state, player, action, dice).state
        table = [
            Seat(player=p, name=who, computer=who == "cpu", user_id=ids.get(who))
            for p, who in zip(players, order, strict=True)
        ]
        session = finished(table, seats.winners(state) or []).model_copy(update={"kind": kind.kind})
        game = rated_game(session, kind, state)
        assert game is not None
        ledger.play(game, float(n))
    return {who: ledger.ratings[(1, kind.kind, member)] for who, member in ids.items()}


@pytest.mark.parametrize("name", sorted(LEAGUE))
def test_a_league_of_fixed_skills_is_ranked_by_skill(name: str) -> None:
    """After a league the member who plays as the Normal computer is rated above the one who plays at random, and
    the random one below the Normal anchor. In Vices & Vengeance, where choices weigh more, the Normal-playing
    member's mean lands on the Normal anchor's (25) within two sigmas, as the same play should."""
    kind, games = LEAGUE[name]
    members: dict[str, Chooser] = {
        "random": functools.partial(at_random, kind=kind),
        "normal": functools.partial(as_computer, kind=kind),
    }
    rated = league(kind, games, 27, members)
    assert rated["normal"].mu > rated["random"].mu and rated["normal"].ordinal > rated["random"].ordinal
    assert rated["random"].mu < ANCHORS["normal"]
    assert rated["random"].games == rated["normal"].games == games
    if name == "vices":
        assert abs(rated["normal"].mu - ANCHORS["normal"]) < 2 * rated["normal"].sigma
        assert rated["normal"].mu - rated["random"].mu > 2 * (rated["normal"].sigma + rated["random"].sigma)


def test_vices_places_follow_e1() -> None:
    """Vices & Vengeance places its winner first, then whoever is on exactly 70, then the lowest totals (equal
    totals tie), and leaves out a player who left."""
    totals = {"P1": 64, "P2": 70, "P3": 58, "P4": 64, "P5": 12}
    seats = tuple(VicesSeat(id=p, total=t, left=p == "P5") for p, t in totals.items())
    state = VicesState.model_construct(
        options=VicesOptions(), players=seats, winners=("P3",), phase="over", sins={}, first_seat="P1"
    )
    assert places(state) == {"P3": 1, "P2": 2, "P1": 3, "P4": 3}


STRENGTHS: tuple[str, ...] | None = getattr(contract, "STRENGTHS", None)


@pytest.mark.skipif(STRENGTHS is None, reason="computer strengths are not in this build yet")
def test_a_league_of_computer_strengths_is_ranked_easy_below_normal() -> None:
    """Members who play as the Easy and the Normal computers do, with a Normal computer seat, 60 games of Vices &
    Vengeance: Easy is rated below Normal, and the Normal-playing member near the Normal anchor. (Strong takes
    seconds a decision: its league is a bench, not a test.)"""
    kind = GameKind(VICES)

    def strength(label: str) -> Chooser:
        def play(state: BaseModel, player: str, rng: random.Random, dice: DiceSource) -> BaseModel:
            chosen: BaseModel = kind.computer_action(state, player, dice, label)  # type: ignore[call-arg, unused-ignore]
            return chosen

        return play

    rated = league(kind, 60, 27, {"easy": strength("easy"), "normal": strength("normal")})
    assert rated["easy"].mu + 2 * rated["easy"].sigma < rated["normal"].mu
    assert abs(rated["normal"].mu - ANCHORS["normal"]) < 2 * rated["normal"].sigma
