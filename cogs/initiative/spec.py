"""How the initiative tracker looks in a channel: its board (the order, the round, the controls), and what each
change says (a turn calls its member once; a condition running out is told)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import N_, _, _n
from bot.models import LogEntry, News, Scope, Session
from bot.names import escape_name
from bot.registry import GameKind
from bot.spec import Choice, GameSpec, View, ViewContext
from rules.initiative.engine import ENGINE
from rules.initiative.state import Delay, Entry, InitState, Next, Previous, Remove

TIE_RULE = N_("Ties: higher modifier, then a d20 roll-off.")
MAX_LINE = 120
COLOUR = discord.Colour.dark_red()


class InitiativeSpec(GameSpec[InitState]):
    """The tracker as the core draws it."""

    kind = GameKind(ENGINE, scope=Scope.TRACKER)
    command = "init start"

    def render(self, ctx: ViewContext[InitState]) -> View:
        """The order, highest first, with the current turn marked; the controls on the channel's board only."""
        state = ctx.state
        heading = _("Round {n}", n=state.round) if state.round else _("Rolling initiative")
        lines = [_line(state.entries[e], current=e == state.current) for e in state.order]
        if state.gm_turn:
            lines.insert(0, "▶ " + _("*the GM's turn*"))
        if not lines:
            lines = [_("Nobody yet: `/init join` (a roll such as `1d20+3`, or a value).")]
        title = "⚔️ " + _("Initiative · {heading}", heading=heading)
        embed = discord.Embed(title=title[:256], description="\n".join(lines)[:4096], colour=COLOUR)
        footer = _(TIE_RULE) + (
            " " + _("Only you see 🙈 entries.") if ctx.viewer.id is not None and _hides(state) else ""
        )
        embed.set_footer(text=footer)
        if ctx.viewer.id is not None or ctx.over:
            return View(embeds=[embed])
        return View(embeds=[embed], rows=_controls(ctx))

    def news(self, ctx: ViewContext[InitState], entry: LogEntry) -> list[News]:
        """One message per change the channel may see; a member's turn calls them (never an NPC's)."""
        lines, pings = [], []
        for event in ctx.events:
            line = _say(event, mention=True)
            if line:
                lines.append(line)
            if event.get("type") == "turn" and event.get("ping") and event.get("owner"):
                pings.append(int(event["owner"]))
        return [News(text="\n".join(lines)[:2000], pings=pings)] if lines else []

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        """Plain lines for ``/game log`` and a retired board."""
        return [line for e in events if (line := _say(e, mention=False))]

    def rules_summary(self) -> str:
        """How the tracker works, in short."""
        return (
            _(
                "`/init start`, then everyone `/init join` with a roll (`1d20+3`, a saved roll) or a value; the GM "
                "adds NPCs with `/init npc` (hidden until revealed, if asked). Next moves the turn on; conditions "
                "count down at the end of their holder's turn."
            )
            + " "
            + _(TIE_RULE)
        )


def _hides(state: InitState) -> bool:
    return any(e.hidden for e in state.entries.values())


def _line(entry: Entry, *, current: bool) -> str:
    marker = "▶" if current else "▫️"
    name = f"**{escape_name(entry.name)}**" if current else escape_name(entry.name)
    hidden = "🙈 " if entry.hidden else ""
    mod = f" ({entry.mod:+d})" if entry.mod else ""
    conditions = ", ".join(
        escape_name(c.name) + (f" ({c.turns})" if c.turns is not None else "") for c in entry.conditions
    )
    line = f"{marker} `{entry.total:>3}` {hidden}{name}{mod}" + (f" · *{conditions}*" if conditions else "")
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def _controls(ctx: ViewContext[InitState]) -> list[list[discord.ui.Item[Any]]]:
    state = ctx.state
    started = state.round > 0
    first: list[discord.ui.Item[Any]] = [
        ctx.button(_("Previous"), Previous(), emoji="◀️", disabled=not started),
        ctx.button(
            _("Next") if started else _("Start"), Next(of=state.current), emoji="▶️", style=discord.ButtonStyle.primary
        ),
        ctx.button(_("Delay"), Delay(of=state.current), emoji="⏳", disabled=not started or len(state.order) < 2),
        ctx.core_button(_("Undo"), "undo", emoji="↩️"),
    ]
    rows: list[list[discord.ui.Item[Any]]] = [first]
    if state.order:
        choices = [Choice(state.entries[e].name, Remove(who=e)) for e in state.order[:25]]
        rows.append([ctx.select(choices, placeholder=_("Remove someone from the order…"))])
    return rows


def _names(event: dict[str, Any]) -> str:
    return ", ".join(f"**{escape_name(n)}**" for n in event["names"])


def _joined(event: dict[str, Any]) -> str:
    said = {"who": _names(event), "total": event["total"]}
    count = len(event["names"])
    if event["roll"] is None:
        return "🎲 " + _n("{who} joins at **{total}**.", "{who} join at **{total}**.", count, **said)
    said |= {"roll": event["roll"], "dice": " ".join(str(d) for d in event["dice"])}
    return "🎲 " + _n(
        "{who} joins: `{roll}` → [{dice}] = **{total}**.",
        "{who} join: `{roll}` → [{dice}] = **{total}**.",
        count,
        **said,
    )


def _turn(event: dict[str, Any], mention: bool) -> str:
    head = _("**Round {n}**", n=event["round"]) + " · " if event.get("new_round") else ""
    if event.get("hidden"):
        return f"{head}⚔️ " + _("The GM's turn.")
    if event.get("back"):
        return "↩️ " + _("Back to **{name}** (round {n}).", name=escape_name(event["name"]), n=event["round"])
    name = f"**{escape_name(event['name'])}**"
    if mention and event.get("owner"):
        mentioned = f"<@{event['owner']}>"
        return f"{head}⚔️ " + _("{mention}, your turn: {name}.", mention=mentioned, name=name)
    return f"{head}⚔️ " + _("{name}'s turn.", name=name)


def _say(event: dict[str, Any], *, mention: bool) -> str:
    """One line for an event, or "" for one that says nothing."""
    kind = event.get("type")
    if kind == "turn":
        return _turn(event, mention)
    name = f"**{escape_name(event['name'])}**" if "name" in event else ""
    if kind == "joined":
        return _joined(event)
    if kind == "revealed":
        revealed = {"who": _names(event), "total": event["total"]}
        return "👁️ " + _n(
            "{who} steps out (at {total}).", "{who} step out (at {total}).", len(event["names"]), **revealed
        )
    if kind == "delayed":
        if event.get("after"):
            return "⏳ " + _("{name} waits until after **{after}**.", name=name, after=escape_name(event["after"]))
        return "⏳ " + _("{name} waits.", name=name)
    if kind == "removed":
        return "🚪 " + _("{name} leaves the order.", name=name)
    condition = escape_name(event["condition"]) if "condition" in event else ""
    if kind == "expired":
        return "⌛ " + _("{name}: *{condition}* ran out.", name=name, condition=condition)
    if kind == "uncondition":
        return _("{name}: *{condition}* is over.", name=name, condition=condition)
    if kind == "condition":
        turns = event["turns"]
        lasting = _("until taken off") if turns is None else _n("for {n} turn", "for {n} turns", turns)
        return _("{name}: *{condition}*, {lasting}.", name=name, condition=condition, lasting=lasting)
    if kind in ("undone", "redone"):
        return _undone(event, kind)
    return ""


def _undone(event: dict[str, Any], kind: str) -> str:
    """An undo or redo, with the first line of what it took back or did again."""
    what = next((line for e in event.get("events", ()) if (line := _say(e, mention=False))), "")
    if kind == "undone":
        return "↩️ " + (_("Undone: {what}", what=what) if what else _("Undone."))
    return "↪️ " + (_("Redone: {what}", what=what) if what else _("Redone."))
