"""Every game kind as the contract suite drives it: a table (options, seats, members), random legal play, and
what each game keeps secret.

A game joins the suite with one ``Game`` in ``GAMES``. A game with ``Turns`` is played by picking among its
``legal_actions``; an open session (a scoresheet, a campaign) gives ``move``, a random action someone might try,
legal or not. A game with hidden information says whose secrets a state holds (``owners``) and whether a state as
someone may see it shows an owner's secret (``shows``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.models import MAIN_VIEW, Actor, Seat, Session, Status
from bot.registry import GameKind
from bot.spec import GameSpec
from cogs.crowns import CrownsSpec
from cogs.initiative.spec import InitiativeSpec
from cogs.vices.sheet import SheetSpec
from cogs.vices.table import TableSpec
from cogs.viciousness import controls
from cogs.viciousness.narrate import narrate as vic_narrate
from cogs.viciousness.spec import VicSpec
from rules.crowns.playout import random_options as crowns_options
from rules.engine import GM, Viewer
from rules.initiative.state import InitOptions, InitState
from rules.vices.playout import random_options as vices_options
from rules.vices.sheet_data import SIN_NAMES
from rules.vices.sheet_state import SheetOptions, SheetSettings, SheetState, progress
from rules.viciousness import CampaignState, VicOptions
from rules.viciousness.transfer import export_campaign
from tests.rules.test_vic_properties import random_action as vic_action
from tests.rules.vic_support import GM as GM_ID
from tests.rules.vic_support import P1 as VIC_P1
from tests.rules.vic_support import P2 as VIC_P2
from tests.secret.cog import SecretSpec
from tests.secret.engine import SecretOptions, SecretState
from tests.testgame.cog import RaceSpec
from tests.testgame.engine import RaceOptions

LONG_NAME = "Ｗ" * 31  # display names are at most 32 characters; wide ones take the most room
FIRST_USER = 10**18


@dataclass
class Table:
    """A session of one game, as the core stores it, and the members who play it."""

    session: Session
    options: BaseModel
    players: list[str]
    """Seated player ids in seat order (empty for an open session)."""
    members: list[Actor]
    """Everyone the suite draws private views for: each player, the GM, the keeper."""


Move = tuple[str, dict[str, Any]]


@dataclass(frozen=True, eq=False)  # one of each: the suite caches a game's plays by it
class Game:
    """One game kind in the suite."""

    name: str
    spec: GameSpec[Any]
    table: Callable[[random.Random], Table]
    move: Callable[[random.Random, BaseModel], Move] | None = None
    """Open sessions: an action someone might try now (who, the action's JSON), legal or not."""
    steps: int = 150
    """At most this many actions a game (a table game usually ends sooner)."""
    games: int = 3
    """How many games (seeds) the suite plays: more where random tables differ most (modules, house rules)."""
    owners: Callable[[BaseModel], Sequence[str]] = lambda state: ()
    """The players (or role names) whose secrets ``state`` holds."""
    shows: Callable[[BaseModel, str], bool] = lambda viewed, owner: False
    """Whether ``viewed`` (a state as someone may see it) shows ``owner``'s secret."""
    views: Callable[[BaseModel], Sequence[str]] = lambda state: (MAIN_VIEW,)
    """Every view of the session the game draws (the main board, a troupe's sheet, a pool…)."""
    narrator: Callable[[Session, BaseModel, list[dict[str, Any]]], list[str]] | None = None
    """How the spec tells events with the session's state, for a spec that reads the state through the bot (the
    suite runs none); None: the spec's ``narrate``."""
    exports: Callable[[BaseModel, Viewer], str | None] = lambda state, viewer: None
    """What ``viewer`` may take away as a file (a campaign's export); None where they may not."""

    @property
    def kind(self) -> GameKind:
        """The game as the core runs it."""
        return self.spec.kind

    def narrate(self, session: Session, state: BaseModel, events: list[dict[str, Any]]) -> list[str]:
        """The sentences boards and ``/game log`` tell of ``events``, the session being at ``state``."""
        if self.narrator is not None:
            return self.narrator(session, state, events)
        return self.spec.narrate(session, events)

    def __str__(self) -> str:
        return self.name


def seated(kind: str, options: BaseModel, players: int) -> Table:
    """A running table of ``players`` members with the longest names, on a session far into its life."""
    seats = [Seat(player=f"P{i}", user_id=FIRST_USER + i, name=f"{LONG_NAME}{i}") for i in range(1, players + 1)]
    session = Session(
        id=987654321,
        guild_id=1,
        channel_id=2,
        kind=kind,
        status=Status.ACTIVE,
        host_id=seats[0].user_id,
        options=options.model_dump(mode="json"),
        seats=seats,
        version=123456,
    )
    members = [Actor(s.user_id, s.name) for s in seats if s.user_id is not None]
    return Table(session, options, [s.player for s in seats], members)


def open_session(kind: str, options: BaseModel, host: int, roles: dict[str, list[str]], others: list[int]) -> Table:
    """A session without seats (a campaign, a scoresheet): its players act as their user ids."""
    session = Session(
        id=987654321,
        guild_id=1,
        channel_id=2,
        kind=kind,
        status=Status.ACTIVE,
        host_id=host,
        options=options.model_dump(mode="json"),
        roles=roles,
        version=123456,
    )
    return Table(session, options, [], [Actor(u, f"{LONG_NAME}{u % 10}") for u in (host, *others)])


# -- the games -----------------------------------------------------------------------------------------------


def race_table(rng: random.Random) -> Table:
    return seated("race", RaceOptions(target=rng.choice([10, 30])), rng.randint(2, 4))


def crowns_table(rng: random.Random) -> Table:
    return seated("crowns", crowns_options(rng), rng.randint(2, 6))


def vices_table(rng: random.Random) -> Table:
    return seated("vices", vices_options(rng), rng.randint(3, 6))


def secret_table(rng: random.Random) -> Table:
    return seated("secret", SecretOptions(), rng.randint(2, 4))


KEEPER = FIRST_USER + 100


def sheet_table(rng: random.Random) -> Table:
    players = rng.randint(3, 6)
    sins = rng.sample(list(SIN_NAMES), players)
    rows = [
        {"sin": sin, "name": f"{LONG_NAME[:20]}{i}", "member": str(FIRST_USER + i) if i % 2 else None}
        for i, sin in enumerate(sins, start=1)
    ]
    settings = SheetSettings(self_scoring=rng.random() < 0.5, end_mode=rng.choice(["finish_round", "one_more_each"]))
    options = SheetOptions(keeper=str(KEEPER), keeper_name="Keeper", rows=rows, settings=settings)
    members = [FIRST_USER + i for i in range(1, players + 1) if i % 2]
    return open_session("vv_sheet", options, KEEPER, {}, members)


def sheet_move(rng: random.Random, state: BaseModel) -> Move:
    """Mostly the next score (by the keeper or the player up), sometimes a tie-break, a correction, an edit."""
    assert isinstance(state, SheetState)
    now = progress(state)
    writer = rng.choice([state.keeper, *(r.member for r in state.rows if r.member is not None)])
    row = rng.choice(state.rows).sin
    if now.roller is not None and rng.random() < 0.7:
        pair = rng.choice(["mirror_medusa", "david_goliath", "silverbullet_werewolf"])
        dice = rng.choice([None, [rng.randint(1, 6), rng.randint(1, 6)]])
        return writer, {"type": "tiebreak", "row": now.roller, "pair": pair, "dice": dice}
    if now.up is not None and rng.random() < 0.8:
        return writer, {"type": "score", "row": now.up, "value": rng.randint(0, 25)}
    return writer, rng.choice(
        [
            {"type": "correct", "row": row, "round": rng.randint(1, 3), "value": rng.randint(0, 30)},
            {"type": "reorder", "row": row, "dir": rng.choice(["up", "down"])},
            {"type": "rename", "row": row, "name": rng.choice(["Ana", "Bo", LONG_NAME])},
            {"type": "sin", "sin": rng.choice(SIN_NAMES), "to": rng.choice(["reserves", "out", row])},
            {"type": "sloth", "removed": rng.random() < 0.5},
            {"type": "score", "row": row, "value": -1},
            {"type": "new_game"},
        ]
    )


def vic_table(rng: random.Random) -> Table:
    options = VicOptions(speed_chess=rng.random() < 0.5, wealth_track=rng.choice(["ip", "rank"]))
    return open_session("viciousness", options, int(GM_ID), {GM_ID: [GM]}, [int(VIC_P1), int(VIC_P2)])


def vic_move(rng: random.Random, state: BaseModel) -> Move:
    assert isinstance(state, CampaignState)
    return vic_action(rng, state)


def vic_shows(viewed: BaseModel, owner: str) -> bool:
    """The GM's secrets: rivals, notes and rival dice waiting to be revealed."""
    assert isinstance(viewed, CampaignState) and owner == GM
    return bool(viewed.rivals or viewed.notes or viewed.committed)


def vic_views(state: BaseModel) -> list[str]:
    assert isinstance(state, CampaignState)
    return [MAIN_VIEW, "gm", *(f"troupe:{o}" for o in state.troupes), *(f"pool:{p}" for p in state.pools)]


def vic_told(session: Session, state: BaseModel, events: list[dict[str, Any]]) -> list[str]:
    """What ``VicSpec.narrate`` says, given the state it reads from the bot."""
    assert isinstance(state, CampaignState)
    return vic_narrate(state, events)


def vic_exports(state: BaseModel, viewer: Viewer) -> str | None:
    """``/vic-gm campaign export``: the whole campaign, for the GM and co-GMs only."""
    assert isinstance(state, CampaignState)
    return export_campaign(state) if viewer.is_gm else None


def secret_owners(state: BaseModel) -> list[str]:
    assert isinstance(state, SecretState)
    return [] if state.revealed else list(state.players)


def secret_shows(viewed: BaseModel, owner: str) -> bool:
    assert isinstance(viewed, SecretState)
    return viewed.dice.get(owner) is not None


INIT_GM = FIRST_USER + 200
INIT_PLAYERS = [FIRST_USER + 201, FIRST_USER + 202]


def init_table(rng: random.Random) -> Table:
    return open_session("init", InitOptions(), INIT_GM, {str(INIT_GM): [GM]}, INIT_PLAYERS)


def init_move(rng: random.Random, state: BaseModel) -> Move:
    """Joins (a member by a roll or a value, the GM's NPCs, hidden or not), turns, removals, reveals, conditions."""
    assert isinstance(state, InitState)
    actor = str(rng.choice([INIT_GM, INIT_GM, *INIT_PLAYERS]))
    who = rng.choice([*(e.name for e in state.entries.values()), *state.entries, "nobody"])
    join: dict[str, Any] = {"type": "join", "name": rng.choice(["Ana", "Bo", LONG_NAME[:20]]) + str(rng.randrange(99))}
    join["roll"] = "1d20+2"
    if rng.random() < 0.5:
        join = {**join, "roll": None, "value": rng.randint(-5, 30), "mod": rng.randint(-2, 5)}
    npc = {**join, "npc": True, "hidden": rng.random() < 0.5, "count": rng.randint(1, 3)}
    return actor, rng.choice(
        [
            join,
            npc,
            npc,
            {"type": "next"},
            {"type": "next", "of": state.current},
            {"type": "next", "of": state.current},
            {"type": "prev"},
            {"type": "delay", "of": state.current},
            {"type": "rm", "who": who},
            {"type": "reveal", "who": who},
            {
                "type": "cond",
                "who": who,
                "name": rng.choice(["Prone", "Blessed"]),
                "turns": rng.choice([None, 0, 1, 3]),
            },
        ]
    )


def init_shows(viewed: BaseModel, owner: str) -> bool:
    """The GM's secret: hidden NPCs (and whose turn it is when it is theirs)."""
    assert isinstance(viewed, InitState) and owner == GM
    return any(e.hidden for e in viewed.entries.values())


GAMES = [
    Game("race", RaceSpec(), race_table),
    Game("crowns", CrownsSpec(), crowns_table, steps=400, games=40),
    Game("vices", TableSpec(bot=None), vices_table, steps=400, games=20),  # type: ignore[arg-type]  # drawing needs no bot
    Game("vv_sheet", SheetSpec(bot=None), sheet_table, move=sheet_move),  # type: ignore[arg-type]
    Game(
        "viciousness",
        VicSpec(None, controls()),  # type: ignore[arg-type]
        vic_table,
        move=vic_move,
        steps=300,
        owners=lambda state: [GM] if vic_shows(state, GM) else [],
        shows=vic_shows,
        views=vic_views,
        narrator=vic_told,
        exports=vic_exports,
    ),
    Game("secret", SecretSpec(), secret_table, games=10, owners=secret_owners, shows=secret_shows),
    Game(
        "init",
        InitiativeSpec(),
        init_table,
        move=init_move,
        steps=200,
        games=5,
        owners=lambda state: [GM] if init_shows(state, GM) else [],
        shows=init_shows,
    ),
]
