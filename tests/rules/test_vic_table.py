"""At the table (RULES.md P3–P6, 3.6 #1–21): multi-side violence, death test timing, knavery failure and fallout."""

from __future__ import annotations

from rules.viciousness.choices import choices_for, pending
from rules.viciousness.violence import clash
from tests.rules.vic_support import GM, KESTREL, MOTT, P1, P2, PIP, Campaign


def brawl(c: Campaign, sizes: list[int]) -> str:
    """A fight of NPC groups, one group per side (sides a, b, c…); returns the pool id."""
    pool = c.gm({"type": "open_violence", "sides": [f"Gang {i}" for i in range(len(sizes))]})[0]["pool"]
    for i, n in enumerate(sizes):
        c.gm({"type": "add_npc", "pool": pool, "side": "abcdefgh"[i], "name": f"Thug {i}", "count": n})
    return pool


def test_three_sides_assign_in_descending_order() -> None:
    c = Campaign()
    pool = brawl(c, [3, 2, 2])
    c.gm({"type": "roll", "pool": pool}, [4, 4, 4, 4, 4, 1, 1])
    need = clash(c.state.pools[pool], c.state.options).need  # type: ignore[arg-type]
    assert need is not None and (need.kind, need.side, need.amount, need.options) == (
        "assign",
        "a",
        3,
        {"b": 2, "c": 0},
    )
    c.reject(GM, {"type": "assign", "pool": pool, "side": "a", "to": {"b": 2}}, "Send exactly 3 hits.")
    c.reject(GM, {"type": "assign", "pool": pool, "side": "b", "to": {"c": 2}}, "isn't waiting for that decision")
    c.gm({"type": "assign", "pool": pool, "side": "a", "to": {"b": 2, "c": 1}})
    # B cancels A's 2 (it has 2 hits), so it has none left for C; C takes A's last hit.
    c.gm({"type": "aim", "pool": pool, "side": "a", "target": "c", "at": ["n6"]})
    hits = {(e["side"], e["target"]): (e["sent"], e["cancelled"], e["landed"]) for e in c.events if e["type"] == "hits"}
    assert hits == {("a", "b"): (2, 2, 0), ("a", "c"): (1, 0, 1)}
    assert [x.status for x in c.state.pools[pool].combatants] == ["in"] * 5 + ["wounded", "in"]


def test_equal_sides_cannot_hit_each_other() -> None:
    c = Campaign()
    pool = brawl(c, [1, 1, 1])
    c.gm({"type": "roll", "pool": pool}, [4, 4, 1])
    # a and b have 1 hit each: only c (0 hits) can be hit, so each sends its hit there.
    hits = [(e["side"], e["target"], e["landed"]) for e in c.events if e["type"] == "hits"]
    assert hits == [("a", "c", 1), ("b", "c", 1)]
    assert c.event("hits_wasted")["n"] == 1


def test_auto_cancel_off_lets_a_side_take_hits_and_strike_elsewhere() -> None:
    c = Campaign(auto_cancel=False)
    pool = brawl(c, [3, 2, 2])
    c.gm({"type": "roll", "pool": pool}, [4, 4, 4, 4, 4, 1, 1])
    c.gm({"type": "assign", "pool": pool, "side": "a", "to": {"b": 2, "c": 1}})
    need = clash(c.state.pools[pool], c.state.options).need  # type: ignore[arg-type]
    assert need is not None and (need.kind, need.side, need.amount, need.exact) == ("cancel", "b", 2, False)
    c.reject(
        GM, {"type": "cancel", "pool": pool, "side": "b", "cancels": {"a": 3}}, "cancels more hits than that side sent"
    )
    c.gm({"type": "cancel", "pool": pool, "side": "b", "cancels": {"a": 0}})
    c.gm({"type": "aim", "pool": pool, "side": "a", "target": "c", "at": ["n6"]})
    statuses = [x.status for x in c.state.pools[pool].combatants]
    assert statuses == ["in", "in", "in", "wounded", "wounded", "wounded", "wounded"]
    assert c.event("hits_wasted")["n"] == 1


def test_auto_cancel_off_changes_nothing_with_two_sides() -> None:
    c = Campaign(auto_cancel=False)
    pool = brawl(c, [2, 2])
    c.gm({"type": "roll", "pool": pool}, [4, 4, 4, 1])
    c.gm({"type": "aim", "pool": pool, "side": "a", "target": "b", "at": ["n3"]})
    assert c.event("hits")["cancelled"] == 1


def test_four_sides_and_choosing_whose_hits_to_cancel() -> None:
    c = Campaign()
    pool = brawl(c, [3, 2, 2, 2])
    c.gm({"type": "roll", "pool": pool}, [4, 4, 4, 4, 4, 4, 1, 1, 1])
    c.gm({"type": "assign", "pool": pool, "side": "a", "to": {"c": 1, "d": 2}})
    c.gm({"type": "assign", "pool": pool, "side": "b", "to": {"c": 2, "d": 0}})
    need = clash(c.state.pools[pool], c.state.options).need  # type: ignore[arg-type]
    assert need is not None and (need.kind, need.side, need.amount, need.options) == (
        "cancel",
        "c",
        1,
        {"a": 1, "b": 2},
    )
    c.reject(
        GM,
        {"type": "cancel", "pool": pool, "side": "c", "cancels": {"z": 1}},
        "only be cancelled from sides that sent them",
    )
    c.gm({"type": "cancel", "pool": pool, "side": "c", "cancels": {"b": 1}})
    c.gm({"type": "aim", "pool": pool, "side": "a", "target": "c", "at": ["n6"]})
    hits = {(e["side"], e["target"]): e["wounded"] for e in c.events if e["type"] == "hits"}
    assert hits == {("a", "c"): ["n6"], ("a", "d"): ["n8", "n9"], ("b", "c"): ["n7"]}
    assert c.state.pools[pool].stage == "wounds"


def test_players_speak_for_their_side() -> None:
    c = Campaign()
    kestrel, _mott = c.join(P1, KESTREL, [MOTT])
    pool = c.gm({"type": "open_violence", "sides": ["Crew", "Guards"]})[0]["pool"]
    c.act(P1, {"type": "join", "pool": pool, "pc": kestrel, "side": "a"})
    c.gm({"type": "add_npc", "pool": pool, "side": "b", "name": "Guard", "count": 3})
    c.gm({"type": "roll", "pool": pool}, [1, 4, 1, 1])
    c.gm({"type": "resolve", "pool": pool})  # the guards' one hit lands on Kestrel at once
    assert c.pc(kestrel).wounded
    c.reject(P1, {"type": "flee", "pool": pool, "who": kestrel}, "flee in the flight phase")
    assert [d.action for d in pending(c.state, pool)] == ["death_test"]
    c.forbid(
        P2,
        {"type": "aim", "pool": pool, "side": "a", "target": "b", "at": ["n1"]},
        "Only the players of that side's PCs",
    )
    c.forbid(P1, {"type": "flee", "pool": pool, "who": "n1"}, "NPCs are the GM's to play.")


def test_joining_rules() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    pool = c.gm({"type": "open_violence", "sides": ["A", "B"]})[0]["pool"]
    c.reject(P1, {"type": "join", "pool": pool, "pc": kestrel}, "Choose a side.")
    c.reject(P1, {"type": "join", "pool": pool, "pc": kestrel, "side": "z"}, "no such side")
    c.act(P1, {"type": "join", "pool": pool, "pc": kestrel, "side": "a"})
    c.reject(P1, {"type": "join", "pool": pool, "pc": kestrel, "side": "b"}, "Kestrel is already in this fight.")
    c.gm({"type": "condition", "pc": mott, "change": "wound"})
    c.reject(P1, {"type": "join", "pool": pool, "pc": mott, "side": "a"}, "a wounded character can't fight")
    c.reject(GM, {"type": "roll", "pool": pool}, "at least two sides")
    scheme = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.reject(P1, {"type": "join", "pool": scheme, "pc": kestrel}, "Kestrel is already in another fight")
    c.reject(P1, {"type": "join", "pool": scheme, "pc": mott, "side": "a"}, "A scheme has no sides.")
    c.reject(
        P1,
        {"type": "pick", "pool": pool, "who": kestrel, "picks": [{"trait": "Daggertwist", "clause": 1}]},
        "add die needs its gain die",
    )
    c.reject(
        P1,
        {"type": "pick", "pool": pool, "who": kestrel, "picks": [{"trait": "Medic", "clause": 0}]},
        "Kestrel doesn't have Medic",
    )
    c.reject(
        P1,
        {"type": "pick", "pool": pool, "who": kestrel, "picks": [{"trait": "Lurker", "clause": 2}]},
        "Lurker has 2 dice clauses",
    )
    c.gm({"type": "veto", "pool": pool, "who": kestrel, "trait": "Lurker"})
    c.forbid(
        P1,
        {"type": "pick", "pool": pool, "who": kestrel, "picks": [{"trait": "Lurker", "clause": 0}]},
        "The GM ruled that Lurker doesn't apply here.",
    )
    c.gm({"type": "grant", "pool": pool, "who": kestrel, "dice": [6]})
    c.act(P1, {"type": "leave", "pool": pool, "who": kestrel})
    assert c.state.pools[pool].combatants == ()


def test_medic_and_wizards_add_no_dice() -> None:
    c = Campaign()
    (pc,) = c.join(P1, ("Doc", ("Medic", "Wizard of Mind", "Lurker")))
    pool = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.act(P1, {"type": "join", "pool": pool, "pc": pc})
    c.reject(
        P1,
        {"type": "pick", "pool": pool, "who": pc, "picks": [{"trait": "Medic", "clause": 0}]},
        "Medic gives no dice.",
    )
    c.reject(
        P1,
        {"type": "pick", "pool": pool, "who": pc, "picks": [{"trait": "Wizard of Mind", "clause": 0}]},
        "gives no dice",
    )


def test_strongman_has_two_gain_clauses() -> None:
    c = Campaign()
    (pc,) = c.join(P1, ("Ox", ("Strongman", "Lurker", "Acrobat")))
    pool = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.act(P1, {"type": "join", "pool": pool, "pc": pc})
    c.act(P1, {"type": "pick", "pool": pool, "who": pc, "picks": [{"trait": "Strongman", "clause": 1}]})
    events = c.gm({"type": "roll", "pool": pool}, [4, 1])
    assert [d["sides"] for d in c.event("knavery_rolled", events)["combatants"][0]["dice"]] == [6, 4]


def test_deferred_death_test_is_due_after_three_rounds() -> None:
    c = Campaign(death_test_timing="deferred")
    pool = brawl(c, [2, 2])
    c.gm({"type": "roll", "pool": pool}, [4, 1, 1, 1])
    c.gm({"type": "aim", "pool": pool, "side": "a", "target": "b", "at": ["n3"]})
    assert c.state.pools[pool].stage == "flight"  # the test waits
    for _ in range(3):
        c.gm({"type": "next_round", "pool": pool})
        c.gm({"type": "roll", "pool": pool}, [1, 1, 1])
    c.gm({"type": "next_round", "pool": pool})
    c.reject(GM, {"type": "roll", "pool": pool}, "Thug 1 1's death test is due")
    c.gm({"type": "death_test", "pool": pool, "who": "n3", "care": "attention"}, [1])
    assert c.state.pools[pool].combatants[2].status == "dead"
    c.gm({"type": "roll", "pool": pool}, [1, 1, 1])


def test_immediate_death_tests_hold_the_flight_phase() -> None:
    c = Campaign()
    pool = brawl(c, [2, 2])
    c.gm({"type": "roll", "pool": pool}, [4, 1, 1, 1])
    c.gm({"type": "aim", "pool": pool, "side": "a", "target": "b", "at": ["n3"]})
    c.reject(GM, {"type": "next_round", "pool": pool}, "after the flight phase")
    c.reject(GM, {"type": "death_test", "pool": pool, "who": "n4"}, "has no death test waiting")
    c.reject(
        GM,
        {"type": "death_test", "pool": pool, "who": "n3", "care": "attention", "medic": "x.1"},
        "There is no such character.",
    )
    c.gm({"type": "death_test", "pool": pool, "who": "n3"}, [4])
    assert c.state.pools[pool].stage == "flight"


# -- knavery ---------------------------------------------------------------------------------------


def scheme(c: Campaign, total: int, known: list[str], pcs: list[tuple[str, str]]) -> str:
    pool = c.gm({"type": "open_knavery", "title": "The job", "total": total, "known": known})[0]["pool"]
    for owner, pc in pcs:
        c.act(owner, {"type": "join", "pool": pool, "pc": pc})
    return pool


def test_unprepared_failure_the_gm_thwarts_and_group_rolls_lock() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    (pip,) = c.join(P2, PIP)
    pool = scheme(c, 3, ["a good lock"], [(P1, kestrel), (P2, pip)])
    events = c.gm({"type": "roll", "pool": pool}, [6, 2])
    assert c.event("scheme_failing", events)["chooser"] == "gm" and c.state.pools[pool].free_pushes == 1
    c.forbid(P1, {"type": "thwart", "pool": pool, "picks": [0]}, "The group wasn't prepared")
    c.reject(GM, {"type": "thwart", "pool": pool, "picks": [0, 1]}, "1 success: pick exactly 1 thwarted challenge.")
    c.reject(GM, {"type": "thwart", "pool": pool, "picks": [5]}, "numbered 0 to 2")
    events = c.gm({"type": "thwart", "pool": pool, "picks": [0]})
    failed = c.event("scheme_failed", events)
    assert failed["thwarted"] == ["a good lock"] and failed["active"] == ["unknown challenge 2", "unknown challenge 3"]
    lockout = c.state.company.lockout
    assert lockout is not None and lockout.free_pushes == 1 and pool not in c.state.pools
    group = scheme(c, 1, [], [(P1, kestrel)])
    c.reject(P2, {"type": "join", "pool": group, "pc": pip}, "Group rolls are locked until the GM clears the fallout")
    c.reject(GM, {"type": "add_npc", "pool": group, "name": "Fence"}, "Group rolls are locked")
    c.gm({"type": "clear_lockout"})
    c.act(P2, {"type": "join", "pool": group, "pc": pip})
    c.reject(GM, {"type": "clear_lockout"}, "Group rolls aren't locked.")


def test_prepared_group_picks_thwarted_challenges() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    pool = scheme(c, 2, ["patrol", "lock"], [(P1, kestrel)])
    c.gm({"type": "roll", "pool": pool}, [5])
    assert [d.action for d in choices_for(c.state, P1)] == ["thwart", "reroll"]
    c.act(P1, {"type": "thwart", "pool": pool, "picks": [1]})
    assert c.event("scheme_failed")["active"] == ["patrol"]


def test_zero_challenges_need_no_roll() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    pool = scheme(c, 0, [], [(P1, kestrel)])
    events = c.gm({"type": "roll", "pool": pool})
    assert c.event("scheme_succeeded", events)["note"] == "no challenges: no roll needed"
    c.reject(GM, {"type": "open_knavery", "total": 1, "known": ["a", "b"]}, "2 known challenges, but only 1 in all.")


def test_pushes_right_after_the_roll_can_save_the_scheme() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    (pip,) = c.join(P2, PIP)
    c.gm({"type": "condition", "pc": kestrel, "change": "rattle"})
    pool = scheme(c, 1, ["lock"], [(P1, kestrel), (P2, pip)])
    c.gm({"type": "roll", "pool": pool}, [3, 2, 1])  # Kestrel (3, 2) -> 2, Pip 1: no success
    assert c.state.pools[pool].stage == "failed" and c.state.pools[pool].free_pushes == 0
    c.reject(P1, {"type": "reroll", "pool": pool, "who": kestrel}, "You can't push while rattled.")
    c.reject(P1, {"type": "reroll", "pool": pool, "who": kestrel, "free": True}, "There is no free push to spend.")
    events = c.act(P2, {"type": "reroll", "pool": pool, "who": pip}, [5])
    assert "scheme_succeeded" in c.kinds(events) and c.pc(pip).rattled and c.state.company.lockout is None


def test_free_push_right_after_the_roll_saves_the_scheme() -> None:
    c = Campaign()
    (pip,) = c.join(P2, PIP)
    pool = scheme(c, 2, [], [(P2, pip)])
    c.act(P2, {"type": "pick", "pool": pool, "who": pip, "picks": [{"trait": "Machinist", "clause": 0}]})
    c.gm({"type": "roll", "pool": pool}, [6, 1])
    events = c.act(P2, {"type": "reroll", "pool": pool, "who": pip, "free": True}, [4, 5])
    assert "scheme_succeeded" in c.kinds(events) and not c.pc(pip).rattled


def test_a_hopeless_failure_settles_itself() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    c.gm({"type": "condition", "pc": kestrel, "change": "rattle"})
    pool = scheme(c, 1, ["lock"], [(P1, kestrel)])
    events = c.gm({"type": "roll", "pool": pool}, [3, 2])
    assert c.event("scheme_failed", events)["thwarted"] == [] and pool not in c.state.pools


def test_free_pushes_used_during_the_fallout() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    (pip,) = c.join(P2, PIP)
    pool = scheme(c, 3, [], [(P1, kestrel), (P2, pip)])
    c.gm({"type": "roll", "pool": pool}, [6, 6])  # 2 successes, 2 free pushes
    # Right after the roll: a free push rerolls Pip's die (no rattle) — still short.
    events = c.act(P2, {"type": "reroll", "pool": pool, "who": pip, "free": True}, [1])
    assert c.event("rerolled", events)["source"] == "scheme" and not c.pc(pip).rattled
    c.gm({"type": "thwart", "pool": pool, "picks": [0]})
    lockout = c.state.company.lockout
    assert lockout is not None and lockout.free_pushes == 1
    # The fallout: Kestrel, rattled, fights alone; the free push rerolls her (still doubled) dice without rattling.
    c.gm({"type": "condition", "pc": kestrel, "change": "rattle"})
    fight = c.gm({"type": "open_violence", "sides": ["Kestrel", "Watch"]})[0]["pool"]
    c.act(P1, {"type": "join", "pool": fight, "pc": kestrel, "side": "a"})
    c.gm({"type": "add_npc", "pool": fight, "side": "b", "name": "Watchman"})
    c.gm({"type": "roll", "pool": fight}, [1, 1, 4])
    events = c.act(P1, {"type": "reroll", "pool": fight, "who": kestrel, "free": True}, [4, 4])
    assert c.event("rerolled", events)["source"] == "fallout"
    assert c.event("violence_rerolled", events)["sides"][0]["hits"] == 1
    assert c.state.company.lockout is not None and c.state.company.lockout.free_pushes == 0
    c.reject(P2, {"type": "push", "pc": pip, "trait": "Machinist", "free": True}, "There is no free push to spend.")


def test_free_push_effect_during_the_fallout_needs_no_calm() -> None:
    c = Campaign()
    (pip,) = c.join(P2, PIP)
    pool = scheme(c, 2, [], [(P2, pip)])
    c.gm({"type": "roll", "pool": pool}, [6])
    c.gm({"type": "thwart", "pool": pool, "picks": [1]})
    c.gm({"type": "condition", "pc": pip, "change": "rattle"})
    events = c.act(P2, {"type": "push", "pc": pip, "trait": "Machinist", "free": True})
    assert c.event("pushed", events)["source"] == "fallout"
    assert "pc_rattled" not in c.kinds(events)


def test_free_push_use_flags() -> None:
    immediate = Campaign(free_push_use="immediate")
    (pip,) = immediate.join(P2, PIP)
    pool = scheme(immediate, 2, [], [(P2, pip)])
    immediate.gm({"type": "roll", "pool": pool}, [6])
    immediate.gm({"type": "thwart", "pool": pool, "picks": [0]})
    assert immediate.state.company.lockout is not None and immediate.state.company.lockout.free_pushes == 0
    fallout = Campaign(free_push_use="fallout")
    (pip,) = fallout.join(P2, PIP)
    pool = scheme(fallout, 2, [], [(P2, pip)])
    fallout.gm({"type": "roll", "pool": pool}, [6])
    fallout.reject(P2, {"type": "reroll", "pool": pool, "who": pip, "free": True}, "There is no free push to spend.")


def test_free_pushes_from_rerolls_flag() -> None:
    for flag, expected in ((False, 1), (True, 2)):
        c = Campaign(free_push_from_rerolls=flag)
        (pip,) = c.join(P2, PIP)
        pool = scheme(c, 3, [], [(P2, pip)])
        c.gm({"type": "roll", "pool": pool}, [6])
        c.act(P2, {"type": "reroll", "pool": pool, "who": pip}, [6])
        assert c.state.pools[pool].free_pushes == expected


def test_reroll_subset_flag() -> None:
    c = Campaign(push_reroll_subset=True, push_reroll_rattled=True)
    (pip,) = c.join(P2, PIP)
    pool = scheme(c, 3, [], [(P2, pip)])
    c.act(P2, {"type": "pick", "pool": pool, "who": pip, "picks": [{"trait": "Machinist", "clause": 0}]})
    c.gm({"type": "roll", "pool": pool}, [1, 5])
    events = c.act(P2, {"type": "reroll", "pool": pool, "who": pip, "dice": [0]}, [6, 5])
    assert [d["value"] for d in c.event("rerolled", events)["after"]] == [5, 5]
    assert c.die_ids()[-2:] == [f"{pool}.{pip}.re1.0", f"{pool}.{pip}.re1.0.2"]
    whole = Campaign()
    (pip,) = whole.join(P2, PIP)
    pool = scheme(whole, 3, [], [(P2, pip)])
    whole.gm({"type": "roll", "pool": pool}, [1])
    whole.reject(P2, {"type": "reroll", "pool": pool, "who": pip, "dice": [0]}, "A push rerolls all of the PC's dice")


def test_pending_helpers_follow_a_fight() -> None:
    c = Campaign()
    kestrel, _ = c.join(P1, KESTREL, [MOTT])
    pool = c.gm({"type": "open_violence", "sides": ["Crew", "Guards"]})[0]["pool"]
    c.act(P1, {"type": "join", "pool": pool, "pc": kestrel, "side": "a"})
    c.gm({"type": "add_npc", "pool": pool, "side": "b", "name": "Guard", "count": 2})
    assert [d.action for d in pending(c.state, pool)] == ["pick", "roll"]
    assert [d.action for d in choices_for(c.state, P1)] == ["pick"]
    c.gm({"type": "roll", "pool": pool}, [4, 1, 1])
    assert [d.action for d in choices_for(c.state, P1)] == ["reroll"]
    c.gm({"type": "resolve", "pool": pool})
    (aim,) = choices_for(c.state, P1)
    assert (aim.action, aim.fields, aim.options, aim.pick) == (
        "aim",
        {"pool": pool, "side": "a", "target": "b"},
        ("n1", "n2"),
        1,
    )
    c.act(P1, {"type": aim.action, **aim.fields, "at": ["n2"]})
    assert [d.action for d in choices_for(c.state, GM, frozenset({"gm"}))][:1] == ["turn_start"]
    assert "death_test" in [d.action for d in pending(c.state, pool)]


# -- the GM's clicks that carry no decision (issue 28) ----------------------------------------------


def test_the_hits_are_worked_out_at_once_when_nobody_may_push() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    c.gm({"type": "turn_start"})
    c.gm({"type": "condition", "pc": mott, "change": "rattle"})
    pool = c.gm({"type": "open_violence", "sides": ["Crew", "Guards"]})[0]["pool"]
    c.act(P1, {"type": "join", "pool": pool, "pc": kestrel, "side": "a"})
    c.act(P1, {"type": "join", "pool": pool, "pc": mott, "side": "a"})
    c.gm({"type": "add_npc", "pool": pool, "side": "b", "name": "Guard", "count": 1})
    # Kestrel may still push: the roll waits for her (or the GM's "work out the hits").
    c.gm({"type": "roll", "pool": pool}, [1, 1, 1, 4])
    assert c.state.pools[pool].stage == "rolled"
    assert [d.action for d in pending(c.state, pool)] == ["reroll", "resolve"]
    # Her push is the last one anyone may make: the hits are worked out with it (the guard's lands on Kestrel).
    events = c.act(P1, {"type": "reroll", "pool": pool, "who": kestrel}, [1])
    assert "clash" in c.kinds(events) and c.state.pools[pool].stage == "clash"
    assert [d.action for d in pending(c.state, pool)] == ["aim"]


def test_every_death_test_in_one_step_each_rolled_on_its_own() -> None:
    c = Campaign()
    pool = brawl(c, [3, 2])
    events = c.gm({"type": "roll", "pool": pool}, [4, 4, 1, 1, 1])
    assert "clash" in c.kinds(events)  # nobody to push: worked out with the roll; both thugs of B are hit
    assert [d.action for d in pending(c.state, pool)] == ["death_test", "death_test"]
    c.reject(GM, {"type": "death_test", "pool": pool, "care": "attention"}, "one combatant at a time")
    c.reject(GM, {"type": "death_test", "pool": pool, "who": "n4", "end": True}, "every death test made at once")
    events = c.gm({"type": "death_test", "pool": pool}, [2, 3])
    tests = [(e["who"], e["roll"], e["died"]) for e in events if e["type"] == "death_test"]
    assert tests == [("n4", 2, True), ("n5", 3, False)]
    assert c.die_ids()[-2:] == [f"{pool}.r1.death.n4", f"{pool}.r1.death.n5"]
    assert pool not in c.state.pools and c.event("fight_ended", events)["rounds"] == 1  # side B is out
    c.reject(GM, {"type": "death_test", "pool": pool}, "That pool is closed")


def test_death_tests_that_end_the_fight_skip_its_flight() -> None:
    c = Campaign()
    pool = brawl(c, [2, 2])
    c.gm({"type": "roll", "pool": pool}, [4, 1, 1, 1])
    c.gm({"type": "aim", "pool": pool, "side": "a", "target": "b", "at": ["n3"]})
    events = c.gm({"type": "death_test", "pool": pool, "end": True}, [3])
    assert "flight" not in c.kinds(events) and "waiting" not in c.kinds(events)
    assert c.event("fight_ended", events)["rounds"] == 1 and pool not in c.state.pools


def test_a_fight_ended_during_its_round_lands_the_hits_then_ends() -> None:
    c = Campaign()
    kestrel, _ = c.join(P1, KESTREL, [MOTT])
    pool = c.gm({"type": "open_violence", "sides": ["Crew", "Guards"]})[0]["pool"]
    c.act(P1, {"type": "join", "pool": pool, "pc": kestrel, "side": "a"})
    c.gm({"type": "add_npc", "pool": pool, "side": "b", "name": "Guard", "count": 2})
    c.reject(GM, {"type": "close", "pool": pool, "after_round": True}, "once the round's dice are rolled")
    c.gm({"type": "roll", "pool": pool}, [1, 1, 1])
    events = c.gm({"type": "close", "pool": pool, "after_round": True})
    assert c.kinds(events)[:1] == ["fight_ends_after_round"] and c.state.pools[pool].ending
    c.reject(GM, {"type": "close", "pool": pool, "after_round": True}, "already ends")
    events = c.gm({"type": "resolve", "pool": pool})  # no hits: no wounds, and no flight either
    assert "flight" not in c.kinds(events) and c.event("fight_ended", events)["rounds"] == 1


def test_a_round_begun_but_never_rolled_is_not_counted() -> None:
    c = Campaign()
    pool = brawl(c, [1, 1])
    c.gm({"type": "roll", "pool": pool}, [1, 1])
    c.gm({"type": "next_round", "pool": pool})
    events = c.gm({"type": "close", "pool": pool})
    assert c.event("fight_ended", events)["rounds"] == 1
