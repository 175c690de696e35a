"""``/dice presets``: the game systems ``/roll`` speaks, each with how to write it and an example."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from bot.i18n import _, localize
from bot.names import MAX_CONTENT, clip
from bot.replies import Reply
from rules.roll.systems import SYSTEMS, system_named

SYSTEM_CHOICES = [app_commands.Choice(name=system.name[:100], value=system.key) for system in SYSTEMS]


def overview() -> str:
    """One line per system: its name, how to write it, what it does (without what it does, in a language whose
    summaries would not fit one message: each system's own page has it)."""
    heading = _("🎲 **Game systems** · roll with `/roll`, odds with `/dice odds`, save with `/dice save`")
    footer = _("-# Ask for one (`system:`) to see its examples and every word that calls it.")
    full = [f"**{localize(system.name)}** `{system.usage}` · {localize(system.summary)}" for system in SYSTEMS]
    text = "\n".join([heading, *full, footer])
    if len(text) <= MAX_CONTENT:
        return text
    short = [f"**{localize(system.name)}** `{system.usage}`" for system in SYSTEMS]
    return clip("\n".join([heading, *short, footer]))


def detail(key: str) -> str:
    """One system: its summary, how to write it, the words that call it, examples."""
    system = system_named(key)
    if system is None:
        raise UserError(_("I don't know that system: see `/dice presets` for the list."))
    words = ", ".join(f"`{word}`" for word in system.words)
    examples = "\n".join(f"`/roll {example}`" for example in system.examples)
    return "\n".join(
        [
            f"🎲 **{localize(system.name)}**",
            localize(system.summary),
            _("Write: `{usage}` (words: {words})", usage=system.usage, words=words),
            examples,
            _("-# Odds of any of them: `/dice odds {example}`.", example=system.examples[0]),
        ]
    )


@app_commands.command(name="presets", description="Game systems /roll speaks: Blades, PbtA, Daggerheart, Fate…")
@app_commands.describe(system="One system, with examples")
@app_commands.choices(system=SYSTEM_CHOICES)
async def presets(interaction: discord.Interaction, system: str | None = None) -> None:
    """The list of systems, or one system in detail (privately: it's a question)."""
    text = overview() if system is None else detail(system)
    await Reply.of(interaction, private=True).send(text, ephemeral=True)


COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (presets,)
