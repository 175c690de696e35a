"""Dice of Crowns as a :class:`rules.engine.Engine`: setup, actions, prompts and defaults."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from rules.crowns import betrayal, evaluation, fate, leaving, legality, levels, rounds, scrolls
from rules.crowns.actions import (
    AssignAll,
    AssignScroll,
    EndTurn,
    FateReroll,
    GiveDagger,
    LastStandChoice,
    Meddle,
    Overkill,
    OverkillAll,
    PassFate,
    Reroll,
    Roll,
    Settle,
    SixSkulls,
    Steal,
    parse_action,
)
from rules.crowns.data import DIE_IDS
from rules.crowns.options import CrownsOptions
from rules.crowns.phases import PHASES
from rules.crowns.scoring import fate_eligible, own_daggers, pending_scrolls
from rules.crowns.state import CrownsState, DieState, Phase, Seat
from rules.crowns.turn import Table, new_dice
from rules.dice import DiceSource
from rules.engine import NORMAL, IllegalAction, Outcome, Prompt, Rollers
from rules.said import said

_GROUP_STATES = {
    "skulls": (DieState.FREE_SKULL,),
    "scrolls": (DieState.RETURNED_SCROLL,),
    "both": (DieState.FREE_SKULL, DieState.RETURNED_SCROLL),
}

# Enum members tested in per-die loops, as module names (see rules.crowns.state for why).
_HANDED = DieState.HANDED


@lru_cache(maxsize=1024)
def _prompt(player: str, decision: str, label: str, timer: str, ping: bool) -> Prompt:
    return Prompt(player=player, decision=decision, label=label, timer=timer, ping=ping)


def _roll(t: Table, actor: str, action: Roll) -> None:
    handed = [d.id for d in t.s.dice if d.holder == actor and d.state is _HANDED]
    rounds.own_roll(t, handed, "turn_roll")


def _assign(t: Table, actor: str, action: AssignScroll) -> None:
    scrolls.assign_scroll(t, action.die, action.rival)


def _assign_all(t: Table, actor: str, action: AssignAll) -> None:
    for die_id in pending_scrolls(t.s):
        scrolls.assign_scroll(t, die_id, action.rival)


def _give_dagger(t: Table, actor: str, action: GiveDagger) -> None:
    if action.to is None:
        scrolls.give_dagger(t, scrolls.default_dagger_recipient(t), "random")
    else:
        scrolls.give_dagger(t, action.to, "choice")
    scrolls.roll_scrolls(t)


def _reroll(t: Table, actor: str, action: Reroll) -> None:
    states = _GROUP_STATES[action.group]
    ids = [d.id for d in t.s.dice if d.holder == actor and d.state in states]
    rounds.own_roll(t, ids, "reroll", action.group)


def _settle(t: Table, actor: str, action: Settle) -> None:
    t.gain_fate(actor, 1, "settle")
    rounds.end_turn(t, "settled")


def _end_turn(t: Table, actor: str, action: EndTurn) -> None:
    rounds.end_turn(t, "voluntary")


def _six_skulls(t: Table, actor: str, action: SixSkulls) -> None:
    evaluation.six_skulls(t, action.choice)


def _fate_reroll(t: Table, actor: str, action: FateReroll) -> None:
    fate.fate_reroll(t, actor, action.die, "own")


def _meddle(t: Table, actor: str, action: Meddle) -> None:
    fate.fate_reroll(t, actor, action.die, "meddle")


def _pass_fate(t: Table, actor: str, action: PassFate) -> None:
    fate.pass_fate(t, actor)


def _overkill(t: Table, actor: str, action: Overkill) -> None:
    betrayal.chosen_overkill(t, action.die, action.rival)


def _overkill_all(t: Table, actor: str, action: OverkillAll) -> None:
    for die_id in own_daggers(t.s)[: t.s.overkill_left]:
        betrayal.chosen_overkill(t, die_id, action.rival)


def _steal(t: Table, actor: str, action: Steal) -> None:
    evaluation.steal_claim(t, action.rival)


def _last_stand(t: Table, actor: str, action: LastStandChoice) -> None:
    if action.steal:
        t.take_crown(actor, "steal")
        rounds.end_turn(t, "crown_steal")
    else:
        evaluation.score_sets(t)


_HANDLERS: dict[type[BaseModel], Callable[[Table, str, Any], None]] = {
    Roll: _roll,
    AssignScroll: _assign,
    AssignAll: _assign_all,
    GiveDagger: _give_dagger,
    Reroll: _reroll,
    Settle: _settle,
    EndTurn: _end_turn,
    SixSkulls: _six_skulls,
    FateReroll: _fate_reroll,
    Meddle: _meddle,
    PassFate: _pass_fate,
    Overkill: _overkill,
    OverkillAll: _overkill_all,
    Steal: _steal,
    LastStandChoice: _last_stand,
}


class CrownsEngine:
    """Dice of Crowns for 2–6 players: Quick Play and every Advanced module."""

    kind = "crowns"
    title = "Dice of Crowns"
    min_players = 2
    max_players = 6
    options_model = CrownsOptions
    state_model = CrownsState

    def start(self, options: CrownsOptions, players: Sequence[str], dice: DiceSource) -> Outcome[CrownsState]:
        """S0: seat the players, pick the first player (host's first seat, or a die roll), hand them all 7 dice."""
        players = list(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(said("Dice of Crowns needs 2 to 6 players."))
        if len(set(players)) != len(players):
            raise IllegalAction(said("Each player can only take one seat."))
        first = players[dice.roll("first_player", len(players)) - 1] if options.first_player == "random" else players[0]
        state = CrownsState(
            options=options,
            players=tuple(Seat(id=p) for p in players),
            dice=new_dice(first, len(DIE_IDS)),
            active=first,
            phase=Phase.TURN_START,
        )
        table = Table(state, dice)
        table.emit(
            "game_started",
            players=players,
            first_player=first,
            how=options.first_player,
            claim_target=options.claim_target,
        )
        rounds.start_turn(table)
        return Outcome(table.s, table.events)

    def parse_action(self, data: Mapping[str, Any]) -> BaseModel:
        """Validate a JSON action (``{"type": "reroll", "group": "skulls"}``) into its model."""
        return parse_action(data)

    def apply(self, state: CrownsState, actor: str, action: BaseModel, dice: DiceSource) -> Outcome[CrownsState]:
        """Apply ``action`` by ``actor``; raises IllegalAction with a readable reason if it is not allowed now."""
        legality.check(state, actor, action)
        table = Table(state, dice)
        _HANDLERS[type(action)](table, actor, action)
        return Outcome(table.s, table.events)

    def prompts(self, state: CrownsState) -> list[Prompt]:
        """Who must act now: the decider, or every eligible player in a fate window (no ping, fate timer)."""
        if state.phase is Phase.GAME_OVER:
            return []
        if state.phase is Phase.FATE_WINDOW:
            rule = PHASES[Phase.FATE_WINDOW]
            return [_prompt(p, rule.decision, rule.label, "fate_window", False) for p in fate_eligible(state)]
        rule = PHASES[state.phase]
        player = legality.decider(state)
        assert player is not None
        return [_prompt(player, rule.decision, rule.label, "turn", True)]

    def legal_actions(self, state: CrownsState, player: str) -> list[BaseModel]:
        """Every action ``player`` may take now (empty if none)."""
        return legality.legal_actions(state, player)

    def forced_action(self, state: CrownsState, player: str) -> BaseModel | None:
        """The only legal action, when there is just one: the roll every turn starts with, the one
        group left to reroll, a Claim when 2 Fate can't be had. The bot takes it; no click."""
        if state.phase is Phase.FATE_WINDOW:
            return None  # passing is the one answer there only for someone nobody asked
        legal = legality.legal_actions(state, player)
        return legal[0] if len(legal) == 1 else None

    def default_action(self, state: CrownsState, player: str) -> BaseModel:
        """The timeout default of RULES.md 2.6 #37 for ``player``'s pending decision."""
        return legality.default_action(state, player)

    def computer_action(self, state: CrownsState, player: str, dice: DiceSource, strength: str = NORMAL) -> BaseModel:
        """The computer player's choice at ``strength`` (:mod:`rules.crowns.levels`); deterministic given the
        state (``dice`` is not used: a Strong player's rollouts are seeded by the position)."""
        return levels.choose(state, player, strength, self)

    def remove_player(self, state: CrownsState, player: str, dice: DiceSource) -> Outcome[CrownsState]:
        """2.6 #34: the seat is skipped from now on; fewer than 2 players left ends the game by forfeit."""
        if state.phase is Phase.GAME_OVER:
            raise IllegalAction(said("The game is over."))
        if player not in state.present():
            raise IllegalAction(said("That player is not in this game."))
        table = Table(state, dice)
        leaving.remove(table, player)
        return Outcome(table.s, table.events)

    def winners(self, state: CrownsState) -> list[str] | None:
        """None while the game goes on, else the single winner (there are no ties, 2.6 #36)."""
        return [state.winner] if state.phase is Phase.GAME_OVER and state.winner else None

    def rollers(self, events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        """Who rolled each die: the active player their roll, a rival their scroll die, whoever paid a Fate reroll;
        the first player and a dagger's random recipient are picks, and a scroll die rolled for a rival who has
        left rolls by itself: nobody's roll."""
        rolled: list[tuple[str, str]] = []
        for event in events:
            kind = event.get("type")
            if kind == "rolled":
                rolled += [(event["player"], d["die"]) for d in event["dice"]]
            elif kind == "fate_reroll" or (kind == "scroll_rolled" and not event.get("absent")):
                rolled.append((event["player"], event["die"]))
        return rolled


ENGINE = CrownsEngine()
_rollers: Rollers = ENGINE
