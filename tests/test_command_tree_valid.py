"""The command tree the bot syncs keeps Discord's rules (checked here independently of the fake's own checks)."""

from __future__ import annotations

import re
from typing import Any

from bot.app import TabletopBot
from localdiscord import LocalDiscord

# Discord's name regex is ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$; Python's \w is letters, digits and "_".
NAME = re.compile(r"[-_'\w]{1,32}")
SUBCOMMAND, GROUP = 1, 2


def check_named(item: dict[str, Any], where: str) -> list[str]:
    """Problems with one command's or option's name and description."""
    problems = []
    name = item["name"]
    if not NAME.fullmatch(name) or name != name.lower():
        problems.append(f"{where}: name {name!r} must be 1-32 lowercase letters, digits, - _ '")
    if not 1 <= len(item.get("description", "")) <= 100:
        problems.append(f"{where}: description must be 1-100 characters")
    return problems


def check_options(options: list[dict[str, Any]], where: str) -> list[str]:
    """Problems with one level of options, recursing into subcommands."""
    problems = []
    if len(options) > 25:
        problems.append(f"{where}: more than 25 options")
    kinds = {o["type"] in (SUBCOMMAND, GROUP) for o in options}
    if len(kinds) > 1:
        problems.append(f"{where}: subcommands mixed with plain options")
    seen_optional = False
    for option in options:
        here = f"{where} {option['name']}"
        problems += check_named(option, here)
        if option["type"] in (SUBCOMMAND, GROUP):
            problems += check_options(option.get("options", []), here)
            continue
        if option.get("required") and seen_optional:
            problems.append(f"{here}: required option after an optional one")
        seen_optional = seen_optional or not option.get("required")
        choices = option.get("choices", [])
        if len(choices) > 25:
            problems.append(f"{here}: more than 25 choices")
        problems += [f"{here}: choice {c['name']!r} not 1-100 chars" for c in choices if not 1 <= len(c["name"]) <= 100]
    return problems


def total_characters(item: dict[str, Any]) -> int:
    """Name, description, option names/descriptions and choice names/values: Discord caps the sum at 4,000."""
    size = len(item["name"]) + len(item.get("description", ""))
    for choice in item.get("choices", []):
        size += len(choice["name"]) + len(str(choice["value"]))
    return size + sum(total_characters(o) for o in item.get("options", []))


async def test_synced_command_tree_is_valid(fake: LocalDiscord, bot: TabletopBot) -> None:
    commands = fake.commands
    assert "ping" in [c["name"] for c in commands]
    assert len(commands) <= 100
    problems: list[str] = []
    for command in commands:
        where = f"/{command['name']}"
        problems += check_named(command, where)
        problems += check_options(command.get("options", []), where)
        if total_characters(command) > 4000:
            problems.append(f"{where}: more than 4,000 characters in total")
    names = [c["name"] for c in commands]
    problems += [f"/{n}: defined twice" for n in set(names) if names.count(n) > 1]
    assert problems == []
