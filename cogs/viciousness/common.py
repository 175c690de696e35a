"""What every ``/vic`` mixin shares: finding the channel's campaign, taking an action, answering with what happened.

A mixin is a plain class at run time (``_Mixin``); the ``/vic`` group cog in ``__init__.py`` inherits
them all, so each area of the game (campaign, company, troupes, …) keeps its commands in its own module.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError

from bot.errors import InvalidInput, NoSession, SessionOver
from bot.i18n import N_, _
from bot.lobby import actor_of
from bot.models import Applied, Session, roles_of
from bot.models import viewer_of as member_viewer
from bot.replies import Reply
from cogs.viciousness.forms import all_traits, trait_text
from cogs.viciousness.text import cut
from rules.engine import GM_ROLES, Viewer
from rules.text import echo
from rules.viciousness.actions import Action, RivalDice
from rules.viciousness.engine import ENGINE
from rules.viciousness.state import CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot

    _Mixin = commands.Cog  # app_commands types a command's ``self`` as a cog
else:
    _Mixin = object

KIND = ENGINE.kind
MAX_CONTENT = 2000
CHOICE_NAME = 100
NEWS_WAIT_S = 5.0
"""How long a private follow-up waits for the public news answering the same interaction."""
NO_CAMPAIGN = N_("There is no Viciousness campaign in this channel: start one with `/vic-gm campaign new`.")
CHANNELS_KEPT = 4096
"""Channels whose campaign is remembered (the most recently used; the others are looked up again)."""


class CampaignOf:
    """Which session each channel's campaign is, as last found: a hint that spares a query, kept for the
    ``CHANNELS_KEPT`` most recently used channels and dropped when the campaign ends."""

    def __init__(self, kept: int = CHANNELS_KEPT) -> None:
        self.kept = kept
        self._ids: OrderedDict[int, int] = OrderedDict()

    def get(self, channel_id: int) -> int | None:
        """The session remembered for ``channel_id``, if any."""
        found = self._ids.get(channel_id)
        if found is not None:
            self._ids.move_to_end(channel_id)
        return found

    def remember(self, channel_id: int, session_id: int) -> None:
        """``channel_id`` has campaign ``session_id`` (the least recently used channel is forgotten past the cap)."""
        self._ids[channel_id] = session_id
        self._ids.move_to_end(channel_id)
        if len(self._ids) > self.kept:
            self._ids.popitem(last=False)

    def forget(self, channel_id: int) -> int | None:
        """Drop what is remembered for ``channel_id`` (its campaign ended); the session it was, if any."""
        return self._ids.pop(channel_id, None)

    def __len__(self) -> int:
        return len(self._ids)


def parse(data: Mapping[str, Any]) -> Action:
    """An action from what someone typed or picked; InvalidInput naming the field that is wrong."""
    try:
        return ENGINE.parse_action(data)
    except ValidationError as exc:
        raise InvalidInput.naming(exc, data.get("type")) from None


def named_pc(state: CampaignState, typed: str, me: str, gm: bool) -> str:
    """The id of the character ``typed`` names: the id the autocomplete sends, or a name typed without picking
    from the list (one of the caller's own, or anyone's for a GM); InvalidInput saying what to do otherwise."""
    if state.find_pc(typed) is not None:
        return typed
    key = typed.strip().casefold()
    found = [
        pc.id
        for owner, troupe in state.troupes.items()
        if gm or owner == me
        for pc in troupe.pcs
        if pc.name.casefold() == key
    ]
    if len(found) == 1:
        return found[0]
    if found:
        raise InvalidInput(
            _("Several characters are called {name}: pick one from the list as you type.", name=echo(typed))
        )
    if gm:
        raise InvalidInput(_("No character is called {name}: pick one from the list as you type.", name=echo(typed)))
    raise InvalidInput(
        _("No character of yours is called {name}: pick one from the list as you type.", name=echo(typed))
    )


SALT_BYTES = 16


def salted(action: Action) -> Action:
    """An action that may roll the GM's rival dice, with a salt from the OS's secure random source (so its dice can
    be committed in the channel, ``rules/viciousness/commitments.py``); any other action as it is."""
    if isinstance(action, RivalDice) and not action.salt:
        return action.model_copy(update={"salt": secrets.token_hex(SALT_BYTES)})
    return action


def action_data(model: type[Action], **fields: Any) -> dict[str, Any]:
    """A ``model`` action as data, from what was typed into a command: ``act`` looks up a character typed by name
    first, then validates it (``parse``), so typed text that doesn't fit is refused saying why, never an error."""
    return {"type": model.model_fields["type"].default, **fields}


def with_named_pc(
    state: CampaignState, action: BaseModel | Mapping[str, Any], me: str, gm: bool
) -> BaseModel | Mapping[str, Any]:
    """``action`` with its ``pc`` (when it is typed text) turned into the character's id."""
    typed = action.get("pc") if isinstance(action, Mapping) else getattr(action, "pc", None)
    if not isinstance(typed, str):
        return action
    pc_id = named_pc(state, typed, me, gm)
    if pc_id == typed:
        return action
    if isinstance(action, Mapping):
        return {**action, "pc": pc_id}
    return action.model_copy(update={"pc": pc_id})


def campaign_state(bot: TabletopBot, session: Session) -> CampaignState:
    """A campaign's state (parsed once per version by the service)."""
    state = bot.service.state_of(session)
    assert isinstance(state, CampaignState)
    return state


def viewer_of(session: Session, interaction: discord.Interaction) -> Viewer:
    """The viewer a private reply is drawn for: the member with their roles in the campaign (the core's mapping)."""
    return member_viewer(session, actor_of(interaction))


class VicBase(_Mixin):
    """Helpers of every ``/vic`` mixin."""

    bot: TabletopBot
    campaign_of: CampaignOf
    """The session id of each channel's campaign, as last found (a hint: one that ended is looked up again)."""

    async def campaign_here(self, interaction: discord.Interaction) -> Session:
        """The channel's live campaign; NoSession with how to start one if there is none.

        Which session a channel's campaign is stays in memory (``campaign_of``), so a command finds it
        in the store's cache instead of querying; a campaign that ended since is looked up again.
        """
        channel = interaction.channel_id
        assert channel is not None
        known = self.campaign_of.get(channel)
        if known is not None:
            try:
                return await self.bot.service.session(known)
            except SessionOver:
                self.campaign_of.forget(channel)
        found = await self.bot.service.campaign(channel, interaction.guild_id)
        if found is None or found.kind != KIND:
            raise NoSession(_(NO_CAMPAIGN))
        self.campaign_of.remember(channel, found.id)
        return found

    def state(self, session: Session) -> CampaignState:
        """The campaign's state (cached by the service per version)."""
        return campaign_state(self.bot, session)

    def typer(self, session: Session, interaction: discord.Interaction) -> tuple[str, bool]:
        """Who typed a command: their id, and whether they are a GM (whose characters a name may mean)."""
        return str(interaction.user.id), bool(roles_of(session, actor_of(interaction)) & GM_ROLES)

    def pc_typed(self, session: Session, interaction: discord.Interaction, typed: str) -> str:
        """The id of the character a command's ``pc`` names (see ``named_pc``)."""
        return named_pc(self.state(session), typed, *self.typer(session, interaction))

    async def act(
        self,
        interaction: discord.Interaction,
        action: BaseModel | Mapping[str, Any],
        session: Session | None = None,
        *,
        origin: Reply | None = None,
    ) -> Applied:
        """Take one engine action for the member who sent ``interaction``, on the channel's campaign (if the
        campaign remembered for the channel has ended meanwhile, on the one the channel has now)."""
        session = session or await self.campaign_here(interaction)
        actor = actor_of(interaction)
        action = with_named_pc(self.state(session), action, *self.typer(session, interaction))
        if not isinstance(action, BaseModel):
            action = parse(action)
        if isinstance(action, Action):
            action = salted(action)
        try:
            return await self.bot.service.act(session.id, actor, action, origin=origin)
        except SessionOver:
            if self.campaign_of.forget(interaction.channel_id or 0) is None:
                raise
        return await self.bot.service.act((await self.campaign_here(interaction)).id, actor, action, origin=origin)

    async def act_and_tell(
        self,
        interaction: discord.Interaction,
        action: BaseModel | Mapping[str, Any],
        *,
        done: str | None = None,
        session: Session | None = None,
    ) -> Applied:
        """Take an action, answered with what happened (its news, when the channel may read it), else ``done``
        privately (by default "Done.")."""
        reply = Reply.of(interaction)
        reply.answers_first = True  # the sheets are redrawn once this answer is on its way
        applied = await self.act(interaction, action, session, origin=reply)
        if not reply.took_news:
            await reply.send(_("Done.") if done is None else done, ephemeral=True)
        return applied


async def after_news(reply: Reply) -> None:
    """Once the news answering ``reply`` is on its way (``Reply.took_news``): what is said privately comes after it."""
    if reply.took_news:
        await reply.answered(NEWS_WAIT_S)


def owner_for(interaction: discord.Interaction, member: discord.abc.User | None) -> str:
    """The troupe a command is about: ``member``'s (the GM acting for them) or the caller's own."""
    return str((member or interaction.user).id)


FATES = {"dead": N_("dead"), "retired": N_("retired")}
"""A character no longer active, in words."""


def fate_word(fate: str) -> str:
    """``dead`` or ``retired`` in the language being spoken."""
    return _(FATES[fate]) if fate in FATES else fate


def choice_name(text: str) -> str:
    """An autocomplete choice's name within Discord's 100 characters."""
    return cut(text, CHOICE_NAME)


class Autocomplete(VicBase):
    """Choices offered while a PC, a trait or a contact is typed."""

    async def _state_or_none(self, interaction: discord.Interaction) -> tuple[Session, CampaignState] | None:
        try:
            session = await self.campaign_here(interaction)
        except NoSession:
            return None
        return session, self.state(session)

    async def pc_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The characters the caller plays (every character, for a GM), matching what is typed."""
        found = await self._state_or_none(interaction)
        if found is None:
            return []
        session, state = found
        gm = bool(roles_of(session, actor_of(interaction)) & GM_ROLES)
        me = str(interaction.user.id)
        key = current.strip().casefold()
        out = []
        for owner, troupe in state.troupes.items():
            if owner != me and not gm:
                continue
            for pc in troupe.pcs:
                label = f"{pc.name} ({troupe.name})" + ("" if pc.active else f", {fate_word(pc.fate)}")
                if key in label.casefold():
                    out.append(app_commands.Choice(name=choice_name(label), value=pc.id))
        mine = sorted(out, key=lambda c: not str(c.value).startswith(me + "."))
        return mine[:25]

    async def trait_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The seed's traits and the campaign's own, matching what is typed, each with its text."""
        found = await self._state_or_none(interaction)
        state = found[1] if found else CampaignState()
        key = current.strip().casefold()
        hits = [t for t in all_traits(state) if key in t.name.casefold() or any(key in a.casefold() for a in t.aliases)]
        return [app_commands.Choice(name=choice_name(f"{t.name}: {trait_text(t)}"), value=t.name) for t in hits[:25]]
