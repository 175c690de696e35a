"""Decide, then send: every case of what drawing a main board does (``bot.plan.plan_board``), on its own."""

from __future__ import annotations

import pytest

from bot.models import Board, Seat, Session, Status
from bot.plan import Plan, Step, plan_board

ALICE, BOB, CAROL = 101, 102, 103
BOARD, COPY = 900, 901


def table(
    version: int = 5, status: Status = Status.ACTIVE, shown: int | None = 4, asked: tuple[str, ...] = ()
) -> Session:
    """A three-seat table (Alice P1, Bob P2, Carol P3) whose board shows version ``shown`` (None: no board)."""
    session = Session(
        guild_id=1,
        channel_id=10,
        kind="race",
        status=status,
        host_id=ALICE,
        version=version,
        seats=[
            Seat(player="P1", user_id=ALICE, name="Alice"),
            Seat(player="P2", user_id=BOB, name="Bob"),
            Seat(player="P3", user_id=CAROL, name="Carol"),
        ],
    )
    if shown is not None:
        session.boards["board"] = Board(
            view="board", channel_id=10, message_id=BOARD, shown_version=shown, posted_at=0.0, asked=list(asked)
        )
    return session


@pytest.mark.parametrize(
    ("case", "session", "asked", "clicker", "clicked", "expected"),
    [
        ("up to date: nothing", table(shown=5), ["P1"], None, None, Plan(Step.NOTHING)),
        (
            "up to date, clicked: answered with the board as it is",
            table(shown=5, asked=("P1",)),
            ["P1"],
            ALICE,
            BOARD,
            Plan(Step.NOTHING, asked=["P1"], through_click=True),
        ),
        ("ended: the board retires", table(status=Status.ABANDONED), [], None, None, Plan(Step.RETIRE)),
        (
            "ended from an older copy: both shrink",
            table(status=Status.ABANDONED),
            [],
            BOB,
            COPY,
            Plan(Step.RETIRE, retire_clicked=True),
        ),
        (
            "the same player still asked: edited in place",
            table(asked=("P1",)),
            ["P1"],
            None,
            None,
            Plan(Step.EDIT, asked=["P1"]),
        ),
        (
            "the clicker asked again: edited in place, through the click, no ping for them",
            table(asked=()),
            ["P1"],
            ALICE,
            BOARD,
            Plan(Step.EDIT, asked=["P1"], through_click=True),
        ),
        (
            "someone new asked: a new board pings exactly them",
            table(asked=("P1",)),
            ["P2"],
            ALICE,
            BOARD,
            Plan(Step.POST, asked=["P2"], pings=[BOB], through_click=True),
        ),
        (
            "two new, one of them the clicker: only the other is pinged",
            table(asked=()),
            ["P1", "P3"],
            ALICE,
            BOARD,
            Plan(Step.POST, asked=["P1", "P3"], pings=[CAROL], through_click=True),
        ),
        (
            "no board yet (retired before the bot stopped): posted, pinging who must act",
            table(shown=None),
            ["P2"],
            None,
            None,
            Plan(Step.POST, asked=["P2"], pings=[BOB]),
        ),
        (
            "finished: the last board is posted anew",
            table(status=Status.FINISHED, asked=("P1",)),
            [],
            ALICE,
            BOARD,
            Plan(Step.POST, through_click=True),
        ),
        (
            "a click on an older copy: that copy shrinks, the board is edited",
            table(asked=("P1",)),
            ["P1"],
            BOB,
            COPY,
            Plan(Step.EDIT, asked=["P1"], retire_clicked=True),
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_plan(
    case: str, session: Session, asked: list[str], clicker: int | None, clicked: int | None, expected: Plan
) -> None:
    assert plan_board(session, asked, clicker=clicker, clicked=clicked) == expected, case
