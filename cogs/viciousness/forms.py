"""The character form: a modal with the name, the concept and the traits (selects showing each trait's text).

The same form makes a troupe's captain, a new minion, an advancement's minion and a replacement: it is the
core's form (``bot/forms.py``) of the action it submits, so what it makes travels in its custom_id and a
form opened before a restart is still taken after. A form refused for what was typed answers with it, and
*Fix the form* opens it again filled in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.board import static_view
from bot.controls import decode_action, encode_action, ui_id
from bot.errors import InvalidInput, UserError
from bot.forms import INPUTS_MAX, Input, action_modal, tag_of
from bot.i18n import N_, _, _n
from bot.models import Session
from bot.replies import Reply
from cogs.viciousness.text import cut
from rules.viciousness.actions import Action, AddPC, Advance, CreateTroupe, Replace
from rules.viciousness.data import CHARACTERS, TRAITS, TraitDef
from rules.viciousness.engine import ENGINE
from rules.viciousness.state import PC, CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot
    from cogs.viciousness.controls import Controls, FormHandler

SELECT_OPTIONS = 25
TRAIT_SELECTS = 2
"""At most two selects of traits (50 traits): with the names and the concept, a form's five inputs."""
CAPTAIN_TRAITS = CHARACTERS.traits_at_creation["captain"]
MINION_TRAITS = CHARACTERS.traits_at_creation["minion"]
MARKS = {"knowledge": "💡", "magic": "✨", "special": "✚"}
TROUPE_NAME, CHARACTER_NAME, CONCEPT = N_("Troupe name"), N_("Character name"), N_("Concept")


def seed_text(trait: TraitDef, text: str) -> str:
    """A text of one of the seed's traits in the language being spoken (its data's catalog); a custom trait's text,
    written by the GM, as it is."""
    return _(text) if text and TRAITS.get(trait.name) is trait else text


def trait_text(trait: TraitDef) -> str:
    """What a trait lets a character do, in one line: its push, knowledge, spell or special text."""
    dice = "; ".join(f"{'+' if c.when == 'add' else ''}{c.die} {seed_text(trait, c.condition)}" for c in trait.dice)
    text = seed_text(trait, trait.push or trait.knowledge or trait.spell or trait.special or "")
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
    traits = [t for t in all_traits(state) if t.name not in exclude][: SELECT_OPTIONS * TRAIT_SELECTS]
    groups = max(1, -(-len(traits) // SELECT_OPTIONS))
    size = -(-len(traits) // groups)
    return [traits[i : i + size] for i in range(0, len(traits), size)]


@dataclass(frozen=True)
class Typed:
    """What was typed into a character form."""

    troupe: str = ""
    name: str = ""
    concept: str = ""
    traits: tuple[str, ...] = ()


@dataclass(frozen=True)
class Shape:
    """A character form's title, the field of its action that holds the new character, its (fewest, most)
    traits."""

    title: str
    pc: str
    traits: tuple[int, int]


def replacement_traits(old: PC) -> tuple[int, int]:
    """How many traits a replacement takes: a minion's two, up to the lost one's (each extra costs 1 IP)."""
    return MINION_TRAITS, max(MINION_TRAITS, len(old.traits))


def _replacing(state: CampaignState, action: Mapping[str, Any]) -> Shape:
    old = state.find_pc(str(action.get("old")))
    if old is None:
        raise InvalidInput(_("There is no such character: pick one from the list offered as you type."))
    return Shape(_("Replacing {name}", name=old.name), "pc", replacement_traits(old))


SHAPES: dict[type[Action], Callable[[CampaignState, Mapping[str, Any]], Shape]] = {
    CreateTroupe: lambda state, action: Shape(_("A new troupe"), "captain", (CAPTAIN_TRAITS, CAPTAIN_TRAITS)),
    AddPC: lambda state, action: Shape(_("A new minion"), "pc", (MINION_TRAITS, MINION_TRAITS)),
    Advance: lambda state, action: Shape(_("Advancement: a new minion"), "minion", (MINION_TRAITS, MINION_TRAITS)),
    Replace: _replacing,
}
"""Every action the character form makes, and the form's shape for it (from the state and the action)."""
_BY_TAG = {tag_of(model): model for model in SHAPES}


def model_of(action: Mapping[str, Any]) -> type[Action]:
    """The action model a character form makes, from the action's ``type``."""
    model = _BY_TAG.get(str(action.get("type")))
    if model is None:
        raise UserError(_("That form is no longer in use."))
    return model


def pc_form(
    session: Session, state: CampaignState, model: type[Action], fixed: Mapping[str, Any], typed: Typed | None = None
) -> discord.ui.Modal:
    """The form for a new character in ``model``'s action (the troupe's name first for a new troupe), its other
    fields ``fixed``; filled in with what was ``typed`` before (a form sent back to be fixed)."""
    typed = typed or Typed()
    shape = SHAPES[model](state, {"type": tag_of(model), **fixed})
    low, high = shape.traits
    groups = trait_groups(state)
    inputs = [Input("name", label=_(TROUPE_NAME), default=typed.troupe)] if model is CreateTroupe else []
    inputs += [
        Input(f"{shape.pc}.name", label=_(CHARACTER_NAME), default=typed.name),
        Input(f"{shape.pc}.concept", label=_(CONCEPT), long=True, default=typed.concept),
    ]
    for group in groups[: INPUTS_MAX - len(inputs)]:
        traits = Input(
            f"{shape.pc}.traits",
            label=_("Traits {first} – {last}", first=group[0].name, last=group[-1].name),
            description=traits_needed(low, high, len(groups)),
            options=[trait_option(t, chosen=t.name in typed.traits) for t in group],
            max_values=high,
            placeholder=traits_wanted(low, high),
        )
        inputs.append(traits)
    return action_modal(session, model, inputs, title=shape.title, fixed=fixed, game=True)


def traits_needed(low: int, high: int, lists: int) -> str:
    """What a character form needs, said under each list of traits: each list alone can't require a count (the
    traits are split between them)."""
    if low == high and lists > 1:
        return _n(
            "Pick exactly {n} trait in all, from the {lists} lists together.",
            "Pick exactly {n} traits in all, from the {lists} lists together.",
            low,
            lists=lists,
        )
    if low == high:
        return _n("Pick exactly {n} trait in all.", "Pick exactly {n} traits in all.", low)
    if lists > 1:
        return _(
            "Pick {low} to {high} traits in all, from the {lists} lists together.", low=low, high=high, lists=lists
        )
    return _("Pick {low} to {high} traits in all.", low=low, high=high)


def traits_wanted(low: int, high: int) -> str:
    """A list of traits' placeholder: how many to pick."""
    if low == high:
        return _n("Pick {n} trait in all", "Pick {n} traits in all", low)
    return _("Pick {low} to {high} traits in all", low=low, high=high)


def character_form(take: FormHandler) -> FormHandler:
    """What takes a character form: what was typed is checked first, and a form refused for it is answered with
    what was typed and *Fix the form*, not a bare refusal."""

    async def handler(bot: TabletopBot, reply: Reply, session: Session, data: dict[str, Any]) -> None:
        state = bot.service.state_of(session)
        assert isinstance(state, CampaignState)
        model = model_of(data)
        shape = SHAPES[model](state, data)
        typed = typed_in(model, shape, data)
        try:
            check(model, shape, typed)
        except FormRefused as exc:
            typed_away = {shape.pc, "name"} if model is CreateTroupe else {shape.pc}
            fixed = {k: v for k, v in data.items() if k not in typed_away}
            await reply.send(ephemeral=True, **refusal(session, fixed, exc))
            return
        await take(bot, reply, session, data)

    return handler


def typed_in(model: type[Action], shape: Shape, data: Mapping[str, Any]) -> Typed:
    """What a submitted character form holds."""
    pc = data.get(shape.pc)
    pc = pc if isinstance(pc, dict) else {}
    traits = pc.get("traits")
    return Typed(
        troupe=str(data.get("name", "")) if model is CreateTroupe else "",
        name=str(pc.get("name", "")),
        concept=str(pc.get("concept", "")),
        traits=tuple(str(t) for t in traits) if isinstance(traits, list) else (),
    )


def check(model: type[Action], shape: Shape, typed: Typed) -> None:
    """FormRefused saying what to fix: the count of traits, a name left empty."""
    low, high = shape.traits
    picked = len(typed.traits)
    if not low <= picked <= high:
        if low == high:
            text = _n(
                "Pick exactly {n} trait (you picked {picked}). Nothing was saved.",
                "Pick exactly {n} traits (you picked {picked}). Nothing was saved.",
                low,
                picked=picked,
            )
        else:
            text = _(
                "Pick {low} to {high} traits (you picked {picked}). Nothing was saved.",
                low=low,
                high=high,
                picked=picked,
            )
        raise FormRefused(text, typed)
    if model is CreateTroupe and not typed.troupe:
        raise FormRefused(_("Give the troupe a name."), typed)
    if not typed.name:
        raise FormRefused(_("Give the character a name."), typed)


# -- a form refused keeps what was typed --------------------------------------------------------------------------


class FormRefused(InvalidInput):
    """A character form that can't be taken as sent; ``typed`` is what it held, to fill it in again."""

    def __init__(self, text: str, typed: Typed) -> None:
        super().__init__(text)
        self.typed = typed


TYPED_FIELDS = (("troupe", TROUPE_NAME), ("name", CHARACTER_NAME), ("concept", CONCEPT), ("traits", N_("Traits")))
REFILL = "refill"
"""The control *Fix the form*: its arg is the action the refused form was opened for (what it fixed)."""


def typed_embed(typed: Typed) -> discord.Embed:
    """What was typed, shown back to its author (and read back from there when the form is opened again: the
    message itself keeps it, so nothing is held for it anywhere else)."""
    embed = discord.Embed(title=_("What you typed"))
    for attribute, label in TYPED_FIELDS:
        value = getattr(typed, attribute)
        text = "\n".join(value) if isinstance(value, tuple) else value
        if text.strip():
            embed.add_field(name=_(label), value=cut(text, 1024), inline=False)
    return embed


def typed_from(message: discord.Message | None) -> Typed:
    """What a refusal's embed shows was typed (empty if it shows nothing)."""
    embed = message.embeds[0] if message is not None and message.embeds else None
    found = {f.name: f.value or "" for f in embed.fields} if embed is not None else {}
    # The labels as they were said (the same member clicks, so the same language), or in English (a language
    # changed meanwhile, or an embed drawn before the labels were translated).
    values = {attribute: found.get(_(label), found.get(label, "")) for attribute, label in TYPED_FIELDS}
    return Typed(
        troupe=values["troupe"],
        name=values["name"],
        concept=values["concept"],
        traits=tuple(t for t in values["traits"].split("\n") if t),
    )


def refusal(session: Session, fixed: Mapping[str, Any], exc: FormRefused) -> dict[str, Any]:
    """The private answer to a refused form: why, what was typed, and *Fix the form* to open it filled in (its
    arg, the action the form was opened for, without what was typed)."""
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=_("Fix the form"),
        emoji="✏️",
        style=discord.ButtonStyle.primary,
        custom_id=ui_id(ENGINE.kind, session.id, REFILL, encode_action(fixed)),
    )
    return {"content": str(exc), "embed": typed_embed(exc.typed), "view": static_view([[button]])}


async def _refill(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """*Fix the form*: the refused form again, filled in with what its refusal shows was typed."""
    fixed = decode_action(arg)
    model = model_of(fixed)
    del fixed["type"]
    state = bot.service.state_of(session)
    assert isinstance(state, CampaignState)
    await reply.modal(pc_form(session, state, model, fixed, typed_from(reply.interaction.message)))


def register(controls: Controls) -> None:
    """*Fix the form*."""
    controls.control(REFILL, _refill)
