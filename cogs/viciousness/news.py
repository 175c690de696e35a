"""What the channel is told of each log entry (``VicSpec.news``): written with the entry when it is committed, so a
roll's result, a narration or an announcement is shown exactly once, after a crash too (``bot/news.py``).

Every action the channel may read about is told in one message, from the events it may see (a GM-only event never
becomes news). A few actions are shown by a board or a sheet instead, or answered privately to whoever took them
(``QUIET``). The core's own entries are told too: who runs the campaign, and what the GM took back or made again.
"""

from __future__ import annotations

from typing import Any

from bot.models import LogEntry, News
from cogs.viciousness.narrate import narrate
from cogs.viciousness.text import cut
from rules.engine import GM, PUBLIC, visible
from rules.viciousness.state import CampaignState

MAX_CONTENT = 2000
QUIET = frozenset(
    {"join", "pick", "leave", "veto", "grant", "equip", "challenges", "open_violence", "open_knavery"}
    | {"create_troupe", "add_pc", "advance", "replace"}
)
"""Actions the channel sees on a board or a sheet (a pool's, a troupe's), or that are answered privately: their
events are not told again in a message of their own."""
TAKEN_BACK = {"undone": ("↩️", "took back"), "redone": ("↪️", "made again")}


def action_type(entry: LogEntry) -> str | None:
    """The engine action an entry logs (``roll``), or None for the core's own entries (roles, undo…)."""
    if entry.action.get("kind") != "act":
        return None
    action = entry.action.get("action")
    return str(action.get("type")) if isinstance(action, dict) else None


def told(state: CampaignState, entry: LogEntry, events: list[dict[str, Any]]) -> list[str]:
    """The lines an entry is told in (``events``: those the channel may see); none for a quiet one."""
    kind = entry.action.get("kind")
    if kind == "roles":
        if entry.action.get("by") == entry.action.get("user") and entry.action.get("on"):
            # Nobody gives themselves a role but a server manager taking the campaign over: never silent.
            what = "GM" if entry.action.get("role") == GM else "co-GM"
            return [f"🛡️ <@{entry.action['by']}>, a server manager, made themselves {what} of this campaign."]
        return narrate(state, [{"type": "roles_changed", **entry.action}])
    if kind in ("undo", "redo"):
        lines = []
        for event in events:
            mark, said = TAKEN_BACK.get(str(event.get("type")), ("", ""))
            taken = narrate(state, [e for e in event.get("events", []) if visible(e, PUBLIC)]) if mark else []
            if taken:
                lines.append(f"{mark} The GM {said}: {' '.join(taken)}")
        return lines
    action = action_type(entry)
    if action is None or action in QUIET:
        return []
    return narrate(state, events)


def entry_news(state: CampaignState, entry: LogEntry, events: list[dict[str, Any]]) -> list[News]:
    """The news of one log entry: one message with what happened, or nothing."""
    lines = told(state, entry, events)
    return [News(text=cut("\n".join(lines), MAX_CONTENT))] if lines else []
