"""The GM screen (the private view ``gm``): rivals, their designs and moves, and what waits for the GM.

Drawn only for a GM or co-GM (``send_private`` with their roles: for anyone else the engine's view
has no rivals, and the screen says so). Its controls are the game's own (``gmact``), answered
privately to the GM, so nothing about a rival reaches the channel unless the GM reveals it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.i18n import N_, _, _n, _p
from bot.names import escape_name
from bot.spec import View, ViewContext
from cogs.viciousness.narrate import NARRATORS, Event
from cogs.viciousness.pools_view import act_button, act_select
from cogs.viciousness.rules_text import RIVAL_RULES, house_rules_line
from cogs.viciousness.text import cut
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
STAGE = {
    "initiated": N_("initiated: moves at the next turn start"),
    "interference": N_("moving, unsubtle: did the PCs interfere?"),
    "consequence": N_("succeeded: pick or roll the consequence"),
    "confirm": N_("consequence chosen: confirm its effects"),
}
"""Where a rival's move stands (said with ``_()``)."""


def severity(word: str) -> str:
    """A design's severity (``light``, ``medium``, ``heavy``) in the reader's language."""
    words = {"light": _p("severity", "light"), "medium": _p("severity", "medium"), "heavy": _p("severity", "heavy")}
    return words.get(word, word)


def temper(word: str) -> str:
    """A temperament with the chance its move succeeds, from the very table the success d4 is rolled against."""
    words = {
        "rash": _p("temperament", "rash"),
        "default": _p("temperament", "default"),
        "shrewd": _p("temperament", "shrewd"),
    }
    needed = {str(k): n for k, n in PROCEDURES.rivals.success_in_4.items()}[word]
    return _("{temperament} ({needed}-in-4)", temperament=words.get(word, word), needed=needed)


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
    if not d.asset:
        helped = ""
    elif rival.helped(d):
        helped = _(" · asset {asset} ✓", asset=escape_name(d.asset))
    else:
        helped = _(" · asset {asset} (not held)", asset=escape_name(d.asset))
    status = {"building": "", "done": _(" · done"), "foiled": _(" · foiled")}.get(d.status, f" · {d.status}")
    loud = _(" · unsubtle") if d.unsubtle else ""
    points = _("**{points} pts**", points=d.points)
    return (
        f"`{d.id}` {points} · {severity(d.severity)} · {temper(d.temperament)}{loud}{helped}{status}\n"
        f"  {escape_name(d.text)[:200]}"
    )


def rival_field(rival: Rival, budget: int = FIELD_MAX) -> tuple[str, str]:
    """A rival's field on the GM screen, its value within ``budget`` characters."""
    minions = _n("{n} minion", "{n} minions", rival.minions)
    name = _("{id} · {name} · rank {rank} · {minions}", id=rival.id, name=rival.name, rank=rival.rank, minions=minions)
    lines = []
    if rival.assets:
        lines.append(_("Assets: {assets}", assets=", ".join(escape_name(a) for a in rival.assets)))
    lines += [design_line(rival, d) for d in rival.designs if d.status == "building"] or [_("no design under way")]
    if rival.move is not None:
        m = rival.move
        eligible = ", ".join(m.eligible) or _("none")
        lines.append(
            _(
                "🎲 d20 {d20} · eligible: {eligible} · `{design}` {stage}",
                d20=m.d20,
                eligible=eligible,
                design=m.design,
                stage=_(STAGE[m.stage]),
            )
        )
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
            (_("{rival}: initiate {design}", rival=rival.name, design=d), {"type": "initiate", **base, "design": d})
            for d in move.eligible
        ]
        options.append((_("{rival}: hold back", rival=rival.name), {"type": "initiate", **base}))
        return [gm_select(ctx, f"i{rival.id}", options, _("{rival}: which design moves?", rival=rival.name))]
    if move.stage == "interference":
        foiled, not_foiled = (
            {"type": "interfere", **base, "foiled": True},
            {"type": "interfere", **base, "foiled": False},
        )
        return [
            gm_button(ctx, _("{rival}: foiled", rival=rival.name), foiled, style.success),
            gm_button(ctx, _("{rival}: not foiled (d4)", rival=rival.name), not_foiled, style.danger),
        ]
    design = rival.design(move.design)
    if move.stage == "consequence":
        # The design's own table first; the GM may pick from another (3 rolls + 18 rows fit a select).
        own: Severity = design.severity if design is not None else "light"
        tables: list[Severity] = [own, *(t for t in SEVERITIES if t != own)]
        options = [
            (
                _("Roll the d6 on the {severity} table", severity=severity(t)),
                {"type": "consequence", **base, "severity": t},
            )
            for t in tables
        ]
        for t in tables:
            rows = CONSEQUENCES.table(t).rows
            options += [
                (f"{severity(t)} {i}. {_(r.text)}", {"type": "consequence", **base, "severity": t, "row": i})
                for i, r in enumerate(rows, 1)
            ]
        return [gm_select(ctx, f"c{rival.id}", options, _("{rival}: the consequence", rival=rival.name))]
    assert move.severity is not None and move.row is not None
    effect = CONSEQUENCES.table(move.severity).rows[move.row - 1].effect
    if effect is not None and effect.kind in ("rattle", "wound"):
        pcs = [pc for t in ctx.state.troupes.values() for pc in t.pcs if pc.active]
        rattle = effect.kind == "rattle"
        options = [
            (
                _("Rattle {name}", name=pc.name) if rattle else _("Wound {name}", name=pc.name),
                {"type": "confirm", **base, "pc": pc.id},
            )
            for pc in pcs
        ]
        options.append((_("Don't apply the effect"), {"type": "confirm", **base, "apply": False}))
        question = (
            _("{rival}: who is rattled?", rival=rival.name)
            if rattle
            else _("{rival}: who is wounded?", rival=rival.name)
        )
        return [gm_select(ctx, f"f{rival.id}", options, question)]
    # A rolled row: the GM applies what the dice said, or not (the tables are examples). Each rival's row names it.
    apply, skip = {"type": "confirm", **base}, {"type": "confirm", **base, "apply": False}
    return [
        gm_button(ctx, cut(_("{rival}: apply the consequence", rival=rival.name), 80), apply, style.success),
        gm_button(ctx, cut(_("{rival}: don't apply", rival=rival.name), 80), skip, style.secondary),
    ]


def move_rows(ctx: Ctx) -> list[list[discord.ui.Item[Any]]]:
    """A control per rival move waiting for the GM (which design, foiled or not, the consequence, its target)."""
    return [_move_row(ctx, r) for r in ctx.state.rivals.values() if r.move is not None and not r.dropped]


def render_gm(ctx: Ctx) -> View:
    """The GM screen: every rival, designs and moves, the turn buttons, and a control per waiting move."""
    state = ctx.state
    if not ctx.viewer.is_gm:
        return View(content=_("The GM screen is for the GM and co-GMs."))
    turn = state.turn
    if turn.running:
        where = _("Turn {number} running. Only you see this.", number=turn.number)
    elif turn.number:
        where = _(
            "Turn {number} is over; turn {next} not started. Only you see this.",
            number=turn.number,
            next=turn.number + 1,
        )
    else:
        where = _("Before the first turn. Only you see this.")
    rules = house_rules_line(state.options, RIVAL_RULES)
    description = where + (f"\n-# 📏 {rules}" if rules else "")
    embed = discord.Embed(title=_("🎭 GM screen"), description=description, colour=COLOUR)
    live = [r for r in state.rivals.values() if not r.dropped]
    shown = live[:MAX_RIVALS]
    # The rivals share what an embed may hold (the notes take one share more).
    budget = min(FIELD_MAX, EMBED_BUDGET // (len(shown) + 1) - FIELD_NAME)
    for rival in shown:
        name, value = rival_field(rival, budget)
        embed.add_field(name=name, value=value, inline=False)
    if not live:
        embed.add_field(name=_("No rivals yet"), value=_("Add one with `/vic-rival add`."), inline=False)
    if state.notes:
        notes = escape_name(state.notes)
        value = notes if len(notes) <= budget else notes[: budget - 1] + "…"
        embed.add_field(name=_("Notes"), value=value, inline=False)
    turn_action = {"type": "turn_end" if turn.running else "turn_start"}
    label = (
        _("End turn {number}", number=turn.number) if turn.running else _("Start turn {number}", number=turn.number + 1)
    )
    rows: list[list[discord.ui.Item[Any]]] = [
        [gm_button(ctx, label, turn_action, discord.ButtonStyle.primary), ctx.ui_button(_("Refresh"), "gm", "")]
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
        (_("Reveal all {n}", n=len(waiting)), {"type": "reveal_dice"}),
        *(
            (
                _(
                    "{rival}: d{sides} of turn {turn} ({line})",
                    rival=names.get(d.die.split(".")[1], "?"),
                    sides=d.sides,
                    turn=d.turn,
                    line=d.line,
                ),
                {
                    "type": "reveal_dice",
                    "dice": [d.die],
                },
            )
            for d in reversed(waiting)
        ),
    ]
    placeholder = _("Reveal a rival die committed in the channel ({n})…", n=len(waiting))
    return gm_select(ctx, "reveal", options[:25], placeholder)


def _design(s: CampaignState, e: Event) -> str:
    rival = s.rivals.get(e["rival"])
    d = rival.design(e["design"]) if rival is not None and e.get("design") else None
    return f"{escape_name(rival.name) if rival else e['rival']} `{e.get('design')}`" + (
        f" ({escape_name(d.text)[:80]})" if d is not None else ""
    )


def _split(s: CampaignState, e: Event) -> str:
    """``2 to `d1`, 1 to `d2``` (or all to the design with the most points)."""
    if not e["points"]:
        return _("all to the design with the most points")
    return ", ".join(_("{n} to `{design}`", n=n, design=d) for d, n in e["points"].items())


def _rival(s: CampaignState, e: Event) -> str:
    rival = s.rivals.get(e["rival"])
    return escape_name(rival.name) if rival is not None else str(e["rival"])


def _rival_added(s: CampaignState, e: Event) -> str:
    minions = _n("{n} minion", "{n} minions", e["minions"])
    return _(
        "🎭 Rival {name} (rank {rank}, {minions}) added.", name=escape_name(e["name"]), rank=e["rank"], minions=minions
    )


def _ambition_points(s: CampaignState, e: Event) -> str:
    gains = ", ".join(
        _("`{design}` +{n} (now {total})", design=d, n=n, total=e["totals"].get(d, n)) for d, n in e["gains"].items()
    )
    return _("🎭 {rival}'s ambition points: {gains}", rival=_rival(s, e), gains=gains or _("none"))


def _rival_die(s: CampaignState, e: Event) -> str:
    eligible = ", ".join(e["eligible"]) or _("none")
    text = _(
        "🎲 {rival}'s rival die: {roll}; eligible: {eligible}", rival=_rival(s, e), roll=e["roll"], eligible=eligible
    )
    return text + (_("; `{design}` initiated", design=e["initiated"]) if e["initiated"] else "")


def _initiated(s: CampaignState, e: Event) -> str:
    if e["design"]:
        return _("🎭 {rival}: `{design}` initiated.", rival=_rival(s, e), design=e["design"])
    return _("🎭 {rival}: holds back.", rival=_rival(s, e))


def _rival_roll(s: CampaignState, e: Event) -> str:
    params = {"design": _design(s, e), "roll": e["roll"], "needed": e["needed"]}
    if e["success"]:
        return _("🎲 {design}: d4 {roll} (needs ≤ {needed}) → success", **params)
    return _("🎲 {design}: d4 {roll} (needs ≤ {needed}) → fails", **params)


def _consequence(s: CampaignState, e: Event) -> str:
    # The row's text is the consequence table's (the catalogue's, in the catalogs).
    params = {"severity": severity(e["severity"]), "row": e["row"], "text": _(e["text"])}
    if e["rolled"]:
        return _("🎭 Consequence ({severity} #{row}, rolled): {text}", **params)
    return _("🎭 Consequence ({severity} #{row}): {text}", **params)


def _design_done(s: CampaignState, e: Event) -> str:
    if e["applied"]:
        return _("🎭 {design} is done.", design=_design(s, e))
    return _("🎭 {design} is done (effects not applied).", design=_design(s, e))


RIVAL_NARRATORS: dict[str, Any] = {
    "rival_added": _rival_added,
    "rival_changed": lambda s, e: _("🎭 {rival} changed.", rival=_rival(s, e)),
    "rival_dropped": lambda s, e: _("🎭 {name} is no longer a rival.", name=escape_name(e["name"])),
    "design_added": lambda s, e: _(
        "🎭 {rival} has a new {severity} design `{design}`.",
        rival=_rival(s, e),
        severity=severity(e["severity"]),
        design=e["design"],
    ),
    "design_changed": lambda s, e: _("🎭 {design} changed.", design=_design(s, e)),
    "split": lambda s, e: _("🎭 {rival}'s points each turn: {split}.", rival=_rival(s, e), split=_split(s, e)),
    "ambition_points": _ambition_points,
    "rival_die": _rival_die,
    "initiated": _initiated,
    "rival_moves": lambda s, e: (
        _("🎭 {design} moves: unsubtle, the PCs may interfere.", design=_design(s, e))
        if e["unsubtle"]
        else _("🎭 {design} moves.", design=_design(s, e))
    ),
    "interference_failed": lambda s, e: _("🎭 The PCs didn't stop {design}.", design=_design(s, e)),
    "rival_roll": _rival_roll,
    "rival_fallout": lambda s, e: _("🎭 {design} failed: back to 0 points.", design=_design(s, e)),
    "speed_chess": lambda s, e: _("♟️ Speed Chess: {n} points refunded to `{design}`.", n=e["refund"], design=e["to"]),
    "design_foiled": lambda s, e: _("🎭 {design} is foiled ({n} points lost).", design=_design(s, e), n=e["points"]),
    "consequence": _consequence,
    "design_done": _design_done,
    "calamity": lambda s, e: _("🎭 {rival}: a calamity — the GM decides what happens.", rival=_rival(s, e)),
    "rival_deal": lambda s, e: _(
        "🤝 Rival deal: {design} +{gain} → {points} points.", design=_design(s, e), gain=e["gain"], points=e["points"]
    ),
}
NARRATORS.update(RIVAL_NARRATORS)
