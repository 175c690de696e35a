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

:class:`Table` is the one the engine makes (its action handlers call the parts' steps with it); it fills in the
three steps that lead back to an earlier part (:class:`rules.crowns.table.Tabletop`).
"""

from __future__ import annotations

from typing import Literal

from rules.crowns import fate, scrolls
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


def new_dice(first: str, count: int) -> tuple[Die, ...]:
    """All dice handed to the first player (S0)."""
    return Dice(die_value(str(i), None, first, DieState.HANDED, False) for i in range(1, count + 1))
