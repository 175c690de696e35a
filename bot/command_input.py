"""What a member sent in a command's options, checked against what the command declares, before it runs.

Discord's client keeps a value within an option's choices, range and length, but the bot can't count on it:
a modified client sends anything the API accepts, and a client holding an out-of-date copy of the commands
sends the old choices and limits. So every command's options are checked here, in one place, against the
declarations the command was synced with; a value outside them gets a private refusal saying what fits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.errors import InvalidInput
from bot.i18n import _, _n, _p
from rules.text import echo

SUBCOMMAND_TYPES = (1, 2)
NUMERIC = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)
CHOICES_LISTED = 10
"""How many of an option's choices a refusal lists."""


class OptionRefused(app_commands.AppCommandError):
    """A command option's value is outside what the command declares; ``original`` says so to the member."""

    def __init__(self, error: InvalidInput) -> None:
        super().__init__(error.text)
        self.original = error


def leaf_options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options of the (sub)command that runs, below any subcommand group and subcommand."""
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in SUBCOMMAND_TYPES:
        options = list(options[0].get("options") or [])
    return options


def check_options(command: app_commands.Command[Any, ..., Any], data: Mapping[str, Any]) -> None:
    """Raise OptionRefused for the first option of an invocation of ``command`` that its declaration refuses."""
    declared = {p.display_name: p for p in command.parameters}
    for option in leaf_options(data):
        parameter = declared.get(option.get("name", ""))
        if parameter is not None:
            problem = refusal(parameter, option.get("value"))
            if problem:
                raise OptionRefused(InvalidInput(problem))


def refusal(parameter: app_commands.Parameter, value: Any) -> str | None:
    """Why ``value`` doesn't fit the declared parameter, as the member reads it; None if it fits."""
    name = f"`{parameter.display_name}`"
    kind = parameter.type
    if parameter.choices and not parameter.autocomplete:
        if value not in [c.value for c in parameter.choices]:
            choices = _listed([_p("choice_name", c.name) for c in parameter.choices])
            return _("{name} must be one of: {choices}.", name=name, choices=choices)
        return None
    low, high = parameter.min_value, parameter.max_value
    if kind is discord.AppCommandOptionType.string and isinstance(value, str):
        if high is not None and len(value) > high:
            return _(
                "{name} takes at most {high} characters (that was {length}).",
                name=name,
                high=_grouped(high),
                length=_grouped(len(value)),
            )
        if low is not None and len(value) < low:
            return _n(
                "{name} needs at least {low} character.",
                "{name} needs at least {low} characters.",
                int(low),
                name=name,
                low=_grouped(low),
            )
    elif kind in NUMERIC and isinstance(value, int | float) and not _within(value, low, high):
        return _("{name} must be {span} (not {value}).", name=name, span=_span(low, high), value=_grouped(value))
    return None


def transform_refusal(error: app_commands.TransformerError) -> InvalidInput:
    """What to tell a member whose option value discord.py could not turn into what the command takes."""
    if error.type is discord.AppCommandOptionType.user:
        who = echo(getattr(error.value, "display_name", None) or str(error.value))
        return InvalidInput(_("{who} isn't a member of this server: pick someone who is.", who=who))
    return InvalidInput(_("One of the options doesn't fit this command: pick it from the list offered as you type."))


def _within(value: float, low: float | None, high: float | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def _span(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return _("from {low} to {high}", low=_grouped(low), high=_grouped(high))
    return _("at least {low}", low=_grouped(low)) if low is not None else _("at most {high}", high=_grouped(high))


def _grouped(number: float | None) -> str:
    """A number with its thousands grouped: ``1,024``."""
    return f"{number:,}"


def _listed(names: Sequence[str]) -> str:
    shown = ", ".join(names[:CHOICES_LISTED])
    more = len(names) - CHOICES_LISTED
    return shown + (_(" (and {more} more)", more=more) if more > 0 else "")
