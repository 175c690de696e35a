"""Interactions the fake sends (slash commands, clicks, selects, modal submits) and what became of them."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from localdiscord.changes import Changes
from localdiscord.guild import Channel, Member, Role
from localdiscord.messages import Message
from localdiscord.validation import check_option_value, modal_fields

if TYPE_CHECKING:
    from localdiscord.state import World


class InteractionType:
    """Interaction types."""

    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType:
    """Interaction callback (response) types."""

    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


# Which initial responses Discord accepts for each interaction type.
ALLOWED_CALLBACKS = {
    InteractionType.APPLICATION_COMMAND: {4, 5, 9},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
}

OPTION_TYPE_NAMES = {3: "string", 4: "integer", 5: "boolean", 6: "user", 7: "channel", 8: "role", 10: "number"}


class OptionRejected(Exception):
    """Discord's client would not send this command invocation (missing or invalid option)."""


@dataclass(eq=False)
class InteractionResult:
    """One interaction sent to the bot, and everything the bot did in answer to it."""

    changes: Changes
    id: int
    type: int
    channel: Channel
    member: Member
    payload: dict[str, Any] = field(default_factory=dict)
    token: str = field(default_factory=lambda: "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(60))
    # The message a click/select (or a modal opened by a click) came from.
    source: Message | None = None
    sent_at: float = 0.0
    deadline: float = 0.0
    callback_at: float | None = None
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    original: Message | None = None
    followup_messages: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)
    edits_at_ack: int = 0
    no_response_expected: bool = False
    trigger: InteractionResult | None = None
    """For a form's submission, the interaction that opened the form (its installs carry over)."""

    @property
    def error(self) -> str | None:
        """The first thing Discord rejected about this interaction (its invocation or the bot's answers)."""
        return self.errors[0] if self.errors else None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatching INTERACTION_CREATE to receiving the bot's initial response."""
        return None if self.callback_at is None else self.callback_at - self.sent_at

    def allow_no_response(self) -> None:
        """Declare that the bot is expected not to answer (e.g. it was killed); skips the teardown check."""
        self.no_response_expected = True

    def _raise_if_failed(self) -> None:
        if self.errors:
            raise AssertionError(f"interaction {self.id} failed: {'; '.join(self.errors)}")

    async def response(self, timeout: float = 5.0) -> dict[str, Any]:
        """Wait for the bot's initial response; return ``{"type": …, "data": …}`` as the bot sent it."""
        await self.changes.wait_for(lambda: self.response_type is not None or self.errors, timeout, what="a response")
        self._raise_if_failed()
        return {"type": self.response_type, "data": self.response_data}

    def _message_settled(self) -> bool:
        if self.original is None:
            return False
        if self.response_type == CallbackType.DEFERRED_UPDATE_MESSAGE:
            return self.original.edits > self.edits_at_ack
        return not self.original.loading

    async def message(self, timeout: float = 5.0) -> Message:
        """The message the response produced, once final: a deferred response must have been edited first.

        For a click answered by updating (type 7, or type 6 plus an edit) this is the clicked message.
        """
        await self.response(timeout)
        if self.response_type == CallbackType.MODAL:
            raise AssertionError(f"interaction {self.id} was answered with a modal, not a message")
        await self.changes.wait_for(
            lambda: self._message_settled() or self.errors, timeout, what="the response message"
        )
        self._raise_if_failed()
        assert self.original is not None
        return self.original

    async def choices(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """The choices the bot offered in answer to an autocomplete request."""
        response = await self.response(timeout)
        if response["type"] != CallbackType.AUTOCOMPLETE_RESULT:
            raise AssertionError(f"interaction {self.id} was not answered with autocomplete choices")
        return list((response["data"] or {}).get("choices", []))

    async def followups(self, n: int = 1, timeout: float = 5.0) -> list[Message]:
        """Wait until at least ``n`` follow-up messages exist; return them all, oldest first."""
        await self.changes.wait_for(lambda: len(self.followup_messages) >= n or self.errors, timeout, what="follow-ups")
        self._raise_if_failed()
        return list(self.followup_messages)

    def __repr__(self) -> str:
        return f"<InteractionResult {self.id} type={self.type} response={self.response_type} errors={self.errors}>"


def find_command(commands: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    """The synced chat-input command called ``name``."""
    return next((c for c in commands if c["name"] == name and c.get("type", 1) == 1), None)


class Uploader(Protocol):
    """Where a file a member attaches to a command goes first, as Discord's client uploads it (``MessageStore``)."""

    def store_upload(
        self,
        channel: Channel,
        filename: str,
        content: bytes,
        content_type: str | None = None,
        description: str | None = None,
    ) -> dict[str, Any]:
        """Keep the file; its attachment object."""
        ...


def build_command_data(
    world: World,
    uploads: Uploader,
    command: dict[str, Any],
    path: list[str],
    options: dict[str, Any],
    channel: Channel,
    *,
    focused: str | None = None,
    autocomplete: bool = False,
    client_checks: bool = True,
) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND interaction, options typed per the synced schema.

    With ``autocomplete``, the data of an autocomplete request instead: option ``focused`` is being typed
    (its value is the partial text, sent as typed; None: no option says so, as only a modified client
    sends) and required options may still be missing. Without
    ``client_checks``, values outside the schema's choices, ranges and lengths go through (see
    ``check_option_value``).

    Raises ValueError for an invocation no client could produce (unknown subcommand or option) and
    OptionRejected for one Discord's client refuses (missing required option, value out of range).
    """
    schema_options = command.get("options") or []
    nesting: list[dict[str, Any]] = []
    for part in path:
        sub = next((o for o in schema_options if o["name"] == part and o["type"] in (1, 2)), None)
        if sub is None:
            raise ValueError(f"/{command['name']} has no subcommand (group) {part!r}")
        nesting.append({"type": sub["type"], "name": part, "options": []})
        schema_options = sub.get("options") or []
    if any(o["type"] in (1, 2) for o in schema_options):
        names = [o["name"] for o in schema_options]
        raise ValueError(f"/{' '.join([command['name'], *path])} needs a subcommand: one of {names}")
    resolved: dict[str, dict[str, Any]] = {}
    leaf = []
    for option in schema_options:
        if option["name"] == focused:
            if not option.get("autocomplete"):
                raise ValueError(f"option {focused!r} of /{command['name']} has no autocomplete")
            leaf.append(
                {
                    "name": focused,
                    "type": option["type"],
                    "value": str(options.get(option["name"], "")),
                    "focused": True,
                }
            )
        elif option["name"] in options:
            leaf.append(
                _typed_option(world, uploads, option, options[option["name"]], resolved, channel, client_checks)
            )
    unknown = set(options) - {o["name"] for o in schema_options}
    if unknown:
        raise ValueError(f"/{command['name']} has no option(s) {sorted(unknown)}")
    missing = [o["name"] for o in schema_options if o.get("required") and o["name"] not in options]
    if missing and not autocomplete:
        raise OptionRejected(f"missing required option(s) {missing}")
    wrapped = leaf
    for level in reversed(nesting):
        level["options"] = wrapped
        wrapped = [level]
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": wrapped}
    if resolved:
        data["resolved"] = resolved
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    return data


def _typed_option(
    world: World,
    uploads: Uploader,
    schema: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
    channel: Channel,
    client_checks: bool,
) -> dict[str, Any]:
    kind = schema["type"]
    if kind == 3 and isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)  # what a user types is text
    if kind in (6, 7, 8, 9):
        value = _resolve_entity(world, schema, value, resolved, channel)
    elif kind == 11:
        # A file the member attaches: (filename, bytes), uploaded first like Discord's client does.
        filename, content = value
        attachment = uploads.store_upload(channel, filename, content, "application/json")
        resolved.setdefault("attachments", {})[attachment["id"]] = attachment
        return {"name": schema["name"], "type": kind, "value": attachment["id"]}
    problem = check_option_value(schema, value, client=client_checks)
    if problem:
        raise OptionRejected(problem)
    return {"name": schema["name"], "type": kind, "value": value}


def _resolve_entity(
    world: World, schema: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], channel: Channel
) -> str:
    """Put a user/channel/role into ``resolved`` as Discord does and return its id as the option value."""
    if isinstance(value, Member):
        resolved.setdefault("users", {})[str(value.id)] = value.user_json()
        if value.roles is not None and not channel.is_dm:
            member = value.member_json()
            del member["user"]
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.to_json()
        return str(value.id)
    if isinstance(value, Channel):
        allowed = schema.get("channel_types")
        if allowed and value.type not in allowed:
            raise OptionRejected(f"{schema['name']}: channel type {value.type} not in {allowed}")
        data = value.to_json() | {"permissions": str(world.bot_permissions(value))}
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    raise ValueError(f"option {schema['name']} ({OPTION_TYPE_NAMES.get(schema['type'])}) needs a Member/Channel/Role")


def modal_submit_components(
    modal: dict[str, Any], values: dict[str, Any], *, client_checks: bool = True
) -> list[dict[str, Any]]:
    """The ``components`` of a MODAL_SUBMIT: each input of the modal with the value the user entered.

    Raises OptionRejected when Discord's client would refuse to submit (a required field empty, a length out of
    range, a select's values not among its options or too many). Without ``client_checks`` only Discord's own
    limit holds (4,000 characters a text input), as a modified client could send.
    """
    submitted: list[dict[str, Any]] = []
    unknown = set(values) - {f.get("custom_id") for row in modal["components"] for f in modal_fields(row)}
    if unknown:
        raise ValueError(f"the modal has no input(s) {sorted(unknown)}")
    for row in modal["components"]:
        fields = []
        for field_ in modal_fields(row):
            if field_.get("type") != 4:
                chosen = [str(v) for v in values.get(field_["custom_id"], [])]
                if client_checks:
                    _check_select_values(field_, chosen)
                fields.append({"type": field_["type"], "custom_id": field_["custom_id"], "values": chosen})
                continue
            text = str(values.get(field_["custom_id"], field_.get("value") or ""))
            if client_checks and field_.get("required", True) and not text:
                raise OptionRejected(f"modal field {field_['custom_id']} is required")
            low, high = (field_.get("min_length", 0), field_.get("max_length", 4000)) if client_checks else (0, 4000)
            if text and not low <= len(text) <= high:
                raise OptionRejected(f"modal field {field_['custom_id']}: length {len(text)} out of range")
            fields.append({"type": 4, "custom_id": field_["custom_id"], "value": text})
        if row.get("type") == 18:
            submitted.append({"type": 18, "id": row.get("id", 0), "component": fields[0]})
        elif fields:
            submitted.append({"type": 1, "components": fields})
    return submitted


def _check_select_values(select: dict[str, Any], chosen: list[str]) -> None:
    """Raise OptionRejected unless Discord's client could submit ``chosen`` in this select of a modal."""
    low = select.get("min_values", 1) if select.get("required", True) or chosen else 0
    high = select.get("max_values", 1)
    if not low <= len(chosen) <= high:
        raise OptionRejected(f"modal select {select['custom_id']}: {len(chosen)} values, not {low}..{high}")
    offered = [o["value"] for o in select.get("options", [])]
    if select.get("type") == 3 and not set(chosen) <= set(offered):
        raise OptionRejected(f"modal select {select['custom_id']}: {chosen} not among {offered}")


def now() -> float:
    """The clock used for deadlines and latencies."""
    return time.perf_counter()


def command_line(data: dict[str, Any]) -> str:
    """``/name sub`` for the data of a slash command (its subcommand group and subcommand, no option values)."""
    words = [data.get("name", "")]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        words.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(words)


def interaction_metadata(res: InteractionResult) -> dict[str, Any]:
    """A message's ``interaction_metadata``: the interaction that made it, with the installs that authorised it."""
    metadata: dict[str, Any] = {
        "id": str(res.id),
        "type": res.type,
        "user": res.member.user_json(),
        "authorizing_integration_owners": res.payload.get("authorizing_integration_owners", {}),
    }
    if res.type == InteractionType.MESSAGE_COMPONENT and res.source is not None:
        metadata["interacted_message_id"] = str(res.source.id)
    if res.type == InteractionType.MODAL_SUBMIT and res.trigger is not None:
        metadata["triggering_interaction_metadata"] = interaction_metadata(res.trigger)
    return metadata


def describe(res: InteractionResult) -> str:
    """A short description of an interaction for failure messages."""
    data = res.payload.get("data", {})
    what = f"/{data['name']}" if "name" in data else f"component {data.get('custom_id')}"
    return f"{what} by {res.member.name} in #{res.channel.name or 'DM'}"
