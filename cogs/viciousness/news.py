"""What the channel is told of each log entry (``VicSpec.news``): written with the entry when it is committed, so a
roll's result, a narration, an announcement, a recap or a call is shown exactly once, after a crash too
(``bot/news.py``).

Every action the channel may read about is told in one message, from the events it may see (a GM-only event never
becomes news). A few actions are shown by a board or a sheet instead, or answered privately to whoever took them
(``QUIET``). The core's own entries are told too: who runs the campaign, and what the GM took back or made again.
A turn's end (or the GM) tells the recap, and the waits an entry began call whoever the table now waits on
(``calls.py``): their pings (or direct messages) ride on the same message.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import _
from bot.models import LogEntry, News, Session
from bot.names import escape_name
from cogs.viciousness.calls import calling, calls_of, gms
from cogs.viciousness.narrate import narrate, role_change
from cogs.viciousness.recap import recap_event_text
from cogs.viciousness.text import cut
from rules.engine import GM, GM_ROLES, PUBLIC, Viewer, visible
from rules.viciousness.state import CampaignState

MAX_CONTENT = 2000
QUIET = frozenset(
    {"join", "pick", "leave", "veto", "grant", "equip", "challenges", "open_violence", "open_knavery"}
    | {"create_troupe", "add_pc", "advance", "replace"}
)
"""Actions the channel sees on a board or a sheet (a pool's, a troupe's), or that are answered privately: their
events are not told again in a message of their own."""
TAKEN_BACK = {"undone": "↩️", "redone": "↪️"}


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
            by = f"<@{entry.action['by']}>"
            if entry.action.get("role") == GM:
                return [_("🛡️ {member}, a server manager, made themselves GM of this campaign.", member=by)]
            return [_("🛡️ {member}, a server manager, made themselves co-GM of this campaign.", member=by)]
        return narrate(state, [{"type": "roles_changed", **entry.action}])
    if kind in ("undo", "redo"):
        lines = []
        for event in events:
            mark = TAKEN_BACK.get(str(event.get("type")), "")
            taken = narrate(state, [e for e in event.get("events", []) if visible(e, PUBLIC)]) if mark else []
            if taken and event.get("type") == "undone":
                lines.append(_("{mark} The GM took back: {what}", mark=mark, what=" ".join(taken)))
            elif taken:
                lines.append(_("{mark} The GM made again: {what}", mark=mark, what=" ".join(taken)))
        return lines
    action = action_type(entry)
    if action is None:
        return []
    if action in QUIET:
        # A join or a pick that completed a pool the GM set to roll by itself: the roll is told as the GM's would be.
        rolled = next((i for i, e in enumerate(events) if e.get("type") == "rolls_by_itself"), None)
        return [] if rolled is None else narrate(state, events[rolled:])
    return narrate(state, events)


def entry_news(session: Session, state: CampaignState, entry: LogEntry, events: list[dict[str, Any]]) -> list[News]:
    """The news of one log entry: what happened, its recap, and the calls of the waits it began, in as few messages
    as Discord's 2,000 characters allow (the calls ride on the last, with its pings)."""
    parts = ["\n".join(told(state, entry, [e for e in events if e.get("type") != "recap"]))]
    parts += [recap_event_text(e) for e in events if e.get("type") == "recap"]
    calls, pings, dms = calls_of(session, state, events, entry.actor)
    parts.append("\n".join(calls))
    texts: list[str] = []
    for part in filter(None, parts):
        if texts and len(texts[-1]) + 1 + len(part) <= MAX_CONTENT:
            texts[-1] += "\n" + part
        else:
            texts.append(cut(part, MAX_CONTENT))
    news = [News(text=t) for t in texts]
    if calls:
        news[-1] = News(text=texts[-1], pings=pings, dms=dms)
    return news


def gm_news(session: Session, state: CampaignState, entry: LogEntry, events: list[dict[str, Any]]) -> list[News]:
    """What the GMs alone are told of an entry, by direct message (``VicSpec.gm_news``): a server manager's change to
    who runs the campaign (never silent: every GM and co-GM but the manager hears of it), and a rival's move that
    began to wait on the GM with someone else's click (a co-GM's turn start), unless the GM asked not to be called."""
    action = entry.action
    if action.get("kind") == "roles" and action.get("manager"):
        return [_takeover(session, action, int(uid)) for uid in _gm_roles(session) if uid != action["by"]]
    news = []
    for event in events:
        if event.get("type") != "waiting" or event.get("kind") != "rival" or GM not in event.get("on", []):
            continue
        rival = state.rivals.get(str(event.get("rival")))
        for uid in gms(session):
            if str(uid) != entry.actor and calling(state, [uid]) != ([], []):
                text = (
                    _(
                        "🔔 {rival}'s move waits for you: it is on the GM screen (`/vic-gm screen`).",
                        rival=escape_name(rival.name),
                    )
                    if rival is not None
                    else _("🔔 A rival's move waits for you: it is on the GM screen (`/vic-gm screen`).")
                )
                news.append(News(text=text, dms=[uid], private=True))
    return news


def member_news(session: Session, state: CampaignState, viewer: Viewer, events: list[dict[str, Any]]) -> list[News]:
    """What one member alone is told of an entry, by direct message (``VicSpec.member_news``): a handout from the
    GM, with a line for the channel (naming nothing of it) where their direct messages are closed."""
    news = []
    for event in events:
        if event.get("type") == "revealed" and viewer.id is not None and viewer.id in event.get("to", []):
            uid = int(viewer.id)
            company = escape_name(state.company.name or _("your campaign"))
            channel = f"<#{session.channel_id}>"
            head = _("📨 A handout from the GM of {company} ({channel}):", company=company, channel=channel)
            text = f"{head}\n>>> {event['text']}"
            member = f"<@{uid}>"
            fallback = _("📨 {member}: the GM has a handout for you in `/vic log`.", member=member)
            news.append(News(text=text, dms=[uid], private=True, fallback=fallback))
    return news


def _gm_roles(session: Session) -> list[str]:
    """The members who run the campaign: its GM and co-GMs."""
    return [uid for uid, roles in session.roles.items() if set(roles) & GM_ROLES]


def _takeover(session: Session, action: dict[str, Any], uid: int) -> News:
    """A server manager's change to who runs the campaign, told to one of its GMs."""
    by, user = action["by"], action["user"]
    made = role_change(action.get("role") == GM, bool(action.get("on")), None if user == by else f"<@{user}>")
    now = _("GM") if GM in session.roles.get(str(uid), []) else _("co-GM")
    member = f"<@{by}>"
    text = _(
        "🛡️ {member}, a manager of the server, {made} of your campaign. You are its {now}.",
        member=member,
        made=made,
        now=now,
    )
    return News(text=text, dms=[uid], private=True)
