"""Commands about the bot itself: /ping and /help."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import LANGUAGES, _, speaking
from bot.languages import Languages
from bot.replies import Reply

DISCORD_LANGUAGE = "discord"
"""``/language``: the member's own Discord language (the default)."""


class Meta(commands.Cog):
    """The bot's own commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="The language the bot answers you in, everywhere.")
    @app_commands.describe(language="Leave it out to see which one you have.")
    @app_commands.choices(
        language=[
            app_commands.Choice(name="My Discord language", value=DISCORD_LANGUAGE),
            *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
        ]
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        """Choose the language of one's own answers (or go back to Discord's); say which it is."""
        reply = Reply.of(interaction, private=True)
        languages: Languages = getattr(self.bot, "languages")  # noqa: B009 (the bot's, typed here)
        user_id = interaction.user.id
        if language is not None:
            await languages.choose(user_id, None if language == DISCORD_LANGUAGE else language)
        spoken = await languages.member(user_id, interaction.locale)
        with speaking(spoken):
            name = LANGUAGES.get(spoken, spoken)
            if await languages.chosen(user_id) is None:
                text = _("I answer you in **{name}**, your Discord language.", name=name)
            else:
                text = _("I answer you in **{name}**, as you chose.", name=name)
            if language is not None:
                text = _("Saved. {what}", what=text)
            await reply.send(text)

    @app_commands.command(name="ping", description="Check that the bot is awake.")
    async def ping(self, interaction: discord.Interaction) -> None:
        """Answer at once; the cheapest possible round trip (also the benchmark baseline)."""
        await Reply.of(interaction, private=True).send(_("Pong!"))


async def setup(bot: commands.Bot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Meta(bot))
