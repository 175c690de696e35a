"""A test-only cog that answers in every way a cog can, so the fake's own tests cover each protocol path.

Load it with ``make_bot(extensions=("cogs.meta", "tests.probe"))``.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands


class ProbeButtons(discord.ui.View):
    """Two buttons that rewrite their own message, and a string select that answers with a new message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Alpha", custom_id="probe:alpha")
    async def alpha(self, interaction: discord.Interaction, button: discord.ui.Button[ProbeButtons]) -> None:
        """Update the clicked message in place (callback type 7)."""
        await interaction.response.edit_message(content=f"alpha by {interaction.user.id}")

    @discord.ui.button(label="Later", custom_id="probe:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[ProbeButtons]) -> None:
        """Defer the update (type 6), then edit the original message."""
        await interaction.response.defer()
        await interaction.edit_original_response(content="edited later")

    @discord.ui.button(label="Ask", custom_id="probe:ask")
    async def ask(self, interaction: discord.Interaction, button: discord.ui.Button[ProbeButtons]) -> None:
        """Open a modal from a click."""
        await interaction.response.send_modal(ProbeModal())

    @discord.ui.select(custom_id="probe:pick", options=[discord.SelectOption(label=v, value=v) for v in "xyz"])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[ProbeButtons]) -> None:
        """Answer a selection with a new message."""
        await interaction.response.send_message(f"picked {','.join(select.values)}")


class ProbeModal(discord.ui.Modal, title="Probe question"):
    """One text input."""

    answer: discord.ui.TextInput[ProbeModal] = discord.ui.TextInput(label="Answer", custom_id="answer", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Echo the answer."""
        await interaction.response.send_message(f"got {self.answer.value}")


class Probe(commands.Cog):
    """/probe …: one subcommand per protocol path."""

    probe = app_commands.Group(name="probe", description="Exercise the fake Discord.")
    deep = app_commands.Group(name="deep", description="A subcommand group.", parent=probe)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        bot.add_view(ProbeButtons())

    @probe.command(name="defer", description="Defer, then edit the original response.")
    async def defer(self, interaction: discord.Interaction) -> None:
        """Type 5, then PATCH @original."""
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="deferred done")

    @probe.command(name="defer-followup", description="Defer, then answer with a follow-up.")
    async def defer_followup(self, interaction: discord.Interaction) -> None:
        """Type 5 (ephemeral), then a follow-up that fills the deferred message in."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("filled in")

    @probe.command(name="followups", description="Answer, then send two follow-ups.")
    async def followups(self, interaction: discord.Interaction) -> None:
        """Type 4, then two POST /webhooks follow-ups (one ephemeral)."""
        await interaction.response.send_message("first")
        await interaction.followup.send("second")
        await interaction.followup.send("third", ephemeral=True)

    @probe.command(name="buttons", description="Post a message with buttons and a select.")
    async def buttons(self, interaction: discord.Interaction) -> None:
        """A message with components."""
        await interaction.response.send_message("choose", view=ProbeButtons())

    @probe.command(name="say", description="Say something.")
    @app_commands.describe(text="What to say", count="How often", mood="How")
    @app_commands.choices(
        mood=[app_commands.Choice(name="Happy", value="happy"), app_commands.Choice(name="Sad", value="sad")]
    )
    async def say(
        self,
        interaction: discord.Interaction,
        text: app_commands.Range[str, 1, 50],
        count: app_commands.Range[int, 1, 3] = 1,
        mood: str = "happy",
    ) -> None:
        """Repeat ``text`` with the bot's default allowed_mentions."""
        await interaction.response.send_message(" ".join([text] * count) + f" ({mood})")

    @probe.command(name="mention", description="Mention a member.")
    async def mention(self, interaction: discord.Interaction, who: discord.Member) -> None:
        """A user option, resolved from the interaction."""
        await interaction.response.send_message(f"hello {who.mention} and @everyone")

    @probe.command(name="post", description="Post in the channel through the REST API.")
    async def post(self, interaction: discord.Interaction) -> None:
        """POST /channels/{id}/messages; tell the user privately if the bot may not."""
        if not interaction.app_permissions.send_messages:
            await interaction.response.send_message("I cannot post here.", ephemeral=True)
            return
        assert isinstance(interaction.channel, discord.abc.Messageable)
        message = await interaction.channel.send("posted")
        await message.edit(content="posted and edited")
        await interaction.response.send_message("done", ephemeral=True)

    @probe.command(name="dm", description="Send the user a direct message.")
    async def dm(self, interaction: discord.Interaction) -> None:
        """POST /users/@me/channels, then a message in the DM channel."""
        await interaction.user.send("psst in DM")
        await interaction.response.send_message("sent", ephemeral=True)

    @probe.command(name="thread", description="Start a thread on a message and talk in it.")
    async def thread(self, interaction: discord.Interaction) -> None:
        """Thread from the response message, then a private thread."""
        await interaction.response.send_message("game on")
        message = await interaction.original_response()
        thread = await message.create_thread(name="Game 1")
        await thread.send("first turn")
        assert isinstance(interaction.channel, discord.TextChannel)
        private = await interaction.channel.create_thread(name="Secret", type=discord.ChannelType.private_thread)
        await private.send("psst")

    @probe.command(name="slow", description="Answer after a delay.")
    async def slow(self, interaction: discord.Interaction, seconds: float) -> None:
        """Sleep first (for deadline tests)."""
        await asyncio.sleep(seconds)
        await interaction.response.send_message("slow")

    @probe.command(name="twice", description="Answer twice (a bug, on purpose).")
    async def twice(self, interaction: discord.Interaction) -> None:
        """Two initial responses: Discord refuses the second (40060)."""
        await interaction.response.send_message("one")
        await self.bot.http.request(
            discord.http.Route("POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token),
            json={"type": 4, "data": {"content": "two"}},
        )

    @probe.command(name="toolong", description="Send 2,001 characters (a bug, on purpose).")
    async def toolong(self, interaction: discord.Interaction) -> None:
        """Content over Discord's limit."""
        await interaction.response.send_message("x" * 2001)

    @deep.command(name="leaf", description="A subcommand inside a group.")
    async def leaf(self, interaction: discord.Interaction, level: int) -> None:
        """Nested options."""
        await interaction.response.send_message(f"leaf {level}", ephemeral=True)

    @app_commands.command(name="probe-admin", description="Only for server managers.")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def admin(self, interaction: discord.Interaction) -> None:
        """Hidden from members without Manage Server."""
        await interaction.response.send_message("admin ok", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Probe(bot))
