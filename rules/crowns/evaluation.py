"""S7, evaluation (and S10, the Crown holder's turn), in RULES.md 2.4's order: legendary results, Betrayal,
Rightful Heir, Fickle Fate, then Settle, reroll or the end of the turn."""

from __future__ import annotations

from typing import Literal

from rules.crowns.betrayal import betrayal
from rules.crowns.data import (
    BIRTHRIGHT_CLAIMS,
    CROWNS_FOR_CLAIM,
    DAGGERS_END_TURN,
    FEAST_LOSS,
    LEGENDARY_NAMES,
    PAIR_CLAIM,
    PAIR_CROWNS,
    PAIR_FATE,
    PAIR_SKULLS,
    SIX_SKULLS,
    SIX_SKULLS_FATE,
    SKULLS_FOR_CLAIM,
    TWISTS_STEAL,
)
from rules.crowns.rounds import end_turn
from rules.crowns.scoring import can_settle, reroll_groups, set_reachable, seven_of_a_kind, steal_victims
from rules.crowns.state import Counts, Face, Phase
from rules.crowns.table import Tabletop


def evaluate(t: Tabletop) -> None:
    """S7 (and S10 for the Crown holder), in RULES.md order."""
    s = t.s
    opts = s.options
    if s.crown_turn:
        counts = s.counts()
        if opts.legendary and seven_of_a_kind(s, Face.DAGGER):
            crimson_feast(t)
        elif counts.daggers >= DAGGERS_END_TURN:
            betrayal(t, counts.daggers)
        else:
            t.game_over(s.active, "crown")
        return
    if (
        opts.last_stand
        and s.crown_holder not in (None, s.active)
        and (seven_of_a_kind(s, Face.CROWN) or seven_of_a_kind(s, Face.SKULL))
    ):
        t.put(phase=Phase.LAST_STAND)
        return
    score_sets(t)


def score_sets(t: Tabletop) -> None:
    """S7b–h: legendary results, Betrayal, Rightful Heir, Fickle Fate, then settle/reroll/end."""
    s = t.s
    opts = s.options
    active = s.active
    if opts.legendary:
        if seven_of_a_kind(s, Face.CROWN):
            t.emit("legendary", player=active, face=str(Face.CROWN), name=LEGENDARY_NAMES["CROWN"])
            t.gain_claims(active, BIRTHRIGHT_CLAIMS, "birthright")
            end_turn(t, "token")
            return
        if seven_of_a_kind(s, Face.SKULL):
            t.emit("legendary", player=active, face=str(Face.SKULL), name=LEGENDARY_NAMES["SKULL"])
            twists_of_fate(t)
            return
        if seven_of_a_kind(s, Face.DAGGER):
            crimson_feast(t)
            return
    counts = s.counts()
    if counts.daggers >= DAGGERS_END_TURN:
        betrayal(t, counts.daggers)
        return
    if counts.crowns >= CROWNS_FOR_CLAIM:
        pair = opts.fate and counts.crowns >= PAIR_CROWNS and counts.skulls >= PAIR_SKULLS
        t.gain_claims(active, PAIR_CLAIM if pair else 1, "rightful_heir")
        if pair:
            t.gain_fate(active, PAIR_FATE, "pictured_pair")
        end_turn(t, "token")
        return
    if counts.skulls >= SKULLS_FOR_CLAIM:
        six = opts.fate and counts.skulls >= SIX_SKULLS
        supply = s.fate_in_supply()
        if six and opts.six_skulls == "choose" and (supply is None or supply > 0):
            t.put(phase=Phase.SIX_SKULLS)
            return
        six_skulls(t, "fate" if six and opts.six_skulls == "fate" else "claim")
        return
    decide(t, counts)


def decide(t: Tabletop, counts: Counts) -> None:
    """S7f–h: offer Settle and the reroll groups, or end the turn when nothing is left to roll."""
    s = t.s
    groups = reroll_groups(counts)
    settle = can_settle(s, counts)
    if not groups and not settle:
        end_turn(t, "no_dice")
    elif s.options.auto_end_unreachable and not settle and not set_reachable(counts):
        end_turn(t, "unreachable")
    else:
        t.put(phase=Phase.DECIDE)


def six_skulls(t: Tabletop, choice: Literal["claim", "fate"]) -> None:
    """C5 (or Fickle Fate without a choice): 1 Claim or 2 Fate, then the turn ends."""
    if choice == "fate":
        t.gain_fate(t.s.active, SIX_SKULLS_FATE, "six_skulls")
    else:
        t.gain_claims(t.s.active, 1, "fickle_fate")
    end_turn(t, "token")


def twists_of_fate(t: Tabletop) -> None:
    """7 skulls: steal a Claim from a rival, chosen when several have one (2.6 #21)."""
    s = t.s
    victims = steal_victims(s)
    if len(victims) == 1:
        steal_claim(t, victims[0])
    elif victims:
        t.put(phase=Phase.STEAL)
    else:
        if s.options.twists_fallback == "supply_claim":
            t.gain_claims(s.active, TWISTS_STEAL, "twists_fallback")
        else:
            t.emit("nothing_to_steal", player=s.active)
        end_turn(t, "legendary")


def steal_claim(t: Tabletop, rival: str) -> None:
    """C9: take a Claim from ``rival``; under Last Stand it may become the Crown."""
    victim = t.s.seat(rival)
    t.set_seat(rival, claims=victim.claims - TWISTS_STEAL)
    t.emit("claim_stolen", player=t.s.active, rival=rival, rival_total=victim.claims - TWISTS_STEAL)
    t.gain_claims(t.s.active, TWISTS_STEAL, "twists_of_fate")
    end_turn(t, "token")


def crimson_feast(t: Tabletop) -> None:
    """7 daggers: lose a Claim (never below 0) and pass all the dice on, no overkill (2.6 #24)."""
    s = t.s
    active = s.active
    t.emit("legendary", player=active, face=str(Face.DAGGER), name=LEGENDARY_NAMES["DAGGER"])
    claims = s.seat(active).claims
    lost = min(claims, FEAST_LOSS)
    if lost:
        t.set_seat(active, claims=claims - lost)
        t.emit("claim_lost", player=active, count=lost, total=claims - lost, reason="crimson_feast")
    end_turn(t, "crimson_feast")
