"""``/vic journal``: the whole campaign's history as a Markdown file, turn by turn, from its log — what the channel
saw (anyone may have it), or with the GM-only parts (rivals, their dice, handouts) for the GM.

Discord's own markup is turned into plain Markdown a file reader shows: a mention becomes the member's name (as far
as the bot knows it), a ``<t:…>`` timestamp a date in UTC.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

import discord
from discord import app_commands

from bot.errors import NotPermitted
from bot.i18n import _, _n
from bot.replies import Reply
from cogs.viciousness.common import VicBase, viewer_of
from cogs.viciousness.turns import title, turns_of
from rules.engine import PUBLIC, Viewer

MENTION = re.compile(r"<@!?(\d+)>")
RELATIVE = re.compile(r"\s*\(<t:\d+:R>\)|<t:\d+:R>")
STAMP = re.compile(r"<t:(\d+)(?::[tTdDfF])?>")
FILE_NAME_MAX = 60


def _date(found: re.Match[str]) -> str:
    return datetime.fromtimestamp(int(found[1]), UTC).strftime("%Y-%m-%d %H:%M UTC")


def plain(line: str, names: dict[int, str]) -> str:
    """A narrated line as plain Markdown: names for mentions, UTC dates for timestamps."""
    line = RELATIVE.sub("", line)
    line = STAMP.sub(_date, line)
    return MENTION.sub(lambda m: "@" + names.get(int(m[1]), _("a former member")), line)


def journal(company: str, turns: dict[int, list[str]], names: dict[int, str], *, gm: bool, now: float) -> str:
    """The journal's Markdown: a heading per turn, a bullet per line of the log."""
    when = datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d %H:%M UTC")
    about = (
        _("*Viciousness campaign journal, the GM's journal, with what only the GMs saw, as of {when}.*", when=when)
        if gm
        else _("*Viciousness campaign journal, what the table saw, as of {when}.*", when=when)
    )
    out = ["# " + (company or _("A Viciousness campaign")), "", about]
    for number in sorted(turns):
        out += ["", f"## {title(number)}", ""]
        lines = [f"- {plain(line, names)}".replace("\n", "\n  ") for line in turns[number]]
        out += lines or ["- " + _("Nothing happened.")]
    return "\n".join(out) + "\n"


def file_name(company: str) -> str:
    """``the-gilded-knives-journal.md``."""
    slug = re.sub(r"[^a-z0-9]+", "-", company.casefold()).strip("-")[:FILE_NAME_MAX] or "campaign"
    return f"{slug}-journal.md"


class JournalCommands(VicBase):
    """``/vic journal``."""

    async def _names(self, interaction: discord.Interaction, text: str) -> dict[int, str]:
        """The names of the members the journal mentions, as the channel shows them: the server's member (by their
        name there), else the user, asked of Discord when the bot doesn't know them yet."""
        names = {}
        for found in sorted({int(m) for m in MENTION.findall(text)}):
            known = interaction.guild.get_member(found) if interaction.guild is not None else None
            user = known or self.bot.get_user(found)
            if user is None:
                try:
                    user = await self.bot.fetch_user(found)
                except discord.HTTPException:
                    continue  # gone from Discord: the journal says "a former member"
            names[found] = user.display_name
        return names

    @app_commands.command(name="journal", description="The whole campaign's story as a file")
    @app_commands.describe(gm_parts="GM: with what only the GMs saw (rivals, their dice, handouts)")
    async def journal(self, interaction: discord.Interaction, gm_parts: bool = False) -> None:
        """Privately, as Markdown: what the table saw, turn by turn (or everything, for the GM)."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        viewer: Viewer = PUBLIC
        if gm_parts:
            viewer = viewer_of(session, interaction)
            if not viewer.is_gm:
                raise NotPermitted(_("Only the GM's journal has the GM-only parts; without `gm_parts` it is yours."))
        turns = await turns_of(self.bot, session, viewer, 0, self.state(session).turn.number)
        company = self.state(session).company.name
        names = await self._names(interaction, "\n".join(line for lines in turns.values() for line in lines))
        text = journal(company, turns, names, gm=gm_parts, now=self.bot.service.clock.now())
        description = _("The campaign journal")
        file = discord.File(io.BytesIO(text.encode()), filename=file_name(company), description=description)
        lines = sum(len(v) for v in turns.values())
        answer = (
            _n(
                "📖 The campaign's journal ({n} lines, with the GM-only parts: keep it to yourself).",
                "📖 The campaign's journal ({n} lines, with the GM-only parts: keep it to yourself).",
                lines,
            )
            if gm_parts
            else _n(
                "📖 The campaign's journal ({n} lines, what the table saw).",
                "📖 The campaign's journal ({n} lines, what the table saw).",
                lines,
            )
        )
        await reply.send(answer, ephemeral=True, file=file)
