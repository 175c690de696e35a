"""The company sheet (the campaign's main view) and each troupe's sheet, as embeds within Discord's limits.

Long texts are cut to fit (a troupe of five characters with 1,000-character concepts still fits one
message); ``Details`` shows everything privately, a page per character.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import N_, _, _n
from bot.models import MAIN_VIEW, VIEW_RECORDS_JOIN
from bot.names import escape_name
from bot.spec import Choice, View, ViewContext
from cogs.viciousness.common import fate_word
from cogs.viciousness.controls import Controls
from cogs.viciousness.rules_text import house_rules_line
from cogs.viciousness.text import cut, fit
from rules.engine import CO_GM, GM
from rules.viciousness.actions import Act
from rules.viciousness.data import CHARACTERS, MIN_IP, TRAITS
from rules.viciousness.state import PC, CampaignState, Company, Contact, Troupe

EMBED_TOTAL = 6000
FIELD_VALUE = 1024
FIELD_NAME = 256
DESCRIPTION = 4096
TITLE = 256
SHEET_BUDGET = 5800
"""What a sheet's embed may hold, a little under Discord's 6,000 for the footer and rounding."""
PC_NAME_ON_COMPANY = 40
KIND_MARKS = {"knowledge": "💡", "magic": "✨"}
DEFAULT_LENGTH = N_("1 day")
"""A turn's length unless the GM sets another (the engine's default, said in the reader's language)."""
STARTING_ASSETS = frozenset(a.label for a in CHARACTERS.starting_assets)
"""The seed's starting assets: a troupe holds one as its label, said in the reader's language."""


# -- the company ---------------------------------------------------------------------------------------


def wealth_line(company: Company) -> str:
    """``Rank 2 · 17 IP (rank 3 at 30)``."""
    rank = company.rank
    nxt = MIN_IP.get(rank + 1)
    if nxt is None:
        return _("Rank **{rank}** · {ip} IP (the top rank)", rank=rank, ip=company.ip)
    return _("Rank **{rank}** · {ip} IP (rank {next} at {at})", rank=rank, ip=company.ip, next=rank + 1, at=nxt)


def coins_line(company: Company) -> str:
    """This turn's coins and the liquid coins by rank."""
    turn = company.turn_coins
    if turn:
        parts = [_n("Turn: {n} coin of rank {rank}", "Turn: {n} coins of rank {rank}", turn.count, rank=turn.rank)]
    else:
        parts = [_("Turn: none")]
    liquid = ", ".join(_("{n} of rank {rank}", n=c.count, rank=c.rank) for c in company.liquid) or _("none")
    parts.append(_("Liquid: {coins}", coins=liquid))
    return "\n".join(parts)


def turn_line(state: CampaignState) -> str:
    """Where the campaign is in its turns."""
    turn = state.turn
    length = _(DEFAULT_LENGTH) if turn.length == DEFAULT_LENGTH else escape_name(turn.length)
    if turn.number == 0:
        return _("Before the first turn · a turn lasts {length}", length=length)
    if turn.running:
        return _("Turn **{number}** under way · a turn lasts {length}", number=turn.number, length=length)
    return _("Turn **{number}** over · a turn lasts {length}", number=turn.number, length=length)


def pc_status(pc: PC, state: CampaignState) -> str:
    """``rattled · wounded (2) · acted`` — what a glance at the sheet must tell."""
    if not pc.active:
        return _("💀 dead") if pc.fate == "dead" else fate_word("retired")
    marks = []
    if pc.rattled:
        marks.append(_("😰 rattled"))
    if pc.wounded:
        marks.append(_("🩸 wounded ({turns})", turns=pc.recovery))
    if pc.gm_controlled:
        marks.append(_("🎭 GM"))
    if state.turn.running and pc.action_turn == state.turn.number:
        marks.append(_("✔ rested") if pc.action == "rest" else _("✔ acted"))
    return " · ".join(marks)


def asset_text(asset: str) -> str:
    """An asset as the sheets show it: a starting asset in the reader's language, any other as it was typed."""
    return _(asset) if asset in STARTING_ASSETS else escape_name(asset)


def trait_label(name: str) -> str:
    """A trait with its mark (💡 knowledge, ✨ magic)."""
    known = TRAITS.get(name)
    mark = KIND_MARKS.get(known.kind, "") if known else ""
    return f"{escape_name(name)}{mark}"


def pc_line(pc: PC, state: CampaignState) -> str:
    """One line for the company sheet: name (cut short), role, traits, status."""
    role = "★ " if pc.role == "captain" else ""
    traits = ", ".join(trait_label(t.name) for t in pc.traits)
    status = pc_status(pc, state)
    return f"{role}**{cut(escape_name(pc.name), PC_NAME_ON_COMPANY)}**: {traits}" + (f" · {status}" if status else "")


def troupe_field(troupe: Troupe, state: CampaignState) -> tuple[str, str]:
    """The company sheet's field for one troupe."""
    name = troupe_title(troupe)
    lines = [f"<@{troupe.owner}>"] + [pc_line(pc, state) for pc in troupe.pcs if pc.active or troupe.dissolved]
    if troupe.pending_advancements:
        lines.append(_n("⭐ {n} advancement to take", "⭐ {n} advancements to take", troupe.pending_advancements))
    return cut(name, FIELD_NAME), "\n".join(lines)


def troupe_title(troupe: Troupe) -> str:
    """A troupe's name, ``(dissolved)`` when it is."""
    name = escape_name(troupe.name)
    return _("{name} (dissolved)", name=name) if troupe.dissolved else name


def runners_line(roles: dict[str, list[str]]) -> str:
    """``GM <@1> · co-GMs <@2>, <@3>`` (mentions in an embed ping nobody)."""
    gm = [f"<@{uid}>" for uid, held in roles.items() if GM in held]
    co = [f"<@{uid}>" for uid, held in roles.items() if CO_GM in held]
    parts = (
        _("GM {members}", members=", ".join(gm)) if gm else "",
        _("co-GMs {members}", members=", ".join(co)) if co else "",
    )
    return " · ".join(p for p in parts if p)


def company_embed(state: CampaignState, roles: dict[str, list[str]] | None = None) -> discord.Embed:
    """The company sheet: who runs it, name, ambition, wealth, coins, turn, and every troupe in a line or a few."""
    company = state.company
    title = escape_name(company.name) if company.name else _("The company")
    if company.ambition:
        ambition = _("**Ambition:** {ambition}", ambition=escape_name(company.ambition))
    else:
        ambition = _("*No ambition set yet.*")
    if company.advancements:
        done = _n("🏆 {n} ambition completed", "🏆 {n} ambitions completed", company.advancements)
        ambition = f"{done}\n{ambition}"
    runners = runners_line(roles or {})
    if runners:
        ambition = f"{runners}\n{ambition}"
    rules = house_rules_line(state.options)
    if rules:
        ambition = f"{ambition}\n-# 📏 {escape_name(rules)}"
    fixed = [(_("Wealth"), wealth_line(company)), (_("Coins"), coins_line(company)), (_("Turn"), turn_line(state))]
    if state.planned is not None:
        start = int(state.planned.start)
        fixed.append((_("Session"), f"📅 <t:{start}:F> (<t:{start}:R>)"))
    troupes = [troupe_field(t, state) for t in state.troupes.values()][:20]
    used = len(title) + sum(len(n) + len(v) for n, v in fixed) + sum(len(n) for n, _value in troupes)
    values = fit([v for _name, v in troupes], SHEET_BUDGET - used - min(len(ambition), 1200))
    description = cut(ambition, SHEET_BUDGET - used - sum(len(v) for v in values))
    heading = _("📦 Archived · {name}", name=title) if state.archived else f"🗡️ {title}"
    embed = discord.Embed(title=cut(heading, TITLE), description=cut(description, DESCRIPTION))
    for name, value in fixed:
        embed.add_field(name=name, value=value, inline=True)
    for (name, _value), value in zip(troupes, values, strict=True):
        embed.add_field(name=name, value=cut(value, FIELD_VALUE) or "—", inline=False)
    if not troupes:
        embed.add_field(name=_("Troupes"), value=_("None yet: players join with `/vic troupe new`."), inline=False)
    return embed


def render_company(ctx: ViewContext[CampaignState]) -> View:
    """The main view: the company sheet, with your troupe a click away and the GM's turn button."""
    turn = ctx.state.turn
    buttons: list[discord.ui.Item[Any]] = [ctx.ui_button(_("My troupe"), "me", emoji="🗡️")]
    # The turn's own controls (not plain action buttons): the channel is told, the GM gets the rivals' news.
    if ctx.state.archived:
        pass  # nothing changes an archived campaign: only what reads it
    elif turn.running:
        buttons.append(ctx.ui_button(_("End turn {number}", number=turn.number), "turn", "end", emoji="⏹️"))
        buttons.append(ctx.ui_button(_("Next: turn {number}", number=turn.number + 1), "turn", "next", emoji="⏭️"))
    else:
        buttons.append(ctx.ui_button(_("Start turn {number}", number=turn.number + 1), "turn", "start", emoji="▶️"))
    buttons.append(ctx.ui_button(_("Log"), "log", emoji="📜"))
    return View(embeds=[company_embed(ctx.state, ctx.session.roles)], rows=[buttons])


# -- a troupe ------------------------------------------------------------------------------------------


def troupe_record(owner: str) -> str:
    """The record key of a troupe."""
    return f"troupe:{owner}"


def troupe_view(owner: str) -> str:
    """The view key of a troupe's sheet: it follows the troupe and the turn (which offers this turn's actions)."""
    return f"{troupe_record(owner)}{VIEW_RECORDS_JOIN}turn"


def owner_in(view: str) -> str:
    """The owner a troupe's view key names."""
    return view.partition(":")[2].partition(VIEW_RECORDS_JOIN)[0]


def contacts_text(pc: PC, *, notes: int = 0) -> str:
    """Strong and weak contacts in a line each (with up to ``notes`` characters of each note)."""

    def one(c: Contact) -> str:
        note = f" ({cut(escape_name(c.note), notes)})" if notes and c.note else ""
        return escape_name(c.name) + note

    lines = []
    if pc.strong:
        lines.append(f"🤝 {', '.join(one(c) for c in pc.strong)}")
    if pc.weak:
        lines.append(f"👋 {', '.join(one(c) for c in pc.weak)}")
    return "\n".join(lines)


def pc_field(pc: PC, state: CampaignState) -> tuple[str, str, str]:
    """A troupe sheet's field for one character: (name, what must show — traits and status —, what may be cut —
    the concept and contacts)."""
    who = escape_name(pc.name)
    name = cut(
        _("{name} · ★ captain", name=who) if pc.role == "captain" else _("{name} · minion", name=who), FIELD_NAME
    )
    status = pc_status(pc, state)
    must = _("Traits: {traits}", traits=", ".join(trait_label(t.name) for t in pc.traits))
    must += f"\n{status}" if status else ""
    extra = "\n".join(p for p in (f"📝 {escape_name(pc.concept)}" if pc.concept else "", contacts_text(pc)) if p)
    return name, must, extra


def troupe_embed(troupe: Troupe, state: CampaignState) -> discord.Embed:
    """A troupe's sheet: its player, places and advancements, assets and henchmen, then each character.

    What must show (traits, conditions, whose troupe) is never cut; concepts, contacts, assets and henchmen
    share what room is left, and ``Details`` shows them in full.
    """
    title = cut(troupe_title(troupe), TITLE)
    player = f"<@{troupe.owner}>"
    head = [
        _(
            "Player: {player} · minions: {minions} of {places} places",
            player=player,
            minions=troupe.original_minions,
            places=troupe.minion_places,
        )
    ]
    if troupe.pending_advancements:
        head.append(
            _n(
                "⭐ {n} advancement to take (`/vic pc advance`)",
                "⭐ {n} advancements to take (`/vic pc advance`)",
                troupe.pending_advancements,
            )
        )
    extras = []
    if troupe.assets:
        extras.append(_("**Assets:** {assets}", assets="; ".join(asset_text(a) for a in troupe.assets)))
    if troupe.henchmen:
        extras.append(_("**Henchmen:** {henchmen}", henchmen=", ".join(escape_name(h) for h in troupe.henchmen)))
    pcs = [pc_field(pc, state) for pc in troupe.pcs][:24]
    fixed = "\n".join(head)
    used = len(title) + len(fixed) + sum(len(n) + len(m) + 2 for n, m, _extra in pcs) + 2
    room = [FIELD_VALUE - len(m) - 1 for _name, m, _extra in pcs]
    parts = fit(
        ["\n".join(extras)] + [cut(x, r) for (_name, _must, x), r in zip(pcs, room, strict=True)], SHEET_BUDGET - used
    )
    embed = discord.Embed(title=title, description=cut("\n".join(p for p in (fixed, parts[0]) if p), DESCRIPTION))
    for (name, must, _extra), extra in zip(pcs, parts[1:], strict=True):
        embed.add_field(name=name, value=cut("\n".join(p for p in (must, extra) if p), FIELD_VALUE), inline=False)
    return embed


def may_edit(ctx: ViewContext[CampaignState], owner: str) -> bool:
    """Whether the viewer of a private view may change this troupe (a channel's sheet: anyone may try)."""
    viewer = ctx.viewer
    return viewer.id is None or viewer.is_gm or viewer.id == owner


def turn_choices(troupe: Troupe, state: CampaignState) -> list[Choice]:
    """This turn's actions the troupe's characters can still take: rest, or something else."""
    if not state.turn.running:
        return []
    out = []
    for pc in troupe.pcs:
        if pc.active and pc.action_turn != state.turn.number:
            name = cut(pc.name, 60)
            out.append(Choice(_("{name} rests", name=name), Act(pc=pc.id, kind="rest"), emoji="💤"))
            out.append(Choice(_("{name} takes another action", name=name), Act(pc=pc.id, kind="other"), emoji="🎲"))
    return out[:25]


def render_troupe(ctx: ViewContext[CampaignState]) -> View:
    """A troupe's sheet with what may be done next: this turn's actions, a new minion, the details."""
    owner = owner_in(ctx.view)
    troupe = ctx.state.troupes.get(owner)
    if troupe is None:
        return View(content=_("This troupe is gone."))
    rows: list[list[discord.ui.Item[Any]]] = []
    if may_edit(ctx, owner) and not troupe.dissolved and not ctx.state.archived:
        choices = turn_choices(troupe, ctx.state)
        if choices:
            rows.append([ctx.select(choices, placeholder=_("This turn's action…"), record=troupe_record(owner))])
        buttons: list[discord.ui.Item[Any]] = []
        if troupe.original_minions < troupe.minion_places:
            buttons.append(ctx.ui_button(_("Add a minion"), "minion-form", owner, emoji="➕"))
        if troupe.pending_advancements:
            buttons.append(ctx.ui_button(_("Advance: new minion"), "advance-form", owner, emoji="⭐"))
        buttons.append(ctx.ui_button(_("Details"), "page", f"{owner}:0", emoji="📖"))
        rows.append(buttons)
    else:
        rows.append([ctx.ui_button(_("Details"), "page", f"{owner}:0", emoji="📖")])
    return View(embeds=[troupe_embed(troupe, ctx.state)], rows=rows)


def register(controls: Controls) -> None:
    """The company sheet and the troupes' sheets."""
    controls.view(MAIN_VIEW, render_company)
    controls.view("troupe", render_troupe)
