"""Complete games played through the Service into a real database, stored exactly as the bot stores them (log
entries with their news): Dice of Crowns and V&V tables, V&V scoresheets, and Viciousness campaigns.

No Discord is involved: the bot object is built only to load its games and compose their news, and a Service of
its own (seeded dice, a clock that moves a few seconds per action, no commit hooks) makes every change. Players
choose as the engine's computer players would (randomly where there are none), so the logs look like played ones.
Used by ``bench/storage_size.py`` and ``bench/big_database.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.app import TabletopBot
from bot.errors import UserError
from bot.models import Actor, Seat, Session
from bot.news import NewsDesk
from bot.registry import GameKind
from bot.service import Expect, Service
from bot.settings import Settings
from rules.crowns.playout import random_options as crowns_options
from rules.dice import SeededDice
from rules.engine import GM
from rules.vices.playout import random_options as vices_options
from rules.vices.sheet import SHEET_ENGINE
from rules.vices.sheet_actions import EnterScore, MoveSin, TieBreak
from rules.vices.sheet_state import Phase, SheetState, progress
from rules.viciousness import VicOptions
from rules.viciousness.choices import Decision, pending
from rules.viciousness.data import TRAITS
from rules.viciousness.state import CampaignState

GUILD = 81_000_000_000_000_000
FIRST_CHANNEL = 82_000_000_000_000_000
FIRST_USER = 83_000_000_000_000_000
START = 1_750_000_000.0
"""When the first game starts (any fixed moment: the stored times are part of what is measured)."""
NAMES = ("Alice", "Bartholomew", "Chiara", "Dmitri", "Eun-ji", "Farouk", "Grete")
SINS = ("Wrath", "Sloth", "Greed", "Pride", "Envy", "Lust")
TRAIT_NAMES = sorted(TRAITS)
GAMES = ("cogs.crowns", "cogs.vices", "cogs.viciousness")
"""The extensions whose games are played (no /roll: its worker processes are not needed here)."""
OPTIONAL = ("initiate", "flee", "pick", "reroll")
"""Decisions a campaign can do without (the GM keeps the initiated design, nobody runs, dice as they come)."""
MAX_STEPS = 5_000
"""A game longer than this is a bug of the player here (every game here ends well before)."""


class SteppingClock:
    """A clock that moves on a few seconds each time it is read, as a played game does between clicks."""

    def __init__(self, start: float = START) -> None:
        self.moment = start

    def now(self) -> float:
        self.moment += 7.0
        return self.moment

    async def wait_until(self, moment: float | None, wake: asyncio.Event) -> None:
        raise NotImplementedError("nothing waits here")


@dataclass
class Table:
    """What the players need: the service making every change, the games it knows, and fresh channels."""

    service: Service
    rng: random.Random
    next_channel: int = FIRST_CHANNEL

    def channel(self) -> int:
        """A channel of its own for the next game."""
        self.next_channel += 1
        return self.next_channel

    def kind(self, name: str) -> GameKind:
        """A loaded game."""
        return self.service.registry.get(name)


@contextlib.asynccontextmanager
async def table(
    database_path: Path, database_url: str | None = None, seed: int = 1, extensions: tuple[str, ...] = GAMES
) -> AsyncIterator[Table]:
    """A Service on the database (opened and migrated), with every game of ``extensions`` loaded."""
    settings = Settings(
        discord_token="unused", database_path=database_path, database_url=database_url, skip_sync=True, _env_file=None
    )
    bot = TabletopBot(settings, extensions=extensions)
    for name in extensions:
        await bot.load_extension(name)
    await bot.open_storage()
    try:
        service = Service(bot.store, bot.registry, SteppingClock(), SeededDice(seed))
        service.news_of = NewsDesk(bot, service, bot.specs).compose
        yield Table(service, random.Random(seed))
    finally:
        await bot.store.close()


def _actor(number: int) -> Actor:
    return Actor(FIRST_USER + number, NAMES[number % len(NAMES)])


async def _seated_game(t: Table, kind_name: str, options: BaseModel, players: int) -> Session:
    """A table game of ``players`` members, started."""
    actors = [_actor(n) for n in range(players)]
    seats = [Seat(user_id=a.user_id, name=a.name) for a in actors]
    created = await t.service.create(
        kind_name,
        guild_id=GUILD,
        channel_id=t.channel(),
        host=actors[0],
        options=options,
        core_options={"_seating": "random", "_opened_by": actors[0].user_id},
        seats=seats,
    )
    return (await t.service.start(created.session.id, actors[0])).session


async def play_table(t: Table, kind_name: str, options: BaseModel, players: int) -> Session:
    """A table game played to its end by its members, each choosing as the computer player would."""
    kind = t.kind(kind_name)
    session = await _seated_game(t, kind_name, options, players)
    for _ in range(MAX_STEPS):
        if not session.live:
            return session
        state = t.service.state_of(session)
        player = kind.prompts(state)[0].player
        seat = session.seat_of_player(player)
        assert seat.user_id is not None
        if kind.computers is not None:
            action: BaseModel = kind.computer_action(state, player, t.service.dice)
        else:
            action = t.rng.choice(list(kind.legal_actions(state, player)))
        actor = Actor(seat.user_id, seat.name)
        session = (await t.service.act(session.id, actor, action, expect=Expect.of(session))).session
    raise RuntimeError(f"{kind_name} game {session.id} did not end")


async def play_crowns(t: Table, players: int = 4) -> Session:
    """A Dice of Crowns game, house rules at random."""
    return await play_table(t, "crowns", crowns_options(t.rng), players)


async def play_vices(t: Table, players: int = 4) -> Session:
    """A Vices & Vengeance table game, house rules at random."""
    return await play_table(t, "vices", vices_options(t.rng), players)


async def play_sheet(t: Table, players: int = 4) -> Session:
    """A V&V scoresheet kept by its first member for a game on physical dice, to its winner: a score a turn, a Sin
    moving now and then, the tie-break rolled by the bot."""
    keeper = _actor(0)
    rows = [
        {"sin": SINS[n], "name": NAMES[n], "member": str(_actor(n).user_id) if n < 2 else None} for n in range(players)
    ]
    options = SHEET_ENGINE.options_model.model_validate(
        {"keeper": str(keeper.user_id), "keeper_name": keeper.name, "rows": rows}
    )
    session = (
        await t.service.create(SHEET_ENGINE.kind, guild_id=GUILD, channel_id=t.channel(), host=keeper, options=options)
    ).session
    for _ in range(MAX_STEPS):
        state = t.service.state_of(session)
        assert isinstance(state, SheetState)
        now = progress(state)
        if now.phase is Phase.OVER:
            return session
        action: BaseModel
        if now.roller is not None:
            action = TieBreak(
                row=now.roller, pair=t.rng.choice(["mirror_medusa", "david_goliath", "silverbullet_werewolf"])
            )
        elif t.rng.random() < 0.1:
            action = MoveSin(sin=t.rng.choice(SINS[:players]), to=t.rng.choice([*SINS[:players], "reserves"]))
        else:
            assert now.up is not None
            action = EnterScore(row=now.up, value=t.rng.choice([0, 2, 4, 5, 7, 9, 12]))
        try:
            session = (await t.service.act(session.id, keeper, action)).session
        except UserError:
            continue  # a Sin that is already there: the keeper writes the score instead
    raise RuntimeError(f"sheet {session.id} did not end")


# -- a campaign ---------------------------------------------------------------------------------------------------


@dataclass
class Campaign:
    """A Viciousness campaign being run: its session, its GM and players."""

    t: Table
    session: Session
    gm: Actor
    players: list[Actor]

    async def act(self, actor: Actor, action: dict[str, Any]) -> bool:
        """Take ``action``; False if the engine refused it (a move that didn't fit the moment)."""
        try:
            self.session = (await self.t.service.act(self.session.id, actor, action)).session
        except UserError:
            return False
        return True

    @property
    def state(self) -> CampaignState:
        state = self.t.service.state_of(self.session)
        assert isinstance(state, CampaignState)
        return state

    def pcs(self, owner: Actor, wounded: bool = False) -> list[str]:
        """The owner's active PCs: those fit to act, or (``wounded``) those who are not."""
        troupe = self.state.troupes.get(str(owner.user_id))
        return [pc.id for pc in troupe.pcs if pc.active and pc.wounded == wounded] if troupe is not None else []

    def traits(self, pc_id: str) -> list[str]:
        pc = self.state.find_pc(pc_id)
        return [t.name for t in pc.traits] if pc is not None else []

    def decide(self, decision: Decision) -> tuple[Actor, dict[str, Any]]:
        """Who takes a pending decision, and how (a player for their own PCs, else the GM)."""
        rng = self.t.rng
        extra: dict[str, Any] = {}
        options = list(decision.options)
        if decision.action == "aim":
            extra["at"] = rng.sample(options, min(len(options), decision.pick or 1))
        elif decision.action in ("assign", "cancel"):
            split = dict.fromkeys(options, 0)
            for _ in range(decision.pick or 0):
                split[rng.choice(options)] += 1
            extra["to" if decision.action == "assign" else "cancels"] = split
        elif decision.action == "thwart":
            extra["picks"] = [int(i) for i in rng.sample(options, min(len(options), decision.pick or 0))]
        elif decision.action == "death_test":
            extra["care"] = rng.choice(["none", "attention", "medic"])
        elif decision.action == "interfere":
            extra["foiled"] = rng.random() < 0.5
        elif decision.action == "initiate":
            extra["design"] = options[0] if options else None
        elif decision.action == "pick":
            extra["picks"] = []
        elif decision.action == "confirm":  # a consequence that falls on a PC names one (settle tries without)
            extra["pc"] = rng.choice([pc for p in self.players for pc in self.pcs(p) + self.pcs(p, wounded=True)])
        by = {p.user_id: p for p in self.players if str(p.user_id) in decision.by}
        actor = next(iter(by.values())) if by and rng.random() < 0.8 else self.gm
        return actor, {"type": decision.action, **decision.fields, **extra}

    async def settle(self, scope: str, *, finish: str | None = None) -> None:
        """Take the decisions open on ``scope`` (a pool or a rival) until none is left: a push now and then, no
        optional switch or flight; a fight is closed after three rounds (``finish``: the pool's id)."""
        rounds = 0
        push = True
        for _ in range(60):
            state = self.state
            if scope not in state.pools and scope not in state.rivals:
                return
            decisions = [d for d in pending(state, scope) if d.action not in OPTIONAL]
            pushes = [d for d in pending(state, scope) if d.action == "reroll"]
            if push and pushes and self.t.rng.random() < 0.2:
                decisions = pushes
            if not decisions or (finish is not None and rounds >= 3):
                break
            decision = next((d for d in decisions if d.action != "next_round"), decisions[0])
            actor, action = self.decide(decision)
            if not await self.act(actor, action) and not await self.act(actor, {**action, "pc": None}):
                if decision.action != "reroll":
                    break
                push = False  # that push was not allowed (a rattled PC): on without pushing
                continue
            rounds += decision.action == "next_round"
        if finish is not None and finish in self.state.pools:
            await self.act(self.gm, {"type": "close", "pool": finish})

    async def pool(self, violence: bool) -> None:
        """A scene: a fight against some guards, or a scheme against a few challenges, played to its end."""
        rng = self.t.rng
        before = set(self.state.pools)
        if self.state.company.lockout is not None:
            await self.act(self.gm, {"type": "clear_lockout"})
        if violence:
            await self.act(self.gm, {"type": "open_violence", "title": "The warehouse", "sides": ["Crew", "Guards"]})
        else:
            await self.act(self.gm, {"type": "open_knavery", "title": "The heist", "total": rng.randint(1, 4)})
        opened = [p for p in self.state.pools if p not in before]
        if not opened:
            return
        pool = opened[0]
        for player in self.players:
            for pc in self.pcs(player)[:2]:
                await self.act(player, {"type": "join", "pool": pool, "pc": pc, **({"side": "a"} if violence else {})})
        if violence:
            await self.act(self.gm, {"type": "add_npc", "pool": pool, "side": "b", "name": "Guard", "count": 3})
        await self.settle(pool, finish=pool)

    async def troupe(self, player: Actor, n: int) -> None:
        """The player's troupe: a captain, and a minion the GM places."""
        owner = str(player.user_id)
        captain = {"name": f"{player.name} the Bold", "traits": self.t.rng.sample(TRAIT_NAMES, 3)}
        await self.act(
            player, {"type": "create_troupe", "name": f"Troupe {n + 1}", "captain": captain, "asset": "favor"}
        )
        await self.act(self.gm, {"type": "minion_places", "owner": owner, "n": 1})
        minion = {"name": f"{player.name}'s shadow", "traits": self.t.rng.sample(TRAIT_NAMES, 2)}
        await self.act(player, {"type": "add_pc", "owner": owner, "pc": minion})

    async def turn(self, number: int) -> None:
        """One turn of the troupe campaign: the rivals move, a scene or two, a PC rests, some money changes hands."""
        rng = self.t.rng
        await self.act(self.gm, {"type": "turn_start"})
        for n, player in enumerate(self.players):
            if not self.pcs(player) and not self.pcs(player, wounded=True):
                await self.troupe(player, n)  # the last of a troupe fell: its player starts a new one
            for pc in self.pcs(player, wounded=True):  # the medic's work between turns
                await self.act(self.gm, {"type": "condition", "pc": pc, "change": "heal"})
        for rival in list(self.state.rivals):
            await self.settle(rival)
        await self.pool(violence=number % 3 == 0)
        if number % 2:
            await self.pool(violence=False)
        player = rng.choice(self.players)
        for pc in self.pcs(player)[:1]:
            await self.act(player, {"type": "act", "pc": pc, "kind": rng.choice(["rest", "other"])})
            known = [t for t in self.traits(pc) if TRAITS.get(t) is not None and TRAITS[t].kind == "knowledge"]
            if known:
                await self.act(player, {"type": "knowledge", "pc": pc, "trait": known[0]})
        await self.act(self.gm, {"type": "reward", "method": rng.choice(["work", "rare"]), "npc_rank": 2})
        if number % 5 == 0:
            await self.act(self.gm, {"type": "invest", "rank": 2, "n": 1})
            for pc in self.pcs(player)[:1]:
                await self.act(player, {"type": "advance", "owner": str(player.user_id), "pc": pc})
        if number % 7 == 0:
            await self.act(self.gm, {"type": "add_design", "rival": "r1", "text": f"Scheme {number}"})
        await self.act(self.gm, {"type": "turn_end"})
        for rival in list(self.state.rivals):
            await self.settle(rival)


async def play_campaign(t: Table, turns: int = 50) -> Session:
    """A Viciousness campaign run by a GM for two players' troupes, ``turns`` turns long."""
    gm, players = _actor(0), [_actor(1), _actor(2)]
    created = await t.service.create(
        "viciousness",
        guild_id=GUILD,
        channel_id=t.channel(),
        host=gm,
        options=VicOptions(),
        roles={str(gm.user_id): [GM]},
    )
    run = Campaign(t, created.session, gm, players)
    await run.act(gm, {"type": "company", "name": "The Knives"})
    for n, player in enumerate(players):
        await run.troupe(player, n)
    await run.act(gm, {"type": "add_rival", "name": "Lady Vane", "rank": 3})
    await run.act(gm, {"type": "add_design", "rival": "r1", "text": "Seize the docks"})
    for number in range(1, turns + 1):
        await run.turn(number)
    return run.session


PLAYERS: dict[str, Callable[[Table], Any]] = {
    "crowns": play_crowns,
    "vices": play_vices,
    "vv_sheet": play_sheet,
    "campaign_50_turns": play_campaign,
}
"""One game of each kind the storage figures are given for, by the name ``bench/scale.py`` reports it under."""
SMALL_PLAYERS: dict[str, Callable[[Table], Any]] = PLAYERS | {"campaign_50_turns": partial(play_campaign, turns=2)}
"""The same kinds for the benches' ``--small`` runs (CI's: seconds, figures that mean nothing): a campaign of 2
turns stands in for the 50 (and keeps its name, so the reports keep their shape)."""
