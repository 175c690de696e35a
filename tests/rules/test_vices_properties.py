"""Property tests: seeded random play with random options and 3–6 players (RULES.md 1.7 invariants)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules.dice import RecordingDice, ReplayDice, SeededDice
from rules.engine import IllegalAction
from rules.vices.actions import (
    ClaimSin,
    Envy,
    Gluttony,
    Greed,
    Lust,
    PickPair,
    Remove,
    RemoveZeros,
    VicesAction,
    Wrath,
)
from rules.vices.data import BASE_POOL, EXACT_TARGET, LARGE, METALLIC, NEMESIS, PAIR_KEYS, PRIDE, SINS
from rules.vices.engine import ENGINE
from rules.vices.legality import decision
from rules.vices.playout import MAX_ACTIONS, random_options, random_removal
from rules.vices.pool import removable_units
from rules.vices.state import OUT, RESERVES, VicesState

PLAYERS = ("P1", "P2", "P3", "P4", "P5", "P6", "P7")
GAMES = 5_000
CHUNK = 1_000
"""Games per test: the five thousand run as five tests, which parallel workers share out (``pytest -n 2``)."""


def places(state: VicesState) -> dict[str, list[str]]:
    """Every place each die of the game is found, read from every container of the state."""
    found: dict[str, list[str]] = {}
    turn = state.turn
    if turn is None:
        for die in BASE_POOL:
            found[die] = ["box"]
    else:
        for d in turn.pool:
            found.setdefault(d.id, []).append("pool")
        for die in turn.scored:
            found.setdefault(die, []).append("scored")
        for d in turn.absorbing:
            found.setdefault(d.id, []).append("absorbing")
    owners = {p.sin: p.id for p in state.players}
    for sin in SINS:
        found.setdefault(LARGE[sin], []).append(state.sins[sin])
        if sin == PRIDE:
            found.setdefault(METALLIC, []).append(state.sins[sin])
        die = NEMESIS[sin]
        if sin not in owners:
            found.setdefault(die, []).append("unused")
        elif die not in found:
            found[die] = ["out" if sin in state.nemesis_out else f"hand:{owners[sin]}"]
    return found


def check_invariants(state: VicesState) -> None:
    """Every die in exactly one place, where the rules allow it; Sins held by players still in the game."""
    found = places(state)
    assert len(found) == 31, sorted(found)
    for die, where in found.items():
        assert len(where) == 1, (die, where)
    ids = {p.id for p in state.players}
    present = set(state.present())
    for sin, at in state.sins.items():
        assert at in (RESERVES, OUT) or at in present, (sin, at)
    claimed = [p.sin for p in state.players if p.sin]
    assert len(claimed) == len(set(claimed))
    turn = state.turn
    if state.phase == "turn":
        assert turn is not None and turn.defender in present
        for die in BASE_POOL:
            assert found[die][0] in ("pool", "scored")
        for d in turn.pool:
            if d.id.startswith("N."):
                sin = d.id[2:]
                assert sin not in state.nemesis_out
                assert d.id == NEMESIS[state.seat(turn.defender).sin or ""] or d.id in turn.absorbed
        for d in turn.absorbing:
            assert d.id not in turn.absorbed and state.nemesis_owner(d.id[2:]) in present
        assert turn.score >= 0
    else:
        assert turn is None
    if state.phase == "over":
        assert len(state.winners) == 1 and state.winners[0] in present
        assert ENGINE.prompts(state) == []
    else:
        assert state.winners == ()
        assert ENGINE.prompts(state)
    assert ids >= present


def removal_is_valid(state: VicesState, units: tuple[str, ...]) -> bool:
    """An oracle for a removal set, written from T6 rather than from the engine's checks."""
    known = {u.id: set(u.dice) for u in removable_units(state)}
    used: set[str] = set()
    for unit in units:
        if unit not in known or used & known[unit]:
            return False
        used |= known[unit]
    assert state.turn is not None
    return bool(units) or state.turn.penalty_met


def action_universe(state: VicesState, rng: random.Random) -> list[VicesAction]:
    """Actions a player could send, legal or not, for sampling rejections."""
    pool = [d.id for d in state.turn.pool] if state.turn else []
    scored = list(state.turn.scored) if state.turn else []
    ids = [
        *pool,
        *scored,
        *PAIR_KEYS,
        "Mirror",
        "Werewolf",
        "N.Envy+N.Wrath",
        "d20",
        *[u.id for u in removable_units(state)],
    ]
    sets = [tuple(rng.sample(ids, rng.randint(0, min(4, len(ids))))) for _ in range(6)]
    sets += [(i, i) for i in rng.sample(ids, 2)]
    sins = [*SINS, "Vanity"]
    return [
        *[Remove(units=s) for s in sets],
        RemoveZeros(),
        *[cls(sin=rng.choice(sins)) for cls in (ClaimSin, Wrath, Gluttony, Greed, Lust)],
        Envy(give=rng.choice(sins), take=rng.choice(sins)),
        Envy(give=None, take=None),
        PickPair(pair=rng.choice([*PAIR_KEYS, "left_right"])),
    ]


def deep_checks(state: VicesState, rng: random.Random, dice: SeededDice) -> None:
    """The costly checks, on sampled steps: round trips, the prompted players' offers, and rejections."""
    assert VicesState.model_validate_json(state.model_dump_json()) == state
    for prompt in ENGINE.prompts(state):
        legal = ENGINE.legal_actions(state, prompt.player)
        assert legal, prompt
        assert ENGINE.default_action(state, prompt.player) in legal
        computer = ENGINE.computer_action(state, prompt.player, dice)
        assert computer in legal or (isinstance(computer, Remove) and removal_is_valid(state, computer.units))
        for action in legal:
            data = json.loads(action.model_dump_json())
            assert ENGINE.parse_action(data) == action
            assert len(json.dumps(data, separators=(",", ":"))) <= 100, data
    for player in state.present():
        legal = ENGINE.legal_actions(state, player)
        for action in action_universe(state, rng):
            if action in legal:
                continue
            offered_elsewhere = (
                isinstance(action, Remove)
                and decision(state) is not None
                and player in decision(state).players  # type: ignore[union-attr]
                and decision(state).name == "remove"  # type: ignore[union-attr]
                and removal_is_valid(state, action.units)
            )
            try:
                ENGINE.apply(state, player, action, dice)
            except IllegalAction as exc:
                assert not offered_elsewhere, (player, action, exc.reason)
                assert exc.reason and len(exc.reason) < 120
            else:
                assert offered_elsewhere, f"{player} {action!r} was accepted but not offered"


def choose(state: VicesState, player: str, rng: random.Random, dice: SeededDice) -> VicesAction:
    """Mostly random play (a random non-empty removal set), sometimes the timeout default or the computer."""
    pick = rng.random()
    if pick < 0.08:
        return ENGINE.default_action(state, player)
    if pick < 0.15:
        return ENGINE.computer_action(state, player, dice)
    waiting = decision(state)
    if waiting is not None and waiting.name == "remove" and rng.random() < 0.8:
        return random_removal(state, rng)
    return rng.choice(ENGINE.legal_actions(state, player))


def play_checked(seed: int, counts: tuple[int, int] = (3, 6)) -> int:
    """One random game with random options, checking the invariants at every step; returns its length."""
    rng = random.Random(seed)
    options = random_options(rng)
    players = PLAYERS[: rng.randint(*counts)]
    dice = SeededDice(seed)
    state = ENGINE.start(options, players, dice).state
    leave_at = rng.randint(1, 80) if rng.random() < 0.1 else -1
    deep_every = 60
    steps = 0
    seen: set[str] = set()
    while ENGINE.winners(state) is None:
        check_invariants(state)
        before = state
        if steps == leave_at:
            player = rng.choice(state.present())
            out = ENGINE.remove_player(state, player, dice)
        else:
            prompt = rng.choice(ENGINE.prompts(state))
            action = choose(state, prompt.player, rng, dice)
            if steps % deep_every == seed % deep_every:
                deep_checks(state, rng, dice)
                frozen = state.model_dump_json()
                out = ENGINE.apply(state, prompt.player, action, dice)
                assert state.model_dump_json() == frozen  # apply left its input alone
            else:
                out = ENGINE.apply(state, prompt.player, action, dice)
        state = out.state
        seen = check_events(before, state, out.events, seen)
        steps += 1
        assert steps < MAX_ACTIONS, "game did not end"
    check_invariants(state)
    check_winner(state, out.events)
    return steps


def check_events(before: VicesState, after: VicesState, events: list[dict[str, Any]], seen: set[str]) -> set[str]:
    """Scores only grow, only for a defender whose turn ended; each Sin matches at most once a turn."""
    ended = {e["player"] for e in events if e["type"] == "turn_ended"}
    for old, new in zip(before.players, after.players, strict=True):
        assert new.total >= old.total
        if new.total != old.total:
            assert new.id in ended and new.total - old.total == new.turns[-1]
    for event in events:
        if event["type"] == "turn_started":
            seen = set()
        elif event["type"] == "matches":
            sins = {m["sin"] for m in event["sins"]}
            assert not sins & seen, (sins, seen)
            seen |= sins
        elif event["type"] == "penalty":
            assert event["points"] >= 0
    if before.turn is not None and after.turn is not None and before.turn.defender == after.turn.defender:
        assert after.turn.score >= before.turn.score
    return seen


def check_winner(state: VicesState, last_events: list[dict[str, Any]]) -> None:
    """E1–E2: exactly 70 first, else the lowest total; a tie-break's winner rolled lowest."""
    present = state.present()
    totals = {p: state.seat(p).total for p in present}
    (winner,) = state.winners
    exact = [p for p in present if totals[p] == EXACT_TARGET]
    if exact:
        assert winner in exact
    else:
        assert totals[winner] == min(totals.values())
    rolled = [e for e in last_events if e["type"] == "tiebreak_rolled"]
    if rolled:
        points = {r["player"]: r["points"] for r in rolled[-1]["rolls"]}
        assert points[winner] == min(points.values())


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK), ids=lambda first: f"{first}-{first + CHUNK - 1}")
def test_five_thousand_random_games_keep_the_invariants(first: int) -> None:
    seeds = range(first, first + CHUNK)
    assert sum(play_checked(seed) for seed in seeds) > len(seeds)


def test_two_and_seven_players() -> None:
    for seed in range(GAMES, GAMES + 100):
        play_checked(seed, (2, 2) if seed % 2 else (7, 7))


def _recorded_games(count: int) -> Iterator[tuple[Any, tuple[str, ...], RecordingDice, list[Any], VicesState]]:
    for seed in range(count):
        rng = random.Random(seed)
        options = random_options(rng)
        players = PLAYERS[: rng.randint(3, 6)]
        recorder = RecordingDice(SeededDice(seed))
        state = ENGINE.start(options, players, recorder).state
        log: list[tuple[str, dict[str, Any] | None]] = []
        while ENGINE.winners(state) is None:
            player = rng.choice(ENGINE.prompts(state)).player
            if rng.random() < 0.005:
                log.append((player, None))
                state = ENGINE.remove_player(state, player, recorder).state
                continue
            action = choose(state, player, rng, SeededDice(seed))
            log.append((player, json.loads(action.model_dump_json())))
            state = ENGINE.apply(state, player, action, recorder).state
        yield options, players, recorder, log, state


def test_replaying_recorded_rolls_rebuilds_the_game() -> None:
    for options, players, recorder, log, state in _recorded_games(200):
        replay = ReplayDice(recorder.rolls)
        again = ENGINE.start(options, players, replay).state
        for player, data in log:
            if data is None:
                again = ENGINE.remove_player(again, player, replay).state
            else:
                again = ENGINE.apply(again, player, ENGINE.parse_action(data), replay).state
        assert replay.exhausted
        assert again == state and again.model_dump_json() == state.model_dump_json()


def test_timeouts_alone_finish_a_game() -> None:
    """Every decision left to its timeout default still ends the game (the core's worst case)."""
    for seed in range(100):
        rng = random.Random(seed)
        dice = SeededDice(seed)
        state = ENGINE.start(random_options(rng), PLAYERS[: rng.randint(3, 6)], dice).state
        steps = 0
        while ENGINE.winners(state) is None:
            player = ENGINE.prompts(state)[0].player
            state = ENGINE.apply(state, player, ENGINE.default_action(state, player), dice).state
            steps += 1
            assert steps < MAX_ACTIONS
