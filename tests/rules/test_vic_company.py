"""Company, wealth and troupes (RULES.md P1, P10, P11; 3.6 #29–42): the rules and every rejection they name."""

from __future__ import annotations

import pytest

from rules.text import echo
from rules.viciousness.economy import covers, lower_ranks, quote
from tests.rules.vic_support import GM, KESTREL, MOTT, P1, P2, PIP, Campaign


def test_new_campaign_is_rank_2_at_its_minimum() -> None:
    c = Campaign()
    assert (c.state.company.rank, c.state.company.ip) == (2, 15)
    c.gm({"type": "company", "name": "The Gilded Knives", "ambition": "Own the docks", "turn_length": "1 week"})
    assert c.state.company.name == "The Gilded Knives" and c.state.turn.length == "1 week"
    c.reject(GM, {"type": "company"}, "Nothing to change")


def test_rank_follows_ip_both_ways_and_is_announced() -> None:
    c = Campaign()
    c.gm({"type": "liquid", "rank": 2, "delta": 20})
    events = c.gm({"type": "invest", "rank": 2, "n": 15})
    assert c.state.company.ip == 30 and c.state.company.rank == 3
    assert c.event("rank_changed", events) == {
        "type": "rank_changed",
        "old": 2,
        "new": 3,
        "ip": 30,
        "change": "promoted",
        "min_ip": 30,
    }
    events = c.gm({"type": "divest", "n": 1})
    assert c.state.company.ip == 28 and c.state.company.rank == 2
    assert c.event("rank_changed", events)["change"] == "demoted"
    # The divested coin has the rank the company had before the demotion (3.6 #36).
    assert c.state.company.liquid_at(3) == 1
    c.gm({"type": "set_ip", "ip": 200})
    assert c.state.company.rank == 7 and c.state.company.ip == 200
    c.gm({"type": "set_rank", "rank": 1})
    assert c.state.company.ip == 0


def test_divest_limits_and_ip_never_below_zero() -> None:
    c = Campaign()
    c.gm({"type": "set_ip", "ip": 3})
    c.reject(GM, {"type": "divest", "n": 2}, "Divesting 2 coins takes 4 IP; the company has 3.")
    c.gm({"type": "divest", "n": 1})
    c.reject(GM, {"type": "divest"}, "takes 2 IP; the company has 1")
    assert c.state.company.ip == 1


def test_invest_rules() -> None:
    c = Campaign()
    c.reject(GM, {"type": "invest", "rank": 2}, "The company has 0 liquid coins of rank 2, not 1.")
    c.gm({"type": "liquid", "rank": 5, "delta": 1})
    c.gm({"type": "invest", "rank": 5})  # any rank buys 1 IP (3.6 #35)
    assert c.state.company.ip == 16 and c.state.company.liquid == ()
    strict = Campaign(invest_rank_rule="current_rank_only")
    strict.gm({"type": "liquid", "rank": 5, "delta": 1})
    strict.reject(GM, {"type": "invest", "rank": 5}, "Only liquid coins of the company's rank (2) can be invested.")
    c.reject(GM, {"type": "liquid", "rank": 2, "delta": -1}, "only 0 liquid coins of rank 2")


def test_mixed_rank_payment() -> None:
    assert covers([(1, quote(3, 3)), (0, quote(3, 2))])
    assert not covers([(1, quote(3, 2)), (1, quote(3, 2))])  # 2/3 of the price
    assert not covers([(1, quote(3, 3)), (1, quote(3, 2))])  # the rank-2 coin is superfluous
    c = Campaign(mixed_rank_payment=True)
    c.join(P1, KESTREL)
    c.gm({"type": "liquid", "rank": 1, "delta": 3})
    c.gm({"type": "turn_start"})
    # A rank-2 knife: 1 rank-2 coin, or 3 rank-1 coins (price 3 at rank 1).
    c.reject(
        GM,
        {
            "type": "buy",
            "item": "Knife",
            "rank": 2,
            "pay": [{"coins": "liquid", "rank": 1, "n": 2}, {"coins": "turn", "n": 1}],
        },
        "don't pay for it exactly",
    )
    c.reject(
        GM,
        {"type": "buy", "item": "Knife", "rank": 2, "pay": [{"coins": "liquid", "rank": 1}, {"coins": "turn"}]},
        "say how many of each",
    )
    events = c.gm({"type": "buy", "item": "Knife", "rank": 2, "pay": [{"coins": "liquid", "rank": 1, "n": 3}]})
    assert c.event("bought", events)["spent"][0]["n"] == 3 and c.state.company.liquid == ()
    single = Campaign()
    single.gm({"type": "liquid", "rank": 1, "delta": 1})
    single.reject(
        GM,
        {
            "type": "buy",
            "item": "Knife",
            "rank": 2,
            "pay": [{"coins": "liquid", "rank": 1}, {"coins": "liquid", "rank": 2}],
        },
        "single rank",
    )


def test_buying_needs_coins_and_a_turn() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    c.reject(
        GM,
        {"type": "buy", "item": "Ale", "rank": 2, "pay": [{"coins": "turn"}]},
        "There are no turn coins left this turn.",
    )
    c.gm({"type": "liquid", "rank": 2, "delta": 1})
    c.reject(
        P1,
        {"type": "buy", "pc": kestrel, "item": "Ale", "rank": 2, "pay": [{"coins": "liquid", "rank": 2}]},
        "No turn is under way",
    )
    c.gm({"type": "turn_start"})
    c.act(P1, {"type": "buy", "pc": kestrel, "item": "Ale", "rank": 2, "pay": [{"coins": "turn"}]})
    assert c.state.company.turn_coins is None
    c.reject(
        P1,
        {"type": "buy", "pc": kestrel, "item": "Ale", "rank": 2, "pay": [{"coins": "liquid", "rank": 2}]},
        "Kestrel already acquired something this turn",
    )
    c.reject(
        GM,
        {"type": "buy", "item": "Ale", "rank": 2, "pay": [{"coins": "liquid", "rank": 2, "n": 2}]},
        "That costs 1 coins (1 = 1), not 2.",
    )


def test_lower_ranks_keeps_progress() -> None:
    assert (
        lower_ranks(40, 1) == 25 and lower_ranks(200, 1) == 89 and lower_ranks(20, 2) == 0 and lower_ranks(14, 1) == 0
    )


def test_consequence_in_rank_mode_demotes_by_ranks() -> None:
    from tests.rules.test_vic_scenarios import vey

    c = Campaign(wealth_track="rank")
    c.gm({"type": "set_ip", "ip": 52})
    rival = vey(c, severity="heavy")
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [1])
    c.gm({"type": "turn_start"}, [1])
    events = c.gm({"type": "consequence", "rival": rival, "row": 1})  # picked: applied at once, no "apply"
    assert c.state.company.ip == 7 and c.event("rank_changed", events)["new"] == 1


# -- troupes and characters ----------------------------------------------------------------------


def test_troupe_creation_and_starting_assets() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT], asset="favor")
    t = c.troupe(P1)
    assert (t.captain.id, t.pcs[1].id, t.assets) == (kestrel, mott, ("A favor owed by an NPC of 1 rank above theirs",))
    assert c.pc(kestrel).role == "captain" and len(c.pc(kestrel).traits) == 3 and len(c.pc(mott).traits) == 2
    c.join(P2, PIP, asset="liquid_coin")
    assert c.state.company.liquid_at(2) == 1 and c.troupe(P2).assets == ()
    c.reject(
        P1,
        {
            "type": "create_troupe",
            "name": "Again",
            "captain": {"name": "X", "traits": ["Driver", "Duelist", "Hacker"]},
            "asset": "favor",
        },
        "already has a troupe",
    )
    c.reject(
        P1,
        {"type": "add_pc", "owner": P1, "pc": {"name": "Nell", "traits": ["Driver", "Hacker"]}},
        "Every minion place of Troupe of Kestrel is taken",
    )
    c.reject(
        P2,
        {"type": "add_pc", "owner": P2, "pc": {"name": "Nell", "traits": ["Driver", "Hacker", "Duelist"]}},
        "A new minion has 2 traits; Nell has 3.",
    )
    c.reject(
        P2,
        {"type": "add_pc", "owner": P2, "pc": {"name": "Nell", "traits": ["Driver", "Driver"]}},
        "can't take Driver twice",
    )
    c.reject(
        P2,
        {"type": "add_pc", "owner": P2, "pc": {"name": "Nell", "traits": ["Driver", "Flying"]}},
        f"There is no trait called {echo('Flying')}",
    )
    c.act(P2, {"type": "add_pc", "owner": P2, "pc": {"name": "Hon", "traits": ["Honeypot", "Hacker"]}})
    assert c.pc(f"{P2}.2").traits[0].name == "Honeytrap"  # 3.6 #42
    c.reject(GM, {"type": "minion_places", "owner": P2, "n": 0}, "already has 1 minions")


def test_custom_traits_need_the_gm() -> None:
    c = Campaign()
    trait = {
        "name": "Gambler",
        "kind": "normal",
        "dice": [{"when": "gain", "die": "d6", "condition": "when gambling"}],
        "push": "Win one hand.",
    }
    c.forbid(P1, {"type": "define_trait", "trait": trait}, "Only the GM can approve custom traits.")
    c.gm({"type": "define_trait", "trait": trait})
    (pc,) = c.join(P1, ("Ace", ("Gambler", "Lurker", "Acrobat")))
    assert c.pc(pc).traits[0].name == "Gambler"
    c.reject(GM, {"type": "define_trait", "trait": {**trait, "name": "Medic"}}, "one of the seed's traits")


def test_contacts_limit_and_promotion() -> None:
    c = Campaign()
    _kestrel, mott = c.join(P1, KESTREL, [MOTT])
    c.act(P1, {"type": "contact", "pc": mott, "name": "Old ringmaster", "trait": "Strongman"})
    c.reject(
        P1, {"type": "contact", "pc": mott, "name": "Other", "trait": "Strongman"}, "already gave a strong contact"
    )
    c.reject(P1, {"type": "contact", "pc": mott, "name": "Other", "trait": "Lurker"}, "Mott doesn't have Lurker")
    c.act(P1, {"type": "contact", "pc": mott, "name": "Doctor Fell"})
    c.reject(
        P1,
        {"type": "contact", "pc": mott, "name": "Third"},
        "Mott has 2 strong contacts, one per trait: drop one to make room.",
    )
    c.act(P1, {"type": "weak_contact", "pc": mott, "name": "A bored clerk"})
    c.reject(P1, {"type": "promote", "pc": mott, "weak": 0}, "name the strong contact to drop")
    c.reject(P1, {"type": "promote", "pc": mott, "weak": 3, "drop": 0}, "no weak contact number 4")
    events = c.act(P1, {"type": "promote", "pc": mott, "weak": 0, "drop": 0})
    assert c.event("contact_promoted", events)["dropped"] == "Old ringmaster"
    assert [x.name for x in c.pc(mott).strong] == ["Doctor Fell", "A bored clerk"] and c.pc(mott).weak == ()
    c.act(P1, {"type": "drop_contact", "pc": mott, "strong": True, "index": 1})
    assert len(c.pc(mott).strong) == 1


def test_advancement_trait_or_minion() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    c.join(P2, PIP)
    c.reject(P1, {"type": "advance", "owner": P1, "pc": mott, "trait": "Driver"}, "has no advancement to take")
    events = c.gm({"type": "ambition_done", "next": "Rule the harbour"})
    assert c.event("ambition_completed", events)["advancements"] == 1
    assert c.troupe(P1).pending_advancements == 1 and c.troupe(P2).pending_advancements == 1
    assert set(c.state.troupes) == {P1, P2} and c.state.company.ambition == "Rule the harbour"
    c.reject(P1, {"type": "advance", "owner": P1}, "Advance either one PC with a new trait, or add a new minion.")
    c.reject(P1, {"type": "advance", "owner": P1, "pc": mott, "trait": "Strongman"}, "Mott already has Strongman.")
    c.act(P1, {"type": "advance", "owner": P1, "pc": kestrel, "trait": "Driver"})
    assert len(c.pc(kestrel).traits) == 4 and c.troupe(P1).pending_advancements == 0
    c.act(P2, {"type": "advance", "owner": P2, "minion": {"name": "Wick", "traits": ["Driver", "Hacker"]}})
    assert [p.name for p in c.troupe(P2).pcs] == ["Pip", "Wick"] and c.troupe(P2).minion_places == 2
    c.gm({"type": "grant_advancements", "owner": P1, "n": 1})
    c.reject(
        P1,
        {"type": "advance", "owner": P1, "pc": kestrel, "trait": "Hacker"},
        "already has 4 traits, the most a character can have.",
    )


def test_minion_replacement_costs() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    c.gm({"type": "add_trait", "pc": mott, "trait": "Driver"})
    c.gm({"type": "add_trait", "pc": mott, "trait": "Duelist"})
    c.reject(
        P1,
        {"type": "replace", "old": mott, "pc": {"name": "Nib", "traits": ["Hacker", "Lurker"]}},
        "Only a dead or retired minion is replaced",
    )
    c.act(P1, {"type": "retire", "pc": mott})
    c.reject(
        P1,
        {"type": "replace", "old": mott, "pc": {"name": "Nib", "traits": ["Hacker"]}},
        "replacement has 2 traits, up to 4",
    )
    c.gm({"type": "set_ip", "ip": 3})
    c.reject(
        P1,
        {"type": "replace", "old": mott, "pc": {"name": "Nib", "traits": ["Hacker", "Lurker", "Driver", "Medic"]}},
        "Replacing Mott costs 4 IP and the company has 3.",
    )
    events = c.act(
        P1, {"type": "replace", "old": mott, "pc": {"name": "Nib", "traits": ["Hacker", "Lurker", "Driver"]}}
    )
    assert c.event("pc_replaced", events)["cost"] == 3 and c.state.company.ip == 0
    assert c.pc(f"{P1}.3").replaces == mott
    c.reject(
        P1,
        {"type": "replace", "old": mott, "pc": {"name": "Nob", "traits": ["Hacker", "Lurker"]}},
        "Mott has been replaced already.",
    )
    c.reject(
        GM,
        {"type": "replace", "old": kestrel, "pc": {"name": "Nob", "traits": ["Hacker", "Lurker"]}},
        "Only a dead or retired minion",
    )


def test_replacement_at_the_base_costs_two_and_can_demote() -> None:
    c = Campaign()
    _, mott = c.join(P1, KESTREL, [MOTT])
    c.gm({"type": "condition", "pc": mott, "change": "kill"})
    events = c.act(P1, {"type": "replace", "old": mott, "pc": {"name": "Nib", "traits": ["Hacker", "Lurker"]}})
    assert c.state.company.ip == 13 and c.event("rank_changed", events)["new"] == 1


def test_dead_captain_dissolves_the_troupe() -> None:
    c = Campaign()
    kestrel, _mott = c.join(P1, KESTREL, [MOTT])
    events = c.act(P1, {"type": "retire", "pc": kestrel})
    assert "troupe_dissolved" in c.kinds(events) and c.troupe(P1).dissolved
    c.reject(P1, {"type": "add_pc", "owner": P1, "pc": {"name": "N", "traits": ["Hacker", "Lurker"]}}, "has dissolved")
    c.reject(P1, {"type": "act", "pc": kestrel, "kind": "rest"}, "Kestrel is retired.")


def test_one_action_per_turn_and_rest() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    c.reject(P1, {"type": "act", "pc": kestrel, "kind": "rest"}, "No turn is under way")
    c.gm({"type": "turn_start"})
    c.reject(GM, {"type": "turn_start"}, "Turn 1 is under way: end it first.")
    c.act(P1, {"type": "act", "pc": kestrel, "kind": "join_scene", "note": "the heist"})
    c.reject(
        P1,
        {"type": "act", "pc": kestrel, "kind": "rest"},
        "Kestrel already joined a scene this turn",
    )
    c.act(P1, {"type": "act", "pc": mott, "kind": "rest"})
    c.gm({"type": "turn_end"})
    c.reject(GM, {"type": "turn_end"}, "No turn is under way.")
    c.gm({"type": "turn_start"})
    c.act(P1, {"type": "act", "pc": kestrel, "kind": "rest"})


@pytest.mark.parametrize("change", ["rattle", "calm", "wound", "heal"])
def test_condition_rejections(change: str) -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    if change in ("rattle", "wound"):
        c.gm({"type": "condition", "pc": kestrel, "change": change})
    reason = {
        "rattle": "already rattled",
        "calm": "isn't rattled",
        "wound": "already wounded",
        "heal": "isn't wounded",
    }[change]
    c.reject(GM, {"type": "condition", "pc": kestrel, "change": change}, reason)


def test_gm_control_and_spells() -> None:
    c = Campaign()
    (wiz,) = c.join(P1, ("Vesper", ("Wizard of Water", "Lurker", "Acrobat")))
    c.gm({"type": "spell", "pc": wiz, "trait": "Wizard of Water", "text": "Freeze a puddle solid."})
    events = c.act(P1, {"type": "push", "pc": wiz, "trait": "Wizard of Water"})
    assert c.event("pushed", events)["text"] == "Freeze a puddle solid." and c.pc(wiz).rattled
    c.reject(GM, {"type": "spell", "pc": wiz, "trait": "Lurker", "text": "x"}, "isn't a magic trait")
    c.act(P1, {"type": "gm_control", "pc": wiz, "on": True})
    assert c.pc(wiz).gm_controlled
    c.forbid(P1, {"type": "edit_pc", "pc": wiz, "name": "V"}, "Vesper is portrayed by the GM")
    c.forbid(P1, {"type": "gm_control", "pc": wiz, "on": False}, "portrayed by the GM")
    c.gm({"type": "gm_control", "pc": wiz, "on": False})
    c.act(P1, {"type": "edit_pc", "pc": wiz, "name": "Vesper the Wet"})
    assert c.pc(wiz).name == "Vesper the Wet"
