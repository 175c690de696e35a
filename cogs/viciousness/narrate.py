"""Plain sentences for the campaign's events: answers to commands, the sheets' latest lines, ``/vic log``.

One small function per event type in ``NARRATORS``; a module that adds events adds its narrators
(``NARRATORS.update(...)``). An event nobody narrates is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.names import escape_name
from rules.viciousness.characters import ACTION_WORDS
from rules.viciousness.data import CHARACTERS
from rules.viciousness.state import CampaignState

Event = dict[str, Any]
Narrator = Callable[[CampaignState, Event], str | None]

METHODS = {"work": "work", "rare": "a rare item", "destroy": "destroying what they value"}
ASSETS = {a.key: a.label for a in CHARACTERS.starting_assets}
CALLED_BY = {"channel": "a ping in the channel", "dm": "a direct message", "off": "not at all"}


def _s(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def troupe_name(state: CampaignState, owner: str) -> str:
    """The troupe's name as typed (escaped), or its player's mention if it is gone."""
    troupe = state.troupes.get(owner)
    return f"**{escape_name(troupe.name)}**" if troupe else f"<@{owner}>"


def pc_name(state: CampaignState, e: Event) -> str:
    """The PC an event is about, by the name it carries or the one it has now."""
    name = e.get("name")
    if name is None:
        pc = state.find_pc(str(e.get("pc", "")))
        name = pc.name if pc else "someone"
    return f"**{escape_name(str(name))}**"


def _coins(rank: int, n: int) -> str:
    return f"{_s(n, 'coin')} of rank {rank}"


def _bought(s: CampaignState, e: Event) -> str:
    who = f"{pc_name(s, e)} got" if e.get("pc") else "The company got"
    item = f"*{escape_name(e['item'])}* (rank {e['rank']})"
    if e["free"]:
        return f"{who} {item} for free."
    paid = ", ".join(f"{_s(p['n'], p['coins'] + ' coin')} of rank {p['rank']} ({p['arithmetic']})" for p in e["spent"])
    return f"{who} {item}, paying {paid}."


def _rank(s: CampaignState, e: Event) -> str:
    arrow = "⬆️ The company rose" if e["change"] == "promoted" else "⬇️ The company fell"
    return f"{arrow} to **wealth rank {e['new']}** (IP {e['ip']})!"


def _ip(s: CampaignState, e: Event) -> str:
    sign = "+" if e["delta"] > 0 else "−"
    return f"Investment points {sign}{abs(e['delta'])} → {e['ip']}."


def _reward(s: CampaignState, e: Event) -> str:
    how = METHODS.get(e["method"], e["method"])
    if not e["coins"]:
        return f"Reward for {how} from a rank {e['npc_rank']} NPC: nothing at rank {e['company_rank']}."
    return f"Reward for {how} from a rank {e['npc_rank']} NPC: {_coins(e['rank'], e['coins'])}."


def _turn_started(s: CampaignState, e: Event) -> str:
    coins = _coins(e["rank"], e["coins"]) if e["coins"] else "no coins (no troupes)"
    return f"🕯️ **Turn {e['turn']}** begins ({escape_name(e['length'])}): {coins} to spend."


def _ended(s: CampaignState, e: Event) -> str:
    fate = {"dead": "died", "retired": "retired"}.get(e["fate"], e["fate"])
    return f"{pc_name(s, e)} {fate}."


def _recovery(s: CampaignState, e: Event) -> str:
    if e["healed"]:
        return f"{pc_name(s, e)} recovered from their wounds."
    return f"{pc_name(s, e)} needs {_s(e['recovery'], 'more turn')} of rest."


def _action(s: CampaignState, e: Event) -> str | None:
    if "pool" in e:
        return None  # "… joins the scheme" says it
    note = f": {escape_name(e['note'])}" if e.get("note") else ""
    return f"{pc_name(s, e)} {ACTION_WORDS.get(e['kind'], 'took an action')}{note}."


def _exception(s: CampaignState, e: Event) -> str:
    did = ACTION_WORDS.get(e["kind"], "took an action")
    return f"{pc_name(s, e)} {did}: a second action this turn, by the GM's leave."


def _company(s: CampaignState, e: Event) -> str:
    parts = []
    if "name" in e:
        parts.append(f"the company is **{escape_name(e['name'])}**")
    if "ambition" in e:
        parts.append(f"its ambition: {escape_name(e['ambition'])}" if e["ambition"] else "it has no ambition set")
    if "turn_length" in e:
        parts.append(f"a turn lasts {escape_name(e['turn_length'])}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def _roles(s: CampaignState, e: Event) -> str:
    what = "GM" if e["role"] == "gm" else "co-GM"
    target = "themselves" if e["user"] == e["by"] else f"<@{e['user']}>"
    made = f"made {target} {what}" if e["on"] else f"took the {what} role from {target}"
    return f"🛡️ <@{e['by']}> {made}."


NARRATORS: dict[str, Narrator] = {
    "roles_changed": _roles,
    "campaign_started": lambda s, e: f"A new campaign begins at wealth rank {e['rank']}.",
    "imported": lambda s, e: "The campaign was imported.",
    "archived": lambda s, e: (
        "📦 The campaign is archived: its sheets, `/vic log` and `/vic-gm campaign export` stay; "
        "the GM brings it back with `/vic-gm campaign restore`."
    ),
    "restored": lambda s, e: "📖 The campaign is back in play.",
    "company_changed": _company,
    "ip_changed": _ip,
    "rank_changed": _rank,
    "liquid_changed": lambda s, e: f"Liquid coins of rank {e['rank']}: {e['delta']:+d} → {e['count']}.",
    "ambition_completed": lambda s, e: (
        "🏆 The company completed its ambition! Every troupe gets an advancement."
        + (f" Next: {escape_name(e['next'])}" if e["next"] else "")
    ),
    "reward": _reward,
    "invested": lambda s, e: f"Invested {_coins(e['rank'], e['coins'])}.",
    "divested": lambda s, e: f"Divested {e['ip']} IP for {_coins(e['rank'], e['coins'])}.",
    "bought": _bought,
    "revealed": lambda s, e: (
        f"📨 Handout for {', '.join(f'<@{u}>' for u in e['to'])}: {escape_name(e['text'])}"
        if e.get("to")
        else f"📜 {escape_name(e['text'])}"
    ),
    "trait_defined": lambda s, e: f"The GM approved the custom trait **{escape_name(e['name'])}**.",
    "turn_started": _turn_started,
    "coins_discarded": lambda s, e: (
        f"{_coins(e['rank'], e['count'])} went unspent and {'is' if e['count'] == 1 else 'are'} gone."
    ),
    "turn_ended": lambda s, e: f"Turn {e['turn']} is over.",
    "troupe_created": lambda s, e: (
        f"{troupe_name(s, e['owner'])} joins the company (<@{e['owner']}>), starting with "
        f"{str(ASSETS.get(e['asset'], e['asset'])).lower()}."
    ),
    "troupe_changed": lambda s, e: f"{troupe_name(s, e['owner'])} was updated.",
    "troupe_dissolved": lambda s, e: f"💀 The troupe **{escape_name(e['name'])}** is dissolved.",
    "asset_gained": lambda s, e: f"{troupe_name(s, e['owner'])} gained {escape_name(e['text'])}.",
    "asset_lost": lambda s, e: f"{troupe_name(s, e['owner'])} lost {escape_name(e['text'])}.",
    "minion_places": lambda s, e: f"{troupe_name(s, e['owner'])} may have {_s(e['n'], 'minion')}.",
    "advancements_granted": lambda s, e: f"{troupe_name(s, e['owner'])} has {_s(e['pending'], 'advancement')} to take.",
    "advanced": lambda s, e: f"{troupe_name(s, e['owner'])} took an advancement.",
    "pc_added": lambda s, e: f"{pc_name(s, e)} joins {troupe_name(s, e['owner'])} as a {e['role']}.",
    "pc_replaced": lambda s, e: f"{pc_name(s, e)} takes a fallen minion's place ({e['cost']} IP).",
    "pc_changed": lambda s, e: f"{pc_name(s, e)} was updated.",
    "trait_gained": lambda s, e: f"{pc_name(s, e)} gained the trait **{escape_name(e['trait'])}**.",
    "spell_changed": lambda s, e: f"{pc_name(s, e)} has a new spell for {escape_name(e['trait'])}.",
    "contact_added": lambda s, e: f"{pc_name(s, e)} has a new {e['strength']} contact: {escape_name(e['contact'])}.",
    "contact_promoted": lambda s, e: f"{pc_name(s, e)}'s contact {escape_name(e['contact'])} is strong now.",
    "contact_dropped": lambda s, e: f"{pc_name(s, e)} lost touch with {escape_name(e['contact'])}.",
    "gm_control": lambda s, e: f"{pc_name(s, e)} is {'portrayed by the GM' if e['on'] else 'back with their player'}.",
    "pc_rattled": lambda s, e: f"{pc_name(s, e)} is rattled.",
    "pc_calmed": lambda s, e: f"{pc_name(s, e)} is no longer rattled.",
    "pc_wounded": lambda s, e: f"🩸 {pc_name(s, e)} is wounded ({_s(e['recovery'], 'turn')} to recover).",
    "recovery": _recovery,
    "pc_ended": _ended,
    "action_taken": _action,
    "action_exception": _exception,
    "action_returned": lambda s, e: f"{pc_name(s, e)} has their action for this turn back.",
    "notes_changed": lambda s, e: "📝 The GM's notes were saved.",
    "calls_set": lambda s, e: f"🔔 How the table calls <@{e['user']}>: {CALLED_BY.get(e['how'], e['how'])}.",
    "die_committed": lambda s, e: f"🔒 The GM rolled a d{e['sides']} in secret · commitment `{e['commitment']}`",
    "die_revealed": lambda s, e: (
        f"🔓 A d{e['sides']} the GM rolled in secret (turn {e['turn']}): `{e['line']}` · salt `{e['salt']}` · "
        f"commitment `{e['commitment']}` — check it with `/dice verify`."
    ),
}


def narrate(state: CampaignState, events: list[Event]) -> list[str]:
    """One line per event someone narrates, in order."""
    lines = []
    # A pool is gone from the state once it is over, so the log names its sides as its opening said them.
    opened: dict[str, Event] = {}
    for event in events:
        pool = event.get("pool")
        if event.get("type") == "pool_opened" and isinstance(pool, str):
            opened[pool] = event
        elif isinstance(pool, str) and pool in opened:
            event = {**event, "opened": opened[pool]}
        narrator = NARRATORS.get(event.get("type", ""))
        line = narrator(state, event) if narrator else None
        if line:
            lines.append(line)
    return lines
