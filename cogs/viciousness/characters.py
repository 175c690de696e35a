"""``/vic pc …``: characters — a new minion (the character form), names and concepts, traits, contacts,
conditions, the turn action, advancement, retirement and replacement, GM portrayal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.board import static_view
from bot.controls import ControlTooLong
from bot.errors import InvalidInput, NotPermitted
from bot.i18n import _
from bot.lobby import actor_of
from bot.models import Session
from bot.names import escape_name
from bot.replies import Reply
from bot.spec import ViewContext
from cogs.viciousness.common import Autocomplete, action_data, campaign_state, choice_name, owner_for, parse, viewer_of
from cogs.viciousness.controls import Controls, UIHandler
from cogs.viciousness.forms import character_form, pc_form
from cogs.viciousness.pools_view import act_button
from rules.text import whole_number
from rules.viciousness.actions import (
    Action,
    AddContact,
    AddPC,
    AddTrait,
    AddWeakContact,
    Advance,
    DropContact,
    EditPC,
    GMControl,
    Promote,
    Replace,
    Retire,
    SetSpell,
)
from rules.viciousness.characters import ACTION_WORDS
from rules.viciousness.state import PC, CampaignState, owner_of

if TYPE_CHECKING:
    from bot.app import TabletopBot

ACTION_CHOICES = [
    app_commands.Choice(name=label, value=value)
    for label, value in (
        ("Rest", "rest"),
        ("Knavery", "knavery"),
        ("Violence", "violence"),
        ("Contact", "contact"),
        ("Weak contact", "weak_contact"),
        ("Acquire", "acquire"),
        ("Scene", "join_scene"),
        ("Other", "other"),
    )
]
CONDITION_CHOICES = [
    app_commands.Choice(name=label, value=value)
    for label, value in (("Rattle", "rattle"), ("Calm", "calm"), ("Wound", "wound"), ("Heal", "heal"), ("Kill", "kill"))
]


async def _new_character(bot: TabletopBot, reply: Reply, session: Session, data: dict[str, Any]) -> None:
    """A new minion's, an advancement's or a replacement's form was sent: the character is added."""
    await bot.service.act(session.id, actor_of(reply.interaction), parse(data))
    await reply.send(_("Done: the troupe's sheet shows the new character."), ephemeral=True)


def _opens(model: type[Action]) -> UIHandler:
    """``Add a minion`` / ``Advance: new minion`` on a troupe's sheet (arg: its owner): the form, for its player or
    a GM."""

    async def handler(bot: TabletopBot, reply: Reply, session: Session, owner: str, values: list[str]) -> None:
        if owner != str(reply.interaction.user.id) and not viewer_of(session, reply.interaction).is_gm:
            raise NotPermitted(_("That troupe isn't yours: only its player and the GM can change it."))
        await reply.modal(pc_form(session, campaign_state(bot, session), model, {"owner": owner}))

    return handler


def register(controls: Controls) -> None:
    """The character forms (a minion, an advancement's minion, a replacement) and the buttons that open them."""
    for model in (AddPC, Advance, Replace):
        controls.form(model, character_form(_new_character))
    controls.control("minion-form", _opens(AddPC))
    controls.control("advance-form", _opens(Advance))


async def offer_second_action(reply: Reply, session: Session, state: CampaignState, taken: dict[str, Any]) -> None:
    """To a GM whose character has acted this turn: why not, and a button that allows it (logged)."""
    pc = state.find_pc(taken["pc"])
    assert pc is not None
    allowed = {**taken, "exception": True}
    ctx = ViewContext(session=session, state=state, prompts=[], events=[])
    label = _("Allow a second action")
    try:
        button = act_button(ctx, label, allowed, style=discord.ButtonStyle.primary)
    except ControlTooLong:  # a long note doesn't fit a button: the action goes without it
        button = act_button(ctx, label, {**allowed, "note": ""}, style=discord.ButtonStyle.primary)
    # What was done is the engine's words (``_`` says them in the reader's language when they are a ``Said``).
    did = ACTION_WORDS.get(pc.action or "", ACTION_WORDS["other"])
    await reply.send(
        _(
            "{name} already {did} this turn: each character takes one action a turn. "
            "As the GM you may allow a second one; it is logged.",
            name=escape_name(pc.name),
            did=did,
        ),
        ephemeral=True,
        view=static_view([[button]]),
    )


def pc_of(state: CampaignState, pc_id: str) -> PC:
    """The character a command names (what the autocomplete sent), or InvalidInput."""
    pc = state.find_pc(pc_id)
    if pc is None:
        raise InvalidInput(_("There is no such character: pick one from the list offered as you type."))
    return pc


def contact_label(name: str, strong: bool) -> str:
    """``Mara (strong)``: a contact as the list offers it."""
    return _("{name} (strong)", name=name) if strong else _("{name} (weak)", name=name)


class CharacterCommands(Autocomplete):
    """``/vic pc new|edit|advance|trait|spell|contact|promote|forget|act|condition|retire|replace|gm``."""

    pc = app_commands.Group(name="pc", description="Characters")

    @pc.command(name="new", description="Add a minion")
    @app_commands.describe(
        member="GM: the player whose troupe it joins",
    )
    async def pc_new(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        """Needs a free minion place (one by default)."""
        session = await self.campaign_here(interaction)
        troupe = self.state(session).troupes.get(owner_for(interaction, member))
        if troupe is None or troupe.dissolved:
            raise InvalidInput(_("There is no troupe to add a minion to: `/vic troupe new` makes one."))
        if troupe.original_minions >= troupe.minion_places:
            raise InvalidInput(
                _(
                    "Every minion place of {troupe} is taken: a new minion comes from an "
                    "advancement (`/vic pc advance`), a lost one is replaced (`/vic pc replace`).",
                    troupe=escape_name(troupe.name),
                )
            )
        fixed = {"owner": owner_for(interaction, member)}
        await Reply.of(interaction).modal(pc_form(session, self.state(session), AddPC, fixed))

    @pc.command(name="edit", description="Rename, new concept")
    @app_commands.describe(
        pc="The character",
        name="A new name",
        concept="A new concept",
    )
    async def pc_edit(
        self,
        interaction: discord.Interaction,
        pc: str,
        name: app_commands.Range[str, 1, 80] | None = None,
        concept: app_commands.Range[str, 0, 1000] | None = None,
    ) -> None:
        """Only what is given changes."""
        await self.act_and_tell(interaction, action_data(EditPC, pc=pc, name=name, concept=concept))

    @pc.command(name="advance", description="A trait, or no pc: a new minion")
    @app_commands.describe(
        pc="Who gains a trait (leave out: a new minion)",
        trait="The new trait",
        member="GM: whose advancement",
    )
    async def pc_advance(
        self,
        interaction: discord.Interaction,
        pc: str | None = None,
        trait: str | None = None,
        member: discord.Member | None = None,
    ) -> None:
        """Each completed ambition gives every troupe one advancement."""
        session = await self.campaign_here(interaction)
        state = self.state(session)
        if pc is None:
            owner = owner_for(interaction, member)
            troupe = state.troupes.get(owner)
            if troupe is None or troupe.pending_advancements < 1:
                raise InvalidInput(_("There is no advancement to take: one comes with each completed ambition."))
            await Reply.of(interaction).modal(pc_form(session, state, Advance, {"owner": owner}))
            return
        if trait is None:
            raise InvalidInput(_("Name the trait the character gains (or leave out the character for a new minion)."))
        pc = self.pc_typed(session, interaction, pc)
        action = action_data(Advance, owner=owner_of(pc), pc=pc, trait=trait)
        await self.act_and_tell(interaction, action, session=session)

    @pc.command(name="trait", description="Add a trait (GM)")
    @app_commands.describe(
        pc="The character",
        trait="The trait to add",
    )
    async def pc_trait(self, interaction: discord.Interaction, pc: str, trait: str) -> None:
        """A correction: at most four traits still."""
        await self.act_and_tell(interaction, action_data(AddTrait, pc=pc, trait=trait))

    @pc.command(name="spell", description="A magic trait's new spell (GM)")
    @app_commands.describe(
        pc="The character",
        trait="Their magic trait",
        text="The new spell",
    )
    async def pc_spell(
        self, interaction: discord.Interaction, pc: str, trait: str, text: app_commands.Range[str, 1, 1000]
    ) -> None:
        """Replaces the spell of one of the character's magic traits (with the GM's permission, seed L27)."""
        await self.act_and_tell(interaction, action_data(SetSpell, pc=pc, trait=trait, text=text))

    @pc.command(name="contact", description="A strong or weak contact")
    @app_commands.describe(
        pc="The character",
        name="The contact's name",
        weak="A weak contact (found asking around)",
        note="Who they are, what they owe",
        trait="Strong: the trait it came from",
    )
    async def pc_contact(
        self,
        interaction: discord.Interaction,
        pc: str,
        name: app_commands.Range[str, 1, 80],
        weak: bool = False,
        note: app_commands.Range[str, 0, 1000] = "",
        trait: str | None = None,
    ) -> None:
        """At most one strong contact per trait; weak ones can turn strong later (``/vic pc promote``)."""
        if weak:
            await self.act_and_tell(interaction, action_data(AddWeakContact, pc=pc, name=name, note=note))
        else:
            await self.act_and_tell(interaction, action_data(AddContact, pc=pc, name=name, note=note, trait=trait))

    @pc.command(name="promote", description="A weak contact turns strong")
    @app_commands.describe(
        pc="The character",
        weak="The weak contact who turns strong",
        drop="At the limit: the strong one to drop",
    )
    async def pc_promote(self, interaction: discord.Interaction, pc: str, weak: int, drop: int | None = None) -> None:
        """At the limit (one strong contact per trait), name the strong contact that makes room."""
        await self.act_and_tell(interaction, action_data(Promote, pc=pc, weak=weak, drop=drop))

    @pc.command(name="forget", description="Drop a contact")
    @app_commands.describe(
        pc="The character",
        contact="The contact to drop",
    )
    async def pc_forget(self, interaction: discord.Interaction, pc: str, contact: str) -> None:
        """``contact`` is ``s<n>`` (strong) or ``w<n>`` (weak), as the list offers."""
        kind, number = contact[:1], whole_number(contact[1:])
        if kind not in ("s", "w") or number is None:
            raise InvalidInput(_("Pick the contact from the list offered as you type."))
        await self.act_and_tell(interaction, action_data(DropContact, pc=pc, strong=kind == "s", index=number))

    @pc.command(name="act", description="This turn's action")
    @app_commands.choices(action=ACTION_CHOICES)
    @app_commands.describe(
        pc="Your character",
        action="What they do this turn",
        note="What it is, in a few words",
    )
    async def pc_act(
        self,
        interaction: discord.Interaction,
        pc: str,
        action: str,
        note: app_commands.Range[str, 0, 1000] = "",
    ) -> None:
        """Resting is an action: at turn end it calms a rattled character and shortens a wound."""
        session = await self.campaign_here(interaction)
        pc = self.pc_typed(session, interaction, pc)
        state = self.state(session)
        found = state.find_pc(pc)
        taken = {"type": "act", "pc": pc, "kind": action, "note": note}
        acted = found is not None and state.turn.running and found.action_turn == state.turn.number
        if acted and self.typer(session, interaction)[1]:
            await offer_second_action(Reply.of(interaction), session, state, taken)
            return
        await self.act_and_tell(interaction, parse(taken), session=session)

    @pc.command(name="condition", description="Rattle, wound, kill… (GM)")
    @app_commands.choices(change=CONDITION_CHOICES)
    @app_commands.describe(
        pc="The character",
        change="What happens to them",
    )
    async def pc_condition(self, interaction: discord.Interaction, pc: str, change: str) -> None:
        """Fights and consequences do this by themselves; this is for everything else."""
        await self.act_and_tell(interaction, parse({"type": "condition", "pc": pc, "change": change}))

    @pc.command(name="retire", description="Retire a character")
    @app_commands.describe(
        pc="The character who retires",
    )
    async def pc_retire(self, interaction: discord.Interaction, pc: str) -> None:
        """A retired minion can be replaced for IP (``/vic pc replace``)."""
        await self.act_and_tell(interaction, action_data(Retire, pc=pc))

    @pc.command(name="replace", description="Replace a lost minion (2+ IP)")
    @app_commands.describe(
        pc="The dead or retired minion",
    )
    async def pc_replace(self, interaction: discord.Interaction, pc: str) -> None:
        """The form takes 2 traits, up to as many as the lost minion had; each beyond 2 costs 1 IP more."""
        session = await self.campaign_here(interaction)
        old = pc_of(self.state(session), self.pc_typed(session, interaction, pc))
        await Reply.of(interaction).modal(pc_form(session, self.state(session), Replace, {"old": old.id}))

    @pc.command(name="gm", description="Portrayed by the GM or not")
    @app_commands.describe(
        pc="Your character",
        portrayed="On: the GM plays them; off: back to you",
    )
    async def pc_gm(self, interaction: discord.Interaction, pc: str, portrayed: bool = True) -> None:
        """A character the GM portrays is edited only by GMs."""
        await self.act_and_tell(interaction, action_data(GMControl, pc=pc, on=portrayed))

    @pc_edit.autocomplete("pc")
    @pc_advance.autocomplete("pc")
    @pc_trait.autocomplete("pc")
    @pc_spell.autocomplete("pc")
    @pc_contact.autocomplete("pc")
    @pc_promote.autocomplete("pc")
    @pc_forget.autocomplete("pc")
    @pc_act.autocomplete("pc")
    @pc_condition.autocomplete("pc")
    @pc_retire.autocomplete("pc")
    @pc_replace.autocomplete("pc")
    @pc_gm.autocomplete("pc")
    async def _pcs(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.pc_choices(interaction, current)

    @pc_advance.autocomplete("trait")
    @pc_trait.autocomplete("trait")
    @pc_spell.autocomplete("trait")
    @pc_contact.autocomplete("trait")
    async def _traits(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.trait_choices(interaction, current)

    @pc_promote.autocomplete("weak")
    async def _weak(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=n, value=int(v[1:])) for n, v in await self._contacts(interaction, "w")]

    @pc_promote.autocomplete("drop")
    async def _strong(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=n, value=int(v[1:])) for n, v in await self._contacts(interaction, "s")]

    @pc_forget.autocomplete("contact")
    async def _any_contact(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=v) for n, v in await self._contacts(interaction, "sw")]

    async def _contacts(self, interaction: discord.Interaction, kinds: str) -> list[tuple[str, str]]:
        """The contacts of the character picked in the ``pc`` option: (label, ``s<n>``/``w<n>``)."""
        found = await self._state_or_none(interaction)
        pc = found[1].find_pc(str(interaction.namespace.pc or "")) if found else None
        if pc is None:
            return []
        out = []
        for kind, contacts in (("s", pc.strong), ("w", pc.weak)):
            if kind in kinds:
                out += [(choice_name(contact_label(c.name, kind == "s")), f"{kind}{i}") for i, c in enumerate(contacts)]
        return out[:25]
