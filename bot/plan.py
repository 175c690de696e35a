"""Decide, then send: what drawing a session's main board does, decided from the session, its board and the click
that asked for it, before any Discord call. Discord-free and tested on its own (``tests/core/test_plan.py``); the
publisher carries a plan out.

The rules (a channel stays readable):
- a board that already shows the session's version changes nothing (a click on it is answered with it);
- an ended game's board shrinks to one line saying why;
- while nobody new must be asked to act, the board is edited in place;
- when someone new must be, the board retires to one line and a new board is posted that pings exactly them —
  never the member whose click caused it;
- a click on an older copy of the board (a ``/game status`` repost) shrinks that copy too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.models import Board, Session, Status


class Step(StrEnum):
    """What happens to the main board."""

    NOTHING = "nothing"
    """It already shows this version (a click on it is answered with it as it is)."""
    RETIRE = "retire"
    """The game was ended: the board shrinks to one line, and nothing replaces it."""
    EDIT = "edit"
    """Edited in place (a new board is posted instead if its message is gone)."""
    POST = "post"
    """The board (if any) retires to one line and a new one is posted, pinging ``Plan.pings``."""


@dataclass(frozen=True)
class Plan:
    """What one drawing of the main board does."""

    step: Step
    asked: list[str] = field(default_factory=list)
    """Players the board asks to act (stored with it: who was pinged, or did not need to be)."""
    pings: list[int] = field(default_factory=list)
    """Members a new board pings (``Step.POST`` only)."""
    through_click: bool = False
    """The board's own change is the answer to the click that came from it."""
    retire_clicked: bool = False
    """The click came from an older copy of the board: that copy shrinks to one line (as the click's answer)."""


def plan_board(session: Session, asked: list[str], *, clicker: int | None, clicked: int | None) -> Plan:
    """The plan for drawing ``session``'s main board now.

    ``asked``: the players its prompts ask to act now (members, pinging prompts); ``clicker``: the member whose click
    or command caused the drawing, if any; ``clicked``: the message of this session that click came from, if any.
    """
    board = session.board
    on_board = board is not None and clicked == board.message_id
    if board is not None and board.shown_version >= session.version:
        return Plan(Step.NOTHING, asked=list(board.asked), through_click=on_board)
    if session.status is Status.ABANDONED:
        return Plan(Step.RETIRE, through_click=on_board, retire_clicked=clicked is not None and not on_board)
    newly = _newly_asked(session, board, asked, clicker)
    pings = [u for p in newly if (u := session.seat_of_player(p).user_id) is not None]
    elsewhere = clicked is not None and not on_board
    if board is not None and not pings and session.status is not Status.FINISHED:
        return Plan(Step.EDIT, asked=asked, through_click=on_board, retire_clicked=elsewhere)
    return Plan(Step.POST, asked=asked, pings=pings, through_click=on_board, retire_clicked=elsewhere)


def _newly_asked(session: Session, board: Board | None, asked: list[str], clicker: int | None) -> list[str]:
    """Players asked now who the board did not ask already, but for the member whose click caused this."""
    already = set(board.asked) if board is not None else set()
    seat = session.seat_of_user(clicker) if clicker is not None else None
    return [p for p in asked if p not in already and (seat is None or p != seat.player)]
