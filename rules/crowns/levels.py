"""Computer players at three strengths (``rules.engine.STRENGTHS``).

``normal`` is :mod:`rules.crowns.strategy`. ``easy`` plays like a beginner: it rerolls for the Claim it can see
on the next roll only (no thought for the rolls after), hands scrolls to the next rival in seat order and never
spends Fate on someone else's turn; everything else (daggers, steals, Last Stand) it does as ``normal`` does,
so it is never absurd. ``strong`` compares its candidates by their chance to *win the game* (not to Claim this
turn), by rollouts over this engine with ``normal`` as every seat's policy (:mod:`rules.search`) to the end of
the turn, and a race of turns from there (:func:`race_value`); with two players it asks more evidence, and
keeps to ``normal`` where Fate or the Crown is at stake (:func:`_priced_too_crudely`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

from pydantic import BaseModel

from rules.crowns import duel
from rules.crowns.actions import (
    END_TURN,
    PASS_FATE,
    AssignAll,
    AssignScroll,
    Meddle,
    Overkill,
    OverkillAll,
    Reroll,
    Settle,
)
from rules.crowns.legality import decider, legal_actions
from rules.crowns.scoring import fate_eligible
from rules.crowns.state import CrownsState, DieState, Face, Phase
from rules.crowns.strategy import FATE_TOKEN_VALUE, choose_action, immediate_claim, turn_claim
from rules.engine import EASY, STRONG
from rules.search import Playable, Racer, Rollouts, best, race

STRONG_WORK = 3_600
"""Actions applied in one Strong decision's rollouts: about 250 ms on one core of the benchmark machine."""
MAX_CANDIDATES = 6
"""Candidates compared at most (a Fate window offers a dozen rerolls; most are plainly worse than passing)."""
CONFIDENCE = 2.0
"""Standard errors a candidate must gain over Normal's choice to replace it (``rules.search.Rollouts``)."""
DUEL_CONFIDENCE = 3.0
"""The same with two players: Normal's best chance of a Claim each turn is then nearly the best chance to win
(see docs/computer-players.md), so a departure is mostly the race model's error, and needs more evidence."""
HOLD = 0.9
"""The chance that a Last Stand crown holder wins on their turn (fewer than three daggers), in the race model."""
EASY_SETTLE = 0.15
"""A beginner settles for a Fate token when no reroll shows at least this chance of a Claim on the next roll."""


def choose(state: CrownsState, player: str, strength: str, engine: Playable) -> BaseModel:
    """The computer's action at ``strength`` (``normal`` for any name it does not know)."""
    if strength == EASY:
        return easy_action(state, player)
    if strength == STRONG:
        return strong_action(state, player, engine)
    return choose_action(state, player)


def easy_action(state: CrownsState, player: str) -> BaseModel:
    """A beginner's action: short-sighted rerolls, scrolls to the next rival, no meddling."""
    legal = legal_actions(state, player)
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase is Phase.DECIDE:
        counts, fate = state.counts(), state.options.fate

        def score(action: BaseModel) -> float:
            if isinstance(action, Reroll):
                return immediate_claim(counts, action.group)
            return EASY_SETTLE if isinstance(action, Settle) and fate else -1.0

        return max(legal, key=score)
    if phase is Phase.SCROLL_ASSIGN:
        return next((a for a in legal if isinstance(a, AssignScroll)), legal[0])
    if phase is Phase.FATE_WINDOW and player != state.active:
        return PASS_FATE
    return choose_action(state, player)


def _candidates(state: CrownsState, player: str, legal: list[BaseModel]) -> list[BaseModel]:
    """What Strong compares: the Normal choice first, then the whole-group choices (every scroll to one rival),
    then the rest, at most MAX_CANDIDATES."""
    normal = choose_action(state, player)
    rest: list[BaseModel]
    if state.phase is Phase.SCROLL_ASSIGN and any(isinstance(a, AssignAll) for a in legal):
        rest = [a for a in legal if isinstance(a, AssignAll)]
    elif state.phase is Phase.OVERKILL_ASSIGN and any(isinstance(a, OverkillAll) for a in legal):
        rest = [a for a in legal if not isinstance(a, Overkill)]
    elif state.phase is Phase.FATE_WINDOW:
        meddles = [a for a in legal if isinstance(a, Meddle)]
        rest = [PASS_FATE, *(a for a in legal if not isinstance(a, Meddle)), *meddles]
    else:
        rest = legal
    chosen = [normal]
    for action in rest:
        if action not in chosen and action in legal:
            chosen.append(action)
    return chosen[:MAX_CANDIDATES]


def strong_action(state: CrownsState, player: str, engine: Playable) -> BaseModel:
    """The best choice of the solved game with two players and no module (:func:`solved_choice`); elsewhere the
    candidate with the best estimated chance to win, by rollouts with Normal play for every seat, and with two
    players and Fate tokens or the Crown in play, Normal's choice (:func:`_priced_too_crudely`)."""
    legal = legal_actions(state, player)
    if len(legal) == 1:
        return legal[0]
    if (position := solved_position(state)) is not None:
        return solved_choice(state, position)
    if _duel(state):
        return choose_action(state, player)  # the only other choices there (whom to hand a dagger) are Normal's
    if _priced_too_crudely(state):
        return choose_action(state, player)
    rules: Rollouts[CrownsState, BaseModel] = Rollouts(
        engine=engine,
        actor=_acting,
        policy=choose_action,
        work=STRONG_WORK,
        horizon=_turn_over,
        value=race_value,
        confidence=DUEL_CONFIDENCE if len(state.present()) == 2 else CONFIDENCE,
    )
    return best(rules, state, player, _candidates(state, player, legal))


@dataclass(frozen=True)
class SolvedPosition:
    """Where a decision stands in the solved two-player game (:mod:`rules.crowns.duel`)."""

    target: int
    table: duel.Table
    claims: int
    rival_claims: int
    key: duel.Key


def _duel(state: CrownsState) -> bool:
    """Two players and no module: the game :mod:`rules.crowns.duel` solves."""
    o = state.options
    return len(state.present()) == 2 and not (o.fate or o.legendary or o.overkill or o.last_stand)


def solved_position(state: CrownsState) -> SolvedPosition | None:
    """The active player's reroll choice as a position of the solved game, or None if it is not one (more
    players, a module, or dice where the solved game never puts them, as after a player left)."""
    if state.phase is not Phase.DECIDE or not _duel(state):
        return None
    rival = state.rivals(state.active)[0]
    counts = state.counts()
    kept = sum(d.holder == rival and d.state is DieState.LOCKED and d.face is Face.CROWN for d in state.dice)
    key = (counts.crowns, counts.daggers, counts.free_skulls, kept)
    table = duel.Table(state.options.allow_voluntary_end, state.options.auto_end_unreachable)
    if duel.returned(key) != counts.ret_scrolls or key not in duel.open_positions(table):
        return None
    claims = (state.seat(state.active).claims, state.seat(rival).claims)
    return SolvedPosition(state.options.claim_target, table, *claims, key)


def solved_choice(state: CrownsState, position: SolvedPosition) -> BaseModel:
    """The choice with the best exact chance to win (Normal's when two are as good)."""
    p = position
    values = duel.choice_values(p.target, p.table, p.claims, p.rival_claims, p.key)
    normal = choose_action(state, state.active)
    normal_option = normal.group if isinstance(normal, Reroll) else duel.END
    best = max(values, key=lambda o: (values[o] + (duel.TOLERANCE if o == normal_option else 0.0), o))
    return END_TURN if best == duel.END else Reroll.model_validate({"group": best})


def _priced_too_crudely(state: CrownsState) -> bool:
    """Two players, and a Fate token or the Last Stand Crown at stake: the race model prices both crudely (a token
    as a third of a Claim, a Crown as kept nine times in ten), and with no rival to choose between, nearly every
    departure from Normal there was a Fate reroll, a Settle or a pass priced by that model: measured, they gained
    nothing (docs/computer-players.md), so Strong keeps to Normal's choices there."""
    return len(state.present()) == 2 and (state.options.fate or state.options.last_stand)


def _turn_over(root: CrownsState, state: CrownsState) -> bool:
    """The rollout has reached the next turn."""
    return state.turn_no != root.turn_no


def race_value(state: CrownsState, player: str, seed: int) -> float:
    """``player``'s chance to win from the start of a turn, by a race of turns (:func:`rules.search.race`): each
    player Claims on their next turn with the chance the dice they hold give (:func:`strategy.turn_claim`), and
    later with that of a fresh turn; with Last Stand, the Claim that would be the last takes the Crown, which
    must then be held for one turn. A Fate token counts as ``FATE_TOKEN_VALUE`` of a Claim (as Normal values
    it), a fraction of a Claim as a chance of one Claim fewer to go: without that, spending Fate would look
    free to the search."""
    order = [state.active, *state.rivals(state.active)]
    chances = [_racers(state, p) for p in order]
    value = 0.0
    for combo in product(*chances):
        weight = math.prod(w for w, _ in combo)
        if weight > 0:
            value += weight * race(tuple(r for _, r in combo))[order.index(player)]
    return value


def _racers(state: CrownsState, p: str) -> list[tuple[float, Racer]]:
    """``p`` as a racer, or two with their weights when Fate tokens make a fraction of a Claim."""
    target, last_stand = state.options.claim_target, state.options.last_stand
    fresh = turn_claim(0, 0, 7)
    held = state.held(p)
    locked = [d.face for d in held if d.state is DieState.LOCKED]
    crowns, daggers = locked.count(Face.CROWN), locked.count(Face.DAGGER)
    # The next player rolls what was handed to them; the others, whatever they will be handed: about the rest.
    rolled = sum(d.state is DieState.HANDED for d in held) if p == state.active else 7 - len(locked)
    first, hold = turn_claim(crowns, daggers, rolled), HOLD if last_stand else None
    if last_stand and state.crown_holder == p:
        return [(1.0, Racer(first, fresh, 0, hold))]
    steps = max(target - state.seat(p).claims - FATE_TOKEN_VALUE * state.seat(p).fate, 1.0)
    whole = math.floor(steps)
    part = steps - whole
    return [(1 - part, Racer(first, fresh, whole, hold)), (part, Racer(first, fresh, whole + 1, hold))]


def _acting(state: CrownsState) -> str:
    """Who acts next in a rollout: the decider, or in a Fate window the first player asked."""
    if state.phase is Phase.FATE_WINDOW:
        return fate_eligible(state)[0]
    who = decider(state)
    assert who is not None
    return who
