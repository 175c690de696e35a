"""Computer players at three strengths (``rules.engine.STRENGTHS``).

``normal`` is :mod:`rules.crowns.strategy`. ``easy`` plays like a beginner: it rerolls for the Claim it can see
on the next roll only (no thought for the rolls after), hands scrolls to the next rival in seat order and never
spends Fate on someone else's turn; everything else (daggers, steals, Last Stand) it does as ``normal`` does,
so it is never absurd. ``strong`` compares its candidates by their chance to *win the game* (not to Claim this
turn), by rollouts over this engine with ``normal`` as every seat's policy (:mod:`rules.search`).
"""

from __future__ import annotations

from pydantic import BaseModel

from rules.crowns.actions import PASS_FATE, AssignAll, AssignScroll, Meddle, Overkill, OverkillAll, Reroll, Settle
from rules.crowns.legality import decider, legal_actions
from rules.crowns.scoring import fate_eligible
from rules.crowns.state import CrownsState, Phase
from rules.crowns.strategy import choose_action, immediate_claim
from rules.engine import EASY, STRONG
from rules.search import Playable, Rollouts, best

STRONG_WORK = 1_200
"""Actions applied in one Strong decision's rollouts: about 250 ms on one core of the benchmark machine."""
MAX_CANDIDATES = 6
"""Candidates compared at most (a Fate window offers a dozen rerolls; most are plainly worse than passing)."""
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
    """The candidate with the best estimated chance to win, by rollouts with Normal play for every seat."""
    legal = legal_actions(state, player)
    if len(legal) == 1:
        return legal[0]
    rules: Rollouts[CrownsState, BaseModel] = Rollouts(
        engine=engine, actor=_acting, policy=choose_action, work=STRONG_WORK
    )
    return best(rules, state, player, _candidates(state, player, legal))


def _acting(state: CrownsState) -> str:
    """Who acts next in a rollout: the decider, or in a Fate window the first player asked."""
    if state.phase is Phase.FATE_WINDOW:
        return fate_eligible(state)[0]
    who = decider(state)
    assert who is not None
    return who
