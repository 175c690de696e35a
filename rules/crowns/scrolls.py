"""S5, scroll resolution (RULES.md 2.4): new scrolls go to rivals (C1), who roll them one by one; each outcome
applies before the next roll, a rolled dagger going where the active player chooses (C2)."""

from __future__ import annotations

from rules.crowns.scoring import dagger_default, dagger_recipients, pending_scrolls
from rules.crowns.state import DieState, Face, Phase, scroll_roll
from rules.crowns.table import RETURNED_STATE, Tabletop

# Enum members tested in per-die loops, as module names (see rules.crowns.state for why).
_PENDING_SCROLL = DieState.PENDING_SCROLL


def resolve_scrolls(t: Tabletop) -> None:
    """S5: hand out new scrolls (by choice, or at once when only one rival is left), else go on."""
    pending = pending_scrolls(t.s)
    if not pending:
        t.after_resolution()
        return
    rivals = t.s.rivals(t.s.active)
    if len(rivals) == 1:
        for die_id in pending:
            assign_scroll(t, die_id, rivals[0])
    else:
        t.put(phase=Phase.SCROLL_ASSIGN)


def assign_scroll(t: Tabletop, die_id: str, rival: str) -> None:
    """C1: one scroll die goes to ``rival``; rolling starts once every new scroll is out."""
    s = t.s
    t.set_die(die_id, holder=rival, state=DieState.AT_RIVAL)
    t.put(scroll_queue=(*s.scroll_queue, scroll_roll(die_id, rival)))
    t.emit("scroll_assigned", player=s.active, die=die_id, rival=rival)
    if any(d.state is _PENDING_SCROLL for d in s.dice):
        return
    order = {r: i for i, r in enumerate(s.rivals(s.active))}
    # Stable sort: rivals clockwise from the active player, each in assignment order (S5b).
    t.put(scroll_queue=tuple(sorted(s.scroll_queue, key=lambda r: order.get(r.rival, len(order)))))
    roll_scrolls(t)


def roll_scrolls(t: Tabletop) -> None:
    """S5b: rivals roll their scroll dice one by one; each outcome applies before the next roll."""
    s = t.s
    while s.scroll_queue:
        item = s.scroll_queue[0]
        t.put(scroll_queue=s.scroll_queue[1:], rolling=item)
        face = t.roll_face(item.die)
        t.set_die(item.die, face=face, by_fate=False)
        scroll_rolled(t, item.rival, item.die, face)
        if s.options.fate and s.options.fate_windows == "also_pre_scroll" and t.open_window("pre_scroll"):
            return
        if not scroll_outcome(t):
            return
    resolve_scrolls(t)


def scroll_rolled(t: Tabletop, rival: str, die_id: str, face: Face) -> None:
    """Tell of a rival's scroll roll; one rolled for a rival who has left is marked ``absent`` (nobody's roll:
    the luck statistics don't count it for them)."""
    absent = {"absent": True} if t.s.seat(rival).left else {}
    t.emit("scroll_rolled", player=rival, active=t.s.active, die=die_id, face=str(face), **absent)


def scroll_outcome(t: Tabletop) -> bool:
    """Apply the rolled scroll die's face; False when its dagger waits for the rival's choice."""
    s = t.s
    item = s.rolling
    assert item is not None
    die = s.die(item.die)
    rival_left = s.seat(item.rival).left
    if die.face is Face.CROWN:
        if rival_left:
            t.set_die(die.id, holder=None, state=DieState.IN_TRANSIT)
        else:
            t.set_die(die.id, state=DieState.LOCKED)
        t.emit("die_kept", player=item.rival, die=die.id, face=str(die.face), in_transit=rival_left)
    elif die.face is Face.DAGGER:
        choices = dagger_recipients(s)
        if len(choices) > 1 and not rival_left and not s.seat(s.active).left:
            t.put(phase=Phase.DAGGER_ASSIGN)
            return False
        give_dagger(t, default_dagger_recipient(t), "only_choice" if len(choices) <= 1 else "default")
        return True
    else:
        assert die.face is not None  # it was just rolled
        t.set_die(die.id, holder=s.active, state=RETURNED_STATE[die.face])
        t.emit("die_returned", player=item.rival, to=s.active, die=die.id, face=str(die.face))
    t.put(rolling=None)
    return True


def default_dagger_recipient(t: Tabletop) -> str | None:
    """The dagger's default recipient; under ``random`` the dice pick among the allowed players."""
    choices = dagger_recipients(t.s)
    if t.s.options.dagger_timeout_default == "random" and choices:
        return choices[t.dice.roll("dagger_recipient", len(choices)) - 1]
    return dagger_default(t.s)


def give_dagger(t: Tabletop, to: str | None, how: str) -> None:
    """C2: the rolled dagger goes to ``to`` (None: the roller left, so it goes into transit)."""
    s = t.s
    item = s.rolling
    assert item is not None
    if to is None:
        t.set_die(item.die, holder=None, state=DieState.IN_TRANSIT)
    else:
        t.set_die(item.die, holder=to, state=DieState.LOCKED)
    t.emit("dagger_given", player=item.rival, to=to, die=item.die, how=how)
    t.put(rolling=None)
