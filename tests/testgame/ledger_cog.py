"""Discord side of the ledger: ``/ledger new|join|add|note|gm|page|undo|redo`` and page sheets with buttons."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TabletopBot
from bot.errors import NoSession
from bot.forms import Input, action_modal
from bot.lobby import actor_of
from bot.models import MAIN_VIEW, LogEntry, News, Scope, Session, roles_of
from bot.names import escape_name
from bot.registry import GameKind
from bot.replies import PUBLIC_ANSWER, Reply
from bot.service import Expect
from bot.spec import GameSpec, View, ViewContext
from rules.engine import CO_GM, GM, Viewer
from tests.testgame.ledger import Add, LedgerEngine, LedgerOptions, LedgerState, RollOnto


class LedgerSpec(GameSpec[LedgerState]):
    kind = GameKind(LedgerEngine(), scope=Scope.CAMPAIGN)

    def render(self, ctx: ViewContext[LedgerState]) -> View:
        state = ctx.state
        if ctx.view.startswith("page:"):
            owner = ctx.view.removeprefix("page:")
            page = state.pages[owner]
            embed = discord.Embed(title=f"{escape_name(page.name)}'s page", description=f"Total: {page.total}")
            record = ctx.view
            rows: list[list[discord.ui.Item[Any]]] = [
                [
                    ctx.button("+1", Add(page=owner, amount=1), record=record),
                    ctx.button("Roll a d6", RollOnto(page=owner), record=record),
                    ctx.ui_button("Add…", "add", owner),
                ]
            ]
            return View(embeds=[embed], rows=rows)
        lines = [f"{escape_name(p.name)}: {p.total}" for p in state.pages.values()] or ["no pages yet"]
        embed = discord.Embed(title="Ledger", description="\n".join(lines))
        if state.notes:  # only ever drawn for the GM: the core removes notes from everyone else's view
            embed.add_field(name="GM notes", value="\n".join(escape_name(n) for n in state.notes)[:1024])
        return View(embeds=[embed])

    def news(self, ctx: ViewContext[LedgerState], entry: LogEntry) -> list[News]:
        """A roll is told in the channel (a message of its own, like a real game's dice results)."""
        if entry.action.get("action", {}).get("type") != "roll":
            return []
        return [
            News(text=f"🎲 {escape_name(ctx.state.pages[e['page']].name)} rolled {e['amount']} (now {e['total']}).")
            for e in ctx.events
            if e["type"] == "added"
        ]

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        lines = []
        for e in events:
            if e["type"] == "added":
                lines.append(f"Page {e['page']} got {e['amount']} (now {e['total']}).")
            elif e["type"] == "noted":
                lines.append(f"Note: {escape_name(e['text'])}")
        return lines

    async def on_ui(self, reply: Reply, session: Session, key: str, arg: str, values: list[str]) -> None:
        expect = Expect.of(session, f"page:{arg}")
        inputs = [Input("amount")]
        await reply.modal(
            action_modal(session, Add, inputs, title="Add to the page", fixed={"page": arg}, expect=expect)
        )


@app_commands.guild_only()
class LedgerCog(commands.GroupCog, group_name="ledger", group_description="A campaign-like test game."):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        bot.register(LedgerSpec())
        super().__init__()

    async def session(self, interaction: discord.Interaction) -> Session:
        assert interaction.channel_id is not None
        found = await self.bot.service.campaign(interaction.channel_id, interaction.guild_id)
        if found is None:
            raise NoSession("There is no ledger here.")
        return found

    @app_commands.command(name="new", description="Open a ledger; you are its GM.", extras=PUBLIC_ANSWER)
    async def new(self, interaction: discord.Interaction) -> None:
        actor = actor_of(interaction)
        assert interaction.channel_id is not None
        applied = await self.bot.service.create(
            "ledger",
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host=actor,
            options=LedgerOptions(),
            roles={str(actor.user_id): [GM]},
        )
        await self.bot.publisher.post_view(applied.session, MAIN_VIEW, Reply.of(interaction))

    @app_commands.command(name="join", description="Open your page.")
    async def join(self, interaction: discord.Interaction, name: str) -> None:
        reply = Reply.of(interaction)
        session = await self.session(interaction)
        await self.bot.service.act(session.id, actor_of(interaction), {"type": "join", "name": name})
        await reply.send("Your page is open.")

    @app_commands.command(name="add", description="Add an amount to your page.")
    async def add(self, interaction: discord.Interaction, amount: int) -> None:
        reply = Reply.of(interaction)
        session = await self.session(interaction)
        page = str(interaction.user.id)
        await self.bot.service.act(session.id, actor_of(interaction), {"type": "add", "page": page, "amount": amount})
        await reply.send(f"Added {amount}.")

    @app_commands.command(name="note", description="A secret note (GM only).")
    async def note(self, interaction: discord.Interaction, text: str) -> None:
        reply = Reply.of(interaction)
        session = await self.session(interaction)
        await self.bot.service.act(session.id, actor_of(interaction), {"type": "note", "text": text})
        await reply.send("Noted.")

    @app_commands.command(name="gm", description="The ledger as you may see it (privately).")
    async def gm(self, interaction: discord.Interaction) -> None:
        reply = Reply.of(interaction)
        session = await self.session(interaction)
        actor = actor_of(interaction)
        viewer_roles = roles_of(session, actor)
        await self.bot.publisher.send_private(reply, session, Viewer(str(actor.user_id), viewer_roles))

    @app_commands.command(name="page", description="Post your page here.", extras=PUBLIC_ANSWER)
    async def page(self, interaction: discord.Interaction) -> None:
        session = await self.session(interaction)
        await self.bot.publisher.post_view(session, f"page:{interaction.user.id}", Reply.of(interaction))

    @app_commands.command(name="undo", description="Undo the latest entry.")
    async def undo(self, interaction: discord.Interaction) -> None:
        reply = Reply.of(interaction)
        session = await self.session(interaction)
        await self.bot.service.undo(session.id, actor_of(interaction))
        await reply.send("Undone.")

    @app_commands.command(name="redo", description="Redo the entry undone last.")
    async def redo(self, interaction: discord.Interaction) -> None:
        reply = Reply.of(interaction)
        session = await self.session(interaction)
        await self.bot.service.undo(session.id, actor_of(interaction), redo=True)
        await reply.send("Redone.")

    @app_commands.command(name="cogm", description="Make someone a co-GM (GM only).")
    async def cogm(self, interaction: discord.Interaction, member: discord.Member) -> None:
        reply = Reply.of(interaction)
        session = await self.session(interaction)
        await self.bot.service.set_role(session.id, actor_of(interaction), member.id, CO_GM)
        await reply.send(f"{escape_name(member.display_name)} is a co-GM now.")


async def setup(bot: TabletopBot) -> None:
    await bot.add_cog(LedgerCog(bot))
