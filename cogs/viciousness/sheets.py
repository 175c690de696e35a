"""The company sheet (the campaign's main view) and each troupe's sheet, as embeds within Discord's limits.

Long texts are cut to fit (a troupe of five characters with 1,000-character concepts still fits one
message); ``Details`` shows everything privately, a page per character.
"""

from __future__ import annotations

import discord

from bot.models import MAIN_VIEW
from bot.names import escape_name
from bot.spec import View, ViewContext
from cogs.viciousness.spec import VIEWS
from rules.viciousness.data import MIN_IP, TRAITS
from rules.viciousness.state import PC, CampaignState, Company, Troupe

EMBED_TOTAL = 6000
FIELD_VALUE = 1024
FIELD_NAME = 256
DESCRIPTION = 4096
TITLE = 256
SHEET_BUDGET = 5800
"""What a sheet's embed may hold, a little under Discord's 6,000 for the footer and rounding."""
KIND_MARKS = {"knowledge": "💡", "magic": "✨"}


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, ending in … when it was cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def fit(parts: list[str], budget: int, floor: int = 60) -> list[str]:
    """Cut the longest of ``parts`` until together they fit ``budget`` (none below ``floor`` unless it must)."""
    out = list(parts)
    while sum(len(p) for p in out) > budget:
        longest = max(range(len(out)), key=lambda i: len(out[i]))
        excess = sum(len(p) for p in out) - budget
        target = max(floor, len(out[longest]) - excess)
        if target >= len(out[longest]):
            target = len(out[longest]) // 2
        out[longest] = cut(out[longest], target)
        if all(len(p) <= 1 for p in out):
            break
    return out


def _s(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# -- the company ---------------------------------------------------------------------------------------


def wealth_line(company: Company) -> str:
    """``Rank 2 · 17 IP (rank 3 at 30)``."""
    rank = company.rank
    nxt = MIN_IP.get(rank + 1)
    ahead = f" (rank {rank + 1} at {nxt})" if nxt is not None else " (the top rank)"
    return f"Rank **{rank}** · {company.ip} IP{ahead}"


def coins_line(company: Company) -> str:
    """This turn's coins and the liquid coins by rank."""
    turn = company.turn_coins
    parts = [f"Turn: {_s(turn.count, 'coin')} of rank {turn.rank}" if turn else "Turn: none"]
    liquid = ", ".join(f"{c.count} of rank {c.rank}" for c in company.liquid) or "none"
    parts.append(f"Liquid: {liquid}")
    return "\n".join(parts)


def turn_line(state: CampaignState) -> str:
    """Where the campaign is in its turns."""
    turn = state.turn
    if turn.number == 0:
        return f"Before the first turn · a turn lasts {escape_name(turn.length)}"
    doing = "under way" if turn.running else "over"
    return f"Turn **{turn.number}** {doing} · a turn lasts {escape_name(turn.length)}"


def pc_status(pc: PC, state: CampaignState) -> str:
    """``rattled · wounded (2) · acted`` — what a glance at the sheet must tell."""
    if not pc.active:
        return "💀 dead" if pc.fate == "dead" else "retired"
    marks = []
    if pc.rattled:
        marks.append("😰 rattled")
    if pc.wounded:
        marks.append(f"🩸 wounded ({pc.recovery})")
    if pc.gm_controlled:
        marks.append("🎭 GM")
    if state.turn.running and pc.action_turn == state.turn.number:
        marks.append("✔ rested" if pc.action == "rest" else "✔ acted")
    return " · ".join(marks)


def trait_label(name: str) -> str:
    """A trait with its mark (💡 knowledge, ✨ magic)."""
    known = TRAITS.get(name)
    mark = KIND_MARKS.get(known.kind, "") if known else ""
    return f"{escape_name(name)}{mark}"


def pc_line(pc: PC, state: CampaignState) -> str:
    """One line for the company sheet: name, role, traits, status."""
    role = "★ " if pc.role == "captain" else ""
    traits = ", ".join(trait_label(t.name) for t in pc.traits)
    status = pc_status(pc, state)
    return f"{role}**{escape_name(pc.name)}**: {traits}" + (f" · {status}" if status else "")


def troupe_field(troupe: Troupe, state: CampaignState) -> tuple[str, str]:
    """The company sheet's field for one troupe."""
    name = escape_name(troupe.name) + (" (dissolved)" if troupe.dissolved else "")
    lines = [f"<@{troupe.owner}>"] + [pc_line(pc, state) for pc in troupe.pcs if pc.active or troupe.dissolved]
    if troupe.pending_advancements:
        lines.append(f"⭐ {_s(troupe.pending_advancements, 'advancement')} to take")
    return cut(name, FIELD_NAME), "\n".join(lines)


def company_embed(state: CampaignState) -> discord.Embed:
    """The company sheet: name, ambition, wealth, coins, turn, and every troupe in a line or a few."""
    company = state.company
    title = escape_name(company.name) if company.name else "The company"
    ambition = f"**Ambition:** {escape_name(company.ambition)}" if company.ambition else "*No ambition set yet.*"
    fixed = [("Wealth", wealth_line(company)), ("Coins", coins_line(company)), ("Turn", turn_line(state))]
    troupes = [troupe_field(t, state) for t in state.troupes.values()][:20]
    used = len(title) + sum(len(n) + len(v) for n, v in fixed) + sum(len(n) for n, _ in troupes)
    values = fit([v for _, v in troupes], SHEET_BUDGET - used - min(len(ambition), 1200))
    description = cut(ambition, SHEET_BUDGET - used - sum(len(v) for v in values))
    embed = discord.Embed(title=cut(f"🗡️ {title}", TITLE), description=cut(description, DESCRIPTION))
    for name, value in fixed:
        embed.add_field(name=name, value=value, inline=True)
    for (name, _), value in zip(troupes, values, strict=True):
        embed.add_field(name=name, value=cut(value, FIELD_VALUE) or "—", inline=False)
    if not troupes:
        embed.add_field(name="Troupes", value="None yet: players join with `/vic troupe new`.", inline=False)
    return embed


def render_company(ctx: ViewContext[CampaignState]) -> View:
    """The main view: the company sheet."""
    return View(embeds=[company_embed(ctx.state)])


VIEWS[MAIN_VIEW] = render_company
