"""How the Vices & Vengeance table game reads in a channel: dice as faces, the scoreboard, plain sentences.

Pure drawing helpers for ``cogs/vices/table.py``: nothing here changes a game. Every number a player needs
is on the board: each die's face and value with the points it would score if removed now, the attackers'
dice of the last roll, the turn score, and each player's original Sin, total, Sins held and Nemesis d20.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.models import Session
from bot.names import escape_name
from cogs.vices.sheet_view import SIN_EMOJI, SIN_LETTERS, die_name
from rules.vices.data import METALLIC, PAIR_OF, SIDES, SIN_OF_DIE, SIN_SPECS, SINS, SPOILERS
from rules.vices.pool import GROUP_JOIN, Unit, units_of
from rules.vices.sheet_data import PAIR_TITLES
from rules.vices.state import NEMESIS_SLOTH, OUT, RESERVES, VicesState

D6_FACES = "⚀⚁⚂⚃⚄⚅"
LEGEND = (
    "⚀–⚅ d6 faces, other dice by number · 🟥Wr Wrath, 🟦Sl Sloth, 🟪Pr Pride, 🔵Lu Lust, 🟨Gr Greed, "
    "🟧Gl Gluttony, 🟩En Envy · →n what a die scores if removed now · "
    "lowest total wins; exactly 70 wins outright"
)
NEMESIS_IN_PLAY = "d20 in play"
EFFECT_VERBS = {"wrath": "destroy", "greed": "take", "gluttony": "take", "lust": "take"}
Name = Callable[[str | None], str]


def face(die: str, value: int, *, plain: bool = False) -> str:
    """A die's face and value: ``⚄5`` for a d6, the number in code style for the others (bare if ``plain``:
    select options and buttons show no markdown)."""
    if SIDES[die] == 6:
        return f"{D6_FACES[value - 1]}{value}"
    return str(value) if plain else f"`{value}`"


def sin_tag(sin: str) -> str:
    """A Sin with its colour: ``🟥Wrath``."""
    return f"{SIN_EMOJI[sin]}{sin}"


def sin_mark(sin: str) -> str:
    """A Sin on a die, short: its colour and first letters, ``🟦Sl`` (never the colour alone)."""
    return f"{SIN_EMOJI[sin]}{SIN_LETTERS[sin]}"


def sins_text(sins: Iterable[str]) -> str:
    """Several Sins with their colours, or "no Sin"."""
    tags = [sin_tag(s) for s in sins]
    return " ".join(tags) if tags else "no Sin"


def die_label(state: VicesState, die: str, name: Name) -> str:
    """What players call a die: ``🟥Wrath`` (small Sin die), ``d12``, ``Medusa``, ``Bob's d20``."""
    if die.startswith("s."):
        return sin_tag(SIN_OF_DIE[die])
    if die.startswith("L."):
        return f"{sin_tag(SIN_OF_DIE[die])} large"
    if die == METALLIC:
        return "🟪metallic"
    if die.startswith("N."):
        owner = state.nemesis_owner(SIN_OF_DIE[die])
        return f"{name(owner)}'s d20" if owner else f"{SIN_OF_DIE[die]} d20"
    return die if die in SPOILERS else die_name(die)


def unit_label(state: VicesState, unit: Unit, values: dict[str, int], name: Name) -> str:
    """A removable unit for a menu or a button (no markdown): ``d12 7 → 5``, ``Mirror & Medusa ⚂3 ⚂3 → 0``."""
    return f"{unit_dice(state, unit, values, name)} → {unit.points}"


def unit_dice(state: VicesState, unit: Unit, values: dict[str, int], name: Name) -> str:
    """A removable unit's dice as they show (no markdown): ``d12 7``, ``Mirror & Medusa ⚂3 ⚂3``."""
    if unit.id in PAIR_TITLES:
        faces = " ".join(face(d, values[d], plain=True) for d in unit.dice)
        return f"{PAIR_TITLES[unit.id]} {faces}"  # type: ignore[index]
    if GROUP_JOIN in unit.id:
        who = " + ".join(die_label(state, d, name) for d in unit.dice)
        return f"{who} (all {values[unit.dice[0]]})"
    die = unit.dice[0]
    return f"{die_label(state, die, name)} {face(die, values[die], plain=True)}"


def unit_name(unit: dict[str, Any], name: Name, remover: str | None = None) -> str:
    """A removed unit of a ``removed`` event in a sentence: ``Wrath``, ``d12``, ``Mirror & Medusa``,
    ``equal d20s``, ``Bob's d20`` (as the board calls it; older logs without the owner: ``Greed d20``)."""
    key = unit["unit"]
    if key in PAIR_TITLES:
        return PAIR_TITLES[key]
    if GROUP_JOIN in key:
        return "equal d20s"
    if key.startswith("N."):
        owner = unit["dice"][0].get("owner")
        if owner is not None and owner == remover:
            return "their d20"
        return f"{name(owner)}'s d20" if owner else f"{SIN_OF_DIE[key]} d20"
    if key.startswith("s."):
        return SIN_OF_DIE[key]
    return die_name(key)


def plain(player: str | None, session: Session) -> str:
    """A player's name without markup, for select options and buttons."""
    return session.name_of(player) if player else "nobody"


# -- the defender's dice ---------------------------------------------------------------------------------


def dice_lines(state: VicesState, name: Name) -> list[str]:
    """The defender's pool grouped: small Sin dice by Sin, spoilers, pairs, d20s; each face →points."""
    turn = state.turn
    if turn is None:
        return []
    options = state.options
    points = {u.id: u.points for u in units_of(turn, options.nemesis_zero_rule, options.silver_bullet_wild_face)}
    values = {d.id: d.value for d in turn.pool}
    sins, spoilers, pairs, d20s = [], [], [], []
    for die in turn.pool:
        score = points.get(die.id)
        tail = f"→**{score}**" if score is not None else ""
        if die.id.startswith("s."):
            sins.append(f"{sin_mark(SIN_OF_DIE[die.id])}{face(die.id, die.value)}{tail}")
        elif die.id in SPOILERS:
            spoilers.append(f"{die.id} {face(die.id, die.value)}{tail}")
        elif die.id in PAIR_OF:
            pair = PAIR_OF[die.id]
            if die.id == pair.dice[0]:
                second = pair.dice[1]
                pairs.append(
                    f"{die_name(die.id)} {face(die.id, die.value)} {die_name(second)} "
                    f"{face(second, values[second])}→**{points.get(pair.key, 0)}**"
                )
        else:
            joined = " (joined: removable next roll)" if die.joined else ""
            matched = " matched" if die.id in turn.matched else ""
            d20s.append(f"{die_label(state, die.id, name)} {face(die.id, die.value)}{tail}{matched}{joined}")
    lines = []
    for label, items, sep in (("Sins", sins, " "), ("Spoilers", spoilers, " · "), ("Pairs", pairs, " · ")):
        if items:
            lines.append(f"**{label}** " + sep.join(items))
    if d20s:
        lines.append("**d20s** " + " · ".join(d20s))
    zero_groups = [u for u in points if GROUP_JOIN in u]
    if zero_groups:
        lines.append("Equal d20s can be removed together for 0.")
    return lines


def attackers_lines(state: VicesState, roll: dict[str, Any] | None, name: Name) -> list[str]:
    """The attackers' dice of the last roll, one line per attacker, a ✅ on each that matched."""
    if roll is None:
        return []
    defender = roll["groups"][0]["dice"]
    small = {d["die"]: d["value"] for d in defender if d["die"].startswith("s.")}
    d20s = {d["value"] for d in defender if SIDES[d["die"]] == 20}
    parts = []
    for group in roll["groups"][1:]:
        dice = []
        for d in group["dice"]:
            die, value = d["die"], d["value"]
            if die.startswith("L."):
                hit = small.get(f"s.{SIN_OF_DIE[die]}") == value
                dice.append(f"{sin_mark(SIN_OF_DIE[die])}{face(die, value)}" + ("✅" if hit else ""))
            else:
                dice.append(f"d20 {face(die, value)}" + ("✅" if value in d20s else ""))
        parts.append(f"{name(group['player'])} " + " ".join(dice))
    return parts or ["No attacker's die could match."]


# -- the scoreboard --------------------------------------------------------------------------------------


def nemesis_text(state: VicesState, player: str, name: Name) -> str:
    """Where a player's Nemesis d20 is: in play, in a defender's pool, or out of play."""
    sin = state.seat(player).sin
    if sin is None:
        return ""
    if sin in state.nemesis_out:
        return "d20 out" + (" (Sloth)" if state.nemesis_out[sin] == NEMESIS_SLOTH else "")
    turn = state.turn
    if turn is not None and f"N.{sin}" in turn.absorbed:
        return f"d20 with {name(turn.defender)}"
    return NEMESIS_IN_PLAY


def score_lines(state: VicesState, name: Name) -> list[str]:
    """One line per seat (in final standings order once the game is over), then the reserves and what is out.

    A seat's line is short enough for a phone: its original Sin by colour and letters, the total, the Sins
    held, and its Nemesis d20 only when it is not simply in play."""
    seats = list(state.players)
    if state.phase == "over":
        seats.sort(key=lambda p: (p.id not in state.winners, p.left, p.total))
    defender = state.turn.defender if state.turn is not None else None
    lines = []
    for seat in seats:
        if seat.left:
            lines.append(f"· ~~{name(seat.id)}~~ left ({seat.total})")
            continue
        marker = "▶" if seat.id == defender else ("🏆" if seat.id in state.winners else "·")
        original = f" ({sin_mark(seat.sin)})" if seat.sin else ""
        parts = [f"{marker} {name(seat.id)}{original} **{seat.total}**"]
        if state.phase != "setup" or seat.sin:
            parts.append(f"holds {sins_text(state.sins_of(seat.id))}")
            nemesis = nemesis_text(state, seat.id, name)
            # No dice roll in a tie-break or after the game; in play is what a d20 usually is: only news is told.
            if state.phase in ("setup", "turn") and nemesis != NEMESIS_IN_PLAY:
                parts.append(nemesis)
        lines.append(" · ".join(p for p in parts if p))
    # Until every player has a Sin, the Sins left are still to be claimed, not the reserves yet.
    extra = [f"{'Unclaimed' if state.phase == 'setup' else 'Reserves'}: {sins_text(state.reserves())}"]
    out = [s for s in SINS if state.sins[s] == OUT]
    gone = [f"{sin_tag(c)} d20" for c in SINS if c in state.nemesis_out]
    if out or gone:
        extra.append("Out of play: " + " ".join([sin_tag(s) for s in out] + gone))
    lines.append(" · ".join(extra))
    if state.end_triggered and state.last_turns and state.phase == "turn":
        lines.append("Last turns: " + ", ".join(name(p) for p in state.last_turns))
    return lines


# -- sentences -------------------------------------------------------------------------------------------


def _from(source: str, name: Name) -> str:
    return "the reserves" if source == RESERVES else f"{name(source)}"


def _penalty(e: dict[str, Any], n: Name) -> str:
    faces = [d["value"] for d in e["dice"]]
    values = " + ".join(f"{d['value']}{_added(d['die'], e['sin'])}" for d in e["dice"])
    points = "point" if e["points"] == 1 else "points"
    why = " (equal dice score 0)" if len(set(faces)) < len(faces) else ""
    return f"{n(e['player'])}'s {e['sin']} matched: penalty {values} → {e['points']} {points}{why}."


def _added(die: str, sin: str) -> str:
    """A penalty die not of the matched Sin, tagged: Pride's metallic die, the die Gluttony adds."""
    if die == METALLIC:
        return " (metallic)"
    other = SIN_OF_DIE.get(die)
    return f" ({other}'s die)" if other and other != sin else ""


def _taken(e: dict[str, Any], n: Name) -> str:
    source = e["source"]
    whose = f"{n(source)}'s {e['sin']}" if source != RESERVES else f"{e['sin']} from the reserves"
    return f"{n(e['player'])} takes {whose} ({e['by']})."


def _removed(e: dict[str, Any], n: Name) -> str:
    if not e["units"]:
        return f"{n(e['player'])} keeps every die this roll."
    what = ", ".join(unit_name(u, n, e["player"]) for u in e["units"])
    return f"{n(e['player'])} removes {what} → {e['points']} (turn {e['turn_score']})."


def _matches(e: dict[str, Any], n: Name) -> str | None:
    parts = [f"{n(m['player'])}'s {sin_tag(m['sin'])}" for m in e["sins"]]
    return "Matched: " + ", ".join(parts) + "." if parts else None


_NONE_REASONS = {
    "defender_has_no_sin": "the defender holds no Sin",
    "nothing_to_take": "there is nothing to take",
    "nothing_to_exchange": "there is nothing to exchange",
    "reserves_empty": "the reserves are empty",
    "player_left": "its player left",
    "die_not_in_play": "that d20 is not in play",
    "die_already_removed": "that d20 is already out",
}


def _tiebreak_rolled(e: dict[str, Any], n: Name) -> str:
    """``Tie-break round 1: Bob's Mirror & Medusa ⚅6 ⚅6 → 0; …`` (lowest wins)."""

    def rolled(r: dict[str, Any]) -> str:
        faces = " ".join(face(d["die"], d["value"]) for d in r["dice"])
        pair = f"'s {PAIR_TITLES[r['pair']]}" if r.get("pair") in PAIR_TITLES else ""
        return f"{n(r['player'])}{pair} {faces} → {r['points']}"

    tail = " Tied again: roll again." if e["tied"] else ""
    return f"Tie-break round {e['round']} (lowest wins): {'; '.join(map(rolled, e['rolls']))}.{tail}"


def _turn_ended(e: dict[str, Any], n: Name) -> str:
    if e["abandoned"]:
        return f"{n(e['player'])}'s turn ends without its points."
    return f"{n(e['player'])} scores {e['turn_score']} this turn (total {e['total']})."


def _seat_rolls(e: dict[str, Any], n: Name) -> str:
    rolls = ", ".join(f"{n(r['player'])} {r['value']}" for r in e["rolls"])
    return f"Seat rolls: {rolls}." + (" Tied high: roll again." if e["tied"] else "")


def _mirror(e: dict[str, Any], n: Name) -> str:
    """The Mirror die and the large Sin dice it was rolled with, so a "no match" can be checked."""
    large = " ".join(f"{sin_mark(SIN_OF_DIE[d['die']])}{face(d['die'], d['value'])}" for d in e["dice"])
    hit = "matches " + _either(e["matches"], "and") if e["matches"] else "no match, roll again"
    return f"{n(e['player'])} rolls the Mirror {face('Mirror', e['mirror'])} against {large}: {hit}."


def _either(sins: list[str], last: str = "or") -> str:
    """``🟥Wrath``, ``🟥Wrath or 🟦Sloth``, ``🟥Wrath, 🟦Sloth or 🟪Pride`` (or ``and``)."""
    tags = [sin_tag(s) for s in sins]
    return ", ".join(tags[:-1]) + f" {last} " + tags[-1] if len(tags) > 1 else "".join(tags)


def _game_ended(e: dict[str, Any], n: Name) -> str:
    why = "Too few players are left, so the game ends. " if e.get("reason") == "too_few_players" else ""
    names = [n(p) for p in e["candidates"]]
    who = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    if len(names) > 1:  # not over yet: the tie-break follows
        best = "on exactly 70" if e["exact_target"] else "on the lowest total"
        return f"{why}{who} tie {best}."
    return f"{why}Game over: {who} {'is on exactly 70' if e['exact_target'] else 'has the lowest total'}."


_NARRATORS: dict[str, Callable[[dict[str, Any], Name], str | None]] = {
    "game_started": lambda e, n: "Seat order: " + ", ".join(n(p) for p in e["players"]) + ".",
    "seat_rolls": _seat_rolls,
    "mirror_roll": _mirror,
    "claim_needed": lambda e, n: f"{n(e['player'])} may claim {_either(e['sins'])}.",
    "sin_claimed": lambda e, n: f"{n(e['player'])} claims {sin_tag(e['sin'])}.",
    "setup_done": lambda e, n: f"Reserves: {sins_text(e['reserves'])}.",
    "turn_started": lambda e, n: f"Round {e['round']} · {n(e['player'])} defends with {len(e['pool'])} dice.",
    "rolled": lambda e, n: None,
    "matches": _matches,
    "penalty": _penalty,
    "choice_needed": lambda e, n: f"{n(e['player'])} chooses for {e['decision'].capitalize()}.",
    "sin_taken": _taken,
    "sin_destroyed": lambda e, n: (
        f"{n(e['player'])}'s Wrath destroys {_from(e['source'], n)}'s {sin_tag(e['sin'])}: out of play."
    ),
    "sins_swapped": lambda e, n: (
        f"{n(e['player'])}'s Envy gives {sin_tag(e['gave'])} to {_from(e['other'], n)} for {sin_tag(e['took'])}."
    ),
    "envy_declined": lambda e, n: f"{n(e['player'])} keeps their Sins (Envy declined).",
    "effect_none": lambda e, n: f"{e['sin']} does nothing: {_NONE_REASONS.get(e['reason'], e['reason'])}.",
    "absorbed": lambda e, n: f"{n(e['owner'])}'s d20 ({e['value']}) joins {n(e['defender'])}'s pool.",
    "not_absorbed": lambda e, n: f"{n(e['owner'])}'s d20 is out of play and does not join.",
    "nemesis_removed": lambda e, n: (
        f"{n(e['owner'])}'s d20 leaves play" + (" (Sloth)." if e["reason"] == "sloth" else ".")
    ),
    "removed": _removed,
    "nemesis_returned": lambda e, n: "d20s go back to " + ", ".join(n(d["to"]) for d in e["dice"]) + ".",
    "turn_ended": _turn_ended,
    "end_triggered": lambda e, n: (
        ", ".join(n(p) for p in e["players"])
        + " reached 70: "
        + ("last turns for " + ", ".join(n(p) for p in e["last_turns"]) if e["last_turns"] else "the game ends")
        + "."
    ),
    "game_ended": _game_ended,
    "tiebreak_started": lambda e, n: "Tie-break: " + ", ".join(n(p) for p in e["contenders"]) + " each pick a pair.",
    "pair_chosen": lambda e, n: f"{n(e['player'])} has picked a pair.",
    "tiebreak_rolled": _tiebreak_rolled,
    "game_over": lambda e, n: f"🏆 {n(e['winner'])} wins with {e['total']}!",
    "player_left": lambda e, n: f"{n(e['player'])} left the table; their Sins go to the reserves.",
}


def narrate(session: Session, events: Iterable[dict[str, Any]]) -> list[str]:
    """One plain sentence per event worth telling."""

    def name(player: str | None) -> str:
        return f"**{escape_name(session.name_of(player))}**" if player else "nobody"

    lines = []
    for event in events:
        line = _NARRATORS.get(event["type"], lambda e, n: None)(event, name)
        if line:
            lines.append(line)
    return lines


RETIRED_EVENTS = ("removed", "penalty", "sin_taken", "sin_destroyed", "sins_swapped", "sin_claimed", "pair_chosen")
ENDINGS = ("game_over", "tiebreak_rolled", "turn_ended")


def retired_line(session: Session, events: list[dict[str, Any]]) -> str:
    """What happened on a board, in one line: the round, the last decision and how the turn ended."""
    last: list[int] = []
    for kinds in (RETIRED_EVENTS, ENDINGS):
        last += [i for i, e in enumerate(events) if e["type"] in kinds][-1:]
    picked = [events[i] for i in sorted(last)]  # in the order they happened: a turn's end, then the next turn's news
    lines = narrate(session, picked) or narrate(session, events)[-1:]
    turn = next((e for e in reversed(events) if e["type"] == "turn_started"), None)
    head = f"Round {turn['round']} · " if turn else ""
    return head + (" ".join(lines) if lines else "the game moved on.")


def tiebreak_hint(wild_face: int | None) -> str:
    """What a contender is choosing: how the pairs they pick are scored."""
    wild = f"; Silver Bullet's {wild_face} matches any Werewolf" if wild_face else ""
    return f"Pick a pair; the bot rolls it and the lowest score wins (a matching pair scores 0{wild})."


def sin_table() -> str:
    """The seven Sins in precedence order with their effects."""
    return "\n".join(f"{s.precedence}. {sin_tag(s.sin)} — {s.effect}" for s in SIN_SPECS)
