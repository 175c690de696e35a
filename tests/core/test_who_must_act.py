"""The board's first line names who must act: players asked the same thing by the same time share one part."""

from __future__ import annotations

from bot.board import who_must_act
from bot.models import Deadline, Seat, Session, Status
from rules.engine import Prompt


def table(*deadlines: Deadline) -> Session:
    seats = [Seat(player=p, user_id=100 + i, name=p) for i, p in enumerate(("P1", "P2", "P3"))]
    return Session(
        id=1,
        guild_id=1,
        channel_id=2,
        kind="t",
        status=Status.ACTIVE,
        host_id=100,
        options={},
        seats=seats,
        deadlines=list(deadlines),
    )


def test_the_same_question_by_the_same_deadline_is_asked_once() -> None:
    game = table(*(Deadline(player=p, decision="pair", seconds=60, at=1000) for p in ("P1", "P2", "P3")))
    prompts = [Prompt(player=p, decision="pair", label="pick a pair") for p in ("P1", "P2", "P3")]
    assert who_must_act(game, prompts) == "<@100>, <@101> and <@102> to pick a pair (<t:1000:R>)"


def test_different_questions_or_deadlines_stay_apart() -> None:
    game = table(Deadline(player="P1", decision="roll", seconds=60, at=1000))
    prompts = [
        Prompt(player="P1", decision="roll", label="roll the dice"),
        Prompt(player="P2", decision="roll", label="roll the dice"),
        Prompt(player="P3", decision="dagger", label="give the dagger"),
    ]
    assert who_must_act(game, prompts) == (
        "<@100> to roll the dice (<t:1000:R>); <@101> to roll the dice; <@102> to give the dagger"
    )
