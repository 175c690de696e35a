"""RULES.md 3.7 acceptance scenarios VI-1…VI-15 through the engine, with scripted dice in the listed order."""

from __future__ import annotations

import pytest

from rules.viciousness.economy import quote, reward
from rules.viciousness.violence import clash
from tests.rules.vic_support import GM, KESTREL, MOTT, P1, P2, P3, PIP, Campaign


def fight(c: Campaign, pcs: list[str], guards: int = 3, **options: object) -> str:
    """A fight: the PCs on side a, ``guards`` guards (1d4 each) on side b; returns the pool id."""
    events = c.gm({"type": "open_violence", "title": "The warehouse", "sides": ["Crew", "Guards"]})
    pool = events[0]["pool"]
    for pc in pcs:
        c.act(P1, {"type": "join", "pool": pool, "pc": pc, "side": "a"})
    c.gm({"type": "add_npc", "pool": pool, "side": "b", "name": "Guard", "count": guards})
    return pool


# -- VI-1 ----------------------------------------------------------------------------------------


def test_vi1_two_sided_round() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    pool = fight(c, [kestrel, mott])
    c.act(
        P1,
        {
            "type": "pick",
            "pool": pool,
            "who": kestrel,
            "picks": [{"trait": "Daggertwist", "clause": 0}, {"trait": "Daggertwist", "clause": 1}],
        },
    )
    c.gm({"type": "equip", "pool": pool, "side": "a", "n": 1})
    # A: Kestrel [4, 2, 4], Mott [3], GM [4]; B: [4, 1, 2].
    events = c.gm({"type": "roll", "pool": pool}, [4, 2, 4, 3, 4, 4, 1, 2])
    rolled = c.event("violence_rolled", events)
    assert [(s["side"], s["hits"]) for s in rolled["sides"]] == [("a", 3), ("b", 1)]
    assert rolled["rule"] == "A hit is a die showing exactly 4, on any die."
    assert c.die_ids()[:5] == [
        f"{pool}.r1.{kestrel}.0",
        f"{pool}.r1.{kestrel}.1",
        f"{pool}.r1.{kestrel}.2",
        f"{pool}.r1.{mott}.0",
        f"{pool}.r1.eq-a.0",
    ]
    c.gm({"type": "resolve", "pool": pool})
    need = clash(c.state.pools[pool], c.state.options).need  # type: ignore[arg-type]
    assert need is not None and (need.kind, need.side, need.target, need.amount) == ("aim", "a", "b", 2)
    assert need.choices == ("n1", "n2", "n3")
    # A picks guard1 and guard2.
    c.act(P1, {"type": "aim", "pool": pool, "side": "a", "target": "b", "at": ["n1", "n2"]})
    hits = c.event("hits")
    assert (hits["side"], hits["target"], hits["sent"], hits["cancelled"], hits["landed"]) == ("a", "b", 3, 1, 2)
    assert hits["wounded"] == ["n1", "n2"]
    assert c.state.pools[pool].stage == "wounds"
    events = c.gm({"type": "death_test", "pool": pool, "who": "n1"}, [2])
    assert c.event("death_test", events)["died"] is True
    events = c.gm({"type": "death_test", "pool": pool, "who": "n2"}, [3])
    assert c.event("death_test", events)["died"] is False
    p = c.state.pools[pool]
    assert [x.status for x in p.combatants] == ["in", "in", "dead", "wounded", "in"]
    assert p.stage == "flight"
    c.gm({"type": "flee", "pool": pool, "who": "n3"})
    c.gm({"type": "next_round", "pool": pool})
    assert pool not in c.state.pools
    assert c.kinds()[-1] == "fight_ended"


def test_vi1_variant_marksman_six_is_no_hit_but_four_is() -> None:
    c = Campaign()
    (shooter,) = c.join(P1, ("Vane", ("Marksman", "Lurker", "Acrobat")))
    pool = fight(c, [shooter], guards=1)
    c.act(
        P1,
        {
            "type": "pick",
            "pool": pool,
            "who": shooter,
            "picks": [{"trait": "Marksman", "clause": 0}, {"trait": "Marksman", "clause": 1}],
        },
    )
    events = c.gm({"type": "roll", "pool": pool}, [1, 1, 6, 1])
    dice = c.event("violence_rolled", events)["sides"][0]["combatants"][0]["dice"]
    assert [(d["sides"], d["value"], d["counts"]) for d in dice] == [(4, 1, False), (4, 1, False), (6, 6, False)]
    c.gm({"type": "close", "pool": pool})
    pool = fight(c, [shooter], guards=1)
    c.act(
        P1,
        {
            "type": "pick",
            "pool": pool,
            "who": shooter,
            "picks": [{"trait": "Marksman", "clause": 0}, {"trait": "Marksman", "clause": 1}],
        },
    )
    events = c.gm({"type": "roll", "pool": pool}, [1, 1, 4, 1])
    assert c.event("violence_rolled", events)["sides"][0]["hits"] == 1


# -- VI-2 ----------------------------------------------------------------------------------------


def test_vi2_equal_hits_land_nothing() -> None:
    c = Campaign()
    pcs = c.join(P1, KESTREL, [MOTT])
    c.gm({"type": "minion_places", "owner": P1, "n": 2})
    c.act(P1, {"type": "add_pc", "owner": P1, "pc": {"name": "Nell", "traits": ["Driver", "Hacker"]}})
    pool = fight(c, [*pcs, f"{P1}.3"])
    c.gm({"type": "roll", "pool": pool}, [4, 4, 1, 4, 2, 4])
    events = c.gm({"type": "resolve", "pool": pool})
    assert c.event("clash", events)["hits"] == {"a": 2, "b": 2}
    assert "hits" not in c.kinds(events)
    assert all(x.status == "in" for x in c.state.pools[pool].combatants)
    assert c.state.pools[pool].stage == "flight"


# -- VI-4 ----------------------------------------------------------------------------------------


def test_vi4_rattled_dice_and_pushing() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    c.gm({"type": "turn_start"})
    c.gm({"type": "condition", "pc": mott, "change": "rattle"})
    pool = fight(c, [kestrel, mott])
    c.act(
        P1,
        {
            "type": "pick",
            "pool": pool,
            "who": kestrel,
            "picks": [{"trait": "Daggertwist", "clause": 0}, {"trait": "Daggertwist", "clause": 1}],
        },
    )
    # Kestrel [1, 2, 3]; Mott rattled (4, 1) -> 1; guards [1, 1, 1].
    events = c.gm({"type": "roll", "pool": pool}, [1, 2, 3, 4, 1, 1, 1, 1])
    mott_dice = c.event("violence_rolled", events)["sides"][0]["combatants"][1]
    assert mott_dice["rattled"] is True
    assert mott_dice["dice"][0]["rolls"] == [4, 1] and mott_dice["dice"][0]["value"] == 1
    assert c.die_ids()[3:5] == [f"{pool}.r1.{mott}.0", f"{pool}.r1.{mott}.0.2"]
    c.reject(P1, {"type": "reroll", "pool": pool, "who": mott}, "You can't push while rattled.")
    c.reject(P1, {"type": "push", "pc": mott, "trait": "Strongman"}, "You can't push while rattled.")
    events = c.act(P1, {"type": "reroll", "pool": pool, "who": kestrel}, [4, 4, 1])
    assert [d["value"] for d in c.event("rerolled", events)["after"]] == [4, 4, 1]
    assert c.event("violence_rerolled", events)["sides"][0]["hits"] == 2
    assert c.die_ids()[-3:] == [
        f"{pool}.r1.{kestrel}.re1.0",
        f"{pool}.r1.{kestrel}.re1.1",
        f"{pool}.r1.{kestrel}.re1.2",
    ]
    assert c.pc(kestrel).rattled
    # Nobody may push any more (both are rattled): the hits are worked out at once.
    assert c.event("clash", events)["hits"] == {"a": 2, "b": 0}
    c.reject(P1, {"type": "reroll", "pool": pool, "who": kestrel}, "Dice are rerolled right after the roll")
    c.act(P1, {"type": "aim", "pool": pool, "side": "a", "target": "b", "at": ["n1", "n2"]})
    c.gm({"type": "death_test", "pool": pool, "who": "n1"}, [3])
    c.gm({"type": "death_test", "pool": pool, "who": "n2"}, [3])
    c.gm({"type": "next_round", "pool": pool})
    # Round 2: Kestrel's dice come in pairs (4, 3), (2, 4), (4, 4); Mott (1, 1); guard 3 [1].
    events = c.gm({"type": "roll", "pool": pool}, [4, 3, 2, 4, 4, 4, 1, 1, 1])
    side_a = c.event("violence_rolled", events)["sides"][0]
    assert [d["value"] for d in side_a["combatants"][0]["dice"]] == [3, 2, 4]
    assert side_a["hits"] == 1
    # Both rattled, nobody pushes: the hit lands on guard 3 at once; his death test ends the fight (no side left).
    assert c.event("hits", events)["wounded"] == ["n3"]
    events = c.gm({"type": "death_test", "pool": pool}, [3])
    assert c.event("fight_ended", events)["rounds"] == 2 and pool not in c.state.pools
    c.gm({"type": "turn_end"})
    c.gm({"type": "turn_start"})
    c.act(P1, {"type": "act", "pc": kestrel, "kind": "rest"})
    events = c.gm({"type": "turn_end"})
    assert {"type": "pc_calmed", "pc": kestrel, "name": "Kestrel", "cause": "rest"} in events
    assert not c.pc(kestrel).rattled and c.pc(mott).rattled


# -- VI-5 ----------------------------------------------------------------------------------------


def test_vi5_knavery_success() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    (pip,) = c.join(P2, PIP)
    events = c.gm(
        {
            "type": "open_knavery",
            "title": "The vault",
            "total": 3,
            "known": ["a small patrol", "a good lock", "a hidden trap"],
        }
    )
    pool = events[0]["pool"]
    assert events[0]["prepared"] is True
    c.act(P1, {"type": "join", "pool": pool, "pc": kestrel})
    c.act(P2, {"type": "join", "pool": pool, "pc": pip})
    c.act(P1, {"type": "pick", "pool": pool, "who": kestrel, "picks": [{"trait": "Lurker", "clause": 0}]})
    c.act(
        P2,
        {
            "type": "pick",
            "pool": pool,
            "who": pip,
            "picks": [{"trait": "Machinist", "clause": 0}, {"trait": "Machinist", "clause": 1}],
        },
    )
    events = c.gm({"type": "roll", "pool": pool}, [6, 3, 4, 2, 5])
    rolled = c.event("knavery_rolled", events)
    assert (rolled["successes"], rolled["free_pushes"]) == (3, 1)
    assert c.event("scheme_succeeded", events)["successes"] == 3
    assert pool not in c.state.pools and c.state.company.lockout is None
    assert c.die_ids() == [
        f"{pool}.{kestrel}.0",
        f"{pool}.{kestrel}.1",
        f"{pool}.{pip}.0",
        f"{pool}.{pip}.1",
        f"{pool}.{pip}.2",
    ]


# -- VI-7 ----------------------------------------------------------------------------------------


def test_vi7_knowledge() -> None:
    c = Campaign()
    (pip,) = c.join(P2, PIP)
    (kestrel,) = c.join(P1, KESTREL)
    results = []
    for value in (6, 4, 3):
        c.gm({"type": "turn_start"})
        events = c.act(
            P2, {"type": "knowledge", "pc": pip, "trait": "Alchemist", "question": "What poison is this?"}, [value]
        )
        results.append(c.event("knowledge", events)["result"])
        if value == 6:
            c.reject(
                P2, {"type": "knowledge", "pc": pip, "trait": "Alchemist"}, "already rolled a knowledge d6 this turn"
            )
            c.reject(
                P2, {"type": "knowledge", "pc": pip, "trait": "Streetsmart"}, "already rolled a knowledge d6 this turn"
            )
        c.gm({"type": "turn_end"})
    assert results == ["answer", "where", "nothing"]
    assert c.pc(pip).action_turn is None and not c.pc(pip).rattled
    c.reject(P1, {"type": "knowledge", "pc": kestrel, "trait": "Lurker"}, "isn't a 💡 knowledge trait")
    c.reject(P1, {"type": "knowledge", "pc": kestrel, "trait": "Alchemist"}, "Kestrel doesn't have Alchemist")
    c.reject(
        P2, {"type": "push", "pc": pip, "trait": "Alchemist"}, "Alchemist is a 💡 knowledge trait: it can't be pushed"
    )


def test_knowledge_per_company_and_rattled_flag() -> None:
    c = Campaign(knowledge_limit="per_company", rattled_affects_knowledge=True)
    (pip,) = c.join(P2, PIP)
    (hist,) = c.join(P1, ("Quill", ("Historian", "Lurker", "Acrobat")))
    c.gm({"type": "condition", "pc": pip, "change": "rattle"})
    events = c.act(P2, {"type": "knowledge", "pc": pip, "trait": "Alchemist"}, [6, 4])
    assert c.event("knowledge", events)["result"] == "where"
    c.reject(P1, {"type": "knowledge", "pc": hist, "trait": "Historian"}, "The company has already rolled")


# -- VI-8 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("traits", "conditions", "dice", "found"),
    [(2, ["place"], [3], True), (2, ["place"], [4], False), (0, [], [], False), (4, ["place", "questions"], [], True)],
)
def test_vi8_discovery(traits: int, conditions: list[str], dice: list[int], found: bool) -> None:
    c = Campaign()
    events = c.gm({"type": "discovery", "traits": traits, "conditions": conditions}, dice)
    assert c.event("discovery", events)["found"] is found
    assert c.event("discovery", events)["automatic"] is (not dice)


# -- VI-9 / VI-10 ----------------------------------------------------------------------------------


def vey(c: Campaign, **design: object) -> str:
    """Countess Vey (rank 3) with D1 (helped by an asset) and D2; returns the rival id."""
    events = c.gm(
        {
            "type": "add_rival",
            "name": "Countess Vey",
            "rank": 3,
            "assets": ["The harbour watch", "A fleet", "Spies", "Gold"],
        }
    )
    rival = events[0]["rival"]
    c.gm({"type": "add_design", "rival": rival, "text": "Seize the docks", "asset": "The harbour watch", **design})
    c.gm({"type": "add_design", "rival": rival, "text": "Ruin the company's name"})
    c.gm({"type": "split", "rival": rival, "points": {"d1": 2, "d2": 1}})
    return rival


def points(c: Campaign, rival: str) -> dict[str, int]:
    return {d.id: d.points for d in c.state.rivals[rival].designs}


def test_vi9_rival_die_initiates_and_moves() -> None:
    c = Campaign()
    rival = vey(c)
    assert c.state.rivals[rival].minions == 1
    c.gm({"type": "turn_start"})
    events = c.gm({"type": "turn_end"}, [3])
    assert points(c, rival) == {"d1": 3, "d2": 1}
    die = c.event("rival_die", events)
    assert (die["roll"], die["eligible"], die["initiated"]) == (3, ["d1"], "d1")
    assert die["only"] == ["gm"] and c.die_ids() == [f"rival.{rival}.t1.d20"]
    events = c.gm({"type": "turn_start"}, [3])
    assert c.event("rival_roll", events)["success"] is True
    assert c.state.rivals[rival].move is not None and c.state.rivals[rival].move.stage == "consequence"
    # A row the GM picks (an asset lost: nothing for the bot to apply) finishes the move with the pick.
    events = c.gm({"type": "consequence", "rival": rival, "row": 4})
    assert c.event("design_done", events)["applied"] is True
    c.reject(GM, {"type": "confirm", "rival": rival}, "has no move waiting for that")
    d1 = c.state.rivals[rival].designs[0]
    assert (d1.status, d1.points) == ("done", 0)
    assert c.state.rivals[rival].move is None


@pytest.mark.parametrize(
    ("temperament", "d4", "success"),
    [("default", 4, False), ("rash", 3, False), ("rash", 2, True), ("shrewd", 4, True)],
)
def test_vi9_success_by_temperament(temperament: str, d4: int, success: bool) -> None:
    c = Campaign()
    rival = vey(c, temperament=temperament)
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [3])
    events = c.gm({"type": "turn_start"}, [d4])
    assert c.event("rival_roll", events)["success"] is success
    if not success:
        assert "rival_fallout" in c.kinds(events)
        assert points(c, rival)["d1"] == 0 and c.state.rivals[rival].designs[0].status == "building"
        assert c.state.rivals[rival].move is None


def test_vi9_high_roll_initiates_nothing_and_points_carry_over() -> None:
    c = Campaign()
    rival = vey(c)
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [14])
    assert c.state.rivals[rival].move is None
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [1])
    assert points(c, rival) == {"d1": 6, "d2": 2}
    die = c.event("rival_die")
    assert die["eligible"] == ["d1", "d2"] and die["initiated"] == "d1"
    c.gm({"type": "initiate", "rival": rival, "design": "d2"})
    assert c.state.rivals[rival].move is not None and c.state.rivals[rival].move.design == "d2"


def test_vi10_speed_chess_deal_and_escalation() -> None:
    c = Campaign(speed_chess=True)
    rival = vey(c)
    c.gm({"type": "edit_design", "rival": rival, "design": "d2", "points": 9})
    events = c.gm({"type": "foil", "rival": rival, "design": "d2"})
    assert c.event("speed_chess", events)["refund"] == 4
    assert points(c, rival) == {"d1": 4, "d2": 0}
    assert c.state.rivals[rival].designs[1].status == "foiled"
    c.gm({"type": "edit_design", "rival": rival, "design": "d1", "points": 0})
    c.gm({"type": "deal", "rival": rival, "design": "d1"})
    assert points(c, rival)["d1"] == 2  # a rank-2 company
    # A light design succeeds and rolls a 6: a medium design begins at 0.
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [1])  # D1 = 2 + 3 + 1
    c.gm({"type": "turn_start"}, [1])
    c.gm({"type": "consequence", "rival": rival}, [6])
    c.gm({"type": "confirm", "rival": rival})
    new = c.state.rivals[rival].designs[-1]
    assert (new.severity, new.points, new.status) == ("medium", 0, "building")
    assert new.text == "A medium-consequence design begins"


@pytest.mark.parametrize(("severity", "ip_after"), [("medium", 13), ("heavy", 12)])
def test_vi10_wealth_track_lowers(severity: str, ip_after: int) -> None:
    c = Campaign()
    rival = vey(c, severity=severity)
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [1])
    c.gm({"type": "turn_start"}, [1])
    events = c.gm({"type": "consequence", "rival": rival}, [1])
    assert c.event("consequence", events)["effect"] == {
        "kind": "wealth",
        "amount": 2 if severity == "medium" else 3,
        "severity": None,
    }
    events = c.gm({"type": "confirm", "rival": rival})
    assert c.state.company.ip == ip_after
    assert c.event("rank_changed", events) == {
        "type": "rank_changed",
        "old": 2,
        "new": 1,
        "ip": ip_after,
        "change": "demoted",
        "min_ip": 0,
    }
    assert "only" not in c.event("ip_changed", events)


# -- VI-11 / VI-12 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item_rank", "coin_rank", "mods", "total", "verdict"),
    [
        (2, 3, [], -1, "free"),
        (3, 3, [], 1, "coins"),
        (4, 3, ["custom_built"], 4, "coins"),
        (4, 3, ["custom_built", "trained_expert"], 5, "unobtainable"),
        (3, 3, ["very_illegal", "trained_expert"], 4, "coins"),
        (6, 3, [], 7, "unobtainable"),
        (1, 3, ["low_quality"], -4, "free"),
        (5, 3, ["very_illegal"], 7, "unobtainable"),
        (2, 2, ["low_quality"], 0, "free"),
        (3, 3, [], 1, "coins"),
        (3, 2, [], 3, "coins"),
    ],
    ids="abcdefghijk",
)
def test_vi11_prices(item_rank: int, coin_rank: int, mods: list[str], total: int, verdict: str) -> None:
    q = quote(item_rank, coin_rank, mods)
    assert (q.total, q.verdict) == (total, verdict)


def test_vi11_buying_through_the_engine() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    c.gm({"type": "set_rank", "rank": 3})
    c.gm({"type": "liquid", "rank": 3, "delta": 1})
    c.gm({"type": "set_rank", "rank": 2})
    c.gm({"type": "turn_start"})
    # j: a rank-3 liquid coin buys the sword (priced at rank 3: 1 coin).
    events = c.act(
        P1, {"type": "buy", "pc": kestrel, "item": "A sword", "rank": 3, "pay": [{"coins": "liquid", "rank": 3}]}
    )
    assert c.event("bought", events)["spent"] == [{"coins": "liquid", "rank": 3, "n": 1, "arithmetic": "1 = 1"}]
    assert c.state.company.liquid_at(3) == 0 and "A sword" in c.troupe(P1).assets
    assert c.pc(kestrel).action == "acquire"
    # k: with a rank-2 turn coin it costs 3, and the company has 1.
    c.reject(
        GM,
        {"type": "buy", "item": "A sword", "rank": 3, "pay": [{"coins": "turn"}]},
        "That costs 3 turn coins (1 + 2 = 3) and the company has 1.",
    )
    # d: not obtainable.
    c.reject(
        GM,
        {
            "type": "buy",
            "item": "Armour",
            "rank": 4,
            "mods": ["custom_built", "trained_expert"],
            "pay": [{"coins": "turn"}],
        },
        "it can't be bought with money",
    )
    c.reject(
        GM,
        {"type": "buy", "item": "Bribe", "rank": 2, "mods": ["illegal", "very_illegal"], "pay": [{"coins": "turn"}]},
        "don't add up",
    )
    # i: rank-2 furniture, low quality: free, no coin spent.
    events = c.gm({"type": "buy", "item": "A stool", "rank": 2, "mods": ["low_quality"], "pay": [{"coins": "turn"}]})
    assert c.event("bought", events)["free"] is True and c.state.company.turn_coins is not None


def test_vi11_unobtainable_reason_reads_well() -> None:
    c = Campaign()
    c.join(P1, KESTREL)
    c.gm({"type": "turn_start"})
    reason = c.reject(
        GM,
        {
            "type": "buy",
            "item": "A statue",
            "rank": 3,
            "mods": ["custom_built", "trained_expert", "supernatural"],
            "pay": [{"coins": "turn"}],
        },
        "That costs 7 coins",
    )
    assert reason == "That costs 7 coins (1 + 2 + 1 + 1 + 2 = 7): it can't be bought with money."


@pytest.mark.parametrize(
    ("company", "method", "npc", "coins"),
    [(4, "rare", 3, 1), (2, "destroy", 5, 6), (2, "work", 3, 2), (6, "destroy", 2, 0), (3, "rare", 1, 0)],
)
def test_vi12_rewards(company: int, method: str, npc: int, coins: int) -> None:
    assert reward(method, npc, company) == coins
    c = Campaign()
    c.gm({"type": "set_rank", "rank": company})
    events = c.gm({"type": "reward", "method": method, "npc_rank": npc})
    assert c.event("reward", events)["coins"] == coins
    assert c.state.company.liquid_at(company) == coins


def test_vi12_work_refused_from_rank_4() -> None:
    c = Campaign()
    c.gm({"type": "set_rank", "rank": 4})
    c.reject(
        GM, {"type": "reward", "method": "work", "npc_rank": 7}, "Work for someone isn't available from wealth rank 4."
    )


# -- VI-14 ---------------------------------------------------------------------------------------


def test_vi14_turn_coins() -> None:
    c = Campaign()
    c.join(P1, KESTREL)
    c.join(P2, PIP)
    (vane,) = c.join(P3, ("Vane", ("Marksman", "Medic", "Duelist")))
    c.gm({"type": "set_rank", "rank": 4})
    c.gm({"type": "liquid", "rank": 4, "delta": 2})
    events = c.gm({"type": "turn_start"})
    assert c.event("turn_started", events)["coins"] == 3
    assert c.state.company.turn_coins is not None and (
        c.state.company.turn_coins.rank,
        c.state.company.turn_coins.count,
    ) == (4, 3)
    c.gm({"type": "buy", "item": "Two horses", "rank": 5, "mods": ["low_quality"], "pay": [{"coins": "turn"}]})
    assert c.state.company.turn_coins is not None and c.state.company.turn_coins.count == 1
    events = c.gm({"type": "turn_end"})
    assert c.event("coins_discarded", events) == {"type": "coins_discarded", "rank": 4, "count": 1}
    assert c.state.company.turn_coins is None and c.state.company.liquid_at(4) == 2
    c.gm({"type": "condition", "pc": vane, "change": "kill"})
    assert c.troupe(P3).dissolved
    assert c.event("turn_started", c.gm({"type": "turn_start"}))["coins"] == 2
    c.gm({"type": "turn_end"})
    c.join(P3, ("Wren", ("Driver", "Hacker", "Defender")))
    assert c.event("turn_started", c.gm({"type": "turn_start"}))["coins"] == 3
    assert c.troupe(P3).captain.id == f"{P3}.2"


# -- VI-15 ---------------------------------------------------------------------------------------


def wounded_kestrel(c: Campaign) -> tuple[str, str, str]:
    """Kestrel alone against 1 guard; the guard's 4 wounds her. Returns (kestrel, mott, pool)."""
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    pool = fight(c, [kestrel], guards=1)
    c.gm({"type": "roll", "pool": pool}, [1, 4])
    c.gm({"type": "resolve", "pool": pool})
    assert c.pc(kestrel).wounded and c.pc(kestrel).recovery == 3
    return kestrel, mott, pool


@pytest.mark.parametrize(
    ("care", "dice", "dies"), [("none", [2], True), ("attention", [2], False), ("medic", [], False)]
)
def test_vi15_death_tests(care: str, dice: list[int], dies: bool) -> None:
    c = Campaign()
    kestrel, mott, pool = wounded_kestrel(c)
    action = {"type": "death_test", "pool": pool, "who": kestrel, "care": care}
    if care == "medic":
        action["medic"] = mott
    events = c.gm(action, dice)
    test = c.event("death_test", events)
    assert (test["died"], test["roll"]) == (dies, dice[0] if dice else None)
    assert c.pc(kestrel).fate == ("dead" if dies else "active")
    if dies:
        assert c.troupe(P1).dissolved and c.kinds(events)[-1] == "fight_ended"
    else:
        assert c.die_ids()[-1:] == ([f"{pool}.r1.death.{kestrel}"] if dice else [f"{pool}.r1.n1.0"])


def test_vi15_recovery_with_a_medic_push_and_bed_rest() -> None:
    c = Campaign()
    kestrel, mott, pool = wounded_kestrel(c)
    c.gm({"type": "death_test", "pool": pool, "who": kestrel}, [3])
    assert pool not in c.state.pools  # Kestrel was the crew's only fighter
    c.act(P1, {"type": "push", "pc": mott, "trait": "Medic", "target": kestrel})
    assert c.pc(kestrel).recovery == 2 and c.pc(mott).rattled
    for _ in range(2):
        c.gm({"type": "turn_start"})
        c.act(P1, {"type": "act", "pc": kestrel, "kind": "rest"})
        c.gm({"type": "turn_end"})
    assert not c.pc(kestrel).wounded and c.pc(kestrel).recovery == 0
    assert c.event("recovery")["healed"] is True


def test_vi15_berzerker_push_and_end_of_crisis_death_test() -> None:
    c = Campaign()
    (brute,) = c.join(P1, ("Brute", ("Berzerker", "Strongman", "Defender")))
    pool = fight(c, [brute], guards=1)
    c.reject(P1, {"type": "push", "pc": brute, "trait": "Berzerker"}, "is in none")
    c.act(P1, {"type": "push", "pc": brute, "trait": "Berzerker", "pool": pool})
    assert c.pc(brute).rattled
    # The push rattled Brute, so his dice come in pairs: base (1, 2), push die (4, 4); the guard [1].
    events = c.gm({"type": "roll", "pool": pool}, [1, 2, 4, 4, 1])
    dice = c.event("violence_rolled", events)["sides"][0]["combatants"][0]["dice"]
    assert [(d["source"], d["value"]) for d in dice] == [("base", 1), ("push", 4)]
    c.gm({"type": "death_test", "pool": pool, "who": "n1"}, [3])
    assert c.state.pools[pool].stage == "ended"
    events = c.gm({"type": "death_test", "pool": pool, "who": brute}, [1])
    assert c.event("death_test", events)["reason"] == "berserk" and c.event("death_test", events)["died"]
    assert c.die_ids()[-1] == f"{pool}.end.death.{brute}"
    assert c.pc(brute).fate == "dead" and pool not in c.state.pools
