"""The slash commands' descriptions and choices in each member's Discord language (discord.py's ``Translator``,
reading the same catalogs as every other message: ``bot.i18n``). Command and option names are not translated
(``bot.i18n_extract`` says why)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import ENGLISH, language_of, translations

TRANSLATED = frozenset(
    {
        app_commands.TranslationContextLocation.command_description,
        app_commands.TranslationContextLocation.group_description,
        app_commands.TranslationContextLocation.parameter_description,
        app_commands.TranslationContextLocation.choice_name,
    }
)


class CatalogTranslator(app_commands.Translator):
    """A command's description, an option's description or a choice's name in a Discord locale, if a catalog
    has it (else Discord shows the English)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = language_of(locale)
        if language == ENGLISH or context.location not in TRANSLATED:
            return None
        text = translations(language).pgettext(context.location.name, string.message)
        return text if text != string.message else None
