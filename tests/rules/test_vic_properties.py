"""Property tests over seeded random campaigns (RULES.md 3.5 invariants), deterministic for each seed.

A random driver takes actions a GM and two players might take, legal or not, with random dice;
after every action the invariants hold, the input state is untouched, and at the end the whole log
replays from its recorded dice to the very same state.
"""

from __future__ import annotations

import random
from typing import Any

from rules.dice import RecordingDice, ReplayDice, Roll
from rules.engine import IllegalAction
from rules.viciousness import ENGINE, CampaignState, VicOptions
from rules.viciousness.choices import pending
from rules.viciousness.data import MAX_TRAITS, TRAITS
from rules.viciousness.state import ViolencePool, rank_for_ip
from rules.viciousness.violence import HIT_FACE, clash
from tests.rules.vic_support import GM, P1, P2

SEEDS = range(60)
STEPS = 200
PLAYERS = (P1, P2)
TRAIT_NAMES = sorted(TRAITS)


class SeededDice:
    """Random dice from a seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, die_id: str, sides: int) -> int:
        return self.rng.randint(1, sides)


def check(state: CampaignState) -> None:
    """RULES.md 3.5 and the state's own promises."""
    company = state.company
    assert company.ip >= 0 and company.rank == rank_for_ip(company.ip) and 1 <= company.rank <= 7
    assert all(c.count > 0 for c in company.liquid)
    assert company.turn_coins is None or company.turn_coins.count > 0
    assert company.lockout is None or company.lockout.free_pushes >= 0
    for troupe in state.troupes.values():
        for pc in troupe.pcs:
            assert len(pc.traits) <= MAX_TRAITS and len(pc.strong) <= len(pc.traits)
            assert pc.wounded == (pc.recovery > 0)
    for rival in state.rivals.values():
        assert all(d.points >= 0 for d in rival.designs)
        assert sum(1 for d in rival.designs if d.status == "building") <= 3
    for pool in state.pools.values():
        if isinstance(pool, ViolencePool) and pool.stage == "clash":
            result = clash(pool, state.options)
            fours = {
                s.id: sum(
                    1
                    for c in pool.combatants
                    if c.side == s.id and c.status == "in"
                    for d in c.dice
                    if d.value == HIT_FACE
                )
                + sum(1 for d in s.equipment_dice if d.value == HIT_FACE)
                for s in pool.sides
            }
            for side, hits in result.hits.items():
                assert hits <= fours[side]
                sent = sum(n for (s, _), n in result.sent.items() if s == side)
                cancelled = sum(n for (_, t), n in result.cancelled.items() if t == side)
                assert sent + cancelled <= hits
            for key, at in result.aimed.items():
                assert len(at) <= result.landed(*key) <= result.sent[key]
    assert CampaignState.model_validate_json(state.model_dump_json()) == state


def random_action(rng: random.Random, state: CampaignState) -> tuple[str, dict[str, Any]]:
    """Something someone might try now: often a pending decision, else a random economy or character move."""
    pcs = [p for t in state.troupes.values() for p in t.pcs]
    pc = rng.choice(pcs).id if pcs else f"{P1}.1"
    owner = rng.choice(PLAYERS)
    if state.pools and rng.random() < 0.3:
        # Fill pools with PCs and NPCs on real sides, so that fights and schemes get rolled.
        target = state.pools[rng.choice(list(state.pools))]
        side = rng.choice([s.id for s in target.sides]) if isinstance(target, ViolencePool) else None
        if pcs and rng.random() < 0.5:
            return pc.rpartition(".")[0], {"type": "join", "pool": target.id, "pc": pc, "side": side}
        return GM, {"type": "add_npc", "pool": target.id, "side": side, "name": "N", "count": rng.randint(1, 3)}
    decisions = [d for pid in state.pools for d in pending(state, pid)] + [
        d for rid in state.rivals for d in pending(state, rid)
    ]
    if decisions and rng.random() < 0.5:
        d = rng.choice(decisions)
        extra: dict[str, Any] = {}
        if d.action == "aim":
            extra["at"] = rng.sample(list(d.options), d.pick or 1)
        elif d.action in ("assign", "cancel"):
            split = dict.fromkeys(d.options, 0)
            for _ in range(d.pick or 0):
                split[rng.choice(list(d.options))] += 1
            extra["to" if d.action == "assign" else "cancels"] = split
        elif d.action == "thwart":
            extra["picks"] = [int(i) for i in rng.sample(list(d.options), d.pick or 0)]
        elif d.action == "death_test":
            extra["care"] = rng.choice(["none", "attention", "medic"])
        elif d.action == "interfere":
            extra["foiled"] = rng.random() < 0.5
        elif d.action == "initiate":
            extra["design"] = rng.choice([*d.options, None])
        elif d.action == "confirm" and pcs:
            extra["pc"] = pc
        elif d.action == "pick":
            extra["picks"] = []
        return rng.choice([*(a for a in d.by if a != "gm"), GM]), {"type": d.action, **d.fields, **extra}
    pool = rng.choice([*state.pools, "t0p1"])
    choices: list[tuple[str, dict[str, Any]]] = [
        (GM, {"type": "invest", "rank": rng.randint(1, 4), "n": rng.randint(1, 3)}),
        (GM, {"type": "divest", "n": rng.randint(1, 3)}),
        (GM, {"type": "reward", "method": rng.choice(["work", "rare", "destroy"]), "npc_rank": rng.randint(1, 7)}),
        (GM, {"type": "set_ip", "ip": rng.randint(0, 100)}),
        (GM, {"type": "liquid", "rank": rng.randint(1, 4), "delta": rng.randint(-2, 3)}),
        (GM, {"type": "turn_start"}),
        (GM, {"type": "turn_end"}),
        (GM, {"type": "ambition_done", "next": "More"}),
        (
            GM,
            {
                "type": "buy",
                "item": "Thing",
                "rank": rng.randint(1, 5),
                "pay": [rng.choice([{"coins": "turn"}, {"coins": "liquid", "rank": rng.randint(1, 4)}])],
            },
        ),
        (
            owner,
            {
                "type": "create_troupe",
                "name": "T",
                "captain": {"name": "C", "traits": rng.sample(TRAIT_NAMES, 3)},
                "asset": rng.choice(["liquid_coin", "favor"]),
            },
        ),
        (owner, {"type": "add_pc", "owner": owner, "pc": {"name": "M", "traits": rng.sample(TRAIT_NAMES, 2)}}),
        (owner, {"type": "advance", "owner": owner, "pc": pc, "trait": rng.choice(TRAIT_NAMES)}),
        (GM, {"type": "add_trait", "pc": pc, "trait": rng.choice(TRAIT_NAMES)}),
        (owner, {"type": "contact", "pc": pc, "name": "Friend"}),
        (owner, {"type": "weak_contact", "pc": pc, "name": "Clerk"}),
        (owner, {"type": "promote", "pc": pc, "weak": 0, "drop": rng.choice([None, 0])}),
        (GM, {"type": "condition", "pc": pc, "change": rng.choice(["rattle", "calm", "wound", "heal", "kill"])}),
        (owner, {"type": "replace", "old": pc, "pc": {"name": "R", "traits": rng.sample(TRAIT_NAMES, 2)}}),
        (owner, {"type": "act", "pc": pc, "kind": rng.choice(["rest", "other"])}),
        (owner, {"type": "push", "pc": pc, "trait": rng.choice(TRAIT_NAMES)}),
        (owner, {"type": "knowledge", "pc": pc, "trait": rng.choice(TRAIT_NAMES)}),
        (GM, {"type": "open_violence", "sides": ["A", "B", "C"][: rng.randint(2, 3)]}),
        (GM, {"type": "open_knavery", "total": rng.randint(0, 4)}),
        (owner, {"type": "join", "pool": pool, "pc": pc, "side": rng.choice([None, "a", "b", "c"])}),
        (
            GM,
            {
                "type": "add_npc",
                "pool": pool,
                "side": rng.choice([None, "a", "b", "c"]),
                "name": "N",
                "count": rng.randint(1, 3),
            },
        ),
        (GM, {"type": "equip", "pool": pool, "side": "a", "n": rng.randint(0, 2)}),
        (owner, {"type": "reroll", "pool": pool, "who": pc, "free": rng.random() < 0.3}),
        (GM, {"type": "close", "pool": pool}),
        (GM, {"type": "clear_lockout"}),
        (GM, {"type": "add_rival", "name": "R", "rank": rng.randint(1, 7)}),
        (
            GM,
            {
                "type": "add_design",
                "rival": rng.choice([*state.rivals, "r1"]),
                "text": "D",
                "unsubtle": rng.random() < 0.3,
            },
        ),
        (GM, {"type": "deal", "rival": rng.choice([*state.rivals, "r1"]), "design": "d1"}),
        (GM, {"type": "foil", "rival": rng.choice([*state.rivals, "r1"]), "design": "d1"}),
    ]
    return rng.choice(choices)


def play(seed: int) -> tuple[CampaignState, list[tuple[str, dict[str, Any], list[Roll]]]]:
    """A random campaign; returns the final state and the log (actor, action, recorded dice)."""
    rng = random.Random(seed)
    options = VicOptions(
        speed_chess=rng.random() < 0.5,
        auto_cancel=rng.random() < 0.7,
        death_test_timing=rng.choice(["immediate", "deferred"]),
        wealth_track=rng.choice(["ip", "rank"]),
    )
    state = ENGINE.start(options, [], SeededDice(rng)).state
    log = []
    dice = SeededDice(rng)
    for _ in range(STEPS):
        actor, data = random_action(rng, state)
        try:
            action = ENGINE.parse_action(data)
        except ValueError:
            continue
        roles = frozenset({"gm"}) if actor == GM else frozenset()
        before = state.model_dump_json()
        recorder = RecordingDice(dice)
        try:
            ENGINE.authorize(state, actor, roles, action)
            out = ENGINE.apply(state, actor, action, recorder)
        except IllegalAction as exc:
            assert exc.reason
            assert state.model_dump_json() == before
            continue
        assert state.model_dump_json() == before
        if action.type == "turn_end":  # at most one design per rival initiated per turn
            initiated = [e["rival"] for e in out.events if e["type"] == "rival_die" and e["initiated"]]
            assert len(initiated) == len(set(initiated))
        if action.type in ("push", "reroll") and not data.get("free"):
            pc = state.find_pc(data["pc"] if action.type == "push" else data["who"])
            assert pc is not None and not pc.rattled, "a rattled PC pushed"
        state = out.state
        check(state)
        log.append((actor, data, recorder.rolls))
    return state, log


def test_random_campaigns_keep_the_invariants_and_replay() -> None:
    applied = 0
    for seed in SEEDS:
        final, log = play(seed)
        applied += len(log)
        state = ENGINE.start(final.options, [], ReplayDice([])).state
        for actor, data, rolls in log:
            replay = ReplayDice(rolls)
            state = ENGINE.apply(state, actor, ENGINE.parse_action(data), replay).state
            assert replay.exhausted
        assert state == final
    assert applied > len(SEEDS) * 20  # the driver does reach legal moves
