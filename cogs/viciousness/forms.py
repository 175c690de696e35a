"""The character form: a modal with the name, the concept and the traits (selects showing each trait's text).

The same form makes a troupe's captain, a new minion, an advancement's minion and a replacement; what
it makes is the key of its custom_id (``ui_id``), so a form opened before a restart is still taken after.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.controls import modal_fields, ui_id
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


def trait_option(trait: TraitDef) -> discord.SelectOption:
    """A trait as a select option: its name (and mark), its text as the description."""
    mark = MARKS.get(trait.kind, "")
    return discord.SelectOption(
        label=cut(f"{trait.name} {mark}".strip(), 100), value=trait.name[:100], description=cut(trait_text(trait), 100)
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
    label: str, custom_id: str, *, long: bool = False, required: bool = True, limit: int = 80
) -> discord.ui.Label[Any]:
    style = discord.TextStyle.paragraph if long else discord.TextStyle.short
    return discord.ui.Label(
        text=label,
        component=discord.ui.TextInput(custom_id=custom_id, style=style, required=required, max_length=limit),
    )


def pc_form(
    session: Session,
    state: CampaignState,
    *,
    key: str,
    arg: str,
    title: str,
    traits: tuple[int, int],
    troupe_name: bool = False,
) -> discord.ui.Modal:
    """The form for a new character with ``traits`` (fewest, most) traits; with ``troupe_name``, the troupe's
    name first."""
    low, high = traits
    how_many = f"{low}" if low == high else f"{low} to {high}"
    modal = discord.ui.Modal(title=cut(title, 45), custom_id=ui_id(ENGINE.kind, session.id, key, arg))
    if troupe_name:
        modal.add_item(_text("Troupe name", TROUPE_INPUT))
    modal.add_item(_text("Character name", NAME_INPUT))
    modal.add_item(_text("Concept", CONCEPT_INPUT, long=True, required=False, limit=1000))
    for custom_id, group in zip(TRAIT_SELECTS, trait_groups(state), strict=False):
        first, last = group[0].name, group[-1].name
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id,
            options=[trait_option(t) for t in group],
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
    """The character a submitted form describes (a ``PCSpec`` as data), or InvalidInput saying what to fix."""
    fields = modal_fields(interaction)
    chosen = picked(interaction)
    low, high = traits
    if not low <= len(chosen) <= high:
        wanted = f"exactly {low}" if low == high else f"{low} to {high}"
        raise InvalidInput(f"Pick {wanted} traits (you picked {len(chosen)}). Nothing was saved.")
    name = fields.get(NAME_INPUT, "").strip()
    if not name:
        raise InvalidInput("Give the character a name.")
    return {"name": name, "concept": fields.get(CONCEPT_INPUT, "").strip(), "traits": chosen}


def troupe_name(interaction: discord.Interaction) -> str:
    """The troupe name typed into the form."""
    name = modal_fields(interaction).get(TROUPE_INPUT, "").strip()
    if not name:
        raise InvalidInput("Give the troupe a name.")
    return name
