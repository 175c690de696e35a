"""One action a turn, the same way everywhere (RULES.md P2, 3.6 #46): taking part in a scheme or a fight is the
character's action, like resting or acquiring; the GM may allow an exception, which is logged; a dissolved troupe's
characters no longer act."""

from __future__ import annotations

from tests.rules.vic_support import GM, KESTREL, MOTT, P1, P2, PIP, Campaign


def company() -> tuple[Campaign, str, str, str]:
    """Two troupes (Kestrel with her minion Mott; Pip) and turn 1 under way."""
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    (pip,) = c.join(P2, PIP)
    c.gm({"type": "turn_start"})
    return c, kestrel, mott, pip


def test_joining_a_scheme_or_a_fight_is_the_characters_action() -> None:
    c, kestrel, mott, pip = company()
    scheme = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.act(P1, {"type": "join", "pool": scheme, "pc": kestrel})
    assert (c.pc(kestrel).action_turn, c.pc(kestrel).action) == (1, "knavery")
    assert c.event("action_taken")["kind"] == "knavery"
    c.gm({"type": "roll", "pool": scheme}, [5])  # it succeeds and closes
    c.reject(P1, {"type": "act", "pc": kestrel, "kind": "rest"}, "Kestrel already took part in a scheme this turn")
    fight = c.gm({"type": "open_violence", "sides": ["Us", "Them"]})[0]["pool"]
    c.reject(P1, {"type": "join", "pool": fight, "pc": kestrel, "side": "a"}, "already took part in a scheme this turn")
    c.act(P1, {"type": "act", "pc": mott, "kind": "rest"})
    c.reject(P1, {"type": "join", "pool": fight, "pc": mott, "side": "a"}, "Mott already rested this turn")
    c.act(P2, {"type": "join", "pool": fight, "pc": pip, "side": "a"})
    assert c.pc(pip).action == "violence"


def test_leaving_before_the_roll_gives_the_action_back() -> None:
    c, kestrel, _, _ = company()
    scheme = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.act(P1, {"type": "join", "pool": scheme, "pc": kestrel})
    c.act(P1, {"type": "leave", "pool": scheme, "who": kestrel})
    assert c.pc(kestrel).action_turn is None
    c.act(P1, {"type": "act", "pc": kestrel, "kind": "rest"})


def test_the_gm_may_allow_a_second_action_and_it_is_logged() -> None:
    c, kestrel, _, _ = company()
    c.act(P1, {"type": "act", "pc": kestrel, "kind": "contact"})
    fight = c.gm({"type": "open_violence", "sides": ["Us", "Them"]})[0]["pool"]
    c.forbid(P1, {"type": "join", "pool": fight, "pc": kestrel, "side": "a", "exception": True}, "Only the GM")
    events = c.gm({"type": "join", "pool": fight, "pc": kestrel, "side": "a", "exception": True})
    allowed = c.event("action_exception", events)
    assert (allowed["pc"], allowed["kind"], allowed["before"]) == (kestrel, "violence", "contact")
    # Leaving gives back nothing: the action taken earlier in the turn stays taken, and stays what it was.
    c.gm({"type": "leave", "pool": fight, "who": kestrel})
    assert (c.pc(kestrel).action_turn, c.pc(kestrel).action) == (1, "contact")


def test_a_rest_stands_through_a_second_action_in_a_scheme_called_off() -> None:
    c, kestrel, mott, _ = company()
    c.gm({"type": "condition", "pc": kestrel, "change": "rattle"})
    c.act(P1, {"type": "act", "pc": kestrel, "kind": "rest"})
    scheme = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.gm({"type": "join", "pool": scheme, "pc": kestrel, "exception": True})
    c.act(P1, {"type": "join", "pool": scheme, "pc": mott})
    closed = c.gm({"type": "close", "pool": scheme})
    assert c.event("pool_closed", closed)["names"] == ["Kestrel", "Mott"]
    assert [e["pc"] for e in closed if e["type"] == "action_returned"] == [mott]
    assert (c.pc(kestrel).action_turn, c.pc(kestrel).action) == (1, "rest")
    ended = c.gm({"type": "turn_end"})
    assert {"type": "pc_calmed", "pc": kestrel, "name": "Kestrel", "cause": "rest"} in ended
    assert not c.pc(kestrel).rattled


def test_outside_a_turn_a_pool_costs_no_action() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    scheme = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.act(P1, {"type": "join", "pool": scheme, "pc": kestrel})
    assert c.pc(kestrel).action_turn is None and "action_taken" not in c.kinds()


def test_a_dissolved_troupes_characters_no_longer_act() -> None:
    c, kestrel, mott, _ = company()
    c.gm({"type": "condition", "pc": kestrel, "change": "kill"})
    assert c.troupe(P1).dissolved
    c.reject(P1, {"type": "act", "pc": mott, "kind": "rest"}, "troupe has dissolved")
    c.reject(P1, {"type": "push", "pc": mott, "trait": "Strongman"}, "troupe has dissolved")
    scheme = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.reject(GM, {"type": "join", "pool": scheme, "pc": mott}, "troupe has dissolved")
