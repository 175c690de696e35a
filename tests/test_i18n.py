"""The catalogs: every message of the code, the data files and the commands translated in every language (0
missing), with the same ``{names}``; the commands' localizations within Discord's limits; the pseudo-language;
who is spoken to in which language."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

import pytest
from discord import Locale

from bot.app import TabletopBot
from bot.command_language import CatalogTranslator
from bot.i18n import (
    ENGLISH,
    LANGUAGES,
    PSEUDO_CLOSE,
    PSEUDO_OPEN,
    _,
    _n,
    discord_locales,
    language_of,
    localize,
    pseudo,
    speaking,
)
from bot.i18n_extract import DOMAINS, catalog_of, code_messages, command_messages, counts, problems
from bot.languages import SERVER_TTL_S, Languages
from bot.settings import Settings
from bot.storage import open_store
from rules.said import said
from tests.core.clock import FakeClock

FOUND = code_messages() + command_messages()


def test_every_message_is_translated_in_every_language() -> None:
    missing = problems(FOUND)
    assert not missing, f"{len(missing)} problems, the first ones:\n" + "\n".join(missing[:40])
    per_language = counts(FOUND)
    assert set(per_language) == set(LANGUAGES)
    assert len(set(per_language.values())) == 1, per_language
    assert per_language[ENGLISH] > 1_000  # every game's and the dice's messages, not a sample


def test_no_catalog_keeps_a_message_the_code_no_longer_has() -> None:
    wanted = {(f.domain, f.msgid if isinstance(f.msgid, str) else f.msgid[0], f.context) for f in FOUND}
    for language in LANGUAGES:
        if language == ENGLISH:
            continue
        for domain in DOMAINS:
            kept = {
                (domain, m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog_of(language, domain)
            }
            stale = {k for k in kept if k[1]} - wanted
            assert not stale, f"{language}/{domain}.po: run python -m bot.i18n_extract ({sorted(stale)[:5]})"


def test_a_message_in_two_catalogs_is_translated_the_same_in_both() -> None:
    # The catalogs are merged into one per language (bot.i18n.translations): a message two domains translate
    # differently would be said one way in both places. One that means two things needs a context (_p).
    for language in LANGUAGES:
        if language == ENGLISH:
            continue
        seen: dict[tuple[str, str | None], dict[str, str]] = {}
        for domain in DOMAINS:
            for m in catalog_of(language, domain):
                if m.id and m.string:
                    key = (m.id if isinstance(m.id, str) else m.id[0], m.context)
                    seen.setdefault(key, {})[domain] = str(m.string)
        differ = {key: by for key, by in seen.items() if len(set(by.values())) > 1}
        assert not differ, (language, differ)


def _localized_commands() -> list[dict[str, Any]]:
    async def build() -> list[dict[str, Any]]:
        with tempfile.TemporaryDirectory() as folder:
            bot = TabletopBot(Settings(discord_token="t", database_path=Path(folder) / "b.sqlite3", skip_sync=True))
            await bot.open_storage()
            try:
                await bot.build_commands()
                translator = CatalogTranslator()
                return [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
            finally:
                await bot.store.close()

    return asyncio.run(build())


def _sizes(item: dict[str, Any], locale: str) -> int:
    """A command's characters in one locale (Discord caps them at 4,000)."""
    size = len(item["name"]) + len((item.get("description_localizations") or {}).get(locale, item["description"]))
    for choice in item.get("choices", []):
        size += len((choice.get("name_localizations") or {}).get(locale, choice["name"])) + len(str(choice["value"]))
    return size + sum(_sizes(o, locale) for o in item.get("options", []))


def _localizations(item: dict[str, Any]) -> list[tuple[str, str, str]]:
    found = [(item["name"], loc, text) for loc, text in (item.get("description_localizations") or {}).items()]
    found += [
        (c["name"], loc, text)
        for c in item.get("choices", [])
        for loc, text in (c.get("name_localizations") or {}).items()
    ]
    for option in item.get("options", []):
        found += _localizations(option)
    return found


def test_the_commands_are_described_in_every_language_within_discords_limits() -> None:
    commands = _localized_commands()
    locales = [loc for language in LANGUAGES for loc in discord_locales(language)]
    assert set(locales) == {"es-ES", "es-419", "pt-BR", "de"}
    for command in commands:
        assert "name_localizations" not in command or not command["name_localizations"]  # names stay as typed
        localized = _localizations(command)
        assert {loc for _, loc, _ in localized} == set(locales), command["name"]
        too_long = [(name, loc, text) for name, loc, text in localized if not 1 <= len(text) <= 100]
        assert not too_long
        for locale in locales:
            assert _sizes(command, locale) <= 4000


def test_a_discord_locale_finds_its_catalog() -> None:
    assert language_of(Locale.spain_spanish) == language_of("es-419") == "es"
    assert language_of(Locale.brazil_portuguese) == "pt_BR"
    assert language_of("de") == "de"
    assert language_of("fr") == language_of(None) == language_of("en-GB") == ENGLISH


def test_the_pseudo_language_keeps_what_members_copy() -> None:
    text = pseudo("Roll `{expression}` for **{name}** <@{user}> at https://x.test/a :game_die:")
    assert text.startswith(PSEUDO_OPEN) and text.endswith(PSEUDO_CLOSE)
    for kept in ("`{expression}`", "**{name}**", "<@{user}>", "https://x.test/a", ":game_die:"):
        assert kept in text
    assert "Roll" not in text and len(text) >= 1.4 * len("Roll `{expression}` for **{name}** <@{user}>")


def test_said_is_english_until_said_in_another_language() -> None:
    reason = said("You can't remove {count} dice.", count=3)
    assert reason == "You can't remove 3 dice." and isinstance(reason, str)
    with speaking("pseudo"):
        assert localize(reason).startswith(PSEUDO_OPEN) and "3" in localize(reason)
        assert _("{reason}", reason=reason).count(PSEUDO_OPEN) == 2  # a Said given as a value is said too
    assert localize("typed by a member") == "typed by a member"


def test_plurals_follow_each_language() -> None:
    assert _n("{n} point", "{n} points", 1) == "1 point"
    assert _n("{n} point", "{n} points", 2) == "2 points"
    with speaking("pseudo"):
        assert "2" in _n("{n} point", "{n} points", 2) and PSEUDO_OPEN in _n("{n} point", "{n} points", 2)


@pytest.fixture
async def languages(tmp_path: Path) -> Any:
    store = open_store(tmp_path / "l.sqlite3", None, 1)
    await store.open()
    clock = FakeClock()
    yield Languages(store, clock, lambda guild_id: "de" if guild_id == 1 else None), clock
    await store.close()


async def test_a_member_is_answered_in_their_choice_or_their_discords(languages: Any) -> None:
    chosen, _clock = languages
    assert await chosen.member(7, "es-ES") == "es"
    await chosen.choose(7, "pt_BR")
    assert await chosen.member(7, "es-ES") == "pt_BR"
    assert await chosen.store.member_language(7) == "pt_BR"
    await chosen.choose(7, None)
    assert await chosen.member(7, "de") == "de" and await chosen.store.member_language(7) is None


async def test_a_channel_speaks_its_servers_setting_or_its_discord_language(languages: Any) -> None:
    chosen, clock = languages
    assert await chosen.channel(1) == "de"  # the server's own Discord language
    assert await chosen.channel(2) == ENGLISH and await chosen.channel(None) == ENGLISH
    settings = (await chosen.store.guild_settings(2)).model_copy(update={"language": "es"})
    await chosen.store.set_guild_settings(2, settings)
    assert await chosen.channel(2) == ENGLISH  # another process changed it: trusted for a minute
    clock.advance(SERVER_TTL_S + 1)
    assert await chosen.channel(2) == "es"
    chosen.server_changed(2, None)  # changed here: at once
    assert await chosen.channel(2) == ENGLISH
    chosen.forced = "pseudo"
    assert await chosen.channel(1) == await chosen.member(7, "de") == "pseudo"
