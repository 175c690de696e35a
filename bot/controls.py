"""Restart-safe controls: everything needed to route a click, a select or a modal is in its custom_id.

Each owner of controls has its own namespace, the first field of the custom_id:

=====  ==================================================================  ============================
``a``  an engine action: ``a:<session>:<version>[@<record>]:<action>``     the service, via ``act``
``m``  a modal whose inputs fill in an action: same fields as ``a``       the service, via ``act``
``l``  the lobby: ``l:<session>:<key>[:<arg>]``                          ``bot.lobby``
``c``  the core's own buttons (confirm, undo, redo): ``c:<session>:<key>``  ``bot.core``
``u``  a game's own controls: ``u:<kind>:<session>:<key>[@<drawn>][:<arg>]``  the game's spec
=====  ==================================================================  ============================

An engine action travels as ``type;field=value;…`` (see :func:`encode_action`), so no game writes a
click codec of its own. The bot's ``on_interaction`` routes every click, select and modal submit whose custom_id
is in one of these namespaces (:data:`CONTROL_NAMESPACES`), straight from the interaction: no discord.py View or
DynamicItem, which would rebuild the clicked message's whole View to find the item (about 0.1 ms a click).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

import discord

from bot.replies import Reply, report_error

if TYPE_CHECKING:
    from bot.service import Expect

CUSTOM_ID_MAX = 100
SELECTED = "$"
"""An action field whose value is the option picked in a select (``$*`` for every option picked)."""
SELECTED_ALL = "$*"

Handler = Callable[[Reply, str, list[str]], Awaitable[None]]
_PLAIN = re.compile(r"[A-Za-z_][\w.\-]*")
_JSON_START = re.compile(r'["\[{]|-?\d|true$|false$|null$')


class ControlTooLong(ValueError):
    """An action does not fit in a custom_id (a game drew a control it must shorten)."""


def encode_value(value: Any) -> str:
    """A field value: a plain identifier (or a select marker) as is, anything else as compact JSON."""
    if value in (SELECTED, SELECTED_ALL):
        return str(value)
    if isinstance(value, str) and _PLAIN.fullmatch(value) and value not in ("true", "false", "null"):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def decode_value(text: str) -> Any:
    """The inverse of :func:`encode_value`."""
    return json.loads(text) if _JSON_START.match(text) else text


def encode_action(action: Mapping[str, Any]) -> str:
    """``{"type": "assign_scroll", "die": "3", "rival": "P2"}`` → ``assign_scroll;die="3";rival=P2``.

    ``;`` never appears outside a JSON string, since anything but a plain identifier is JSON.
    """
    data = dict(action)
    parts = [str(data.pop("type"))]
    for key, value in data.items():
        parts.append(f"{key}={encode_value(value)}")
    return ";".join(parts)


def decode_action(text: str, values: list[str] | None = None) -> dict[str, Any]:
    """The action encoded by :func:`encode_action`; ``$`` / ``$*`` take the select's chosen values."""
    kind, *fields = _split(text)
    action: dict[str, Any] = {"type": kind}
    for field in fields:
        key, _, raw = field.partition("=")
        if raw == SELECTED:
            action[key] = values[0] if values else None
        elif raw == SELECTED_ALL:
            action[key] = list(values or [])
        else:
            action[key] = decode_value(raw)
    return action


def _split(text: str) -> list[str]:
    """Split on ``;`` outside JSON strings."""
    parts: list[str] = []
    current: list[str] = []
    quoted = escaped = False
    for char in text:
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        elif char == ";":
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def _checked(custom_id: str) -> str:
    if len(custom_id) > CUSTOM_ID_MAX:
        raise ControlTooLong(f"custom_id over {CUSTOM_ID_MAX} characters: {custom_id!r}")
    return custom_id


def action_id(session_id: int, expect: Expect, action: Mapping[str, Any], *, namespace: str = "a") -> str:
    """The custom_id of a control that takes ``action`` on ``session_id`` as it was at ``expect``."""
    # A record key may hold colons (``troupe:123``): quoted, it stays one field of the custom_id.
    version = f"{expect.version}@{quote(expect.record, safe='')}" if expect.record else str(expect.version)
    return _checked(f"{namespace}:{session_id}:{version}:{encode_action(action)}")


@dataclass(frozen=True)
class ActionRoute:
    """A decoded ``a:``/``m:`` custom_id."""

    session_id: int
    version: int
    record: str | None
    action: str
    """The encoded action, decoded with the chosen values by :func:`decode_action`."""


def parse_action_id(rest: str) -> ActionRoute:
    """The fields after the namespace of an action or modal custom_id."""
    session, version, action = rest.split(":", 2)
    number, _, record = version.partition("@")
    return ActionRoute(int(session), int(number), unquote(record) or None, action)


def lobby_id(session_id: int, key: str, arg: object = "") -> str:
    """The custom_id of a lobby control."""
    return _checked(f"l:{session_id}:{key}" + (f":{arg}" if arg != "" else ""))


def core_id(session_id: int, key: str, version: int | None = None) -> str:
    """The custom_id of one of the core's own buttons (confirm, undo, redo), made on ``version`` if given
    (an undo clicked twice on the same board takes back one entry)."""
    return _checked(f"c:{session_id}:{key}" + (f":{version}" if version is not None else ""))


def ui_id(kind: str, session_id: int, key: str, arg: object = "", *, drawn: int | None = None) -> str:
    """The custom_id of a game's own control, routed to its spec's ``on_ui``; ``drawn``: the version (of one of
    the session's records, which the game names) it was drawn on, for the game to expect (``Reply.drawn``)."""
    at = f"@{drawn}" if drawn is not None else ""
    return _checked(f"u:{kind}:{session_id}:{key}{at}" + (f":{arg}" if arg != "" else ""))


def form_id(kind: str, session_id: int, version: int, key: str, arg: object = "") -> str:
    """The custom_id of a game's own form, opened on ``version`` of its session: routed like :func:`ui_id`, and
    applied once however often it is sent (a client's retry of a slow answer; ``Service.once``)."""
    return _checked(f"u:{kind}:{session_id}@{version}:{key}" + (f":{arg}" if arg != "" else ""))


@dataclass(frozen=True)
class UiRoute:
    """A decoded ``u:`` custom_id."""

    kind: str
    session_id: int
    version: int | None
    """The version a form was opened on (:func:`form_id`); None for a control."""
    key: str
    arg: str
    drawn: int | None = None
    """The version of the record a control was drawn on (:func:`ui_id`'s ``drawn``), for the game to expect."""


def parse_ui_id(rest: str) -> UiRoute:
    """The fields after the namespace of a game's own control or form."""
    kind, _, rest = rest.partition(":")
    session, _, rest = rest.partition(":")
    key, _, arg = rest.partition(":")
    key, _, drawn = key.partition("@")
    number, _, version = session.partition("@")
    return UiRoute(kind, int(number), int(version) if version else None, key, arg, int(drawn) if drawn else None)


class Router:
    """Dispatches every routed control to the handler of its namespace."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}

    def on(self, namespace: str, handler: Handler) -> None:
        """Send controls of ``namespace`` to ``handler(reply, rest_of_custom_id, chosen_values)``."""
        self._handlers[namespace] = handler

    @property
    def namespaces(self) -> frozenset[str]:
        """The namespaces routed (one per owner of controls)."""
        return frozenset(self._handlers)

    async def dispatch(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        """Route one interaction; every failure becomes a private answer."""
        namespace, _, rest = custom_id.partition(":")
        handler = self._handlers.get(namespace)
        reply = Reply.of(interaction, private=True)
        try:
            if handler is None:
                raise LookupError(f"no handler for custom_id {custom_id!r}")
            await handler(reply, rest, values)
        except Exception as exc:
            await report_error(interaction, exc)
        # The watchdog stays armed: the answer may still be on its way (a drawing behind a slow edit), and
        # it defers the click if nothing was sent in time. Sending the answer disarms it.


CONTROL_NAMESPACES = ("a:", "l:", "m:", "c:", "u:")
"""The custom_id prefixes the Router routes for clicks and selects (``almcu`` above)."""
