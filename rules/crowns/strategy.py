"""Computer players: legal actions chosen by the estimated chance of a Claim, and by who threatens to win.

Rerolls and Settle use a value table over the active player's counts (crowns, daggers, free skulls,
returned scrolls): the probability that the turn still ends in a Claim if the player keeps choosing
the best group, computed once by value iteration over the turn's Markov chain. Scroll outcomes are
folded in (a scroll handed out comes back as a skull or scroll 2/3 of the time, is a crown kept by a
rival 1/6, a dagger 1/6 that comes back with probability ``DAGGER_BACK``). Everything else is a
short rule: hand scrolls to the rival least able to win, daggers and steals to the leader, meddle
only to stop a rival's Claim. Deterministic given the state.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from pydantic import BaseModel

from rules.crowns.actions import PASS_FATE, ROLL, FateReroll, LastStandChoice, Meddle, Reroll, Settle, SixSkulls
from rules.crowns.data import (
    ANY_DIE_REROLL_COST,
    CROWNS_FOR_CLAIM,
    DAGGERS_END_TURN,
    SELF_REROLL_COST,
    SKULLS_FOR_CLAIM,
    SKULLS_FOR_FATE,
)
from rules.crowns.legality import legal_actions
from rules.crowns.state import Counts, CrownsState, Face, Phase

DAGGER_BACK = 0.4
"""Assumed chance that a rival who rolls a dagger on my scroll gives it to me."""
FATE_TOKEN_VALUE = 0.3
"""A Fate token, in Claims: what settling is worth against chasing a set."""

# Per rerolled die: (crowns, daggers, skulls, returned scrolls) gained, with its probability; "gone" is the rest.
_DIE_OUTCOMES: tuple[tuple[tuple[int, int, int, int], float], ...] = (
    ((1, 0, 0, 0), 1 / 6),
    ((0, 1, 0, 0), 1 / 6 + 1 / 18 * DAGGER_BACK),
    ((0, 0, 1, 0), 1 / 3 + 1 / 9),
    ((0, 0, 0, 1), 1 / 9),
    ((0, 0, 0, 0), 1 / 18 + 1 / 18 * (1 - DAGGER_BACK)),
)

Key = tuple[int, int, int, int]


@cache
def _roll_outcomes(n: int) -> dict[Key, float]:
    """Distribution of what ``n`` rerolled dice add to (crowns, daggers, skulls, returned scrolls)."""
    dist: dict[Key, float] = {(0, 0, 0, 0): 1.0}
    for _ in range(n):
        nxt: dict[Key, float] = {}
        for key, p in dist.items():
            for delta, q in _DIE_OUTCOMES:
                k = (key[0] + delta[0], key[1] + delta[1], key[2] + delta[2], key[3] + delta[3])
                nxt[k] = nxt.get(k, 0.0) + p * q
        dist = nxt
    return dist


def _terminal(c: int, d: int, k: int) -> float | None:
    if d >= DAGGERS_END_TURN:
        return 0.0
    if c >= CROWNS_FOR_CLAIM or k >= SKULLS_FOR_CLAIM:
        return 1.0
    return None


def _group_dice(k: int, s: int, group: str) -> tuple[int, int, int]:
    """(skulls kept, scrolls kept, dice rerolled) for a reroll group."""
    if group == "skulls":
        return 0, s, k
    if group == "scrolls":
        return k, 0, s
    return 0, 0, k + s


@cache
def _values(fate: bool) -> dict[Key, float]:
    """Value iteration: chance of a Claim (Settle worth FATE_TOKEN_VALUE) from each open state."""
    states = [
        (c, d, k, s)
        for c, d, k, s in product(range(3), range(3), range(5), range(8))
        if c + d + k + s <= 7 and k + s > 0
    ]
    values = dict.fromkeys(states, 0.0)
    for _ in range(200):
        delta = 0.0
        for key in states:
            best = max(_group_value(key, g, values) for g in _groups(key))
            if fate and key[2] >= SKULLS_FOR_FATE:
                best = max(best, FATE_TOKEN_VALUE)
            delta = max(delta, abs(best - values[key]))
            values[key] = best
        if delta < 1e-9:
            break
    return values


def _groups(key: Key) -> list[str]:
    k, s = key[2], key[3]
    return [g for g, ok in (("skulls", k), ("scrolls", s), ("both", k and s)) if ok]


def _group_value(key: Key, group: str, values: dict[Key, float]) -> float:
    c, d, k, s = key
    k_kept, s_kept, n = _group_dice(k, s, group)
    total = 0.0
    for (dc, dd, dk, ds), p in _roll_outcomes(n).items():
        c2, d2, k2, s2 = c + dc, d + dd, k_kept + dk, s_kept + ds
        end = _terminal(c2, d2, k2)
        total += p * (end if end is not None else values.get((c2, d2, k2, s2), 0.0))
    return total


def reroll_value(counts: Counts, group: str, fate: bool) -> float:
    """Estimated chance of a Claim this turn after rerolling ``group`` and then playing on well."""
    key = (min(counts.crowns, 2), min(counts.daggers, 2), min(counts.free_skulls, 4), counts.ret_scrolls)
    return _cached_value(key, group, fate)


def immediate_claim(counts: Counts, group: str) -> float:
    """The chance that rerolling ``group`` makes a Claim on that very roll (a beginner's look: no later rolls)."""
    key = (min(counts.crowns, 2), min(counts.daggers, 2), min(counts.free_skulls, 4), counts.ret_scrolls)
    return _group_value(key, group, {})


@cache
def turn_claim(crowns: int, daggers: int, dice: int) -> float:
    """The chance that a turn starting with ``crowns`` and ``daggers`` held and ``dice`` to roll ends in a Claim,
    the player rerolling as this module does (without the Fate module's Settle)."""
    return _group_value((crowns, daggers, dice, 0), "skulls", _values(False))


@cache
def _cached_value(key: Key, group: str, fate: bool) -> float:
    """Few keys recur in every game (and in every rollout of a Strong player): each is worked out once."""
    return _group_value(key, group, _values(fate))


def threat(state: CrownsState, player: str) -> float:
    """How close ``player`` is to winning (Claims, the Crown counting as the last one)."""
    seat = state.seat(player)
    return seat.claims + (2 if state.crown_holder == player else 0) + 0.1 * seat.fate


def _most_threatening(state: CrownsState, candidates: list[str]) -> str:
    """The candidate closest to winning; ties go to the one who plays soonest."""
    order = {p: i for i, p in enumerate([state.active, *state.rivals(state.active)])}
    return max(candidates, key=lambda p: (threat(state, p), -order.get(p, 99)))


def choose_action(state: CrownsState, player: str) -> BaseModel:
    """The computer's action for ``player`` (who must have a legal action now)."""
    legal = legal_actions(state, player)
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase is Phase.DECIDE:
        return _decide(state, legal)
    if phase is Phase.SCROLL_ASSIGN:
        # The rival least able to win gets the scroll: a crown they keep helps them least.
        rival = min(
            {a.rival for a in legal},  # type: ignore[attr-defined]
            key=lambda r: (threat(state, r), -state.rivals(player).index(r)),
        )
        return next(a for a in legal if a.rival == rival)  # type: ignore[attr-defined]
    if phase is Phase.DAGGER_ASSIGN:
        return _give_dagger(state, player, legal)
    if phase is Phase.FATE_WINDOW:
        return _fate(state, player, legal)
    if phase is Phase.OVERKILL_ASSIGN or phase is Phase.STEAL:
        target = _most_threatening(state, [a.rival for a in legal])  # type: ignore[attr-defined]
        return next(a for a in legal if a.rival == target)  # type: ignore[attr-defined]
    if phase is Phase.SIX_SKULLS:
        return SixSkulls(choice="claim")
    if phase is Phase.LAST_STAND:
        return LastStandChoice(steal=True)
    return ROLL if ROLL in legal else legal[0]


def _decide(state: CrownsState, legal: list[BaseModel]) -> BaseModel:
    counts = state.counts()
    fate = state.options.fate
    scored: list[tuple[float, int, BaseModel]] = []
    for i, action in enumerate(legal):
        if isinstance(action, Reroll):
            scored.append((reroll_value(counts, action.group, fate), -i, action))
        elif isinstance(action, Settle):
            scored.append((FATE_TOKEN_VALUE, -i, action))
        else:
            scored.append((0.0, -i, action))
    return max(scored, key=lambda t: (t[0], t[1]))[2]


def _give_dagger(state: CrownsState, player: str, legal: list[BaseModel]) -> BaseModel:
    """A dagger to the active player if it betrays them now, else to whoever is closest to winning."""
    others = [a.to for a in legal if a.to is not None and a.to != player]  # type: ignore[attr-defined]
    if not others:
        return legal[0]
    active = state.active
    counts = state.counts()

    def score(p: str) -> float:
        if p == active:
            return threat(state, p) + (100 if counts.daggers + 1 >= DAGGERS_END_TURN else 0.5)
        return threat(state, p)

    target = max(others, key=score)
    return next(a for a in legal if a.to == target)  # type: ignore[attr-defined]


def _fate(state: CrownsState, player: str, legal: list[BaseModel]) -> BaseModel:
    """Spend Fate only to escape a Betrayal on my turn, or to stop a rival's Claim."""
    counts = state.counts()
    fate = state.seat(player).fate
    if player == state.active:
        if counts.daggers == DAGGERS_END_TURN and fate >= SELF_REROLL_COST:
            for action in legal:
                if isinstance(action, FateReroll) and state.die(action.die).face is Face.DAGGER:
                    return action
        return PASS_FATE
    if fate < ANY_DIE_REROLL_COST or state.window != "post_resolution" or counts.daggers >= DAGGERS_END_TURN:
        return PASS_FATE
    if threat(state, state.active) < threat(state, player):
        return PASS_FATE
    if counts.crowns == CROWNS_FOR_CLAIM:
        face = Face.CROWN
    elif counts.skulls == SKULLS_FOR_CLAIM and counts.crowns < CROWNS_FOR_CLAIM:
        face = Face.SKULL
    else:
        return PASS_FATE
    for action in legal:
        if isinstance(action, Meddle):
            die = state.die(action.die)
            if die.holder == state.active and die.face is face:
                return action
    return PASS_FATE
