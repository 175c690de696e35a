"""Guild scheduled events (``/guilds/{guild_id}/scheduled-events``), checked as Discord checks them.

Only external events exist here (a location, no channel): the kind a bot plans for a text channel's game. A body
is checked against the OpenAPI description's ``ExternalScheduledEventCreateRequest`` (and its ``Patch`` twin) —
lengths, types, required fields — and against Discord's own rules beyond it: an external event needs an end time
after its start, and a start not in the past.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from localdiscord.responses import DiscordError
from localdiscord.validation import FormErrors

EXTERNAL = 3
GUILD_ONLY = 2
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
NAME_MAX, DESCRIPTION_MAX, LOCATION_MAX = 100, 1000, 100
STATUS_MOVES = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
"""The status changes Discord allows."""


def _when(form: FormErrors, body: dict[str, Any], key: str) -> datetime | None:
    value = body.get(key)
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        form.add((key,), "DATE_TIME_TYPE_PARSE", "Could not parse date-time.")
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _text(form: FormErrors, body: dict[str, Any], key: str, limit: int, *, nullable: bool, required: bool) -> None:
    if key not in body:
        if required:
            form.add((key,), "BASE_TYPE_REQUIRED", "This field is required")
        return
    value = body[key]
    if value is None and nullable:
        return
    if not isinstance(value, str):
        form.add((key,), "BASE_TYPE_STRING", "Must be a string.")
    elif not value.strip() and required:
        form.add((key,), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        form.max_length((key,), value, limit)


def check_event(body: Any, *, existing: dict[str, Any] | None, now: datetime) -> None:
    """Raise DiscordError (400) if Discord would refuse this body: a new event (``existing`` None) or a change."""
    if not isinstance(body, dict):
        raise DiscordError(400, 50109, "The request body contains invalid JSON.")
    form = FormErrors()
    creating = existing is None
    _text(form, body, "name", NAME_MAX, nullable=False, required=creating)
    _text(form, body, "description", DESCRIPTION_MAX, nullable=True, required=False)
    entity = body["entity_type"] if "entity_type" in body else (existing or {}).get("entity_type")
    if entity != EXTERNAL:
        form.add(("entity_type",), "BASE_TYPE_CHOICES", "Value must be one of {3}.")  # the only kind here
    if ("privacy_level" in body or creating) and body.get("privacy_level") != GUILD_ONLY:
        form.add(("privacy_level",), "BASE_TYPE_CHOICES", "Value must be one of {2}.")
    if body.get("channel_id") is not None:
        form.add(("channel_id",), "GUILD_SCHEDULED_EVENT_CHANNEL_ID_INVALID", "An external event has no channel.")
    if "entity_metadata" in body or creating:
        metadata = body.get("entity_metadata")
        if not isinstance(metadata, dict):
            form.add(("entity_metadata",), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            _text(form, metadata, "location", LOCATION_MAX, nullable=False, required=True)
    if creating and "scheduled_start_time" not in body:
        form.add(("scheduled_start_time",), "BASE_TYPE_REQUIRED", "This field is required")
    start = _when(form, body, "scheduled_start_time")
    end = _when(form, body, "scheduled_end_time")
    if existing is not None:
        start = start or datetime.fromisoformat(existing["scheduled_start_time"])
        if "scheduled_end_time" not in body and existing.get("scheduled_end_time"):
            end = datetime.fromisoformat(existing["scheduled_end_time"])
    if end is None and not form.errors:
        form.add(("scheduled_end_time",), "GUILD_SCHEDULED_EVENT_END_TIME_REQUIRED", "An external event needs an end.")
    if start is not None and "scheduled_start_time" in body and start < now:
        form.add(("scheduled_start_time",), "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST", "Cannot schedule event in the past.")
    if start is not None and end is not None and end <= start:
        form.add(("scheduled_end_time",), "GUILD_SCHEDULED_EVENT_END_BEFORE_START", "The end must follow the start.")
    status = body.get("status")
    if status is not None and (existing is None or status not in STATUS_MOVES.get(existing["status"], set())):
        form.add(("status",), "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION", "Invalid status transition.")
    form.raise_if_any()


def new_event(event_id: int, guild_id: int, creator: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """The event Discord makes from a checked body (``ExternalScheduledEventResponse``)."""
    event = {
        "id": str(event_id),
        "guild_id": str(guild_id),
        "channel_id": None,
        "creator_id": creator["id"],
        "creator": creator,
        "name": "",
        "description": None,
        "image": None,
        "scheduled_start_time": "",
        "scheduled_end_time": None,
        "status": SCHEDULED,
        "entity_type": EXTERNAL,
        "entity_id": None,
        "entity_metadata": {"location": ""},
        "privacy_level": GUILD_ONLY,
        "user_count": 0,
        "recurrence_rule": None,
        "guild_scheduled_event_exceptions": [],
    }
    return changed(event, body)


def changed(event: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """``event`` with a checked change applied (times in Discord's own format)."""
    out = dict(event)
    for key in ("name", "description", "status", "privacy_level", "entity_metadata"):
        if key in body:
            out[key] = body[key]
    for key in ("scheduled_start_time", "scheduled_end_time"):
        if body.get(key) is not None:
            moment = datetime.fromisoformat(str(body[key]))
            moment = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
            out[key] = moment.astimezone(UTC).isoformat()
    return out
