"""The recap: what happened since the last one, as the channel saw it — rolls and outcomes, wealth and rank
changes, wounds and deaths, purchases, what the GM revealed — told at each turn's end (and when the GM asks).

After every action the public events a recap tells are folded into ``CampaignState.recap`` (the bulky parts, such
as every die of a fight, left out; a pool's happenings carry its title). A recap is an event of its own
(``recap``), so the log keeps every one of them. GM-only events never reach it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rules.engine import PUBLIC, IllegalAction, visible
from rules.said import said
from rules.viciousness.actions import Action, RecapNow, TurnEnd
from rules.viciousness.state import RECAP_KEPT, CampaignState, Recap
from rules.viciousness.work import Work

KEPT: dict[str, tuple[str, ...]] = {
    # rolls and their outcomes
    "violence_rolled": ("pool", "round"),
    "knavery_rolled": ("pool", "successes", "challenges"),
    "scheme_succeeded": ("pool", "successes", "challenges"),
    "scheme_failed": ("pool", "thwarted", "active"),
    "fight_ended": ("pool", "rounds"),
    "pool_closed": ("pool",),
    "death_test": ("pool", "name", "died", "care"),
    "fled": ("pool", "name"),
    "knowledge": ("name", "trait", "result"),
    "discovery": ("found",),
    "pushed": ("name", "trait", "free"),
    "die_revealed": ("sides", "line"),
    # wounds and deaths
    "pc_wounded": ("pc", "name"),
    "npc_wounded": ("name",),
    "pc_ended": ("pc", "name", "fate"),
    "troupe_dissolved": ("name",),
    # wealth, rank and purchases
    "ip_changed": ("ip", "delta"),
    "rank_changed": ("old", "new"),
    "reward": ("coins", "rank"),
    "bought": ("pc", "name", "item", "rank", "free"),
    "ambition_completed": ("next",),
    # what the GM revealed, and where the turns begin and end
    "revealed": ("text",),
    "turn_started": ("turn",),
    "turn_ended": ("turn",),
}
"""The events a recap tells, with the fields it keeps of each."""
MARKERS = frozenset({"turn_started", "turn_ended"})
"""Items that only say where a turn begins or ends: a recap of nothing but these has nothing to tell."""


def _item(event: dict[str, Any], pools: Callable[[str], dict[str, str]]) -> dict[str, Any] | None:
    kind = str(event.get("type"))
    fields = KEPT.get(kind)
    if fields is None or not visible(event, PUBLIC):
        return None
    item = {"type": kind, **{f: event[f] for f in fields if f in event}}
    if kind == "violence_rolled":
        item["sides"] = [{"name": s["name"], "hits": s["hits"]} for s in event.get("sides", [])]
    if kind == "revealed" and event.get("to"):
        return None  # a handout is for its players only
    if "pool" in item:
        item.update(pools(str(item["pool"])))
    return item


def fold(recap: Recap, before: CampaignState, after: CampaignState, events: Iterable[dict[str, Any]]) -> Recap:
    """``recap`` with what ``events`` (of one action, from ``before`` to ``after``) add to it."""

    def pools(pool_id: str) -> dict[str, str]:
        pool = after.pools.get(pool_id) or before.pools.get(pool_id)
        return {"kind": pool.kind, "title": pool.title} if pool is not None else {}

    items = [i for e in events if (i := _item(e, pools)) is not None]
    if not items:
        return recap
    kept = (*recap.items, *items)
    over = max(0, len(kept) - RECAP_KEPT)
    return recap.model_copy(update={"items": kept[over:], "left_out": recap.left_out + over})


def has_news(recap: Recap) -> bool:
    """Whether the recap tells anything besides where turns begin and end."""
    return any(i["type"] not in MARKERS for i in recap.items)


def close(w: Work) -> None:
    """Tell the recap (an event the log keeps) and start a new one."""
    recap = w.s.recap
    w.emit(
        "recap",
        since_turn=recap.since_turn,
        turn=w.s.turn.number,
        items=list(recap.items),
        left_out=recap.left_out,
    )
    turn = w.s.turn
    # A recap told at a turn's end leaves the next one to start with the next turn.
    w.put(recap=Recap(since_turn=turn.number if turn.running else turn.number + 1))


def _recap_now(w: Work, a: RecapNow) -> None:
    if not has_news(w.s.recap):
        raise IllegalAction(said("Nothing has happened since the last recap."))
    close(w)


def after_action(w: Work, before: CampaignState, action: Action) -> None:
    """Fold what the action did into the recap; a turn's end then tells it (when there is something to tell)."""
    w.put(recap=fold(w.s.recap, before, w.s, w.events))
    if isinstance(action, TurnEnd) and has_news(w.s.recap):
        close(w)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {RecapNow: _recap_now}
