"""The local Discord refuses a scheduled event as Discord would (the OpenAPI description's external event, and
Discord's own rules beyond it), so a bot that plans events wrongly fails its tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from localdiscord.events import check_event, new_event
from localdiscord.responses import DiscordError

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def body(**changes: Any) -> dict[str, Any]:
    start = NOW + timedelta(days=1)
    return {
        "name": "Session",
        "privacy_level": 2,
        "entity_type": 3,
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + timedelta(hours=3)).isoformat(),
        "entity_metadata": {"location": "https://discord.com/channels/1/2"},
    } | changes


def refused(data: Any, existing: dict[str, Any] | None = None) -> str:
    with pytest.raises(DiscordError) as caught:
        check_event(data, existing=existing, now=NOW)
    assert caught.value.status == 400
    return caught.value.message


def test_a_good_external_event_passes_and_a_change_is_checked_against_it() -> None:
    check_event(body(), existing=None, now=NOW)
    event = new_event(9, 1, {"id": "3"}, body())
    later = {"scheduled_start_time": (NOW + timedelta(days=2)).isoformat()}
    assert "end must follow" in refused(later, event)  # moved past its own end
    check_event(later | {"scheduled_end_time": (NOW + timedelta(days=3)).isoformat()}, existing=event, now=NOW)
    assert "end must follow" in refused({"scheduled_end_time": NOW.isoformat()}, event)
    assert "status" in refused({"status": 3}, event)  # a scheduled event can't jump to completed


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"name": "x" * 101}, "name"),
        ({"name": None}, "name"),
        ({"description": "x" * 1001}, "description"),
        ({"privacy_level": 1}, "privacy_level"),
        ({"entity_type": 2}, "entity_type"),
        ({"channel_id": "5"}, "channel_id"),
        ({"entity_metadata": {}}, "location"),
        ({"entity_metadata": {"location": "x" * 101}}, "location"),
        ({"scheduled_start_time": "tomorrow"}, "scheduled_start_time"),
        ({"scheduled_start_time": (NOW - timedelta(hours=1)).isoformat()}, "past"),
        ({"scheduled_end_time": None}, "end"),
    ],
)
def test_what_discord_refuses_is_refused(changes: dict[str, Any], why: str) -> None:
    assert why in refused(body(**changes))


def test_a_body_that_is_not_an_object_is_refused() -> None:
    refused(["not", "an", "event"])
