"""Forms that take an engine action: built from the pydantic model of the action they submit, read back into it.

A form names the model of its action, the fields it fixes when it opens (the row scored, the pool) and an
:class:`Input` for each field typed or picked, by its path in the action (``value``, ``captain.name`` in a
nested model, ``dice.0`` in a pair, ``to.b`` in a mapping). Each input takes its label, description,
length limit and whether it is required from the model's field unless the form says otherwise. The fixed
fields travel in the modal's custom_id, encoded like a button's action (:func:`bot.controls.encode_action`),
and each input's custom_id is its path: so a submission is decoded by the core alone, after a restart too,
into the action it was opened for, and validated by the engine like a click.

Two routes: a form the core takes (``m:``, :func:`bot.interactions.Interactions.modal`, made against a version
like a board's button), or one the game answers itself (``u:<kind>:<session>:form:<action>``, its spec's
``on_ui`` with the key :data:`FORM`, reading it with :func:`read_action`).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, Union, get_args, get_origin

import discord
from annotated_types import Le
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from bot.controls import action_id, decode_action, encode_action, form_id
from bot.errors import InvalidInput
from bot.i18n import _, localize
from bot.models import Session
from bot.service import Expect

A = TypeVar("A")

FORM = "form"
"""The ``on_ui`` key of a form a game answers itself; its arg is the encoded action it was opened for."""
TITLE_MAX = LABEL_MAX = 45
DESCRIPTION_MAX = PLACEHOLDER_MAX = 100
TEXT_MAX = 4000
INPUTS_MAX = 5
OPTIONS_MAX = 25
_AGAIN = "~"
"""Between a path and a count in the custom_id of a second input filling the same list (two selects of traits)."""
_LINES = "[]"
"""After the path in the custom_id of an input whose lines are the items of a list."""


@dataclass(frozen=True)
class Input:
    """One input of a form: the action field it fills in, by path, and what the form says beyond the model."""

    path: str
    label: str | None = None
    """Default: the field's ``title``, else its name."""
    description: str | None = None
    """Default: the field's ``description``."""
    placeholder: str | None = None
    default: str | None = None
    long: bool = False
    required: bool | None = None
    """Default: whether the model requires the field."""
    max_length: int | None = None
    """Default: the field's own limit (its ``max_length``, or the digits of its ``le``), else 4,000."""
    lines: bool = False
    """The field is a list: one item a line typed (blank lines left out)."""
    options: Sequence[discord.SelectOption] = ()
    """A select of these instead of a text input; the values picked make a list (added to by each select)."""
    max_values: int | None = None


def tag_of(model: type[BaseModel]) -> str:
    """The ``type`` an action model is told apart by."""
    return str(model.model_fields["type"].default)


def action_modal(
    session: Session,
    model: type[BaseModel],
    inputs: Sequence[Input],
    *,
    title: str,
    fixed: Mapping[str, Any] | None = None,
    expect: Expect | None = None,
    game: bool = False,
) -> discord.ui.Modal:
    """A modal that takes ``model``'s action on ``session``: ``fixed`` fields as given, the others from ``inputs``.

    By default the core takes it, refused as stale like a board's button if ``session`` (or ``expect``'s
    record) has moved on; with ``game``, the game's ``on_ui`` gets it (key :data:`FORM`), once however often it is
    sent (:func:`bot.controls.form_id`). It is routed by its
    custom_id alone (so it survives a restart), never stored by discord.py.
    """
    if not 1 <= len(inputs) <= INPUTS_MAX:
        raise ValueError(f"a form has 1 to {INPUTS_MAX} inputs, not {len(inputs)}")
    action = {"type": tag_of(model), **(fixed or {})}
    if game:
        # Opened on this version: sent twice (a client's retry of a slow answer), it changes the session once.
        custom_id = form_id(session.kind, session.id, session.version, FORM, encode_action(action))
    else:
        custom_id = action_id(session.id, expect or Expect.of(session), action, namespace="m")
    modal = discord.ui.Modal(title=_cut(localize(title), TITLE_MAX), custom_id=custom_id)
    seen: dict[str, int] = {}
    for item in inputs:
        seen[item.path] = seen.get(item.path, 0) + 1
        custom_id = item.path + (_LINES if item.lines else "")
        if seen[item.path] > 1:
            custom_id += f"{_AGAIN}{seen[item.path]}"
        modal.add_item(_labelled(field_of(model, item.path), item, custom_id))
    modal.stop()
    return modal


def _labelled(info: FieldInfo, item: Input, custom_id: str) -> discord.ui.Label[Any]:
    name = item.path.rpartition(".")[2]
    # A model's titles and descriptions are declared at import, only marked (``N_``): said here.
    label = localize(item.label) if item.label else _(info.title or name.replace("_", " ").capitalize())
    description = localize(item.description) if item.description else info.description and _(info.description)
    component: discord.ui.TextInput[Any] | discord.ui.Select[Any]
    if item.options:
        options = list(item.options)[:OPTIONS_MAX]
        component = discord.ui.Select(
            custom_id=custom_id,
            options=options,
            min_values=0,
            max_values=min(item.max_values or len(options), len(options)),
            required=False,
            placeholder=_cut(localize(item.placeholder), PLACEHOLDER_MAX) if item.placeholder else None,
        )
    else:
        limit = min(item.max_length or _limit(info) or TEXT_MAX, TEXT_MAX)
        required = info.is_required() if item.required is None else item.required
        component = discord.ui.TextInput(
            custom_id=custom_id,
            style=discord.TextStyle.paragraph if item.long or item.lines else discord.TextStyle.short,
            required=required,
            min_length=1 if required else None,
            max_length=limit,
            default=item.default[:limit] if item.default else None,
            placeholder=_cut(localize(item.placeholder), PLACEHOLDER_MAX) if item.placeholder else None,
        )
    return discord.ui.Label(
        text=_cut(label, LABEL_MAX),
        description=_cut(description, DESCRIPTION_MAX) if description else None,
        component=component,
    )


def _limit(info: FieldInfo) -> int | None:
    """The longest text the field takes: its own length limit, or as many characters as its widest bound."""
    if get_origin(_unwrap(info.annotation)) in (list, tuple, dict):
        return None  # a collection's max_length counts its items (an input of lines), not characters
    bounds: list[int] = []
    for constraint in info.metadata:
        length = getattr(constraint, "max_length", None)
        if isinstance(length, int):
            return length
        bounds += [b for b in (getattr(constraint, "ge", None), getattr(constraint, "le", None)) if isinstance(b, int)]
    return max((len(str(b)) for b in bounds), default=None) if any(isinstance(c, Le) for c in info.metadata) else None


def field_of(model: type[BaseModel], path: str) -> FieldInfo:
    """The field ``path`` names in ``model``: through nested models, and into lists, tuples and mappings."""
    annotation: Any = model
    info = FieldInfo.from_annotation(model)
    for part in path.split("."):
        annotation = _unwrap(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            info = annotation.model_fields[part]
        else:
            args = get_args(annotation)
            if get_origin(annotation) is dict:
                element = args[1]
            elif (len(args) == 2 and args[1] is Ellipsis) or get_origin(annotation) is list:
                element = args[0]
            else:
                element = args[int(part)]
            info = FieldInfo.from_annotation(element)
        annotation = info.annotation
    return info


def _unwrap(annotation: Any) -> Any:
    """``X | None`` as ``X``."""
    if get_origin(annotation) in (Union, types.UnionType):
        kept = [a for a in get_args(annotation) if a is not type(None)]
        if len(kept) == 1:
            return kept[0]
    return annotation


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- reading a submission --------------------------------------------------------------------------------------


def form_data(interaction: discord.Interaction, encoded: str) -> dict[str, Any]:
    """The action a submitted form describes, as data: its fixed fields, and each input at its path (text
    without surrounding spaces, a select's values as a list)."""
    action = decode_action(encoded)
    data: dict[str, Any] = dict(interaction.data or {})
    for row in data.get("components", []):
        children = row.get("components") or ([row["component"]] if "component" in row else [])
        for child in children:
            path = str(child.get("custom_id", "")).partition(_AGAIN)[0]
            lines = path.endswith(_LINES)
            path = path.removesuffix(_LINES)
            if not path or path == "type":
                continue  # a custom_id never names the action's type: that is the form's own
            if "values" in child:
                _put(action, path, [str(v) for v in child["values"]], extend=True)
            elif "value" in child:
                text = str(child["value"])
                _put(action, path, lines_of(text) if lines else text.strip())
    return action


def lines_of(text: str) -> list[str]:
    """Text typed one item a line, as the items (blank lines left out)."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _put(action: dict[str, Any], path: str, value: Any, *, extend: bool = False) -> None:
    """Set ``path`` (``captain.name``, ``dice.1``) in ``action``, making the dicts and lists on the way."""
    *parents, last = path.split(".")
    here: Any = action
    for i, part in enumerate(parents):
        following = (parents[i + 1 :] or [last])[0]
        empty: Any = [] if following.isdigit() else {}
        here = _step(here, part, empty)
        if here is None:
            return
    if isinstance(here, list):
        if last.isdigit() and int(last) < INPUTS_MAX:
            here.extend([""] * (int(last) + 1 - len(here)))
            here[int(last)] = value
    elif isinstance(here, dict):
        current = here.get(last)
        here[last] = [*current, *value] if extend and isinstance(current, list) else value


def _step(here: Any, part: str, empty: Any) -> Any:
    if isinstance(here, dict):
        if not isinstance(here.get(part), dict | list):
            here[part] = empty
        return here[part]
    if isinstance(here, list) and part.isdigit() and int(part) < INPUTS_MAX:
        here.extend({} for _ in range(int(part) + 1 - len(here)))  # a dict each, never one shared
        return here[int(part)]
    return None


def read_action(interaction: discord.Interaction, encoded: str, parse: Callable[[Mapping[str, Any]], A]) -> A:
    """The action a submitted form takes, validated by ``parse`` (the engine's); InvalidInput naming the field
    that is wrong, said privately to whoever sent it."""
    data = form_data(interaction, encoded)
    try:
        return parse(data)
    except ValidationError as exc:
        raise InvalidInput.naming(exc, data["type"]) from None
