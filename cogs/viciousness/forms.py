"""The character form: a modal with the name, the concept and the traits (selects showing each trait's text).

The same form makes a troupe's captain, a new minion, an advancement's minion and a replacement; what
it makes is the key of its custom_id (``ui_id``), so a form opened before a restart is still taken after.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.board import static_view
from bot.controls import form_id, modal_fields, ui_id
from bot.errors import InvalidInput
from bot.models import Session
from cogs.viciousness.text import cut
from rules.viciousness.data import TRAITS, TraitDef
from rules.viciousness.engine import ENGINE
from rules.viciousness.state import CampaignState

SELECT_OPTIONS = 25
NAME_INPUT, CONCEPT_INPUT, TROUPE_INPUT = "name", "concept", "troupe"
TRAIT_SELECTS = ("traits1", "traits2")
MARKS = {"knowledge": "💡", "magic": "✨", "special": "✚"}


def trait_text(trait: TraitDef) -> str:
    """What a trait lets a character do, in one line: its push, knowledge, spell or special text."""
    dice = "; ".join(f"{'+' if c.when == 'add' else ''}{c.die} {c.condition}" for c in trait.dice)
    text = trait.push or trait.knowledge or trait.spell or trait.special or ""
    return " · ".join(p for p in (text, dice) if p)


def trait_option(trait: TraitDef, *, chosen: bool = False) -> discord.SelectOption:
    """A trait as a select option: its name (and mark), its text as the description."""
    mark = MARKS.get(trait.kind, "")
    return discord.SelectOption(
        label=cut(f"{trait.name} {mark}".strip(), 100),
        value=trait.name[:100],
        description=cut(trait_text(trait), 100),
        default=chosen,
    )


def all_traits(state: CampaignState) -> list[TraitDef]:
    """The seed's 27 traits and the campaign's custom ones, in alphabetical order."""
    return sorted((*TRAITS.values(), *state.traits), key=lambda t: t.name.casefold())


def trait_groups(state: CampaignState, exclude: Sequence[str] = ()) -> list[list[TraitDef]]:
    """Every trait a character may take, in even alphabetical chunks of at most 25 (a select's limit)."""
    traits = [t for t in all_traits(state) if t.name not in exclude][: SELECT_OPTIONS * len(TRAIT_SELECTS)]
    groups = max(1, -(-len(traits) // SELECT_OPTIONS))
    size = -(-len(traits) // groups)
    return [traits[i : i + size] for i in range(0, len(traits), size)]


def _text(
    label: str, custom_id: str, *, long: bool = False, required: bool = True, limit: int = 80, default: str = ""
) -> discord.ui.Label[Any]:
    style = discord.TextStyle.paragraph if long else discord.TextStyle.short
    text_input: discord.ui.TextInput[Any] = discord.ui.TextInput(
        custom_id=custom_id, style=style, required=required, max_length=limit, default=default[:limit] or None
    )
    return discord.ui.Label(text=label, component=text_input)


def pc_form(
    session: Session,
    state: CampaignState,
    *,
    key: str,
    arg: str,
    title: str,
    traits: tuple[int, int],
    troupe_name: bool = False,
    typed: Typed | None = None,
) -> discord.ui.Modal:
    """The form for a new character with ``traits`` (fewest, most) traits; with ``troupe_name``, the troupe's
    name first; filled in with what was ``typed`` before (a form sent back to be fixed)."""
    typed = typed or Typed()
    low, high = traits
    how_many = f"{low}" if low == high else f"{low} to {high}"
    modal = discord.ui.Modal(
        title=cut(title, 45), custom_id=form_id(ENGINE.kind, session.id, session.version, key, arg)
    )
    if troupe_name:
        modal.add_item(_text("Troupe name", TROUPE_INPUT, default=typed.troupe))
    modal.add_item(_text("Character name", NAME_INPUT, default=typed.name))
    modal.add_item(_text("Concept", CONCEPT_INPUT, long=True, required=False, limit=1000, default=typed.concept))
    for custom_id, group in zip(TRAIT_SELECTS, trait_groups(state), strict=False):
        first, last = group[0].name, group[-1].name
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id,
            options=[trait_option(t, chosen=t.name in typed.traits) for t in group],
            min_values=0,
            max_values=min(high, len(group)),
            required=False,
            placeholder=f"Pick {how_many} traits in all",
        )
        modal.add_item(discord.ui.Label(text=cut(f"Traits {first} – {last}", 45), component=select))
    modal.stop()
    return modal


def picked(interaction: discord.Interaction) -> list[str]:
    """Every value chosen in the selects of a submitted modal."""
    values: list[str] = []
    data: dict[str, Any] = dict(interaction.data or {})
    for row in data.get("components", []):
        children = row.get("components") or ([row["component"]] if "component" in row else [])
        for child in children:
            values += [str(v) for v in child.get("values", [])]
    return values


def pc_spec(interaction: discord.Interaction, traits: tuple[int, int]) -> dict[str, Any]:
    """The character a submitted form describes (a ``PCSpec`` as data), or FormRefused saying what to fix."""
    fields = modal_fields(interaction)
    chosen = picked(interaction)
    typed = Typed(
        troupe=fields.get(TROUPE_INPUT, ""),
        name=fields.get(NAME_INPUT, ""),
        concept=fields.get(CONCEPT_INPUT, ""),
        traits=tuple(chosen),
    )
    low, high = traits
    if not low <= len(chosen) <= high:
        wanted = f"exactly {low}" if low == high else f"{low} to {high}"
        raise FormRefused(f"Pick {wanted} traits (you picked {len(chosen)}). Nothing was saved.", typed)
    name = typed.name.strip()
    if not name:
        raise FormRefused("Give the character a name.", typed)
    return {"name": name, "concept": typed.concept.strip(), "traits": chosen}


# -- a form refused keeps what was typed --------------------------------------------------------------------------


@dataclass(frozen=True)
class Typed:
    """What was typed into a character form."""

    troupe: str = ""
    name: str = ""
    concept: str = ""
    traits: tuple[str, ...] = ()


class FormRefused(InvalidInput):
    """A character form that can't be taken as sent; ``typed`` is what it held, to fill it in again."""

    def __init__(self, text: str, typed: Typed) -> None:
        super().__init__(text)
        self.typed = typed


FormShape = tuple[str, tuple[int, int], bool]
"""A form's title, its (fewest, most) traits, and whether it asks for the troupe's name."""
SHAPES: dict[str, Callable[[CampaignState, str], FormShape]] = {}
"""Each form's shape by its key (``nt``, ``np``…), from the state and its arg; registered by the modules that
take the forms, so one made again after a refusal is the same form."""


def form_for(
    session: Session, state: CampaignState, key: str, arg: str, typed: Typed | None = None
) -> discord.ui.Modal:
    """The form ``key`` for ``arg`` (filled in with ``typed``)."""
    title, traits, troupe = SHAPES[key](state, arg)
    return pc_form(session, state, key=key, arg=arg, title=title, traits=traits, troupe_name=troupe, typed=typed)


TYPED_FIELDS = (("troupe", "Troupe name"), ("name", "Character name"), ("concept", "Concept"), ("traits", "Traits"))
REFILL = "refill"
"""The ``on_ui`` key of *Fix the form*: its arg is the refused form's ``<key>:<arg>``."""


def typed_embed(typed: Typed) -> discord.Embed:
    """What was typed, shown back to its author (and read back from there when the form is opened again: the
    message itself keeps it, so nothing is held for it anywhere else)."""
    embed = discord.Embed(title="What you typed")
    for attribute, label in TYPED_FIELDS:
        value = getattr(typed, attribute)
        text = "\n".join(value) if isinstance(value, tuple) else value
        if text.strip():
            embed.add_field(name=label, value=cut(text, 1024), inline=False)
    return embed


def typed_from(message: discord.Message | None) -> Typed:
    """What a refusal's embed shows was typed (empty if it shows nothing)."""
    embed = message.embeds[0] if message is not None and message.embeds else None
    found = {f.name: f.value or "" for f in embed.fields} if embed is not None else {}
    values = {attribute: found.get(label, "") for attribute, label in TYPED_FIELDS}
    return Typed(
        troupe=values["troupe"],
        name=values["name"],
        concept=values["concept"],
        traits=tuple(t for t in values["traits"].split("\n") if t),
    )


def refusal(session: Session, key: str, arg: str, exc: FormRefused) -> dict[str, Any]:
    """The private answer to a refused form: why, what was typed, and *Fix the form* to open it filled in."""
    button: discord.ui.Button[Any] = discord.ui.Button(
        label="Fix the form",
        emoji="✏️",
        style=discord.ButtonStyle.primary,
        custom_id=ui_id(ENGINE.kind, session.id, REFILL, f"{key}:{arg}"),
    )
    return {"content": str(exc), "embed": typed_embed(exc.typed), "view": static_view([[button]])}


def troupe_name(interaction: discord.Interaction) -> str:
    """The troupe name typed into the form."""
    name = modal_fields(interaction).get(TROUPE_INPUT, "").strip()
    if not name:
        raise InvalidInput("Give the troupe a name.")
    return name
