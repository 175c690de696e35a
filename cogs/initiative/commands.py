"""``/init …``: start a tracker in a channel, join it (a roll, a saved roll or a value), add NPCs, conditions, end.

The board's buttons (Next, Previous, Delay, Undo, Remove) are the core's own controls: they work after a restart
with nothing registered here. Every change goes through the service; the tracker's GM is whoever started it.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TabletopBot
from bot.errors import InvalidInput, NoSession, NotPermitted
from bot.i18n import N_, _, _n
from bot.lobby import actor_of
from bot.models import MAIN_VIEW, Scope, Session, roles_of, viewer_of
from bot.names import escape_name
from bot.replies import PUBLIC_ANSWER, Reply
from cogs.dice.saved import expand_saved, saved_choices
from cogs.initiative.spec import InitiativeSpec
from rules.engine import visible
from rules.initiative.engine import ENGINE, RUNS_IT, said_of
from rules.initiative.state import (
    CONDITION_MAX,
    MAX_GROUP,
    MAX_TURNS,
    NAME_MAX,
    ROLL_MAX,
    InitOptions,
    InitState,
    Join,
    Remove,
    Reveal,
    SetCondition,
)
from rules.roll.errors import RollError
from rules.said import said
from rules.text import echo

Value = app_commands.Range[int, -99, 999]
Modifier = app_commands.Range[int, -99, 99]
Name = app_commands.Range[str, 1, NAME_MAX]
RollText = app_commands.Range[str, 1, ROLL_MAX]
NO_TRACKER = N_("There's no initiative tracker in this channel: `/init start` opens one.")


@app_commands.guild_only()
class InitiativeCog(commands.GroupCog, group_name="init", group_description="An initiative tracker for any RPG"):
    """The commands around the tracker's board."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.spec = InitiativeSpec()
        bot.register(self.spec)
        super().__init__()

    async def tracker(self, interaction: discord.Interaction) -> Session:
        """The channel's live tracker, or a friendly refusal."""
        assert interaction.channel_id is not None
        found = await self.bot.store.live_session(interaction.channel_id, Scope.TRACKER)
        if found is None:
            raise NoSession(_(NO_TRACKER))
        return found

    async def act(self, interaction: discord.Interaction, action: BaseModel, done: str) -> None:
        """Take ``action``, answered by its news when the channel may read it, else privately by what happened as
        the member may see it (a hidden NPC's roll, for the GM), then ``done``."""
        reply = Reply.of(interaction)
        session = await self.tracker(interaction)
        actor = actor_of(interaction)
        reply.answers_first = True  # the board is redrawn once this answer is on its way
        applied = await self.bot.service.act(session.id, actor, action, origin=reply)
        if not reply.took_news:
            viewer = viewer_of(applied.session, actor)
            seen = [e for e in applied.events if visible(e, viewer)]
            lines = [*self.spec.narrate(applied.session, seen), done]
            await reply.send("\n".join(lines), ephemeral=True)

    async def rolled(self, interaction: discord.Interaction, roll: str | None) -> str | None:
        """The notation to roll: a saved roll's name becomes its expression (the member's, channel's, server's)."""
        if roll is None:
            return None
        try:
            expanded = await expand_saved(interaction, roll)
        except RollError as error:
            raise InvalidInput(said_of(error)) from None
        if len(expanded) > ROLL_MAX:
            raise InvalidInput(_("That roll is too long for initiative: {roll}", roll=echo(roll, code=True)))
        return expanded

    @app_commands.command(name="start", description="Open an initiative tracker here; you run it", extras=PUBLIC_ANSWER)
    async def start(self, interaction: discord.Interaction) -> None:
        """A new, empty order in this channel, its board posted as the answer."""
        actor = actor_of(interaction)
        assert interaction.channel_id is not None
        applied = await self.bot.service.create(
            "init",
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host=actor,
            options=InitOptions(),
            roles={str(actor.user_id): ["gm"]},
        )
        await self.bot.publisher.post_view(applied.session, MAIN_VIEW, Reply.of(interaction))

    @app_commands.command(name="join", description="Join the order with a roll (1d20+3, a saved roll) or a value")
    @app_commands.describe(
        roll="Dice notation or a saved roll's name (default 1d20)",
        value="A result rolled elsewhere, instead of a roll",
        name="The name in the order (default: your name here)",
        modifier="Your initiative modifier, for ties (default: the roll's own)",
    )
    async def join(
        self,
        interaction: discord.Interaction,
        roll: RollText | None = None,
        value: Value | None = None,
        name: Name | None = None,
        modifier: Modifier | None = None,
    ) -> None:
        """The member joins for themselves."""
        named = (name or interaction.user.display_name)[:NAME_MAX]
        rolled = await self.rolled(interaction, roll)
        action = Join(member=str(interaction.user.id), name=named, roll=rolled, value=value, mod=modifier)
        await self.act(interaction, action, _("You're in the order."))

    @app_commands.command(name="npc", description="Add an NPC or a group of them (GM)")
    @app_commands.describe(
        name="What the order calls them (a group is numbered: Goblin 1, Goblin 2…)",
        roll="Dice notation or a saved roll's name (default 1d20), one roll for the whole group",
        value="A result rolled elsewhere, instead of a roll",
        count="How many act together",
        hidden="Only you see them until you /init reveal them",
        modifier="Their initiative modifier, for ties (default: the roll's own)",
    )
    async def npc(
        self,
        interaction: discord.Interaction,
        name: Name,
        roll: RollText | None = None,
        value: Value | None = None,
        count: app_commands.Range[int, 1, MAX_GROUP] = 1,
        hidden: bool = False,
        modifier: Modifier | None = None,
    ) -> None:
        """The GM adds NPCs; hidden ones are told to the GM alone."""
        rolled = await self.rolled(interaction, roll)
        action = Join(name=name, roll=rolled, value=value, mod=modifier, npc=True, count=count, hidden=hidden)
        done = "🙈 " + _("Only you see them (`/init gm`) until `/init reveal`.") if hidden else _("Added.")
        await self.act(interaction, action, done)

    @app_commands.command(name="leave", description="Leave the order")
    async def leave(self, interaction: discord.Interaction) -> None:
        """The member's own entry goes."""
        state = await self.state_for(interaction)
        mine = next((e for e in state.entries.values() if e.owner == str(interaction.user.id)), None)
        if mine is None:
            raise NotPermitted(_("You're not in the order."))
        await self.act(interaction, Remove(who=mine.id), _("You left the order."))

    @app_commands.command(name="remove", description="Take someone out of the order (GM, or yourself)")
    @app_commands.describe(who="Who leaves the order")
    async def remove(self, interaction: discord.Interaction, who: Name) -> None:
        """An entry goes (the GM's call, or the member's own)."""
        await self.act(interaction, Remove(who=who), _("Removed."))

    @app_commands.command(name="reveal", description="Show a hidden NPC (and its group) to everyone (GM)")
    @app_commands.describe(who="The hidden NPC")
    async def reveal(self, interaction: discord.Interaction, who: Name) -> None:
        """A hidden group steps out."""
        await self.act(interaction, Reveal(who=who), _("Revealed."))

    @app_commands.command(name="condition", description="Put a condition on someone, for some of their turns")
    @app_commands.describe(
        who="Who has it",
        condition="What it is (Stunned, Blessed…)",
        turns="How many of their turns it lasts (counted down as each ends); 0 takes it off; empty: until taken off",
    )
    async def condition(
        self,
        interaction: discord.Interaction,
        who: Name,
        condition: app_commands.Range[str, 1, CONDITION_MAX],
        turns: app_commands.Range[int, 0, MAX_TURNS] | None = None,
    ) -> None:
        """A condition the board shows and the tracker counts down."""
        await self.act(interaction, SetCondition(who=who, name=condition, turns=turns), _("Done."))

    @remove.autocomplete("who")
    @reveal.autocomplete("who")
    @condition.autocomplete("who")
    async def _who(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            state = await self.state_for(interaction)
        except NoSession:
            return []  # an autocomplete offers nothing rather than refusing
        typed = current.strip().casefold()
        return [
            app_commands.Choice(name=state.entries[e].name, value=state.entries[e].name)
            for e in state.order
            if typed in state.entries[e].name.casefold()
        ][:25]

    @join.autocomplete("roll")
    @npc.autocomplete("roll")
    async def _roll(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await saved_choices(interaction, current)

    async def state_for(self, interaction: discord.Interaction) -> InitState:
        """The tracker's state as the member may see it (a hidden NPC is the GM's alone)."""
        session = await self.tracker(interaction)
        state = self.bot.service.state_of(session)
        assert isinstance(state, InitState)
        return ENGINE.view(state, viewer_of(session, actor_of(interaction)))

    @app_commands.command(name="board", description="Post the board again, at the bottom", extras=PUBLIC_ANSWER)
    async def board(self, interaction: discord.Interaction) -> None:
        """The board moves down to here (the old one shrinks to a line)."""
        await self.bot.publisher.post_view(await self.tracker(interaction), MAIN_VIEW, Reply.of(interaction))

    @app_commands.command(name="gm", description="The order with hidden NPCs, for your eyes (GM)")
    async def gm(self, interaction: discord.Interaction) -> None:
        """The order as the member may see it, privately: the GM's has the hidden NPCs."""
        session = await self.tracker(interaction)
        viewer = viewer_of(session, actor_of(interaction))
        await self.bot.publisher.send_private(Reply.of(interaction), session, viewer)

    @app_commands.command(name="end", description="Close the tracker (GM)", extras=PUBLIC_ANSWER)
    async def end(self, interaction: discord.Interaction) -> None:
        """The order is kept for the log; the board shrinks to a line."""
        reply = Reply.of(interaction)
        session = await self.tracker(interaction)
        actor = actor_of(interaction)
        if not roles_of(session, actor) & RUNS_IT:
            raise NotPermitted(_("Only the tracker's GM (or someone with Manage Server) can end it."))
        state = self.bot.service.state_of(session)
        assert isinstance(state, InitState)
        over = (
            _n("Initiative over after {n} round.", "Initiative over after {n} rounds.", state.round)
            if state.round
            else _("Initiative over.")
        )
        await reply.send("⚔️ " + over)
        await self.bot.service.end(
            session.id, actor=actor, why=said("{name} ended the tracker.", name=escape_name(actor.name))
        )
