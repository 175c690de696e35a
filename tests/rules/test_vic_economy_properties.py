"""Property tests over random sequences of economy actions only (RULES.md P10, P2): investing, divesting, rewards,
purchases, IP changes, turns and replacements, legal or not, on seeded random campaigns.

After every action: IP ≥ 0 and the rank is the one IP give; no coin count is 0 or less; a change of rank is
announced (``rank_changed``, in the right direction) exactly when the rank changed; an illegal action changes
nothing. Characters keep at most 4 traits and no more strong contacts than traits.
"""

from __future__ import annotations

import random
from typing import Any

from rules.dice import ScriptedDice
from rules.engine import IllegalAction
from rules.viciousness import ENGINE, CampaignState
from rules.viciousness.data import MAX_TRAITS, PRICES
from rules.viciousness.state import rank_for_ip
from tests.rules.vic_support import GM, P1, P2, Campaign

SEEDS = range(40)
STEPS = 300
MODS = [m.key for m in PRICES.modifiers]


def economy_action(rng: random.Random, state: CampaignState) -> dict[str, Any]:
    """One random economy action the GM might take (ranks and counts a little beyond what is held)."""
    rank = rng.randint(1, 7)
    pay: dict[str, Any] = {"coins": "turn"} if rng.random() < 0.5 else {"coins": "liquid", "rank": rank}
    pcs = [p.id for t in state.troupes.values() for p in t.pcs]
    dead = [p.id for t in state.troupes.values() for p in t.pcs if not p.active and p.role == "minion"]
    choices: list[dict[str, Any]] = [
        {"type": "invest", "rank": rank, "n": rng.randint(1, 4)},
        {"type": "divest", "n": rng.randint(1, 4)},
        {"type": "reward", "method": rng.choice(["work", "rare", "destroy"]), "npc_rank": rng.randint(1, 7)},
        {"type": "set_ip", "ip": max(0, state.company.ip + rng.randint(-20, 20))},
        {"type": "set_rank", "rank": rank},
        {"type": "liquid", "rank": rank, "delta": rng.randint(-2, 3)},
        {"type": "turn_start"},
        {"type": "turn_end"},
        {
            "type": "buy",
            "item": "thing",
            "rank": rng.randint(1, 7),
            "mods": rng.sample(MODS, rng.randint(0, 2)),
            "pay": [pay],
            **({"pc": rng.choice(pcs)} if pcs and rng.random() < 0.5 else {}),
        },
    ]
    if pcs:
        choices.append({"type": "condition", "pc": rng.choice(pcs), "change": "kill"})
    if dead:
        traits = rng.sample(["Hacker", "Driver", "Medic", "Mystic"], rng.randint(2, 4))
        choices.append({"type": "replace", "old": rng.choice(dead), "pc": {"name": "New", "traits": traits}})
    return rng.choice(choices)


def check(before: CampaignState, after: CampaignState, events: list[dict[str, Any]]) -> None:
    company = after.company
    assert company.ip >= 0 and company.rank == rank_for_ip(company.ip)
    assert all(c.count > 0 for c in company.liquid)
    assert company.turn_coins is None or company.turn_coins.count > 0
    changes = [e for e in events if e["type"] == "rank_changed"]
    if before.company.rank == company.rank:
        assert not changes
    else:
        assert changes and changes[-1]["new"] == company.rank
        assert all((e["change"] == "promoted") == (e["new"] > e["old"]) for e in changes)
    for troupe in after.troupes.values():
        for pc in troupe.pcs:
            assert len(pc.traits) <= MAX_TRAITS and len(pc.strong) <= len(pc.traits)


def test_random_economy_sequences_keep_the_invariants() -> None:
    legal = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        c = Campaign()
        for owner, name in ((P1, "Rats"), (P2, "Owls")):
            captain = {"name": f"{name} captain", "traits": ["Acrobat", "Lurker", "Machinist"]}
            c.act(owner, {"type": "create_troupe", "name": name, "captain": captain, "asset": "liquid_coin"})
            c.gm({"type": "add_pc", "owner": owner, "pc": {"name": f"{name} minion", "traits": ["Medic", "Driver"]}})
        for _ in range(STEPS):
            before = c.state
            action = ENGINE.parse_action(economy_action(rng, before))
            try:
                out = ENGINE.apply(before, GM, action, ScriptedDice([]))
            except IllegalAction as exc:
                assert exc.reason
                assert c.state == before
                continue
            check(before, out.state, out.events)
            c.state = out.state
            legal += 1
        assert CampaignState.model_validate_json(c.state.model_dump_json()) == c.state
    assert legal > len(SEEDS) * STEPS // 3  # the sequences mostly reach legal actions
