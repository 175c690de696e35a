"""A player leaving (RULES.md 2.6 #34): defaults settle their decisions, their dice go on, their tokens are gone,
and the game picks up where it stood without them."""

from __future__ import annotations

from rules.crowns.betrayal import finish_overkill
from rules.crowns.evaluation import twists_of_fate
from rules.crowns.fate import close_window
from rules.crowns.rounds import end_turn
from rules.crowns.scoring import dagger_recipients, fate_eligible, overkill_targets, pending_scrolls, steal_victims
from rules.crowns.scrolls import (
    assign_scroll,
    default_dagger_recipient,
    give_dagger,
    roll_scrolls,
    scroll_outcome,
    scroll_rolled,
)
from rules.crowns.state import DieState, Face, Phase
from rules.crowns.table import Tabletop


def remove(t: Tabletop, player: str) -> None:
    """``player`` leaves: defaults settle their decisions, their dice go on, their tokens are gone."""
    s = t.s
    was_active = s.active == player
    deciding_dagger = s.phase is Phase.DAGGER_ASSIGN and s.rolling is not None and s.rolling.rival == player
    if deciding_dagger:
        give_dagger(t, default_dagger_recipient(t), "default")
    t.set_seat(player, left=True, claims=0, fate=0, messenger=False)
    t.put(fate_passed=tuple(p for p in s.fate_passed if p != player))
    t.emit("player_left", player=player)
    if s.crown_holder == player:
        t.put(crown_holder=None)
        t.emit("crown_returned", player=player)
    present = s.present()
    if len(present) < 2:
        t.game_over(present[0], "forfeit")
    elif was_active:
        abandon_turn(t)
    else:
        for die in s.held(player):
            t.set_die(die.id, holder=None, state=DieState.IN_TRANSIT)
        if deciding_dagger:
            roll_scrolls(t)
        else:
            resume_after_leave(t)


def abandon_turn(t: Tabletop) -> None:
    """The active player left: dice at rivals resolve by the defaults, then the turn ends with no token."""
    s = t.s
    if s.rolling is not None:
        t.put(window=None)
        if s.phase is Phase.DAGGER_ASSIGN or s.die(s.rolling.die).face is Face.DAGGER:
            give_dagger(t, default_dagger_recipient(t), "default")
        else:
            scroll_outcome(t)
    t.put(window=None)
    while s.scroll_queue:
        item = s.scroll_queue[0]
        t.put(scroll_queue=s.scroll_queue[1:])
        face = t.roll_face(item.die)
        t.set_die(item.die, face=face, by_fate=False)
        t.put(rolling=item)
        scroll_rolled(t, item.rival, item.die, face)
        scroll_outcome(t)
    end_turn(t, "left")


def resume_after_leave(t: Tabletop) -> None:
    """A rival left: pick the game up where it stood without them."""
    s = t.s
    if s.phase is Phase.SCROLL_ASSIGN and len(s.rivals(s.active)) == 1:
        rival = s.rivals(s.active)[0]
        for die_id in pending_scrolls(s):
            assign_scroll(t, die_id, rival)
    elif s.phase is Phase.DAGGER_ASSIGN and len(dagger_recipients(s)) <= 1:
        give_dagger(t, default_dagger_recipient(t), "only_choice")
        roll_scrolls(t)
    elif s.phase is Phase.FATE_WINDOW and not fate_eligible(s):
        close_window(t)
    elif s.phase is Phase.OVERKILL_ASSIGN and len(overkill_targets(s)) <= 1:
        finish_overkill(t)
    elif s.phase is Phase.STEAL and not steal_victims(s):
        twists_of_fate(t)
