"""The service on its own, without Discord (on both backends): the one path every change takes, and its typed
refusals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict

from bot.errors import IllegalMove, InvalidInput, NotPermitted, NotPlaying, NotYourTurn, StaleBoard
from bot.models import Actor, Applied, Scope, Seat, Status
from bot.registry import GameKind, Registry
from bot.replay import replay
from bot.service import Expect, Service
from rules.dice import DiceSource, ScriptedDice
from rules.engine import GM, IllegalAction, Outcome, Prompt
from tests.core.clock import FakeClock
from tests.databases import Database
from tests.testgame.engine import RaceEngine, RaceOptions
from tests.testgame.ledger import LedgerEngine, LedgerOptions

ALICE, BOB, CAROL = Actor(1, "Alice"), Actor(2, "Bob"), Actor(3, "Carol")


class VoteOptions(BaseModel):
    model_config = ConfigDict(frozen=True)
    timeouts: dict[str, int] = {"turn": 60}


class VoteState(BaseModel):
    model_config = ConfigDict(frozen=True)
    players: tuple[str, ...]
    votes: dict[str, bool] = {}
    round: int = 1


class Vote(BaseModel):
    type: Literal["vote"] = "vote"
    yes: bool


class VoteEngine:
    """Everyone votes at once each round; a round ends when all have voted."""

    kind = "vote"
    title = "Vote"
    min_players = 2
    max_players = 4
    options_model = VoteOptions
    state_model = VoteState

    def start(self, options: VoteOptions, players: Sequence[str], dice: DiceSource) -> Outcome[VoteState]:
        return Outcome(VoteState(players=tuple(players)))

    def parse_action(self, data: Mapping[str, Any]) -> BaseModel:
        return Vote.model_validate(data)

    def apply(self, state: VoteState, actor: str, action: BaseModel, dice: DiceSource) -> Outcome[VoteState]:
        assert isinstance(action, Vote)
        votes = {**state.votes, actor: action.yes}
        if len(votes) == len(state.players):
            return Outcome(state.model_copy(update={"votes": {}, "round": state.round + 1}), [{"type": "round"}])
        return Outcome(state.model_copy(update={"votes": votes}), [{"type": "voted", "player": actor}])

    def prompts(self, state: VoteState) -> list[Prompt]:
        return [Prompt(player=p, decision="vote", label="vote") for p in state.players if p not in state.votes]

    def legal_actions(self, state: VoteState, player: str) -> list[BaseModel]:
        return [Vote(yes=True), Vote(yes=False)] if player not in state.votes else []

    def default_action(self, state: VoteState, player: str) -> BaseModel:
        return Vote(yes=False)

    def remove_player(self, state: VoteState, player: str, dice: DiceSource) -> Outcome[VoteState]:
        if player in state.votes:
            raise IllegalAction("A vote cast stays: wait for the round to end before leaving.")
        return Outcome(state.model_copy(update={"players": tuple(p for p in state.players if p != player)}))

    def winners(self, state: VoteState) -> list[str] | None:
        return list(state.players) if state.round > 3 else None


async def open_service(database: Database) -> Service:
    """A service on its own store of ``database`` (as one bot process would have)."""
    store = database.store()
    await store.open()
    registry = Registry()
    for engine in (RaceEngine(), VoteEngine()):
        registry.add(GameKind(engine))
    registry.add(GameKind(LedgerEngine(), scope=Scope.CAMPAIGN))
    return Service(store, registry, FakeClock(), ScriptedDice([1] * 50))


@pytest.fixture
async def service(database: Database):
    svc = await open_service(database)
    yield svc
    await svc.store.close()


async def table(service: Service, kind: str, options: BaseModel, members: Sequence[Actor], computers: int = 0) -> int:
    """A started game of ``kind`` with ``members`` seated in order, then ``computers`` computer seats."""
    seats = [Seat(user_id=m.user_id, name=m.name) for m in members]
    seats += [Seat(name=f"Computer {n}", computer=True) for n in range(1, computers + 1)]
    created = await service.create(kind, guild_id=1, channel_id=10, host=members[0], options=options, seats=seats)
    applied = await service.start(created.session.id, members[0])
    return applied.session.id


async def test_every_commit_reaches_the_hooks_after_the_lock(service: Service) -> None:
    seen: list[Applied] = []
    service.on_commit(lambda applied: seen.append(applied) or None)
    sid = await table(service, "race", RaceOptions(target=50), [ALICE, BOB])
    applied = await service.act(sid, ALICE, {"type": "roll"})
    assert [a.how for a in seen][-1] == "player" and seen[-1] is applied
    assert not service.lock(sid).locked()
    entries = await service.store.log_entries(sid)
    assert [e.action["kind"] for e in entries] == ["start", "act"]


async def test_refusals_are_typed(service: Service) -> None:
    sid = await table(service, "race", RaceOptions(target=50), [ALICE, BOB])
    with pytest.raises(NotYourTurn, match="Not your move"):
        await service.act(sid, BOB, {"type": "roll"})
    with pytest.raises(NotPlaying):
        await service.act(sid, CAROL, {"type": "roll"})
    with pytest.raises(InvalidInput):
        await service.act(sid, ALICE, {"type": "dance"})
    with pytest.raises(IllegalMove, match="can't take a point"):
        await service.act(sid, ALICE, {"type": "steal", "take": True})
    before = (await service.store.session(sid)).version  # type: ignore[union-attr]
    with pytest.raises(StaleBoard):
        await service.act(sid, ALICE, {"type": "roll"}, expect=Expect(before - 1))
    assert (await service.store.session(sid)).version == before  # type: ignore[union-attr]


async def test_a_click_made_before_someone_elses_move_still_counts_when_its_choice_is_unchanged(
    service: Service,
) -> None:
    sid = await table(service, "vote", VoteOptions(), [ALICE, BOB, CAROL])
    clicked_at = Expect((await service.store.session(sid)).version)  # type: ignore[union-attr]
    await service.act(sid, ALICE, {"type": "vote", "yes": True}, expect=clicked_at)
    # Bob clicked on the same board: his own decision is just as it was, so it is applied.
    await service.act(sid, BOB, {"type": "vote", "yes": False}, expect=clicked_at)
    # Carol's vote ends the round; Alice's old click was for a decision she already made.
    await service.act(sid, CAROL, {"type": "vote", "yes": True}, expect=clicked_at)
    with pytest.raises(StaleBoard):
        await service.act(sid, ALICE, {"type": "vote", "yes": True}, expect=clicked_at)


async def test_permissions_roles_and_records(service: Service) -> None:
    created = await service.create(
        "ledger", guild_id=1, channel_id=10, host=ALICE, options=LedgerOptions(), roles={"1": [GM]}
    )
    sid = created.session.id
    await service.act(sid, BOB, {"type": "join", "name": "Bob"})
    await service.act(sid, CAROL, {"type": "join", "name": "Carol"})
    with pytest.raises(NotPermitted):
        await service.act(sid, CAROL, {"type": "add", "page": "2", "amount": 1})
    with pytest.raises(NotPermitted):
        await service.act(sid, BOB, {"type": "note", "text": "x"})
    bob_page = Expect.of((await service.store.session(sid)), "page:2")  # type: ignore[arg-type]
    await service.act(sid, CAROL, {"type": "add", "page": "3", "amount": 1})
    await service.act(sid, ALICE, {"type": "add", "page": "2", "amount": 4}, expect=bob_page)  # the GM may
    with pytest.raises(StaleBoard):
        await service.act(sid, BOB, {"type": "add", "page": "2", "amount": 1}, expect=bob_page)
    with pytest.raises(NotPermitted):
        await service.set_role(sid, BOB, 3, "co_gm")
    await service.set_role(sid, ALICE, 3, "co_gm")
    await service.act(sid, CAROL, {"type": "note", "text": "co-GMs keep notes"})
    await service.set_role(sid, ALICE, 2, GM)  # hand over
    session = await service.store.session(sid)
    assert session is not None and session.roles == {"2": [GM], "3": ["co_gm"]}
    entries = await service.store.log_entries(sid)
    kind = service.registry.get("ledger")
    assert replay(kind, session.engine_options, entries).model_dump(mode="json") == session.state


async def test_a_click_on_a_shared_record_passes_others_changes_never_the_clickers_own(service: Service) -> None:
    created = await service.create(
        "ledger", guild_id=1, channel_id=10, host=ALICE, options=LedgerOptions(), roles={"1": [GM]}
    )
    sid = created.session.id
    await service.act(sid, BOB, {"type": "join", "name": "Bob"})
    drawn = Expect.of((await service.store.session(sid)), "page:2")  # type: ignore[arg-type]
    shared = Expect(drawn.version, drawn.record, shared=True)
    await service.act(sid, ALICE, {"type": "add", "page": "2", "amount": 4}, expect=shared)
    await service.act(sid, BOB, {"type": "add", "page": "2", "amount": 1}, expect=shared)  # past the GM's change
    with pytest.raises(StaleBoard):  # past his own: the same click again
        await service.act(sid, BOB, {"type": "add", "page": "2", "amount": 1}, expect=shared)
    entries = [e for e in await service.store.log_entries(sid) if e.action.get("kind") == "act"]
    assert [e.action["action"].get("amount") for e in entries[-2:]] == [4, 1]


async def test_an_engine_refusing_a_departure_is_a_reason_not_an_error(service: Service) -> None:
    sid = await table(service, "vote", VoteOptions(), [ALICE, BOB, CAROL])
    await service.act(sid, ALICE, {"type": "vote", "yes": True})
    with pytest.raises(IllegalMove, match="A vote cast stays"):  # one mapping of the engine's refusals, every step
        await service.remove_player(sid, "P1", actor=ALICE)


async def test_the_last_member_leaving_abandons_the_table_to_no_computer(service: Service) -> None:
    sid = await table(service, "race", RaceOptions(target=50), [ALICE, BOB], computers=1)
    left = await service.remove_player(sid, "P1", actor=ALICE)
    assert left.session.status is Status.ACTIVE and left.session.host_id == BOB.user_id  # the host role passed on
    gone = await service.remove_player(sid, "P2", actor=BOB)
    assert gone.session.status is Status.ABANDONED and gone.session.winners is None


async def test_an_imported_state_starts_a_session_that_replays(service: Service) -> None:
    created = await service.create(
        "ledger", guild_id=1, channel_id=10, host=ALICE, options=LedgerOptions(), roles={"1": [GM]}
    )
    await service.act(created.session.id, BOB, {"type": "join", "name": "Bob"})
    state = service.state_of(await service.store.session(created.session.id))  # type: ignore[arg-type]
    await service.end(created.session.id, actor=ALICE)
    moved = await service.create(
        "ledger", guild_id=1, channel_id=11, host=ALICE, options=LedgerOptions(), roles={"1": [GM]}, imported=state
    )
    entries = await service.store.log_entries(moved.session.id)
    kind = service.registry.get("ledger")
    assert replay(kind, {}, entries) == state


async def test_two_processes_on_one_database_the_version_check_decides(service: Service, database: Database) -> None:
    """A second process with a stale copy of the session gets the same click: refused, nothing applied twice;
    its next change is made on fresh data."""
    other = await open_service(database)
    try:
        sid = await table(service, "vote", VoteOptions(), [ALICE, BOB, CAROL])
        clicked_at = Expect((await other.store.session(sid)).version)  # type: ignore[union-attr]
        await service.act(sid, ALICE, {"type": "vote", "yes": True}, expect=clicked_at)
        with pytest.raises(StaleBoard):  # its copy still has Alice's vote to make
            await other.act(sid, ALICE, {"type": "vote", "yes": True}, expect=clicked_at)
        await other.act(sid, BOB, {"type": "vote", "yes": False})
        await service.act(sid, CAROL, {"type": "vote", "yes": True})  # this one's copy is stale now
        entries = await service.store.log_entries(sid)
        assert [e.actor for e in entries if e.action["kind"] == "act"] == ["P1", "P2", "P3"]
        session = await service.store.session(sid)  # the last writer's copy (``other``'s is behind: a cache)
        assert session is not None
        stored = replay(service.registry.get("vote"), session.engine_options, entries)
        assert stored is not None and stored.model_dump(mode="json") == session.state
    finally:
        await other.store.close()
