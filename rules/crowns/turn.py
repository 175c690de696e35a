"""The turn procedure of RULES.md 2.4 (S1–S10), run on a working copy of the state.

Each action handler changes a :class:`Table` and then calls the next step; steps run on by themselves until
someone must decide something (a prompt) or the game ends. Each part of the turn is a module of functions taking
the table (:mod:`rules.crowns.table` holds the working copy and its changes):

- :mod:`rules.crowns.rounds`: S1 a turn starts, S2–S4 the active player rolls, S9 the dice pass on;
- :mod:`rules.crowns.scrolls`: S5 scroll resolution (C1, C2);
- :mod:`rules.crowns.fate`: S6 the Fate window (C6, C7);
- :mod:`rules.crowns.evaluation`: S7 and S10, the sets and legendary results;
- :mod:`rules.crowns.betrayal`: S7c Betrayal and Overkill (C8);
- :mod:`rules.crowns.leaving`: 2.6 #34, a player leaving.

:class:`Table` is the one the engine makes: the steps the engine's action handlers call, each one part's.
"""

from __future__ import annotations

from typing import Literal

from rules.crowns import betrayal, evaluation, fate, leaving, rounds, scrolls
from rules.crowns.state import Dice, Die, DieState, die_value
from rules.crowns.table import Tabletop


class Table(Tabletop):
    """A working copy of one state plus the events of the action being applied, with the turn's steps."""

    # -- the steps that lead back to an earlier part (see Tabletop) ----------------------------

    def resolve_scrolls(self) -> None:
        """S5: hand out new scrolls, else go on."""
        scrolls.resolve_scrolls(self)

    def after_resolution(self) -> None:
        """After scrolls are resolved: the Fate window, then evaluation."""
        fate.after_resolution(self)

    def open_window(self, kind: Literal["post_resolution", "pre_scroll"]) -> bool:
        """Open a Fate window if someone can afford a spend in it."""
        return fate.open_window(self, kind)

    # -- the steps the engine's action handlers take ---------------------------------------------

    def start_turn(self) -> None:
        """S1: the active player's turn begins."""
        rounds.start_turn(self)

    def own_roll(self, die_ids: list[str], reason: Literal["turn_roll", "reroll"], group: str | None = None) -> None:
        """S2: the active player rolls ``die_ids``."""
        rounds.own_roll(self, die_ids, reason, group)

    def end_turn(self, reason: str) -> None:
        """S9: the dice pass to the next player."""
        rounds.end_turn(self, reason)

    def assign_scroll(self, die_id: str, rival: str) -> None:
        """C1: one scroll die goes to ``rival``."""
        scrolls.assign_scroll(self, die_id, rival)

    def roll_scrolls(self) -> None:
        """S5b: rivals roll their scroll dice one by one."""
        scrolls.roll_scrolls(self)

    def default_dagger_recipient(self) -> str | None:
        """The dagger's default recipient."""
        return scrolls.default_dagger_recipient(self)

    def give_dagger(self, to: str | None, how: str) -> None:
        """C2: the rolled dagger goes to ``to``."""
        scrolls.give_dagger(self, to, how)

    def pass_fate(self, player: str) -> None:
        """``player`` is done with this Fate window."""
        fate.pass_fate(self, player)

    def fate_reroll(self, player: str, die_id: str, kind: Literal["own", "meddle"]) -> None:
        """C6/C7: spend Fate and reroll one die where it is."""
        fate.fate_reroll(self, player, die_id, kind)

    def score_sets(self) -> None:
        """S7b–h: the sets, in RULES.md order."""
        evaluation.score_sets(self)

    def six_skulls(self, choice: Literal["claim", "fate"]) -> None:
        """C5: 1 Claim or 2 Fate, then the turn ends."""
        evaluation.six_skulls(self, choice)

    def steal_claim(self, rival: str) -> None:
        """C9: take a Claim from ``rival``."""
        evaluation.steal_claim(self, rival)

    def chosen_overkill(self, die_id: str, rival: str) -> None:
        """C8: one chosen extra dagger goes to ``rival``."""
        betrayal.chosen_overkill(self, die_id, rival)

    def remove(self, player: str) -> None:
        """2.6 #34: ``player`` leaves."""
        leaving.remove(self, player)


def new_dice(first: str, count: int) -> tuple[Die, ...]:
    """All dice handed to the first player (S0)."""
    return Dice(die_value(str(i), None, first, DieState.HANDED, False) for i in range(1, count + 1))
