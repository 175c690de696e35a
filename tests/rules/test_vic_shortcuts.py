"""Fewer steps for the usual choices: a character joins with the trait dice they picked last time in such a pool,
and a fight opens with its NPCs already in it."""

from __future__ import annotations

from rules.viciousness import ENGINE
from rules.viciousness.state import TraitPick
from tests.rules.vic_support import GM, KESTREL, P1, P2, PIP, Campaign

LURKER_GAIN = TraitPick(trait="Lurker", clause=0)
LURKER_ADD = TraitPick(trait="Lurker", clause=1)


def test_a_character_joins_with_the_dice_picked_last_time_in_that_kind_of_pool() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    c.gm({"type": "turn_start"})
    scheme = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.act(P1, {"type": "join", "pool": scheme, "pc": kestrel})
    assert c.state.pools[scheme].combatants[0].picks == ()
    c.act(P1, {"type": "pick", "pool": scheme, "who": kestrel, "picks": [LURKER_GAIN.model_dump()]})
    assert c.pc(kestrel).usual == {"knavery": (LURKER_GAIN,)}
    c.gm({"type": "veto", "pool": scheme, "who": kestrel, "trait": "Lurker"})  # the GM's ruling is for this pool
    assert c.pc(kestrel).usual == {"knavery": (LURKER_GAIN,)}
    c.gm({"type": "close", "pool": scheme})
    c.gm({"type": "turn_end"})
    c.gm({"type": "turn_start"})
    again = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    events = c.act(P1, {"type": "join", "pool": again, "pc": kestrel})
    assert c.state.pools[again].combatants[0].picks == (LURKER_GAIN,)
    assert c.event("joined", events)["picks"] == [LURKER_GAIN.model_dump()]
    c.act(
        P1,
        {"type": "pick", "pool": again, "who": kestrel, "picks": [p.model_dump() for p in (LURKER_GAIN, LURKER_ADD)]},
    )
    c.act(P1, {"type": "leave", "pool": again, "who": kestrel})
    fight = c.gm({"type": "open_violence", "sides": ["Us", "Them"]})[0]["pool"]
    c.act(P1, {"type": "join", "pool": fight, "pc": kestrel, "side": "a"})
    assert c.state.pools[fight].combatants[0].picks == ()  # a fight's dice are remembered apart
    assert c.pc(kestrel).usual["knavery"] == (LURKER_GAIN, LURKER_ADD)


def test_a_fight_opens_with_its_npcs() -> None:
    c = Campaign()
    events = c.gm(
        {
            "type": "open_violence",
            "sides": ["Company", "Guards", "Rats"],
            "npcs": [{"side": 1, "name": "Guard", "count": 2, "dice": [6]}, {"side": 2, "name": "Rat"}],
        }
    )
    pool = c.state.pools[events[0]["pool"]]
    assert [(x.id, x.name, x.side, x.extra) for x in pool.combatants] == [
        ("n1", "Guard 1", "b", (6,)),
        ("n2", "Guard 2", "b", (6,)),
        ("n3", "Rat", "c", ()),
    ]
    c.reject(GM, {"type": "open_violence", "sides": ["A", "B"], "npcs": [{"side": 2, "name": "X"}]}, "doesn't have")


def test_a_pool_the_gm_set_rolls_by_itself_once_its_characters_have_their_dice() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    (pip,) = c.join(P2, PIP)
    c.gm({"type": "turn_start"})
    scheme = c.gm({"type": "open_knavery", "total": 1, "roll_at": 2})[0]["pool"]
    join = {"type": "join", "pool": scheme, "pc": kestrel}
    c.reject(P1, join, "rolls by itself once 2 characters are in")
    # A change that may roll is out of undo's reach (a roll is never taken back); the same change elsewhere isn't.
    assert not ENGINE.undoable(ENGINE.parse_action({**join, "may_roll": True}))
    assert ENGINE.undoable(ENGINE.parse_action(join))
    c.act(P1, {**join, "may_roll": True})
    c.act(P2, {"type": "join", "pool": scheme, "pc": pip, "may_roll": True})
    assert c.state.pools[scheme].stage == "gather"  # two are in, but neither has picked their dice yet
    c.act(P1, {"type": "pick", "pool": scheme, "who": kestrel, "picks": [LURKER_GAIN.model_dump()], "may_roll": True})
    events = c.act(P2, {"type": "pick", "pool": scheme, "who": pip, "picks": [], "may_roll": True}, dice=[5, 5, 5])
    kinds = c.kinds(events)
    assert kinds.index("rolls_by_itself") < kinds.index("knavery_rolled")
    assert c.event("rolls_by_itself", events) == {"type": "rolls_by_itself", "pool": scheme, "n": 2}
    assert scheme not in c.state.pools  # rolled and succeeded
    # Next time both bring their usual dice: the second join rolls it.
    again = c.gm({"type": "open_knavery", "total": 1, "roll_at": 2})[0]["pool"]
    c.gm({"type": "turn_end"})
    c.gm({"type": "turn_start"})
    c.act(P1, {"type": "join", "pool": again, "pc": kestrel, "may_roll": True})
    events = c.act(P2, {"type": "join", "pool": again, "pc": pip, "may_roll": True}, dice=[5, 5, 5])
    assert "rolls_by_itself" in c.kinds(events) and again not in c.state.pools
