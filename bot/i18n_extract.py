"""Keep the catalogs in step with the code: ``python -m bot.i18n_extract`` (``--check`` only says what is missing).

Every marked message (``_``, ``_n``, ``_p``, ``N_``, ``rules.said.said``), every text of the games' data files
(``YAML_KEYS``) and every description and choice of the slash commands (read off the command tree the bot would
sync, each in its own context: ``command_description``, ``choice_name``…) goes to the catalog of its domain:
the first of ``DOMAINS`` whose patterns its file matches. Each language's ``data/locales/<language>/<domain>.po``
is brought up to date: new messages added untranslated, gone ones dropped, translations kept.
"""

from __future__ import annotations

import argparse
import asyncio
import fnmatch
import logging
import re
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from bot.i18n import ENGLISH, LANGUAGES, LOCALES_DIR

ROOT = Path(__file__).resolve().parent.parent
DOMAINS: dict[str, tuple[str, ...]] = {
    "dice": ("cogs/dice/*", "rules/roll/*", "rules/dice.py", "rules/luck.py", "rules/odds.py"),
    "initiative": ("cogs/initiative/*", "rules/initiative/*"),
    "crowns": ("cogs/crowns.py", "rules/crowns/*", "data/crowns/*"),
    "vices": ("cogs/vices/*", "rules/vices/*", "data/vices/*"),
    "viciousness_rules": ("rules/viciousness/*", "data/viciousness/*"),
    "viciousness_play": tuple(
        f"cogs/viciousness/{name}.py"
        for name in (
            "pools",
            "pools_view",
            "turns",
            "checks",
            "dice_text",
            "odds",
            "rivals",
            "rivals_view",
            "calls",
            "narrate",
            "news",
            "recap",
            "journal",
        )
    ),
    "viciousness": ("cogs/viciousness/*",),
    "core": ("bot/*", "cogs/*", "rules/*"),
}
"""Each catalog and the files whose messages it holds (the first domain that matches a file has it)."""
SOURCES = ("bot", "cogs", "rules", "data")
KEYWORDS: dict[str, Any] = {"_": None, "_n": (1, 2), "_p": ((1, "c"), 2), "N_": None, "said": None, "said_n": (1, 2)}
YAML_KEYS = frozenset(
    {
        *("effect", "text", "description", "summary", "label", "meaning", "title", "help"),
        *("condition", "push", "knowledge", "spell", "physiology", "special", "helpful_trait", "cleared_by"),
        *("default_length", "items", "example_actions", "challenge_examples", "contact_examples"),
    }
)
"""The keys of the games' data files whose values (a sentence, or a list of them) are to translate; the names of
rules stay as they are."""
YAML_TABLES = frozenset({"contact_examples"})
"""Keys whose value is a table of sentences by name (the names stay)."""
TRANSLATED = tuple(language for language in LANGUAGES if language != ENGLISH)
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Found:
    """One message as the code has it."""

    domain: str
    msgid: str | tuple[str, ...]
    context: str | None
    where: str


def domain_of(relative: str) -> str | None:
    """The catalog of a file (its path from the repository's root), or None if it has no messages of ours."""
    for domain, patterns in DOMAINS.items():
        if any(fnmatch.fnmatch(relative, p) for p in patterns):
            return domain
    return None


def _files() -> Iterator[tuple[str, Path]]:
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
                relative = path.relative_to(ROOT).as_posix()
                if (domain := domain_of(relative)) is not None:
                    yield domain, path


def _yaml_texts(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in YAML_KEYS:
                yield from _yaml_texts(item)
            elif isinstance(item, str):
                yield item
            elif isinstance(item, list):
                yield from (s for s in item if isinstance(s, str))
            elif key in YAML_TABLES and isinstance(item, dict):
                yield from (s for s in item.values() if isinstance(s, str))
            else:
                yield from _yaml_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _yaml_texts(item)


def code_messages() -> list[Found]:
    """Every message marked in the code and the data files."""
    found = []
    for domain, path in _files():
        where = path.relative_to(ROOT).as_posix()
        if path.suffix == ".yaml":
            texts = _yaml_texts(yaml.safe_load(path.read_text(encoding="utf-8")))
            found += [Found(domain, text, None, where) for text in texts]
            continue
        for line, msgid, _comments, context in extract_from_file("python", path, keywords=KEYWORDS):
            found.append(Found(domain, msgid, context, f"{where}:{line}"))
    return found


async def _command_messages() -> list[Found]:
    from discord import app_commands

    # The cogs' background work, started as they load, fails without a login: not worth a word while reading.
    silenced = logging.root.manager.disable
    logging.disable(logging.ERROR)
    try:
        return await _read_commands(app_commands)
    finally:
        logging.disable(silenced)


async def _read_commands(app_commands: Any) -> list[Found]:
    from bot.app import TabletopBot
    from bot.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(discord_token="extract", database_path=Path(folder) / "bot.sqlite3", skip_sync=True)
        bot = TabletopBot(settings)
        await bot.open_storage()
        try:
            await bot.build_commands()
            found = []
            for command in bot.tree.walk_commands():
                module = (command.module or "").replace(".", "/")
                source = f"{module}/__init__.py" if (ROOT / module).is_dir() else f"{module}.py"
                domain = domain_of(source) or "core"
                found += [Found(domain, msgid, ctx, module) for ctx, msgid in _command_texts(command, app_commands)]
            return found
        finally:
            await bot.store.close()


def _command_texts(command: Any, app_commands: Any) -> Iterator[tuple[str, str]]:
    # Command and option names are not translated: like dice notation, they are what members copy, paste and read
    # in each other's messages and in the docs (``/roll 2d6`` works for everyone); their descriptions are.
    kind = "group" if isinstance(command, app_commands.Group) else "command"
    yield f"{kind}_description", command.description
    for parameter in getattr(command, "parameters", []):
        yield "parameter_description", parameter.description
        for choice in parameter.choices:
            yield "choice_name", choice.name


def command_messages() -> list[Found]:
    """Every name and description of the slash commands, read off the bot's command tree."""
    return asyncio.run(_command_messages())


def template(found: Iterable[Found], domain: str) -> Catalog:
    """The messages of one domain, as a catalog without translations."""
    catalog = Catalog(domain=domain)
    for item in found:
        if item.domain == domain:
            # The file alone, not the line: a catalog doesn't change each time code above a message moves.
            catalog.add(item.msgid, locations=[(item.where.split(":")[0], 0)], context=item.context)
    return catalog


def catalog_path(language: str, domain: str) -> Path:
    """Where a language keeps a domain's translations."""
    return LOCALES_DIR / language / f"{domain}.po"


def catalog_of(language: str, domain: str) -> Catalog:
    """A language's catalog of a domain (empty if it has none yet)."""
    path = catalog_path(language, domain)
    if not path.exists():
        return Catalog(locale=language, domain=domain, project="tabletop-bot", version="", fuzzy=False)
    with open(path, "rb") as f:
        return read_po(f, locale=language, domain=domain)


def update(found: list[Found], domains: Iterable[str] = DOMAINS) -> None:
    """Bring every language's catalogs (of ``domains``) up to date with ``found``: new messages added, gone ones
    dropped."""
    for domain in domains:
        wanted = template(found, domain)
        for language in TRANSLATED:
            catalog = catalog_of(language, domain)
            catalog.update(wanted, no_fuzzy_matching=True, update_creation_date=False)
            path = catalog_path(language, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as f:
                write_po(f, catalog, width=120, sort_output=True, ignore_obsolete=True, include_lineno=False)


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message puts values into."""
    return set(_PLACEHOLDER.findall(text))


def problems(found: list[Found]) -> list[str]:
    """What the catalogs lack: a message untranslated or missing in a language, or translated with other
    ``{names}`` than its English."""
    out = []
    for domain in DOMAINS:
        for language in TRANSLATED:
            catalog = catalog_of(language, domain)
            for item in found:
                if item.domain != domain:
                    continue
                message = catalog.get(item.msgid, context=item.context)
                out += _message_problems(language, domain, item, message)
    return out


def _message_problems(language: str, domain: str, item: Found, message: Message | None) -> list[str]:
    where = f"{language}/{domain}.po: {item.msgid!r} ({item.where})"
    if message is None or message.fuzzy or not message.string or not all(message.string):
        return [f"{where}: not translated"]
    english = item.msgid if isinstance(item.msgid, tuple) else (item.msgid,)
    names = set().union(*(placeholders(e) for e in english)) | ({"n"} if isinstance(item.msgid, tuple) else set())
    strings = tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string,)
    return [f"{where}: translation {s!r} puts in other {{names}}" for s in strings if not placeholders(s) <= names]


def counts(found: list[Found]) -> dict[str, int]:
    """Messages per language translated (English: all of them)."""
    unique = {(f.msgid, f.context) for f in found}
    result = {ENGLISH: len(unique)}
    for language in TRANSLATED:
        translated = set()
        for domain in DOMAINS:
            catalog = catalog_of(language, domain)
            translated |= {(m.id, m.context) for m in catalog if m.id and m.string and all(m.string) and not m.fuzzy}
        result[language] = len(unique & translated)
    return result


def main(argv: list[str] | None = None) -> int:
    """Update the catalogs (or with ``--check`` only list what they lack); print messages per language."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing; fail if a message lacks a translation")
    parser.add_argument("--domain", choices=DOMAINS, help="update and show only this domain's catalogs")
    args = parser.parse_args(argv)
    found = code_messages() + command_messages()
    if not args.check:
        update(found, [args.domain] if args.domain else DOMAINS)
    listed = [p for p in problems(found) if args.domain is None or f"/{args.domain}.po" in p]
    for line in listed:
        print(line)
    print(counts(found))
    return 1 if args.check and listed else 0


if __name__ == "__main__":
    sys.exit(main())
