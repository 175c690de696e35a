"""A table that calls its players: who the table waits on is called once when the wait begins (in the news of the
change that began it), reminded if they asked for it, by a ping in the channel or a direct message as each member
chose (``/vic calls``). Waits come from the engine (``rules/viciousness/calls.py``); here they become words.

The member whose action began a wait is never called for it. "The GM" is whoever holds the GM role (co-GMs follow
the channel themselves). A wait about a rival is the GM's secret: the engine makes its event GM-only, so it never
reaches a message the channel sees.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.i18n import N_, _, _n
from bot.models import Deadline, News, Session
from bot.names import escape_name
from cogs.viciousness.common import VicBase, action_data
from rules.engine import GM
from rules.viciousness.actions import SetCalls
from rules.viciousness.calls import Wait, waits
from rules.viciousness.state import MAX_REMIND_HOURS, CampaignState

HOW_CHOICES = [
    app_commands.Choice(name="Ping me in the channel", value="channel"),
    app_commands.Choice(name="Send me a direct message", value="dm"),
    app_commands.Choice(name="Don't call me", value="off"),
]
HOW_WORDS = {
    "channel": N_("a ping in the channel"),
    "dm": N_("a direct message"),
    "off": N_("nothing (you follow the channel)"),
}
"""How a member chose to be called, as the answer says it (said with ``_()``)."""


def _pool(about: Mapping[str, Any]) -> str:
    """``the fight *Ambush*`` / ``the scheme``."""
    word = _("the fight") if about.get("pool_kind") == "violence" else _("the scheme")
    title = str(about.get("title") or "")
    return f"{word} *{escape_name(title)}*" if title else word


def what_waits(kind: str, about: Mapping[str, Any]) -> str:
    """What a wait is for, as the call says it (after "@Bea: ")."""
    pool = _pool(about)
    if kind == "turn":
        return _("turn {turn} is under way: your characters each have an action to take.", turn=about.get("turn"))
    if kind == "join":
        return _("{pool} is gathering: join it with a character on its board.", pool=pool)
    if kind == "roll":
        return _("{pool} is ready to roll: everyone who can has joined. Roll it on its board.", pool=pool)
    if kind == "clash":
        return _clash(pool, about)
    if kind == "death":
        name = escape_name(str(about.get("name", "")))
        return _("a death test for **{name}** waits in {pool}.", name=name, pool=pool)
    if kind == "flight":
        return _("flee, or fight on in the next round of {pool}.", pool=pool)
    if kind == "thwart":
        n = int(about.get("successes") or 0)
        if n:
            return _n(
                "{pool} failed: choose the {n} thwarted challenges.",
                "{pool} failed: choose the {n} thwarted challenges.",
                n,
                pool=pool,
            )
        return _("{pool} failed: accept it on its board.", pool=pool)
    if kind == "fallout":
        return _("the failed scheme's fallout waits for you: clear it on its board when it is dealt with.")
    return _("the table waits on you.")


def _clash(pool: str, about: Mapping[str, Any]) -> str:
    """A side's clash decision: ``in the fight, **Knives** sends its 2 hits: your choice.``"""
    side = f"**{escape_name(str(about.get('side', '')))}**"
    amount = int(about.get("amount") or 0)
    need = str(about.get("need"))
    if need == "cancel":
        return _("in {pool}, {side} cancels incoming hits: your choice.", pool=pool, side=side)
    if need == "assign":
        return _n(
            "in {pool}, {side} sends its {n} hit: your choice.",
            "in {pool}, {side} sends its {n} hits: your choice.",
            amount,
            pool=pool,
            side=side,
        )
    return _n(
        "in {pool}, {side} chooses whom its {n} hit wound: your choice.",
        "in {pool}, {side} chooses whom its {n} hits wound: your choice.",
        amount,
        pool=pool,
        side=side,
    )


def gms(session: Session) -> list[int]:
    """The members holding the GM role."""
    return [int(uid) for uid, roles in session.roles.items() if GM in roles]


def members(session: Session, on: Iterable[str]) -> list[int]:
    """The user ids a wait names (``gm``: the GM), each once."""
    out: dict[int, None] = {}
    for who in on:
        for uid in gms(session) if who == GM else [int(who)] if who.isdigit() else []:
            out[uid] = None
    return list(out)


def calling(state: CampaignState, users: Iterable[int]) -> tuple[list[int], list[int]]:
    """Who is pinged in the channel and who gets a direct message, as each chose (``off``: neither)."""
    pings, dms = [], []
    for uid in users:
        how = state.calls[str(uid)].how if str(uid) in state.calls else "channel"
        if how == "channel":
            pings.append(uid)
        elif how == "dm":
            dms.append(uid)
    return pings, dms


def calls_of(
    session: Session, state: CampaignState, events: Iterable[Mapping[str, Any]], actor: str | None
) -> tuple[list[str], list[int], list[int]]:
    """The call lines of an entry's ``waiting`` events (the channel's), and whom they ping and direct-message:
    never the member who acted."""
    lines: list[str] = []
    called: dict[int, None] = {}
    for e in events:
        if e.get("type") != "waiting":
            continue
        users = [u for u in members(session, e.get("on", [])) if str(u) != actor]
        if users:
            lines.append(f"🔔 {', '.join(f'<@{u}>' for u in users)}: {what_waits(str(e.get('kind')), e)}")
            called.update(dict.fromkeys(users))
    pings, dms = calling(state, called)
    return lines, pings, dms


def reminder(session: Session, state: CampaignState, deadline: Deadline) -> News | None:
    """A reminder a player asked for, if the table still waits on them for the same thing."""
    wait: Wait | None = next((w for w in waits(state) if w.key == deadline.decision and deadline.player in w.on), None)
    if wait is None or not deadline.player.isdigit():
        return None
    uid = int(deadline.player)
    pings, dms = calling(state, [uid])
    if not pings and not dms:
        return None
    member = f"<@{uid}>"
    text = _("⏰ {member}, a reminder: {what}", member=member, what=what_waits(wait.kind, wait.about))
    return News(text=text, pings=pings, dms=dms)


class CallCommands(VicBase):
    """``/vic calls``: how the table calls you."""

    @app_commands.command(name="calls", description="How the table calls you when it waits on you")
    @app_commands.describe(
        how="A ping here, a direct message, or nothing",
        remind_after="Remind me after this many hours if it still waits on me (0: never)",
    )
    @app_commands.choices(how=HOW_CHOICES)
    async def calls(
        self,
        interaction: discord.Interaction,
        how: str = "channel",
        remind_after: app_commands.Range[int, 0, MAX_REMIND_HOURS] = 0,
    ) -> None:
        """Your choice, for this campaign; only you and the GM see it."""
        chosen = _(HOW_WORDS[how]) if how in HOW_WORDS else how
        if remind_after and how != "off":
            hours = _n("{n} hour", "{n} hours", remind_after)
            reply_text = _(
                "🔔 When the table waits on you: {how}, and a reminder after {hours} if it still does.",
                how=chosen,
                hours=hours,
            )
        else:
            reply_text = _("🔔 When the table waits on you: {how}, no reminders.", how=chosen)
        action = action_data(SetCalls, how=how, remind_after=remind_after or None)
        await self.act_and_tell(interaction, action, done=reply_text)
