"""The recap in words: what happened since the last one (``rules/viciousness/recap.py`` keeps it), grouped as a
table would retell it — the rolls and their outcomes, wealth and rank, wounds and deaths, purchases, what the GM
revealed. Told with each turn's end and by ``/vic recap`` (privately, or posted by the GM); only what the channel
saw is in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.errors import NotPermitted
from bot.i18n import _, _n
from bot.names import escape_name
from bot.replies import Reply
from cogs.viciousness.common import VicBase
from cogs.viciousness.pools_view import KNOWLEDGE_RESULTS
from cogs.viciousness.text import cut
from rules.viciousness.actions import RecapNow
from rules.viciousness.recap import has_news
from rules.viciousness.state import Recap

MAX_CONTENT = 2000
SECTION_MAX = 600

Item = Mapping[str, Any]


def _name(item: Item, key: str = "name") -> str:
    name = str(item[key]) if key in item else _("someone")
    return f"**{escape_name(name)}**"


def _pool_title(item: Item) -> str:
    word = _("⚔️ The fight") if item.get("kind") == "violence" else _("🗝️ The scheme")
    title = str(item.get("title") or "")
    return f"{word} *{escape_name(title)}*" if title else word


def _pool_line(items: list[Item]) -> str:
    """One pool's story: how its rolls went and how it ended."""
    kinds = [str(i["type"]) for i in items]
    head = _pool_title(items[0])
    parts = []
    rolled = max((int(i.get("round", 1)) for i in items if i["type"] == "violence_rolled"), default=0)
    # The fight's end counts the rounds it was fought (the same as it said in the channel).
    rounds = next((int(i["rounds"]) for i in items if i["type"] == "fight_ended" and "rounds" in i), rolled)
    if rounds:
        parts.append(_n("{n} round", "{n} rounds", rounds))
    parts += [part for i in items if (part := _pool_part(i))]
    if "pool_closed" in kinds or (items[0].get("kind") == "violence" and not rounds and "fight_ended" in kinds):
        parts.append(_("called off before its roll"))
    elif "fight_ended" in kinds:
        parts.append(_("over"))
    return f"{head}: {', '.join(parts)}" if parts else _("{pool}: under way", pool=head)


def _pool_part(i: Item) -> str | None:
    """What one of a pool's happenings adds to its story (None: nothing)."""
    kind = i["type"]
    if kind == "scheme_succeeded":
        return _(
            "succeeded ({successes} successes against {challenges})",
            successes=i.get("successes", 0),
            challenges=i.get("challenges", 0),
        )
    if kind == "scheme_failed":
        thwarted = ", ".join(escape_name(t) for t in i.get("thwarted", [])) or _("none")
        return _("failed (thwarted: {thwarted})", thwarted=thwarted)
    if kind == "fled":
        return _("{name} fled", name=_name(i))
    if kind == "death_test":
        if i.get("died"):
            return _("{name} died a death test", name=_name(i))
        return _("{name} survived a death test", name=_name(i))
    return None


def _checks(item: Item) -> str | None:
    kind = item["type"]
    if kind == "knowledge":
        result = str(item.get("result"))
        knows = _(KNOWLEDGE_RESULTS[result]) if result in KNOWLEDGE_RESULTS else ""
        return f"💡 {_name(item)} ({escape_name(str(item.get('trait', '')))}) {knows}"
    if kind == "discovery":
        return _("🔎 A discovery roll: found") if item.get("found") else _("🔎 A discovery roll: nothing found")
    if kind == "pushed":
        return _("💥 {name} pushed {trait}", name=_name(item), trait=escape_name(str(item.get("trait", ""))))
    if kind == "die_revealed":
        return _("🔓 A GM die revealed: `{line}`", line=item.get("line"))
    return None


def _wealth(items: list[Item]) -> list[str]:
    out = []
    delta = sum(int(i.get("delta", 0)) for i in items if i["type"] == "ip_changed")
    last = next((i for i in reversed(items) if i["type"] == "ip_changed"), None)
    if last is not None and delta:
        out.append(_("investment points {delta} → {ip}", delta=format(delta, "+d"), ip=last.get("ip")))
    for i in items:
        if i["type"] == "rank_changed":
            arrow = "⬆️" if int(i.get("new", 0)) > int(i.get("old", 0)) else "⬇️"
            out.append(_("{arrow} wealth rank {old} → {new}", arrow=arrow, old=i.get("old"), new=i.get("new")))
        elif i["type"] == "reward" and i.get("coins"):
            out.append(
                _n(
                    "a reward of {n} coin of rank {rank}",
                    "a reward of {n} coins of rank {rank}",
                    int(i["coins"]),
                    rank=i.get("rank"),
                )
            )
        elif i["type"] == "ambition_completed":
            out.append(_("🏆 the company's ambition completed"))
    return out


def _harm(item: Item) -> str | None:
    kind = item["type"]
    if kind in ("pc_wounded", "npc_wounded"):
        return _("{name} wounded", name=_name(item))
    if kind == "pc_ended":
        return (
            _("{name} died", name=_name(item)) if item.get("fate") == "dead" else _("{name} retired", name=_name(item))
        )
    if kind == "troupe_dissolved":
        return _("the troupe {name} dissolved", name=_name(item))
    return None


def _bought(item: Item) -> str:
    who = _name(item) if item.get("name") else _("The company")
    item_name = escape_name(str(item.get("item", "")))
    return _("{who}: *{item}* (rank {rank})", who=who, item=item_name, rank=item.get("rank"))


def _section(mark: str, title: str, lines: Iterable[str], sep: str = "; ") -> str | None:
    lines = [line for line in lines if line]
    return cut(f"{mark} **{title}**: {sep.join(lines)}", SECTION_MAX) if lines else None


def recap_text(items: list[Item], since_turn: int, turn: int, left_out: int = 0) -> str:
    """The recap as one message (within Discord's 2,000 characters)."""
    first = max(since_turn, 1)
    turns = _("turn {turn}", turn=turn) if first >= turn else _("turns {first}–{last}", first=first, last=turn)
    head = _("📜 **Recap** · {turns}", turns=turns) if turn else _("📜 **Recap** · before the first turn")
    pools: dict[str, list[Item]] = {}
    for i in items:
        if "pool" in i:
            pools.setdefault(str(i["pool"]), []).append(i)
    rolls = [_pool_line(p) for p in pools.values()]
    rolls += [line for i in items if "pool" not in i and (line := _checks(i))]
    sections = [
        _section("🎲", _("Rolls"), rolls, sep="\n"),
        _section("💰", _("Wealth"), _wealth(items)),
        _section("🩸", _("Wounds and deaths"), [line for i in items if (line := _harm(i))]),
        _section("🛒", _("Purchases"), [_bought(i) for i in items if i["type"] == "bought"]),
        _section(
            "📜", _("Revealed"), [cut(escape_name(str(i["text"])), 200) for i in items if i["type"] == "revealed"]
        ),
    ]
    body = [s for s in sections if s] or [_("Nothing the channel saw besides the turns themselves.")]
    if left_out:
        body.append(
            _n(
                "-# …and {n} earlier happening: `/vic log` has them all.",
                "-# …and {n} earlier happenings: `/vic log` has them all.",
                left_out,
            )
        )
    return cut("\n".join([head, *body]), MAX_CONTENT)


def recap_event_text(event: Mapping[str, Any]) -> str:
    """A ``recap`` event (the log keeps it) as its message."""
    since, turn, left_out = (int(event.get(k, 0)) for k in ("since_turn", "turn", "left_out"))
    return recap_text(list(event.get("items", [])), since, turn, left_out)


def pending_text(recap: Recap, turn: int) -> str:
    """What the next recap would say now."""
    return recap_text(list(recap.items), recap.since_turn, turn, recap.left_out)


class RecapCommands(VicBase):
    """``/vic recap``."""

    @app_commands.command(name="recap", description="What happened since the last recap")
    @app_commands.describe(post="GM: post it in the channel (and start a new recap)")
    async def recap(self, interaction: discord.Interaction, post: bool = False) -> None:
        """Privately; the GM may post it for everyone (turn ends post one by themselves)."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        state = self.state(session)
        if not post:
            if not has_news(state.recap):
                await reply.send(_("Nothing has happened since the last recap."), ephemeral=True)
                return
            await reply.send(pending_text(state.recap, state.turn.number), ephemeral=True)
            return
        if not self.typer(session, interaction)[1]:
            raise NotPermitted(_("Only the GM posts a recap for everyone; without `post` you see it privately."))
        await self.act_and_tell(interaction, RecapNow(), session=session)
