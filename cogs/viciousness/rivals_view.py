"""The GM screen (the private view ``gm``): rivals, their designs and moves, and what waits for the GM.

Drawn only for a GM or co-GM (``send_private`` with their roles: for anyone else the engine's view
has no rivals, and the screen says so). Its controls are the game's own (``gmact``), answered
privately to the GM, so nothing about a rival reaches the channel unless the GM reveals it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.names import escape_name
from bot.spec import View, ViewContext
from cogs.viciousness.narrate import NARRATORS, Event
from cogs.viciousness.pools_view import act_button, act_select
from cogs.viciousness.rules_text import RIVAL_RULES, house_rules_line
from cogs.viciousness.text import cut, plural
from rules.viciousness.data import CONSEQUENCES, PROCEDURES, Severity
from rules.viciousness.state import CampaignState, Design, Rival

GM_VIEW = "gm"
FIELD_MAX = 1024
FIELD_NAME = 256
EMBED_BUDGET = 5500
MAX_RIVALS = 20
SEVERITIES: tuple[Severity, ...] = ("light", "medium", "heavy")
GM_ACT = "gmact"
COLOUR = discord.Colour.dark_grey()
TEMPER = {temper: f"{temper} ({needed}-in-4)" for temper, needed in PROCEDURES.rivals.success_in_4.items()}
"""A temperament with the chance its move succeeds, from the very table the success d4 is rolled against."""
STAGE = {
    "initiated": "initiated: moves at the next turn start",
    "interference": "moving, unsubtle: did the PCs interfere?",
    "consequence": "succeeded: pick or roll the consequence",
    "confirm": "consequence chosen: confirm its effects",
}

Ctx = ViewContext[CampaignState]


def gm_button(ctx: Ctx, label: str, action: Mapping[str, Any], style: discord.ButtonStyle) -> discord.ui.Button[Any]:
    """A GM-screen button taking ``action``, answered privately."""
    return act_button(ctx, label, action, style=style, key=GM_ACT)


def gm_select(
    ctx: Ctx, tag: str, options: Sequence[tuple[str, Mapping[str, Any]]], placeholder: str
) -> discord.ui.Select[Any]:
    """A GM-screen select whose options are actions, answered privately."""
    return act_select(ctx, options, placeholder, tag, key=GM_ACT)


def design_line(rival: Rival, d: Design) -> str:
    """One design: text, severity, temperament, points and what helps it."""
    helped = f" · asset {escape_name(d.asset)}{' ✓' if rival.helped(d) else ' (not held)'}" if d.asset else ""
    status = "" if d.status == "building" else f" · {d.status}"
    loud = " · unsubtle" if d.unsubtle else ""
    return (
        f"`{d.id}` **{d.points} pts** · {d.severity} · {TEMPER[d.temperament]}{loud}{helped}{status}\n"
        f"  {escape_name(d.text)[:200]}"
    )


def rival_field(rival: Rival, budget: int = FIELD_MAX) -> tuple[str, str]:
    """A rival's field on the GM screen, its value within ``budget`` characters."""
    name = f"{rival.id} · {rival.name} · rank {rival.rank} · {plural(rival.minions, 'minion')}"
    lines = []
    if rival.assets:
        lines.append("Assets: " + ", ".join(escape_name(a) for a in rival.assets))
    lines += [design_line(rival, d) for d in rival.designs if d.status == "building"] or ["no design under way"]
    if rival.move is not None:
        m = rival.move
        eligible = ", ".join(m.eligible) or "none"
        lines.append(f"🎲 d20 {m.d20} · eligible: {eligible} · `{m.design}` {STAGE[m.stage]}")
    if rival.notes:
        lines.append(f"-# {escape_name(rival.notes)[:200]}")
    value = "\n".join(lines)
    return name[:FIELD_NAME], value if len(value) <= budget else value[: budget - 1] + "…"


def _move_row(ctx: Ctx, rival: Rival) -> list[discord.ui.Item[Any]]:
    move = rival.move
    assert move is not None
    base = {"rival": rival.id}
    style = discord.ButtonStyle
    if move.stage == "initiated":
        options: list[tuple[str, Mapping[str, Any]]] = [
            (f"{rival.name}: initiate {d}", {"type": "initiate", **base, "design": d}) for d in move.eligible
        ]
        options.append((f"{rival.name}: hold back", {"type": "initiate", **base}))
        return [gm_select(ctx, f"i{rival.id}", options, f"{rival.name}: which design moves?")]
    if move.stage == "interference":
        return [
            gm_button(ctx, f"{rival.name}: foiled", {"type": "interfere", **base, "foiled": True}, style.success),
            gm_button(
                ctx, f"{rival.name}: not foiled (d4)", {"type": "interfere", **base, "foiled": False}, style.danger
            ),
        ]
    design = rival.design(move.design)
    if move.stage == "consequence":
        # The design's own table first; the GM may pick from another (3 rolls + 18 rows fit a select).
        own: Severity = design.severity if design is not None else "light"
        tables: list[Severity] = [own, *(t for t in SEVERITIES if t != own)]
        options = [(f"Roll the d6 on the {t} table", {"type": "consequence", **base, "severity": t}) for t in tables]
        for t in tables:
            rows = CONSEQUENCES.table(t).rows
            options += [
                (f"{t} {i}. {r.text}", {"type": "consequence", **base, "severity": t, "row": i})
                for i, r in enumerate(rows, 1)
            ]
        return [gm_select(ctx, f"c{rival.id}", options, f"{rival.name}: the consequence")]
    assert move.severity is not None and move.row is not None
    effect = CONSEQUENCES.table(move.severity).rows[move.row - 1].effect
    if effect is not None and effect.kind in ("rattle", "wound"):
        pcs = [pc for t in ctx.state.troupes.values() for pc in t.pcs if pc.active]
        options = [(f"{effect.kind.capitalize()} {pc.name}", {"type": "confirm", **base, "pc": pc.id}) for pc in pcs]
        options.append(("Don't apply the effect", {"type": "confirm", **base, "apply": False}))
        done = "rattled" if effect.kind == "rattle" else "wounded"
        return [gm_select(ctx, f"f{rival.id}", options, f"{rival.name}: who is {done}?")]
    # A rolled row: the GM applies what the dice said, or not (the tables are examples). Each rival's row names it.
    apply, skip = {"type": "confirm", **base}, {"type": "confirm", **base, "apply": False}
    return [
        gm_button(ctx, cut(f"{rival.name}: apply the consequence", 80), apply, style.success),
        gm_button(ctx, cut(f"{rival.name}: don't apply", 80), skip, style.secondary),
    ]


def move_rows(ctx: Ctx) -> list[list[discord.ui.Item[Any]]]:
    """A control per rival move waiting for the GM (which design, foiled or not, the consequence, its target)."""
    return [_move_row(ctx, r) for r in ctx.state.rivals.values() if r.move is not None and not r.dropped]


def render_gm(ctx: Ctx) -> View:
    """The GM screen: every rival, designs and moves, the turn buttons, and a control per waiting move."""
    state = ctx.state
    if not ctx.viewer.is_gm:
        return View(content="The GM screen is for the GM and co-GMs.")
    turn = state.turn
    if turn.running:
        where = f"Turn {turn.number} running"
    elif turn.number:
        where = f"Turn {turn.number} is over; turn {turn.number + 1} not started"
    else:
        where = "Before the first turn"
    rules = house_rules_line(state.options, RIVAL_RULES)
    description = f"{where}. Only you see this." + (f"\n-# 📏 {rules}" if rules else "")
    embed = discord.Embed(title="🎭 GM screen", description=description, colour=COLOUR)
    live = [r for r in state.rivals.values() if not r.dropped]
    shown = live[:MAX_RIVALS]
    # The rivals share what an embed may hold (the notes take one share more).
    budget = min(FIELD_MAX, EMBED_BUDGET // (len(shown) + 1) - FIELD_NAME)
    for rival in shown:
        name, value = rival_field(rival, budget)
        embed.add_field(name=name, value=value, inline=False)
    if not live:
        embed.add_field(name="No rivals yet", value="Add one with `/vic-rival add`.", inline=False)
    if state.notes:
        notes = escape_name(state.notes)
        embed.add_field(name="Notes", value=notes if len(notes) <= budget else notes[: budget - 1] + "…", inline=False)
    turn_action = {"type": "turn_end" if turn.running else "turn_start"}
    label = f"End turn {turn.number}" if turn.running else f"Start turn {turn.number + 1}"
    rows: list[list[discord.ui.Item[Any]]] = [
        [gm_button(ctx, label, turn_action, discord.ButtonStyle.primary), ctx.ui_button("Refresh", "gm", "")]
    ]
    reveal = _reveal_select(ctx)
    rows += move_rows(ctx)[: 3 if reveal else 4]
    if reveal is not None:
        rows.append([reveal])
    return View(embeds=[embed], rows=rows)


def _reveal_select(ctx: Ctx) -> discord.ui.Item[Any] | None:
    """The rival dice committed in the channel and not revealed yet: reveal one, or all of them."""
    waiting = ctx.state.committed
    if not waiting:
        return None
    names = {r.id: r.name for r in ctx.state.rivals.values()}
    options: list[tuple[str, Mapping[str, Any]]] = [
        (f"Reveal all {len(waiting)}", {"type": "reveal_dice"}),
        *(
            (
                f"{names.get(d.die.split('.')[1], '?')}: d{d.sides} of turn {d.turn} ({d.line})",
                {
                    "type": "reveal_dice",
                    "dice": [d.die],
                },
            )
            for d in reversed(waiting)
        ),
    ]
    return gm_select(ctx, "reveal", options[:25], f"Reveal a rival die committed in the channel ({len(waiting)})…")


def _design(s: CampaignState, e: Event) -> str:
    rival = s.rivals.get(e["rival"])
    d = rival.design(e["design"]) if rival is not None and e.get("design") else None
    return f"{escape_name(rival.name) if rival else e['rival']} `{e.get('design')}`" + (
        f" ({escape_name(d.text)[:80]})" if d is not None else ""
    )


def _split(s: CampaignState, e: Event) -> str:
    """``2 to `d1`, 1 to `d2``` (or all to the design with the most points)."""
    if not e["points"]:
        return "all to the design with the most points"
    return ", ".join(f"{n} to `{d}`" for d, n in e["points"].items())


def _rival(s: CampaignState, e: Event) -> str:
    rival = s.rivals.get(e["rival"])
    return escape_name(rival.name) if rival is not None else str(e["rival"])


RIVAL_NARRATORS: dict[str, Any] = {
    "rival_added": lambda s, e: (
        f"🎭 Rival {escape_name(e['name'])} (rank {e['rank']}, {plural(e['minions'], 'minion')}) added."
    ),
    "rival_changed": lambda s, e: f"🎭 {_rival(s, e)} changed.",
    "rival_dropped": lambda s, e: f"🎭 {escape_name(e['name'])} is no longer a rival.",
    "design_added": lambda s, e: f"🎭 {_rival(s, e)} has a new {e['severity']} design `{e['design']}`.",
    "design_changed": lambda s, e: f"🎭 {_design(s, e)} changed.",
    "split": lambda s, e: f"🎭 {_rival(s, e)}'s points each turn: {_split(s, e)}.",
    "ambition_points": lambda s, e: (
        f"🎭 {_rival(s, e)}'s ambition points: "
        + (", ".join(f"`{d}` +{n} (now {e['totals'].get(d, n)})" for d, n in e["gains"].items()) or "none")
    ),
    "rival_die": lambda s, e: (
        f"🎲 {_rival(s, e)}'s rival die: {e['roll']}; eligible: {', '.join(e['eligible']) or 'none'}"
        + (f"; `{e['initiated']}` initiated" if e["initiated"] else "")
    ),
    "initiated": lambda s, e: (
        f"🎭 {_rival(s, e)}: " + (f"`{e['design']}` initiated." if e["design"] else "holds back.")
    ),
    "rival_moves": lambda s, e: (
        f"🎭 {_design(s, e)} moves" + (": unsubtle, the PCs may interfere." if e["unsubtle"] else ".")
    ),
    "interference_failed": lambda s, e: f"🎭 The PCs didn't stop {_design(s, e)}.",
    "rival_roll": lambda s, e: (
        f"🎲 {_design(s, e)}: d4 {e['roll']} (needs ≤ {e['needed']}) → {'success' if e['success'] else 'fails'}"
    ),
    "rival_fallout": lambda s, e: f"🎭 {_design(s, e)} failed: back to 0 points.",
    "speed_chess": lambda s, e: f"♟️ Speed Chess: {e['refund']} points refunded to `{e['to']}`.",
    "design_foiled": lambda s, e: f"🎭 {_design(s, e)} is foiled ({e['points']} points lost).",
    "consequence": lambda s, e: (
        f"🎭 Consequence ({e['severity']} #{e['row']}{', rolled' if e['rolled'] else ''}): {e['text']}"
    ),
    "design_done": lambda s, e: (
        f"🎭 {_design(s, e)} is done" + ("" if e["applied"] else " (effects not applied)") + "."
    ),
    "calamity": lambda s, e: f"🎭 {_rival(s, e)}: a calamity — the GM decides what happens.",
    "rival_deal": lambda s, e: f"🤝 Rival deal: {_design(s, e)} +{e['gain']} → {e['points']} points.",
}
NARRATORS.update(RIVAL_NARRATORS)
