"""Plain sentences for the campaign's events: answers to commands, the sheets' latest lines, ``/vic log``.

One small function per event type in ``NARRATORS``; a module that adds events adds its narrators
(``NARRATORS.update(...)``). An event nobody narrates is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import N_, _, _n, localize
from bot.names import escape_name
from rules.viciousness.characters import ACTION_WORDS
from rules.viciousness.data import CHARACTERS
from rules.viciousness.state import CampaignState

Event = dict[str, Any]
Narrator = Callable[[CampaignState, Event], str | None]

METHODS = {"work": N_("work"), "rare": N_("a rare item"), "destroy": N_("destroying what they value")}
ASSETS: dict[str, str] = {a.key: a.label for a in CHARACTERS.starting_assets}
CALLED_BY = {"channel": N_("a ping in the channel"), "dm": N_("a direct message"), "off": N_("not at all")}
"""Words put into sentences (said with ``_()``)."""


def troupe_name(state: CampaignState, owner: str) -> str:
    """The troupe's name as typed (escaped), or its player's mention if it is gone."""
    troupe = state.troupes.get(owner)
    return f"**{escape_name(troupe.name)}**" if troupe else f"<@{owner}>"


def pc_name(state: CampaignState, e: Event) -> str:
    """The PC an event is about, by the name it carries or the one it has now."""
    name = e.get("name")
    if name is None:
        pc = state.find_pc(str(e.get("pc", "")))
        name = pc.name if pc else _("someone")
    return f"**{escape_name(str(name))}**"


def _coins(rank: int, n: int) -> str:
    return _n("{n} coin of rank {rank}", "{n} coins of rank {rank}", n, rank=rank)


def _paid(p: Event) -> str:
    """One way a purchase was paid: ``2 turn coins of rank 3 (1 + 2 − 1)``."""
    params = {"rank": p["rank"], "arithmetic": p["arithmetic"]}
    if p["coins"] == "liquid":
        return _n(
            "{n} liquid coin of rank {rank} ({arithmetic})",
            "{n} liquid coins of rank {rank} ({arithmetic})",
            p["n"],
            **params,
        )
    if p["coins"] == "turn":
        return _n(
            "{n} turn coin of rank {rank} ({arithmetic})",
            "{n} turn coins of rank {rank} ({arithmetic})",
            p["n"],
            **params,
        )
    return f"{p['n']} {p['coins']} ({p['arithmetic']})"


def _bought(s: CampaignState, e: Event) -> str:
    item = escape_name(e["item"])
    params = {"item": item, "rank": e["rank"]}
    who = {"who": pc_name(s, e)} if e.get("pc") else {}
    if e["free"]:
        if who:
            return _("{who} got *{item}* (rank {rank}) for free.", **who, **params)
        return _("The company got *{item}* (rank {rank}) for free.", **params)
    paid = ", ".join(_paid(p) for p in e["spent"])
    if who:
        return _("{who} got *{item}* (rank {rank}), paying {paid}.", **who, **params, paid=paid)
    return _("The company got *{item}* (rank {rank}), paying {paid}.", **params, paid=paid)


def _rank(s: CampaignState, e: Event) -> str:
    if e["change"] == "promoted":
        return _("⬆️ The company rose to **wealth rank {rank}** (IP {ip})!", rank=e["new"], ip=e["ip"])
    return _("⬇️ The company fell to **wealth rank {rank}** (IP {ip})!", rank=e["new"], ip=e["ip"])


def _ip(s: CampaignState, e: Event) -> str:
    sign = "+" if e["delta"] > 0 else "−"
    change = f"{sign}{abs(e['delta'])}"
    return _("Investment points {change} → {ip}.", change=change, ip=e["ip"])


def _reward(s: CampaignState, e: Event) -> str:
    how = _(METHODS[e["method"]]) if e["method"] in METHODS else e["method"]
    if not e["coins"]:
        return _(
            "Reward for {how} from a rank {npc_rank} NPC: nothing at rank {company_rank}.",
            how=how,
            npc_rank=e["npc_rank"],
            company_rank=e["company_rank"],
        )
    coins = _coins(e["rank"], e["coins"])
    return _("Reward for {how} from a rank {npc_rank} NPC: {coins}.", how=how, npc_rank=e["npc_rank"], coins=coins)


def _turn_started(s: CampaignState, e: Event) -> str:
    coins = _coins(e["rank"], e["coins"]) if e["coins"] else _("no coins (no troupes)")
    # The turn's length is the GM's words, or the rules' default (in the catalogs).
    length = escape_name(_(e["length"]))
    return _("🕯️ **Turn {turn}** begins ({length}): {coins} to spend.", turn=e["turn"], length=length, coins=coins)


def _ended(s: CampaignState, e: Event) -> str:
    if e["fate"] == "dead":
        return _("{name} died.", name=pc_name(s, e))
    if e["fate"] == "retired":
        return _("{name} retired.", name=pc_name(s, e))
    return f"{pc_name(s, e)} {e['fate']}."


def _recovery(s: CampaignState, e: Event) -> str:
    if e["healed"]:
        return _("{name} recovered from their wounds.", name=pc_name(s, e))
    return _n(
        "{name} needs {n} more turn of rest.", "{name} needs {n} more turns of rest.", e["recovery"], name=pc_name(s, e)
    )


def _did(kind: str) -> str:
    """What a character's action was (the engine's ``ACTION_WORDS``)."""
    return localize(ACTION_WORDS.get(kind, ACTION_WORDS["other"]))


def _action(s: CampaignState, e: Event) -> str | None:
    if "pool" in e:
        return None  # "… joins the scheme" says it
    if e.get("note"):
        return _("{name} {did}: {note}.", name=pc_name(s, e), did=_did(e["kind"]), note=escape_name(e["note"]))
    return _("{name} {did}.", name=pc_name(s, e), did=_did(e["kind"]))


def _exception(s: CampaignState, e: Event) -> str:
    return _("{name} {did}: a second action this turn, by the GM's leave.", name=pc_name(s, e), did=_did(e["kind"]))


def _company(s: CampaignState, e: Event) -> str:
    parts = []
    if "name" in e:
        parts.append(_("the company is **{name}**", name=escape_name(e["name"])))
    if "ambition" in e:
        parts.append(
            _("its ambition: {ambition}", ambition=escape_name(e["ambition"]))
            if e["ambition"]
            else _("it has no ambition set")
        )
    if "turn_length" in e:
        parts.append(_("a turn lasts {length}", length=escape_name(e["turn_length"])))
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


def role_change(gm: bool, on: bool, member: str | None) -> str:
    """``made themselves GM``, ``took the co-GM role from @Bea``: a change to who runs the campaign (``member``
    None: the one who made it)."""
    if member is None:
        if on:
            return _("made themselves GM") if gm else _("made themselves co-GM")
        return _("took the GM role from themselves") if gm else _("took the co-GM role from themselves")
    if on:
        return _("made {member} GM", member=member) if gm else _("made {member} co-GM", member=member)
    if gm:
        return _("took the GM role from {member}", member=member)
    return _("took the co-GM role from {member}", member=member)


def _roles(s: CampaignState, e: Event) -> str:
    made = role_change(e["role"] == "gm", bool(e["on"]), None if e["user"] == e["by"] else f"<@{e['user']}>")
    member = f"<@{e['by']}>"
    return _("🛡️ {member} {made}.", member=member, made=made)


def _starting_asset(key: str) -> str:
    """A troupe's starting asset mid-sentence: the rules' label (in the catalogs) with a small first letter."""
    label = ASSETS.get(key, key)
    shown = _(label)
    # English lowers the whole label, as it always did; a translation only its first letter (German nouns stay).
    return shown.lower() if shown == label else shown[:1].lower() + shown[1:]


def _troupe_created(s: CampaignState, e: Event) -> str:
    member = f"<@{e['owner']}>"
    return _(
        "{troupe} joins the company ({member}), starting with {asset}.",
        troupe=troupe_name(s, e["owner"]),
        member=member,
        asset=_starting_asset(e["asset"]),
    )


def _pc_added(s: CampaignState, e: Event) -> str:
    params = {"name": pc_name(s, e), "troupe": troupe_name(s, e["owner"])}
    if e["role"] == "captain":
        return _("{name} joins {troupe} as a captain.", **params)
    if e["role"] == "minion":
        return _("{name} joins {troupe} as a minion.", **params)
    return _("{name} joins {troupe} as a {role}.", **params, role=e["role"])


def _contact_added(s: CampaignState, e: Event) -> str:
    params = {"name": pc_name(s, e), "contact": escape_name(e["contact"])}
    if e["strength"] == "strong":
        return _("{name} has a new strong contact: {contact}.", **params)
    if e["strength"] == "weak":
        return _("{name} has a new weak contact: {contact}.", **params)
    return _("{name} has a new {strength} contact: {contact}.", **params, strength=e["strength"])


def _revealed(s: CampaignState, e: Event) -> str:
    if e.get("to"):
        to = ", ".join(f"<@{u}>" for u in e["to"])
        return _("📨 Handout for {to}: {text}", to=to, text=escape_name(e["text"]))
    return f"📜 {escape_name(e['text'])}"


def _die_revealed(s: CampaignState, e: Event) -> str:
    return _(
        "🔓 A d{sides} the GM rolled in secret (turn {turn}): `{line}` · salt `{salt}` · "
        "commitment `{commitment}` — check it with `/dice verify`.",
        sides=e["sides"],
        turn=e["turn"],
        line=e["line"],
        salt=e["salt"],
        commitment=e["commitment"],
    )


def _ambition_completed(s: CampaignState, e: Event) -> str:
    if e["next"]:
        return _(
            "🏆 The company completed its ambition! Every troupe gets an advancement. Next: {next}",
            next=escape_name(e["next"]),
        )
    return _("🏆 The company completed its ambition! Every troupe gets an advancement.")


def _calls_set(s: CampaignState, e: Event) -> str:
    how = _(CALLED_BY[e["how"]]) if e["how"] in CALLED_BY else e["how"]
    member = f"<@{e['user']}>"
    return _("🔔 How the table calls {member}: {how}.", member=member, how=how)


NARRATORS: dict[str, Narrator] = {
    "roles_changed": _roles,
    "campaign_started": lambda s, e: _("A new campaign begins at wealth rank {rank}.", rank=e["rank"]),
    "imported": lambda s, e: _("The campaign was imported."),
    "archived": lambda s, e: _(
        "📦 The campaign is archived: its sheets, `/vic log` and `/vic-gm campaign export` stay; "
        "the GM brings it back with `/vic-gm campaign restore`."
    ),
    "restored": lambda s, e: _("📖 The campaign is back in play."),
    "company_changed": _company,
    "ip_changed": _ip,
    "rank_changed": _rank,
    "liquid_changed": lambda s, e: _(
        "Liquid coins of rank {rank}: {delta} → {count}.",
        rank=e["rank"],
        delta=format(e["delta"], "+d"),
        count=e["count"],
    ),
    "ambition_completed": _ambition_completed,
    "reward": _reward,
    "invested": lambda s, e: _("Invested {coins}.", coins=_coins(e["rank"], e["coins"])),
    "divested": lambda s, e: _("Divested {ip} IP for {coins}.", ip=e["ip"], coins=_coins(e["rank"], e["coins"])),
    "bought": _bought,
    "revealed": _revealed,
    "trait_defined": lambda s, e: _("The GM approved the custom trait **{name}**.", name=escape_name(e["name"])),
    "turn_started": _turn_started,
    "coins_discarded": lambda s, e: _n(
        "{coins} went unspent and is gone.",
        "{coins} went unspent and are gone.",
        e["count"],
        coins=_coins(e["rank"], e["count"]),
    ),
    "turn_ended": lambda s, e: _("Turn {turn} is over.", turn=e["turn"]),
    "troupe_created": _troupe_created,
    "troupe_changed": lambda s, e: _("{troupe} was updated.", troupe=troupe_name(s, e["owner"])),
    "troupe_dissolved": lambda s, e: _("💀 The troupe **{name}** is dissolved.", name=escape_name(e["name"])),
    "asset_gained": lambda s, e: _(
        "{troupe} gained {asset}.", troupe=troupe_name(s, e["owner"]), asset=escape_name(e["text"])
    ),
    "asset_lost": lambda s, e: _(
        "{troupe} lost {asset}.", troupe=troupe_name(s, e["owner"]), asset=escape_name(e["text"])
    ),
    "minion_places": lambda s, e: _n(
        "{troupe} may have {n} minion.", "{troupe} may have {n} minions.", e["n"], troupe=troupe_name(s, e["owner"])
    ),
    "advancements_granted": lambda s, e: _n(
        "{troupe} has {n} advancement to take.",
        "{troupe} has {n} advancements to take.",
        e["pending"],
        troupe=troupe_name(s, e["owner"]),
    ),
    "advanced": lambda s, e: _("{troupe} took an advancement.", troupe=troupe_name(s, e["owner"])),
    "pc_added": _pc_added,
    "pc_replaced": lambda s, e: _(
        "{name} takes a fallen minion's place ({cost} IP).", name=pc_name(s, e), cost=e["cost"]
    ),
    "pc_changed": lambda s, e: _("{name} was updated.", name=pc_name(s, e)),
    "trait_gained": lambda s, e: _(
        "{name} gained the trait **{trait}**.", name=pc_name(s, e), trait=escape_name(e["trait"])
    ),
    "spell_changed": lambda s, e: _(
        "{name} has a new spell for {trait}.", name=pc_name(s, e), trait=escape_name(e["trait"])
    ),
    "contact_added": _contact_added,
    "contact_promoted": lambda s, e: _(
        "{name}'s contact {contact} is strong now.", name=pc_name(s, e), contact=escape_name(e["contact"])
    ),
    "contact_dropped": lambda s, e: _(
        "{name} lost touch with {contact}.", name=pc_name(s, e), contact=escape_name(e["contact"])
    ),
    "gm_control": lambda s, e: (
        _("{name} is portrayed by the GM.", name=pc_name(s, e))
        if e["on"]
        else _("{name} is back with their player.", name=pc_name(s, e))
    ),
    "pc_rattled": lambda s, e: _("{name} is rattled.", name=pc_name(s, e)),
    "pc_calmed": lambda s, e: _("{name} is no longer rattled.", name=pc_name(s, e)),
    "pc_wounded": lambda s, e: _n(
        "🩸 {name} is wounded ({n} turn to recover).",
        "🩸 {name} is wounded ({n} turns to recover).",
        e["recovery"],
        name=pc_name(s, e),
    ),
    "recovery": _recovery,
    "pc_ended": _ended,
    "action_taken": _action,
    "action_exception": _exception,
    "action_returned": lambda s, e: _("{name} has their action for this turn back.", name=pc_name(s, e)),
    "notes_changed": lambda s, e: _("📝 The GM's notes were saved."),
    "calls_set": _calls_set,
    "die_committed": lambda s, e: _(
        "🔒 The GM rolled a d{sides} in secret · commitment `{commitment}`",
        sides=e["sides"],
        commitment=e["commitment"],
    ),
    "die_revealed": _die_revealed,
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
