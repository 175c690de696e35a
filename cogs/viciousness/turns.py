"""``/vic-gm turn start|end`` and ``/vic log``: the turn loop (RULES.md P2) and what happened in each turn.

The log is read from the session's own log (every action and its events), so it needs nothing kept in
the state; GM-only events reach only a GM's log. Each entry is stored with its turn (the engine's chapter), so
a turn's log, or the latest turns', is read without the rest of a long campaign.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.board import static_view
from bot.controls import ui_id
from bot.errors import InvalidInput
from bot.i18n import _
from bot.lobby import actor_of
from bot.models import Session
from bot.replies import PUBLIC_ANSWER, Reply
from cogs.viciousness.common import KIND, VicBase, after_news, campaign_state, salted, viewer_of
from cogs.viciousness.controls import Controls
from cogs.viciousness.narrate import narrate
from cogs.viciousness.rivals import rival_news
from cogs.viciousness.text import cut
from rules.engine import Viewer, visible
from rules.viciousness.actions import Action, TurnEnd, TurnStart

if TYPE_CHECKING:
    from bot.app import TabletopBot

LOG_BUDGET = 5500
PAGE_TEXT = 4000
FIELD_TEXT = 1024
SETUP = 0


RECENT = 4
"""Turns read first for the latest-turns log; more only when they all fit with room to spare."""


async def turns_of(bot: TabletopBot, session: Session, viewer: Viewer, first: int, last: int) -> dict[int, list[str]]:
    """What happened in turns ``first`` to ``last`` (0: before the first), as the viewer may read it, oldest first;
    only those turns' entries are read."""
    state = campaign_state(bot, session)
    await stamp_turns(bot, session)
    events: dict[int, list[dict[str, Any]]] = {number: [] for number in range(first, last + 1)}
    current = first
    for entry in await bot.store.log_entries(session.id, chapters=(first, last)):
        if entry.action.get("kind") == "roles":  # the core's own entry: who runs the campaign, in the log too
            events[current].append({"type": "roles_changed", **entry.action})
        for event in entry.events:
            if not visible(event, viewer):
                continue
            if event.get("type") == "turn_started":
                current = int(event["turn"])
            events[current].append(event)
    # A turn is narrated as a whole, so a pool's later events can name its sides as it was opened with.
    return {number: narrate(state, turn) for number, turn in events.items()}


async def stamp_turns(bot: TabletopBot, session: Session) -> None:
    """A campaign logged before entries were stored with their turn gets them, once (its whole log read then)."""
    if await bot.store.chaptered(session.id):
        return
    turns: dict[int, int] = {}
    current = SETUP
    for entry in await bot.store.log_entries(session.id):
        current = next((int(e["turn"]) for e in entry.events if e.get("type") == "turn_started"), current)
        turns[entry.seq] = current
    await bot.store.stamp_chapters(session.id, turns)


def title(number: int) -> str:
    """A turn's heading."""
    return _("Before the first turn") if number == SETUP else _("Turn {number}", number=number)


def pages_of(lines: list[str]) -> list[str]:
    """A turn's lines as pages of whole lines that each fit an embed's description."""
    pages: list[str] = []
    page: list[str] = []
    for line in lines or [_("Nothing happened.")]:
        line = cut(line, PAGE_TEXT)
        if page and len("\n".join([*page, line])) > PAGE_TEXT:
            pages.append("\n".join(page))
            page = []
        page.append(line)
    return [*pages, "\n".join(page)]


def latest(lines: list[str], limit: int) -> tuple[str, bool]:
    """As many of the last ``lines`` as fit ``limit`` (a turn's newest events matter most); whether any were left."""
    kept: list[str] = []
    for line in reversed(lines):
        if len("\n".join(["…", line, *kept])) > limit:
            break
        kept.insert(0, line)
    if len(kept) == len(lines):
        return "\n".join(lines) or _("Nothing happened."), False
    return "\n".join(["…", *kept]) if kept else cut(lines[-1], limit), True


def log_embed(turns: dict[int, list[str]], only: int | None, page: int = 0, total: int | None = None) -> discord.Embed:
    """The latest turns that fit, newest last (of ``total`` turns, if more were played than ``turns`` holds); or one
    turn, a page at a time."""
    if only is not None:
        if only not in turns:
            raise InvalidInput(_("There is no turn {number} yet.", number=only))
        pages = pages_of(turns[only])
        page = max(0, min(page, len(pages) - 1))
        embed = discord.Embed(title=title(only), description=pages[page])
        if len(pages) > 1:
            embed.set_footer(text=_("Page {page} of {pages}", page=page + 1, pages=len(pages)))
        return embed
    embed = discord.Embed(title=_("The campaign so far"))
    used = 0
    shown: list[tuple[str, str]] = []
    shortened = False
    for number in sorted(turns, reverse=True):
        value, cut_short = latest(turns[number], FIELD_TEXT)
        if used + len(value) > LOG_BUDGET or len(shown) == 25:
            break
        shortened |= cut_short
        shown.append((title(number), value))
        used += len(value) + len(title(number))
    for name, value in reversed(shown):
        embed.add_field(name=name, value=value, inline=False)
    if len(shown) < (total or len(turns)) or shortened:
        embed.set_footer(text=_("A whole turn, older ones too: /vic log turn:<number>"))
    return embed


def log_buttons(session: Session, turn: int, page: int, pages: int) -> list[list[discord.ui.Item[Any]]]:
    """◀ ▶ between the pages of a turn's log (none when it fits one)."""
    if pages < 2:
        return []
    return [
        [
            discord.ui.Button(
                label=label,
                disabled=not 0 <= target < pages,
                custom_id=ui_id(KIND, session.id, "log-page", f"{turn}:{target}:{'p' if label == '◀' else 'n'}"),
            )
            for label, target in (("◀", page - 1), ("▶", page + 1))
        ]
    ]


async def turn_log(bot: TabletopBot, reply: Reply, session: Session, turn: int | None, page: int = 0) -> dict[str, Any]:
    """The log message for the member of ``reply``: GM-only events only for a GM."""
    viewer = viewer_of(session, reply.interaction)
    current = campaign_state(bot, session).turn.number
    if turn is None:
        span = RECENT
        while True:  # the latest few turns, then more while every one read fits
            first = max(SETUP, current - span + 1)
            turns = await turns_of(bot, session, viewer, first, current)
            embed = log_embed(turns, None, total=current + 1)
            if first == SETUP or len(embed.fields) < len(turns):
                return {"embed": embed}
            span *= 4
    if not SETUP <= turn <= current:
        raise InvalidInput(_("There is no turn {number} yet.", number=turn))
    turns = await turns_of(bot, session, viewer, turn, turn)
    embed = log_embed(turns, turn, page)
    pages = len(pages_of(turns[turn]))
    return {"embed": embed, "view": static_view(log_buttons(session, turn, max(0, min(page, pages - 1)), pages))}


async def _log_page(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """◀ ▶ on a turn's log: the message turns the page."""
    turn, page = arg.split(":", 2)[:2]
    await reply.update(**await turn_log(bot, reply, session, int(turn), int(page)))


async def _log(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """``Log`` on the company sheet: the latest turns, privately."""
    await reply.send(ephemeral=True, **await turn_log(bot, reply, session, None))


TURN_ACTIONS: dict[str, tuple[TurnStart | TurnEnd, ...]] = {
    "start": (TurnStart(),),
    "end": (TurnEnd(),),
    "next": (TurnEnd(), TurnStart()),
}
"""What each turn control takes: *Next turn* ends the turn and starts the next one, as two entries of the log."""


async def start_or_end(
    bot: TabletopBot, reply: Reply, session: Session, which: str, *, first: Action | None = None
) -> None:
    """A turn's start, end, or both (``which``), after the GM's action ``first`` if any (a reward with the turn's
    end): the channel is told what it may know (each entry's news, the first one the answer); the GM who did it,
    the rivals' news, privately."""
    reply.answers_first = True  # the sheets are redrawn once this answer is on its way
    events: list[dict[str, Any]] = []
    for action in (*([first] if first is not None else []), *TURN_ACTIONS[which]):
        applied = await bot.service.act(session.id, actor_of(reply.interaction), salted(action), origin=reply)
        session, events = applied.session, [*events, *applied.events]
    if not reply.took_news:
        await reply.send(_("The turn moves on."), ephemeral=True)
    await after_news(reply)
    await rival_news(bot, reply.interaction, session, events)


async def _turn(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """*Start turn* / *End turn* / *Next turn* on the company sheet: the same as ``/vic-gm turn …``."""
    await start_or_end(bot, reply, session, arg)


def register(controls: Controls) -> None:
    """The turn buttons of the company sheet, the log and its pages."""
    controls.control("log", _log)
    controls.control("log-page", _log_page)
    controls.control("turn", _turn)


class TurnCommands(VicBase):
    """``/vic-gm turn start|end``."""

    turn = app_commands.Group(name="turn", description="Turns (GM)")

    @turn.command(name="start", description="Start the next turn: a coin per troupe", extras=PUBLIC_ANSWER)
    async def turn_start(self, interaction: discord.Interaction) -> None:
        """Each character may then take one action; the rivals' moves go privately to the GM."""
        await start_or_end(self.bot, Reply.of(interaction), await self.campaign_here(interaction), "start")

    @turn.command(name="end", description="End the turn: unspent turn coins go, rest heals", extras=PUBLIC_ANSWER)
    async def turn_end(self, interaction: discord.Interaction) -> None:
        """Liquid coins stay; those who rested recover; the rivals' turn goes privately to the GM."""
        await start_or_end(self.bot, Reply.of(interaction), await self.campaign_here(interaction), "end")

    @turn.command(name="next", description="End this turn and start the next at once", extras=PUBLIC_ANSWER)
    async def turn_next(self, interaction: discord.Interaction) -> None:
        """The usual way from one turn to the next."""
        await start_or_end(self.bot, Reply.of(interaction), await self.campaign_here(interaction), "next")


class LogCommands(VicBase):
    """``/vic log``."""

    @app_commands.command(name="log", description="What happened, by turn")
    @app_commands.describe(
        turn="One turn's whole log, page by page (0: before turn 1)",
    )
    async def log(
        self, interaction: discord.Interaction, turn: app_commands.Range[int, 0, 100000] | None = None
    ) -> None:
        """GM-only events appear only in a GM's log."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        await reply.send(**await turn_log(self.bot, reply, session, turn))
