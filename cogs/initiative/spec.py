"""How the initiative tracker looks in a channel: its board (the order, the round, the controls), and what each
change says (a turn calls its member once; a condition running out is told)."""

from __future__ import annotations

from typing import Any

import discord

from bot.models import LogEntry, News, Scope, Session
from bot.names import escape_name
from bot.registry import GameKind
from bot.spec import Choice, GameSpec, View, ViewContext
from rules.initiative.engine import ENGINE
from rules.initiative.state import Delay, Entry, InitState, Next, Previous, Remove

TIE_RULE = "Ties: higher modifier, then a d20 roll-off."
MAX_LINE = 120
COLOUR = discord.Colour.dark_red()


class InitiativeSpec(GameSpec[InitState]):
    """The tracker as the core draws it."""

    kind = GameKind(ENGINE, scope=Scope.TRACKER)
    command = "init start"

    def render(self, ctx: ViewContext[InitState]) -> View:
        """The order, highest first, with the current turn marked; the controls on the channel's board only."""
        state = ctx.state
        heading = f"Round {state.round}" if state.round else "Rolling initiative"
        lines = [_line(state.entries[e], current=e == state.current) for e in state.order]
        if state.gm_turn:
            lines.insert(0, "▶ *the GM's turn*")
        if not lines:
            lines = ["Nobody yet: `/init join` (a roll such as `1d20+3`, or a value)."]
        embed = discord.Embed(title=f"⚔️ Initiative · {heading}", description="\n".join(lines), colour=COLOUR)
        footer = TIE_RULE + (" Only you see 🙈 entries." if ctx.viewer.id is not None and _hides(state) else "")
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
            "`/init start`, then everyone `/init join` with a roll (`1d20+3`, a saved roll) or a value; the GM "
            "adds NPCs with `/init npc` (hidden until revealed, if asked). Next moves the turn on; conditions "
            "count down at the end of their holder's turn. " + TIE_RULE
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
        ctx.button("Previous", Previous(), emoji="◀️", disabled=not started),
        ctx.button(
            "Next" if started else "Start", Next(of=state.current), emoji="▶️", style=discord.ButtonStyle.primary
        ),
        ctx.button("Delay", Delay(of=state.current), emoji="⏳", disabled=not started or len(state.order) < 2),
        ctx.core_button("Undo", "undo", emoji="↩️"),
    ]
    rows: list[list[discord.ui.Item[Any]]] = [first]
    if state.order:
        choices = [Choice(state.entries[e].name, Remove(who=e)) for e in state.order[:25]]
        rows.append([ctx.select(choices, placeholder="Remove someone from the order…")])
    return rows


def _names(event: dict[str, Any]) -> str:
    return ", ".join(f"**{escape_name(n)}**" for n in event["names"])


def _joined(event: dict[str, Any]) -> str:
    who = _names(event)
    verb = "joins" if len(event["names"]) == 1 else "join"
    if event["roll"] is None:
        return f"🎲 {who} {verb} at **{event['total']}**."
    dice = " ".join(str(d) for d in event["dice"])
    return f"🎲 {who} {verb}: `{event['roll']}` → [{dice}] = **{event['total']}**."


def _turn(event: dict[str, Any], mention: bool) -> str:
    head = f"**Round {event['round']}** · " if event.get("new_round") else ""
    if event.get("hidden"):
        return f"{head}⚔️ The GM's turn."
    if event.get("back"):
        return f"↩️ Back to **{escape_name(event['name'])}** (round {event['round']})."
    name = f"**{escape_name(event['name'])}**"
    if mention and event.get("owner"):
        return f"{head}⚔️ <@{event['owner']}>, your turn: {name}."
    return f"{head}⚔️ {name}'s turn."


def _say(event: dict[str, Any], *, mention: bool) -> str:
    """One line for an event, or "" for one that says nothing."""
    kind = event.get("type")
    if kind == "turn":
        return _turn(event, mention)
    name = f"**{escape_name(event['name'])}**" if "name" in event else ""
    if kind == "joined":
        return _joined(event)
    if kind == "revealed":
        return f"👁️ {_names(event)} {'steps' if len(event['names']) == 1 else 'step'} out (at {event['total']})."
    if kind == "delayed":
        after = f" until after **{escape_name(event['after'])}**" if event.get("after") else ""
        return f"⏳ {name} waits{after}."
    if kind == "removed":
        return f"🚪 {name} leaves the order."
    if kind == "expired":
        return f"⌛ {name}: *{escape_name(event['condition'])}* ran out."
    if kind == "uncondition":
        return f"{name}: *{escape_name(event['condition'])}* is over."
    if kind == "condition":
        turns = event["turns"]
        lasting = "until taken off" if turns is None else f"for {turns} turn{'s' if turns != 1 else ''}"
        return f"{name}: *{escape_name(event['condition'])}*, {lasting}."
    if kind in ("undone", "redone"):
        what = next((line for e in event.get("events", ()) if (line := _say(e, mention=False))), "")
        verb = "↩️ Undone" if kind == "undone" else "↪️ Redone"
        return f"{verb}: {what}" if what else f"{verb}."
    return ""
