"""How the Vices & Vengeance table narrates what happened: the sentences players read on the board and in
``/game log``, checked on the events the engine emits."""

from __future__ import annotations

from typing import Any

from bot.models import Seat, Session, Status
from cogs.vices.table_view import narrate

NAMES = {"P1": "Alice", "P2": "Bob", "P3": "Carol"}


def session() -> Session:
    seats = [Seat(player=p, user_id=100 + i, name=n) for i, (p, n) in enumerate(NAMES.items())]
    return Session(
        id=1, guild_id=1, channel_id=2, kind="vices", status=Status.ACTIVE, host_id=100, options={}, seats=seats
    )


def told(*events: dict[str, Any]) -> list[str]:
    return narrate(session(), list(events))


def removed(*units: dict[str, Any]) -> dict[str, Any]:
    points = sum(u["points"] for u in units)
    return {"type": "removed", "player": "P1", "units": list(units), "points": points, "turn_score": points}


def test_a_removed_nemesis_d20_is_named_by_its_owner_as_on_the_board() -> None:
    bobs = {"unit": "N.Greed", "dice": [{"die": "N.Greed", "value": 6, "owner": "P2"}], "points": 14}
    assert told(removed(bobs)) == ["**Alice** removes **Bob**'s d20 → 14 (turn 14)."]
    # Logs written before the owner was recorded still read.
    old = {"unit": "N.Greed", "dice": [{"die": "N.Greed", "value": 6}], "points": 14}
    assert told(removed(old)) == ["**Alice** removes Greed d20 → 14 (turn 14)."]
